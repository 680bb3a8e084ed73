import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { InvalidArgumentError } from '../../src/errors.js';
import type { ParseResult } from '../../src/languages/language-adapter.js';
import { importRootOf, isLibraryPath, pythonModuleLocation } from '../../src/languages/python/parse-module-names.js';
import { parsePythonUnits } from '../../src/languages/python/parse-python-units.js';
import { createPythonAdapter, detectPython } from '../../src/languages/python/python-adapter.js';
import { analyzeRepository } from '../../src/pipeline/analyze/analyze-repository.js';
import { ingestRepository } from '../../src/pipeline/ingest/ingest-repository.js';
import type { RepoSnapshot, Unit } from '../../src/pipeline/types.js';

const FIXTURES = join(import.meta.dirname, '..', 'fixtures', 'pipeline');
let workRoot: string;
let pylib: RepoSnapshot;
let pylibResult: ParseResult;
let srcLayout: ParseResult;

beforeAll(async () => {
  workRoot = mkdtempSync(join(tmpdir(), 'cm-analyze-'));
  pylib = await ingestRepository(join(FIXTURES, 'pylib'), { workRoot });
  pylibResult = await parsePythonUnits(pylib);
  srcLayout = await parsePythonUnits(await ingestRepository(join(FIXTURES, 'srclayout'), { workRoot }));
});
afterAll(() => rmSync(workRoot, { recursive: true, force: true }));

function unit(result: ParseResult, id: string): Unit {
  const found = result.units.find((u) => u.id === id);
  if (found === undefined) throw new Error(`no unit ${id}; have ${result.units.map((u) => u.id).join(', ')}`);
  return found;
}

