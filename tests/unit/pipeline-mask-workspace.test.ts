import { describe, expect, it } from 'vitest';
import { MaskBodyError, maskPythonBody } from '../../src/languages/python/mask-body.js';
import { removeTestsOfTarget } from '../../src/languages/python/mask-tests.js';
import { maskWorkspace } from '../../src/pipeline/mask/mask-workspace.js';
import { scrubReason } from '../../src/pipeline/mask/scrub-paths.js';
import type { Unit } from '../../src/pipeline/types.js';
import { createPythonPlugin } from '../../src/languages/python/python-plugin.js';

const python = createPythonPlugin();

function unitOf(partial: Partial<Unit> & Pick<Unit, 'qualname' | 'startLine' | 'endLine' | 'bodyStartLine' | 'bodyEndLine'>): Unit {
  return {
    id: `pkg.mod:${partial.qualname}`,
    kind: partial.qualname.includes('.') ? 'method' : 'function',
    module: 'pkg.mod',
    file: 'pkg/mod.py',
    signature: `def ${partial.qualname.split('.').at(-1)}(x):`,
    params: [],
    returnAnnotation: null,
    docstring: null,
    decorators: [],
    statementCount: 3,
    codeLines: 4,
    calls: [],
    callSites: [],
    isAsync: false,
    isGenerator: false,
    impurities: [],
    ...partial,
  };
}

const MODULE = [
  'import math',
  '',
  '',
  'def clamp(x, low, high):',
  '    """Clamps x.',
  '',
  '    >>> clamp(5, 0, 3)',
  '    3',
  '    """',
  '    if x < low:',
  '        return low',
  '    # a comment inside the body',
  '    return min(x, high)',
  '',
  '',
  'class Box:',
  '    def area(self):',
  '        """Area."""',
  '        w = self.w',
  '        return w * self.h',
  '',
  '    def one_liner(self): return 1',
  '',
].join('\n');

describe('maskPythonBody', () => {
  it('replaces a function body with raise NotImplementedError, keeping signature and docstring', () => {
    const out = maskPythonBody(MODULE, unitOf({ qualname: 'clamp', startLine: 4, endLine: 13, bodyStartLine: 10, bodyEndLine: 13 }));
    const lines = out.split('\n');
    expect(lines.slice(3, 10)).toEqual(['def clamp(x, low, high):', '    """Clamps x.', '', '    >>> clamp(5, 0, 3)', '    3', '    """', '    raise NotImplementedError']);
    expect(out).not.toContain('return min(x, high)');
    expect(out).not.toContain('a comment inside the body');
    expect(out).toContain('class Box:');
  });

  it('keeps the method indentation', () => {
    const out = maskPythonBody(MODULE, unitOf({ qualname: 'Box.area', startLine: 17, endLine: 20, bodyStartLine: 19, bodyEndLine: 20 }));
    expect(out).toContain('        """Area."""\n        raise NotImplementedError\n\n    def one_liner');
    expect(out).not.toContain('w * self.h');
  });

  it('refuses a body on the signature line and a range outside the file', () => {
    expect(() => maskPythonBody(MODULE, unitOf({ qualname: 'Box.one_liner', startLine: 22, endLine: 22, bodyStartLine: 22, bodyEndLine: 22 }))).toThrow(MaskBodyError);
    expect(() => maskPythonBody(MODULE, unitOf({ qualname: 'clamp', startLine: 4, endLine: 99, bodyStartLine: 10, bodyEndLine: 99 }))).toThrow(/do not fit/);
  });
});

const TESTS = [
  'import pytest',
  'from pkg.mod import clamp, other',
  '',
  '',
  '@pytest.mark.parametrize("x", [1, 2])',
  'def test_clamp_low(x):',
  '    text = """',
  'def not_a_test():',
  '"""',
  '    assert clamp(x, 3, 4) == 3',
  '',
  '',
  'def test_other():',
  '    assert other() == 1',
  '',
  '',
  'class TestBox:',
  '    def test_clamp_in_class(self):',
  '        assert clamp(1, 0, 2) == 1',
  '',
].join('\n');

