import { posix } from 'node:path';

/** One segment of a dotted module name that an import statement can spell (ASCII, as the parser reads it). */
export const PYTHON_IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** Folders whose files are scanned for call sites but never yield units: tests, examples, docs, benchmarks. */
const NON_LIBRARY_DIRS = new Set(['tests', 'test', 'testing', 'examples', 'example', 'docs', 'doc', 'benchmarks', 'bench']);
/** Files that belong to tooling, not to the library. */
const NON_LIBRARY_FILES = new Set(['setup.py', 'conftest.py', 'noxfile.py', 'fabfile.py', 'manage.py', 'ez_setup.py', 'distribute_setup.py', 'versioneer.py']);
/**
 * Files at the repository's root that are tooling or samples when they sit there: Sphinx's `conf.py`,
 * example scripts, task runners' files (invoke's `tasks.py`, doit's `dodo.py`, paver's `pavement.py`).
 */
const NON_LIBRARY_ROOT_FILES = new Set(['conf.py', 'example.py', 'examples.py', 'tasks.py', 'dodo.py', 'pavement.py']);

/**
 * True for test files: under a tests/ folder, or named `test_*.py`, `*_test.py`, `*_tests.py` (json-patch's
 * `ext_tests.py`), `conftest.py`, or `test.py` / `tests.py` (a single-module library's suite beside it, as
 * unittest's `test*.py` finds it).
 */
export function isPythonTestPath(file: string): boolean {
  const parts = file.split('/');
  const base = parts.at(-1) ?? '';
  if (base === 'conftest.py' || base === 'test.py' || base === 'tests.py' || /^test_.*\.py$/.test(base) || /_tests?\.py$/.test(base)) return true;
  return parts.slice(0, -1).some((dir) => dir === 'tests' || dir === 'test' || dir === 'testing');
}

/**
 * True when the file's definitions can be targets: not tests, examples, docs or tooling.
 * Such files are still read for call sites, since they show how the library is used.
 */
export function isLibraryPath(file: string): boolean {
  const parts = file.split('/');
  const base = parts.at(-1) ?? '';
  if (isPythonTestPath(file) || NON_LIBRARY_FILES.has(base) || (parts.length === 1 && NON_LIBRARY_ROOT_FILES.has(base))) return false;
  return !parts.slice(0, -1).some((dir) => NON_LIBRARY_DIRS.has(dir));
}

/** Where a file sits on Python's import path: the folder to put on `sys.path`, and the dotted module name. */
export interface ModuleLocation {
  /** Repository-relative folder (`''` for the repository root, `src`, `usr/lib/python3/dist-packages`). */
  importRoot: string;
  /** Dotted name, e.g. `pkg.text`; `pkg` for `pkg/__init__.py`. */
  module: string;
  /** False when some segment is not an identifier (`dist-packages`, `my-script.py`): `import` cannot reach it. */
  importable: boolean;
}

/**
 * The module name of `file`, from the files present in the snapshot. A regular package (folders with
 * `__init__.py`) is imported from the parent of its top-most package folder, which finds packages
 * installed in nested layouts (`src/pkg`, `lib/python3/dist-packages/pkg`). Other files are imported
 * from `src/` when they sit in it (the src layout), else from the repository root (namespace packages).
 */
export function pythonModuleLocation(file: string, files: ReadonlySet<string>): ModuleLocation {
  const dir = posix.dirname(file) === '.' ? '' : posix.dirname(file);
  let top = '';
  for (let d = dir; d !== '' && files.has(`${d}/__init__.py`); d = posix.dirname(d) === '.' ? '' : posix.dirname(d)) {
    top = d;
  }
  let importRoot: string;
  if (top !== '') importRoot = posix.dirname(top) === '.' ? '' : posix.dirname(top);
  else importRoot = file.startsWith('src/') ? 'src' : '';
  const relative = importRoot === '' ? file : file.slice(importRoot.length + 1);
  const segments = relative.replace(/\.py$/, '').split('/');
  if (segments.at(-1) === '__init__' && segments.length > 1) segments.pop();
  return {
    importRoot,
    module: segments.join('.'),
    importable: segments.every((s) => PYTHON_IDENTIFIER.test(s)),
  };
}

/** The repository-relative folder to put on `sys.path` to import `unit.module` from `unit.file`. */
export function importRootOf(unit: { file: string; module: string }): string {
  const isPackageInit = unit.file.endsWith('/__init__.py') || unit.file === '__init__.py';
  const depth = unit.module.split('.').length + (isPackageInit ? 1 : 0);
  const parts = unit.file.split('/');
  return parts.slice(0, Math.max(0, parts.length - depth)).join('/');
}
