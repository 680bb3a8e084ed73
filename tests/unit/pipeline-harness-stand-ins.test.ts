/**
 * Stand-ins while tracing a repository's tests (tracer.py `install_stand_ins`, Debian's python3): a
 * third-party module only the tests import and the image lacks is served by a stand-in, so the test
 * module that imports it is collected; using it raises; the codec cannot refer to it, so no call
 * passing one is captured. A test helper beside the tests and a module that is installed are never
 * stood in for. (What the tracer captures is recorded again by the worker, without stand-ins.)
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { repositoryTestsNote } from '../../src/pipeline/record/record-candidates.js';
import { runWithHarnessModule } from './pipeline-harness-helpers.js';

const repo = mkdtempSync(join(tmpdir(), 'codemidas-stand-ins-'));
const FILES: Record<string, string> = {
  'pkg/__init__.py': 'import json\n',
  'pkg/core.py': [
    'try:',
    '    from verboselogs import VerboseLogger as getLogger',
    '    fallback = False',
    'except ImportError:',
    '    fallback = True',
    'def late():',
    '    try:',
    '        from capturer import CaptureOutput',
    '    except ImportError:',
    '        return "ImportError"',
    '    return "imported"',
  ].join('\n'),
  'tests/helpers.py': 'X = 1\n',
  'tests/test_core.py': [
    'import os',
    'import pytest',
    'from capturer import CaptureOutput',
    'import verboselogs.extra',
    'try:',
    '    import optional_speedups',
    'except ImportError:',
    '    optional_speedups = None',
    'from helpers import X',
    'import pkg',
    'LEVEL = CaptureOutput.DEFAULT_LEVEL',
  ].join('\n'),
};
for (const [path, text] of Object.entries(FILES)) {
  mkdirSync(dirname(join(repo, path)), { recursive: true });
  writeFileSync(join(repo, path), text);
}
afterAll(() => rmSync(repo, { recursive: true, force: true }));

describe('install_stand_ins', () => {
  it("stands in for what the tests import and the image lacks, never for a module the repository holds", () => {
    const result = runWithHarnessModule(
      'tracer',
      [
        'root = sys.stdin.read()',
        'missing = tracer.install_stand_ins(root)',
        'sys.path.insert(0, root + "/tests"); sys.path.insert(0, root)',
        'import pkg.core',
        'out = {"missing": missing, "library": pkg.core.fallback}',
        'import test_core',
        'from test_core import CaptureOutput',
        'out["attr"] = test_core.LEVEL.__qualname__',
        'out["library after"] = pkg.core.late()',
        'try:',
        '    CaptureOutput()',
        'except ModuleNotFoundError as e:',
        '    out["call"] = str(e)',
        'codec = tracer.codec',
        'try:',
        '    codec.encode([CaptureOutput])',
        'except codec.EncodeError as e:',
        '    out["encode"] = "refused"',
        'out["helper"] = test_core.X == 1',
        'print(json.dumps(out))',
      ],
      repo,
    );
    expect(result).toEqual({
      missing: ['capturer', 'optional_speedups', 'verboselogs'],
      attr: '<stand-in capturer.CaptureOutput.DEFAULT_LEVEL>',
      call: "capturer.CaptureOutput is not installed (a stand-in while tracing the repository's tests)",
      encode: 'refused',
      helper: true,
      library: true,
      'library after': 'ImportError',
    });
  });
});

describe("the run of the repository's tests", () => {
  it('writes a summary line: how many tests ran, the test files that did not import and why, the stand-ins', () => {
    const broken = mkdtempSync(join(tmpdir(), 'codemidas-stand-ins-'));
    try {
      mkdirSync(join(broken, 'tests'));
      writeFileSync(join(broken, 'tests', 'test_ok.py'), 'from capturer import Capture\n\ndef test_one():\n    assert 1\n\ndef test_two():\n    Capture()\n');
      writeFileSync(join(broken, 'tests', 'test_old.py'), 'import yaml_that_is_gone.sub\nfrom .nowhere import x\n');
      writeFileSync(join(broken, 'tests', 'test_api.py'), 'import json\njson.loads_old("x")\n');
      const result = runWithHarnessModule(
        'tracer',
        [
          'import io, os',
          'root = sys.stdin.read()',
          'out = io.StringIO()',
          't = tracer.Tracer([], out)',
          'real = os.fdopen(os.dup(1), "w")',
          'os.dup2(os.open(os.devnull, os.O_WRONLY), 1)',
          'tracer.run_pytest(t, {"repoRoot": root})',
          'real.write([line for line in out.getvalue().splitlines() if "summary" in line][-1]); real.flush()',
        ],
        broken,
      );
      expect(result.summary.tests).toBe(2);
      expect(result.summary.standIns).toEqual(['capturer', 'yaml_that_is_gone']);
      expect(result.summary.unimported).toEqual([
        { file: 'tests/test_api.py', error: expect.stringContaining("AttributeError: module 'json' has no attribute 'loads_old'") },
        { file: 'tests/test_old.py', error: expect.stringContaining('attempted relative import') },
      ]);
    } finally {
      rmSync(broken, { recursive: true, force: true });
    }
  });

  it('is told to the user when a test file did not import or a module was stood in for, and not otherwise', () => {
    expect(repositoryTestsNote([{ tests: 12, unimported: [], standIns: [] }])).toBeNull();
    expect(repositoryTestsNote([{}])).toBeNull();
    const note = repositoryTestsNote([{}, { tests: 0, unimported: [{ file: 'pkg/tests/test_a.py', error: "TypeError: load() missing 1 required positional argument: 'Loader'" }], standIns: ['capturer'] }]);
    expect(note).toContain("the repository's tests: 0 ran");
    expect(note).toContain("1 test file(s) could not be imported, so none of their tests gave inputs (pkg/tests/test_a.py: TypeError: load() missing 1 required positional argument: 'Loader')");
    expect(note).toContain('stand-ins for modules this image lacks: capturer');
  });
});