describe('parsePythonUnits on a package with tests, examples and a broken file', () => {
  it('reports the file with a syntax error as a problem and goes on with the rest', () => {
    expect(pylibResult.problems).toEqual([{ file: 'shapekit/broken.py', code: 'syntax-error', message: 'syntax error at line 5; file skipped' }]);
    expect(pylibResult.units.some((u) => u.file === 'shapekit/broken.py')).toBe(false);
  });

  it('lists functions, classes and methods (not tests or examples) in file and line order', () => {
    expect(pylibResult.units.map((u) => [u.id, u.kind, u.startLine, u.endLine, u.bodyStartLine, u.bodyEndLine, u.statementCount])).toEqual([
      ['shapekit.geometry:clamp', 'function', 6, 15, 11, 15, 5],
      ['shapekit.geometry:clamp_unit', 'function', 18, 19, 19, 19, 1],
      ['shapekit.geometry:pairs', 'function', 22, 28, 24, 28, 5],
      ['shapekit.geometry:total', 'function', 31, 35, 32, 35, 4],
      ['shapekit.geometry:stamp', 'function', 38, 41, 39, 41, 3],
      ['shapekit.geometry:created', 'function', 44, 47, 45, 47, 3],
      ['shapekit.geometry:roll', 'function', 50, 54, 51, 54, 4],
      ['shapekit.geometry:bump', 'function', 60, 63, 61, 63, 3],
      ['shapekit.geometry:spread', 'function', 66, 69, 67, 69, 3],
      ['shapekit.geometry:Grid', 'class', 72, 108, 75, 108, 27],
      ['shapekit.geometry:Grid.__init__', 'method', 75, 77, 76, 77, 2],
      ['shapekit.geometry:Grid.size', 'method', 79, 81, 81, 81, 1],
      ['shapekit.geometry:Grid.get_width', 'method', 83, 84, 84, 84, 1],
      // the comment above the first statement counts as body (masking removes it)
      ['shapekit.geometry:Grid.neighbours', 'method', 86, 98, 87, 98, 11],
      ['shapekit.geometry:Grid.count', 'method', 100, 103, 101, 103, 3],
      ['shapekit.geometry:Grid._hidden', 'method', 105, 108, 106, 108, 3],
    ]);
  });

  it('describes a documented, annotated function completely, with call sites from library, tests and examples', () => {
    expect(unit(pylibResult, 'shapekit.geometry:clamp')).toEqual({
      id: 'shapekit.geometry:clamp',
      kind: 'function',
      module: 'shapekit.geometry',
      qualname: 'clamp',
      file: 'shapekit/geometry.py',
      startLine: 6,
      endLine: 15,
      bodyStartLine: 11,
      bodyEndLine: 15,
      signature: 'def clamp(value: int, low: int = 0, high: int = 10) -> int:',
      params: [
        { name: 'value', kind: 'positional', annotation: 'int', defaultValue: null },
        { name: 'low', kind: 'positional', annotation: 'int', defaultValue: '0' },
        { name: 'high', kind: 'positional', annotation: 'int', defaultValue: '10' },
      ],
      returnAnnotation: 'int',
      docstring: 'Limit value to [low, high].\n\nValues below low become low.',
      decorators: [],
      statementCount: 5,
      codeLines: 5,
      calls: [],
      callSites: [
        { file: 'examples/demo.py', line: 3, caller: '<module>', argumentTexts: ['11', 'high=[1, (2, 3)][0]'], allLiteral: false },
        { file: 'examples/demo.py', line: 4, caller: '<module>', argumentTexts: ['12', '0', '{"a": (1, -2.5)}'], allLiteral: true },
        { file: 'shapekit/geometry.py', line: 19, caller: 'clamp_unit', argumentTexts: ['value', '0', '1'], allLiteral: false },
        // `from shapekit import clamp` goes through the package's re-export
        { file: 'tests/test_geometry.py', line: 7, caller: 'test_clamp', argumentTexts: ['3', '0', '5'], allLiteral: true },
        { file: 'tests/test_geometry.py', line: 8, caller: 'test_clamp', argumentTexts: ['-2', 'low=-1'], allLiteral: true },
        { file: 'tests/test_geometry.py', line: 10, caller: 'test_clamp', argumentTexts: ['limit'], allLiteral: false },
      ],
      isAsync: false,
      isGenerator: false,
      impurities: [],
    });
  });

  it('flags generators, async functions and impurities through the imports', () => {
    const flags = (id: string) => {
      const u = unit(pylibResult, id);
      return { isGenerator: u.isGenerator, isAsync: u.isAsync, impurities: u.impurities };
    };
    expect(flags('shapekit.geometry:pairs')).toEqual({ isGenerator: true, isAsync: false, impurities: [] });
    expect(flags('shapekit.geometry:total')).toEqual({ isGenerator: false, isAsync: true, impurities: [] });
    expect(flags('shapekit.geometry:stamp').impurities).toEqual(['clock:time.time']);
    // `from datetime import datetime` then `datetime.now()`
    expect(flags('shapekit.geometry:created').impurities).toEqual(['clock:datetime.datetime.now']);
    expect(flags('shapekit.geometry:roll').impurities).toEqual(['random:random.randint']);
    expect(flags('shapekit.geometry:bump').impurities).toEqual(['global:global counter']);
    expect(flags('shapekit.geometry:Grid.neighbours')).toEqual({ isGenerator: false, isAsync: false, impurities: [] });
    // its size is its code: the leading comment is not counted (12 body lines, 11 of code)
    expect(unit(pylibResult, 'shapekit.geometry:Grid.neighbours').codeLines).toBe(11);
  });

  it('reads parameter kinds: keyword-only after *, positional-only before /, *args and **kwargs', () => {
    expect(unit(pylibResult, 'shapekit.geometry:Grid.neighbours').params.map((p) => [p.name, p.kind, p.defaultValue])).toEqual([
      ['self', 'positional', null],
      ['x', 'positional', null],
      ['y', 'positional', null],
      ['diagonal', 'keyword-only', 'False'],
    ]);
    expect(unit(pylibResult, 'shapekit.geometry:Grid._hidden').params.map((p) => [p.name, p.kind])).toEqual([
      ['self', 'positional-only'],
      ['a', 'positional-only'],
      ['b', 'positional'],
    ]);
    expect(unit(pylibResult, 'shapekit.geometry:spread').params.map((p) => [p.name, p.kind])).toEqual([
      ['args', 'var-positional'],
      ['kwargs', 'var-keyword'],
    ]);
  });

  it('gives a class its constructor parameters and constructor call sites, and methods their decorators and calls', () => {
    const grid = unit(pylibResult, 'shapekit.geometry:Grid');
    expect(grid.signature).toBe('class Grid:');
    expect(grid.docstring).toBe('A width × height grid.');
    expect(grid.params.map((p) => p.name)).toEqual(['self', 'width', 'height']);
    expect(grid.callSites).toEqual([
      { file: 'tests/test_geometry.py', line: 14, caller: 'test_grid', argumentTexts: ['3', 'height=2'], allLiteral: true },
    ]);
    expect(unit(pylibResult, 'shapekit.geometry:Grid.size').decorators).toEqual(['property']);
    expect(unit(pylibResult, 'shapekit.geometry:Grid.count').calls).toEqual(['self.neighbours', 'len']);
    // `self.neighbours(...)` inside the class and `geo.Grid.neighbours(...)` through a module alias
    expect(unit(pylibResult, 'shapekit.geometry:Grid.neighbours').callSites).toEqual([
      { file: 'shapekit/geometry.py', line: 101, caller: 'Grid.count', argumentTexts: ['x', 'y'], allLiteral: false },
      { file: 'tests/test_geometry.py', line: 16, caller: 'test_grid', argumentTexts: ['grid', '1', '1'], allLiteral: false },
    ]);
    expect(unit(pylibResult, 'shapekit.geometry:roll').callSites).toEqual([
      { file: 'tests/test_geometry.py', line: 17, caller: 'test_grid', argumentTexts: [], allLiteral: true },
    ]);
    expect(unit(pylibResult, 'shapekit.geometry:clamp_unit').callSites).toEqual([
      { file: 'tests/test_geometry.py', line: 18, caller: 'test_grid', argumentTexts: ['0.5'], allLiteral: true },
    ]);
  });

  it('gives the same output on a second run', async () => {
    const again = await parsePythonUnits(pylib);
    expect(JSON.stringify(again)).toBe(JSON.stringify(pylibResult));
  });
});