describe('removeTestsOfTarget', () => {
  it('removes the tests that call the target (decorators and multi-line strings included) and keeps the others', () => {
    const result = removeTestsOfTarget(TESTS, 'clamp');
    expect(result.removed).toEqual(['test_clamp_low', 'test_clamp_in_class']);
    expect(result.total).toBe(3);
    expect(result.source).toContain('def test_other():');
    expect(result.source).not.toContain('parametrize');
    expect(result.source).not.toContain('clamp(x, 3, 4)');
    // the emptied class keeps a body
    expect(result.source).toContain('class TestBox:\n    pass');
  });

  it('deletes the file when every test calls the target, and leaves unrelated files alone', () => {
    expect(removeTestsOfTarget('def test_a():\n    clamp(1)\n', 'clamp')).toEqual({ source: null, removed: ['test_a'], total: 1 });
    const untouched = 'def test_clamping_name_only():\n    assert other() == 1\n';
    expect(removeTestsOfTarget(untouched, 'clamp').source).toBe(untouched);
  });

  it('removes a method whose last statement is a multi-line string, its closing line included, leaving a file that parses', () => {
    const source = [
      'class T(TestCase):',
      '    def test_parse(self):',
      "        self.assertTrue(grammar.parse('''",
      '            this = that',
      "            '''))",
      '',
      '    def test_other(self):',
      '        self.assertTrue(True)',
      '',
    ].join('\n');
    const result = removeTestsOfTarget(source, 'Grammar.parse');
    expect(result.removed).toEqual(['test_parse']);
    expect(result.source).toBe(['class T(TestCase):', '    pass', '', '    def test_other(self):', '        self.assertTrue(True)', ''].join('\n'));
  });

  it('removes a multi-line decorator with its test (its closing line included), leaving a file that parses', () => {
    const source = [
      'import pytest',
      '',
      '@pytest.mark.parametrize(',
      '    "text, error",',
      '    [',
      '        ("2013-", "Unable (to) parse"),  # a ) in a string',
      '    ],',
      ')',
      '@pytest.mark.slow',
      'def test_invalid(text, error):',
      '    parse_date(text)',
      '',
      '@pytest.fixture',
      'def sample():',
      '    return 1',
      '',
      'def test_other(sample):',
      '    assert sample == 1',
      '',
    ].join('\n');
    const result = removeTestsOfTarget(source, 'parse_date');
    expect(result.removed).toEqual(['test_invalid']);
    expect(result.source).toBe(['import pytest', '', '', '@pytest.fixture', 'def sample():', '    return 1', '', 'def test_other(sample):', '    assert sample == 1', ''].join('\n'));
  });

  it('matches a method by its last name', () => {
    expect(removeTestsOfTarget('def test_a():\n    Box(1, 2).area()\n\ndef test_b():\n    pass\n', 'Box.area').removed).toEqual(['test_a']);
  });
});

describe('scrubReason', () => {
  it('scrubs VCS data, caches, bytecode, build output at the root, packaging metadata, source maps and installed copies', () => {
    for (const path of ['.git/config', 'pkg/__pycache__/mod.cpython-311.pyc', 'x.pyc', 'build/lib/pkg/mod.py', 'dist/pkg-1.0.whl', 'pkg.egg-info/SOURCES.txt', 'kit-1.0.dist-info/RECORD', 'src/pkg.egg-info/PKG-INFO', 'app.js.map', '.venv/lib/python3.11/site-packages/pkg/mod.py', 'vendor/site-packages/pkg/mod.py', 'pkg-1.0.tar.gz']) {
      expect(scrubReason(path), path).not.toBeNull();
    }
    for (const path of ['pkg/mod.py', 'pkg/build/helpers.py', 'tests/test_mod.py', 'README.md']) expect(scrubReason(path), path).toBeNull();
  });

  it("keeps a root metadata folder's name, version and requirements (code reading its own version needs them, as when recorded)", () => {
    for (const path of ['pkg.egg-info/PKG-INFO', 'pkg.egg-info/requires.txt', 'kit-1.0.dist-info/METADATA']) expect(scrubReason(path), path).toBeNull();
  });
});

describe('maskWorkspace', () => {
  it('removes the tests of the entry too for a unit recorded through one (Unit.via): the hidden cases call the entry', () => {
    const tests = [
      'from pkg.mod import Box, clamp',
      '',
      'def test_area():',
      '    assert Box().area() == 6',
      '',
      'def test_clamp():',
      '    assert clamp(5, 0, 3) == 3',
      '',
    ].join('\n');
    const files = new Map<string, Buffer>([['pkg/mod.py', Buffer.from(MODULE)], ['tests/test_mod.py', Buffer.from(tests)]]);
    const area = unitOf({ qualname: 'Box.area', startLine: 17, endLine: 20, bodyStartLine: 19, bodyEndLine: 20 });
    const clamp = unitOf({ qualname: 'clamp', startLine: 4, endLine: 13, bodyStartLine: 10, bodyEndLine: 13 });
    const plain = maskWorkspace({ unit: area, files, maskBody: maskPythonBody, repoTests: python.repoTests });
    expect(plain.removedTests).toEqual([{ file: 'tests/test_mod.py', tests: ['test_area'], fileDeleted: false }]);
    const { id, kind, qualname, signature, params, returnAnnotation, docstring, decorators, isAsync, callSites } = clamp;
    const through = maskWorkspace({ unit: { ...area, via: { id, kind, qualname, signature, params, returnAnnotation, docstring, decorators, isAsync, callSites } }, files, maskBody: maskPythonBody, repoTests: python.repoTests });
    expect(through.removedTests).toEqual([{ file: 'tests/test_mod.py', tests: ['test_area', 'test_clamp'], fileDeleted: true }]);
    expect(through.workspace.has('tests/test_mod.py')).toBe(false);
  });

  it('masks the target, removes its tests, scrubs, drops copies of the file, and keeps the original as the solution', () => {
    const files = new Map<string, Buffer>([
      ['pkg/mod.py', Buffer.from(MODULE)],
      ['pkg/__init__.py', Buffer.from('')],
      ['pkg/__pycache__/mod.cpython-311.pyc', Buffer.from('bytecode')],
      ['backup/mod.py', Buffer.from(MODULE)],
      ['tests/test_mod.py', Buffer.from(TESTS)],
      ['tests/test_only_clamp.py', Buffer.from('from pkg.mod import clamp\n\ndef test_it():\n    assert clamp(1, 0, 2) == 1\n')],
    ]);
    const unit = unitOf({ qualname: 'clamp', startLine: 4, endLine: 13, bodyStartLine: 10, bodyEndLine: 13 });
    const masked = maskWorkspace({ unit, files, maskBody: maskPythonBody, repoTests: python.repoTests });
    expect([...masked.workspace.keys()]).toEqual(['pkg/__init__.py', 'pkg/mod.py', 'tests/test_mod.py']);
    expect(masked.workspace.get('pkg/mod.py')?.toString()).toContain('raise NotImplementedError');
    expect(masked.solution.get('pkg/mod.py')?.toString()).toBe(MODULE);
    expect(masked.removedBody).toContain('return min(x, high)');
    expect(masked.removedTests).toEqual([
      { file: 'tests/test_mod.py', tests: ['test_clamp_low', 'test_clamp_in_class'], fileDeleted: false },
      { file: 'tests/test_only_clamp.py', tests: ['test_it'], fileDeleted: true },
    ]);
    expect(masked.scrubbed.map((s) => s.path)).toEqual(['backup/mod.py', 'pkg/__pycache__/mod.cpython-311.pyc']);
  });

  /** The module with clamp and Box.area, and pkg/helpers.py with twin. */
  const twoFiles = (): { files: Map<string, Buffer>; area: Unit; clamp: Unit; twin: Unit } => ({
    files: new Map<string, Buffer>([
      ['pkg/mod.py', Buffer.from(MODULE)],
      ['pkg/helpers.py', Buffer.from('def twin(x):\n    """Twin."""\n    y = x + 1\n    return y\n')],
    ]),
    area: unitOf({ qualname: 'Box.area', startLine: 17, endLine: 20, bodyStartLine: 19, bodyEndLine: 20 }),
    clamp: unitOf({ qualname: 'clamp', startLine: 4, endLine: 13, bodyStartLine: 10, bodyEndLine: 13 }),
    twin: unitOf({ qualname: 'twin', module: 'pkg.helpers', id: 'pkg.helpers:twin', file: 'pkg/helpers.py', startLine: 1, endLine: 4, bodyStartLine: 3, bodyEndLine: 4 }),
  });

  it('masks the units of alsoMask too, in the target\'s file and in others, and keeps them masked in the solution', () => {
    const { files, area, clamp, twin } = twoFiles();
    // Box.area lies below the target: masked after it, it would be looked for 3 lines too low
    const masked = maskWorkspace({ unit: clamp, files, maskBody: maskPythonBody, repoTests: python.repoTests, alsoMask: [twin, area] });

    const workspace = masked.workspace.get('pkg/mod.py')?.toString() ?? '';
    expect(workspace).not.toContain('return min(x, high)');
    expect(workspace).not.toContain('w * self.h');
    expect(workspace).toContain('    3\n    """\n    raise NotImplementedError\n\n\nclass Box:');
    expect(workspace).toContain('        """Area."""\n        raise NotImplementedError\n\n    def one_liner');
    expect(masked.workspace.get('pkg/helpers.py')?.toString()).toBe('def twin(x):\n    """Twin."""\n    raise NotImplementedError\n');

    // the reference: the target's body back, the siblings still masked
    expect([...masked.solution.keys()]).toEqual(['pkg/mod.py']);
    expect(masked.solution.get('pkg/mod.py')?.toString()).toBe(maskPythonBody(MODULE, area));
    expect(masked.removedBody).toContain('return min(x, high)');
    expect(masked.coMasked).toEqual([
      { unit: 'pkg.helpers:twin', file: 'pkg/helpers.py', bodyLines: [3, 4] },
      { unit: 'pkg.mod:Box.area', file: 'pkg/mod.py', bodyLines: [19, 20] },
    ]);
  });

  it('masks the units removed with the target (a feature\'s helpers) and puts them back in the solution, co-masked ones staying masked', () => {
    const { files, area, clamp, twin } = twoFiles();
    const masked = maskWorkspace({ unit: clamp, files, maskBody: maskPythonBody, repoTests: python.repoTests, alsoMask: [area], removeWith: [twin] });
    expect(masked.workspace.get('pkg/helpers.py')?.toString()).toBe('def twin(x):\n    """Twin."""\n    raise NotImplementedError\n');
    expect(masked.workspace.get('pkg/mod.py')?.toString()).not.toContain('w * self.h');
    // the reference: the target and its helper back, the co-masked sibling still masked
    expect([...masked.solution.keys()].sort()).toEqual(['pkg/helpers.py', 'pkg/mod.py']);
    expect(masked.solution.get('pkg/helpers.py')?.toString()).toContain('y = x + 1');
    expect(masked.solution.get('pkg/mod.py')?.toString()).toBe(maskPythonBody(MODULE, area));
    expect(masked.coMasked).toEqual([{ unit: 'pkg.mod:Box.area', file: 'pkg/mod.py', bodyLines: [19, 20] }]);
  });

  it('refuses to co-mask a unit whose body overlaps the target\'s', () => {
    const files = new Map<string, Buffer>([['pkg/mod.py', Buffer.from(MODULE)]]);
    const clamp = unitOf({ qualname: 'clamp', startLine: 4, endLine: 13, bodyStartLine: 10, bodyEndLine: 13 });
    expect(() => maskWorkspace({ unit: clamp, files, maskBody: maskPythonBody, repoTests: python.repoTests, alsoMask: [clamp] })).toThrow(/overlaps/);
  });
});