describe('parsePythonUnits on a src/ layout', () => {
  it('names modules from the src root, dedents docstrings and finds definitions inside module-level if blocks', () => {
    expect(srcLayout.problems).toEqual([]);
    expect(srcLayout.units.map((u) => u.id)).toEqual(['tidy._helpers:strip_all', 'tidy.words:normalise', 'tidy.words:conditional']);
    const normalise = unit(srcLayout, 'tidy.words:normalise');
    expect(normalise.file).toBe('src/tidy/words.py');
    expect(normalise.docstring).toBe(`Collapse runs of whitespace.\n\n>>> normalise("a  b")\n'a b'`);
    expect([normalise.startLine, normalise.endLine, normalise.bodyStartLine, normalise.bodyEndLine]).toEqual([4, 12, 10, 12]);
    expect(normalise.codeLines).toBe(3); // the docstring is not code
    expect(normalise.callSites).toEqual([
      { file: 'tests/test_words.py', line: 5, caller: 'test_normalise', argumentTexts: ['"a  b"', 'sep="-"'], allLiteral: true },
    ]);
    expect(normalise.calls).toEqual(['text.split', 'sep.join', '_helpers.strip_all']);
    // `from . import _helpers` then `_helpers.strip_all(joined)`
    expect(unit(srcLayout, 'tidy._helpers:strip_all').callSites).toEqual([
      { file: 'src/tidy/words.py', line: 12, caller: 'normalise', argumentTexts: ['joined'], allLiteral: false },
    ]);
    expect(importRootOf(normalise)).toBe('src');
  });
});

describe('Python module names', () => {
  const files = new Set([
    'pkg/__init__.py',
    'pkg/sub/__init__.py',
    'pkg/sub/mod.py',
    'src/lib/__init__.py',
    'src/lib/a.py',
    'src/loose.py',
    'usr/lib/python3/dist-packages/mi/__init__.py',
    'usr/lib/python3/dist-packages/mi/more.py',
    'scripts/run-me.py',
  ]);
  it.each([
    ['pkg/sub/mod.py', '', 'pkg.sub.mod', true],
    ['pkg/__init__.py', '', 'pkg', true],
    ['src/lib/a.py', 'src', 'lib.a', true],
    ['src/loose.py', 'src', 'loose', true],
    ['usr/lib/python3/dist-packages/mi/more.py', 'usr/lib/python3/dist-packages', 'mi.more', true],
    ['scripts/run-me.py', '', 'scripts.run-me', false],
  ])('%s is imported from %j as %s', (file, importRoot, module, importable) => {
    expect(pythonModuleLocation(file, files)).toEqual({ importRoot, module, importable });
    if (importable) expect(importRootOf({ file, module })).toBe(importRoot);
  });

  it('keeps tests, examples, docs and tooling out of the library', () => {
    expect(['pkg/a.py', 'tests/test_a.py', 'pkg/tests/helpers.py', 'test_x.py', 'pkg/x_test.py', 'examples/demo.py', 'setup.py', 'conftest.py'].map(isLibraryPath)).toEqual([
      true, false, false, false, false, false, false, false,
    ]);
    // a single-module library's suite beside it (pygtrie's test.py), Sphinx's conf.py and an example at the root
    expect(['test.py', 'tests.py', 'conf.py', 'example.py', 'pkg/conf.py', 'pkg/example.py', 'testing.py'].map(isLibraryPath)).toEqual([false, false, false, false, true, true, true]);
    // a task runner's file at the root (invoke's tasks.py), a module of that name inside a package
    expect(['tasks.py', 'dodo.py', 'pavement.py', 'pkg/tasks.py'].map(isLibraryPath)).toEqual([false, false, false, true]);
    expect(['ext_tests.py', 'pkg/unit_test.py', 'pkg/latest.py', 'contests.py'].map(isLibraryPath)).toEqual([false, false, true, true]);
    // setuptools' bootstrap scripts and versioneer, copied into many releases: tooling
    expect(['ez_setup.py', 'distribute_setup.py', 'versioneer.py', 'pkg/_version.py'].map(isLibraryPath)).toEqual([false, false, false, true]);
  });
});

describe('detect and analyzeRepository', () => {
  const snapshotOf = (files: string[]): RepoSnapshot => ({ dir: '/nowhere', origin: 'test', revision: 'working-tree', files });

  it('detects Python by its files and says how many are library code', () => {
    expect(detectPython(snapshotOf(['README.md', 'a/x.py', 'tests/test_x.py']))).toEqual({
      language: 'python',
      detected: true,
      files: ['a/x.py', 'tests/test_x.py'],
      reason: '2 Python files (1 library files outside tests, examples and docs)',
    });
    expect(detectPython(snapshotOf(['README.md']))).toMatchObject({ detected: false, files: [], reason: 'no .py files' });
  });

  const adapter = createPythonAdapter({ maskBody: (source) => source });

  it('refuses a repository with no Python with an InvalidArgumentError', async () => {
    const result = analyzeRepository(snapshotOf(['README.md', 'main.go']), [adapter]);
    await expect(result).rejects.toBeInstanceOf(InvalidArgumentError);
    await expect(result).rejects.toThrow(/repository: no supported language found in test \(python: no \.py files\)/);
  });

  it('analyzes through the adapter and reports the language and elapsed time', async () => {
    const analysis = await analyzeRepository(pylib, [adapter]);
    expect(analysis.language).toBe('python');
    expect(analysis.units).toEqual(pylibResult.units);
    expect(analysis.problems).toEqual(pylibResult.problems);
    expect(analysis.elapsedMs).toBeGreaterThan(0);
    expect(adapter.runnerImage).toBe('python');
    expect(adapter.harnessDir).toMatch(/src\/languages\/python\/harness$/);
  });
});
