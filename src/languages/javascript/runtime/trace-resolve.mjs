// Where a test's import of the package's build output leads when that output is absent (snapshots
// leave dist/ and build/ out, and the record sandbox builds nothing): `../build/lib/index.js` to
// `lib/index.ts`, `../dist/index.js` to `src/index.ts`, and `require('..')` whose package.json
// `main` is `dist/index.js` to `src/index.ts`; a monorepo's workspace packages by name; and, for
// require, `./util.js` to util.ts. Used by trace-run.mjs (require) and trace-hooks.mjs
// (import); only ever asked about a path that did not resolve.
import fs from 'node:fs';
import path from 'node:path';

/** Folders that hold build output, whose files have a source elsewhere. */
const BUILD_DIRS = new Set(['dist', 'build', 'out', 'esm', 'cjs', 'umd', 'es', 'types']);
const EXTENSIONS = ['.ts', '.tsx', '.mts', '.cts', '.js', '.mjs', '.cjs', '.jsx'];

function isFile(file) {
  try {
    return fs.statSync(file).isFile();
  } catch {
    return false;
  }
}

function firstFile(stem) {
  for (const extension of EXTENSIONS) if (isFile(stem + extension)) return stem + extension;
  for (const extension of EXTENSIONS) if (isFile(path.join(stem, `index${extension}`))) return path.join(stem, `index${extension}`);
  return null;
}

/** The entry points a package.json names (`exports['.']` in its common shapes, `main`, `module`). */
function entries(packageJson) {
  const out = [];
  const add = (value) => {
    if (typeof value === 'string') out.push(value);
    else if (value !== null && typeof value === 'object') for (const v of Object.values(value)) add(v);
  };
  const exportsField = packageJson.exports;
  if (typeof exportsField === 'string') add(exportsField);
  else if (exportsField !== null && typeof exportsField === 'object') add('.' in exportsField ? exportsField['.'] : exportsField);
  add(packageJson.main);
  add(packageJson.module);
  return out;
}

/**
 * The source file to load for `missing` (an absolute path that does not resolve: a file, or a
 * folder with a package.json) under `root`, or null.
 */
export function sourceInstead(missing, root, depth = 0) {
  const rel = path.relative(root, missing);
  if (rel.startsWith('..') || path.isAbsolute(rel) || depth > 2) return null;
  let packageJson = null;
  try {
    packageJson = JSON.parse(fs.readFileSync(path.join(missing, 'package.json'), 'utf8'));
  } catch {
    packageJson = null;
  }
  if (packageJson !== null) {
    for (const entry of entries(packageJson)) {
      const file = path.resolve(missing, entry);
      if (isFile(file)) return file;
      const found = sourceInstead(file, root, depth + 1);
      if (found !== null) return found;
    }
    return firstFile(path.join(missing, 'src', 'index')) ?? firstFile(path.join(missing, 'index'));
  }
  // TypeScript's own convention (`./util.js` names util.ts), for require as the loader hooks do for import
  const typed = { '.js': ['.ts', '.tsx'], '.mjs': ['.mts'], '.cjs': ['.cts'] }[path.extname(missing)] ?? [];
  for (const extension of typed) {
    const file = missing.slice(0, -path.extname(missing).length) + extension;
    if (isFile(file)) return file;
  }
  // a package subpath without its extension (`pkg/lib/x`): what require would have found
  if (depth > 0 || path.extname(missing) === '') {
    const file = firstFile(missing);
    if (file !== null) return file;
  }
  const parts = rel.split(path.sep);
  const at = parts.findIndex((p) => BUILD_DIRS.has(p));
  if (at < 0) return null;
  const stem = parts.slice(at + 1).join(path.sep).replace(/\.d\.[mc]?ts$|\.[mc]?[jt]sx?$/, '');
  const before = parts.slice(0, at);
  for (const base of [[...before, 'src'], before, [...before, 'lib']]) {
    const found = firstFile(path.join(root, ...base, stem));
    if (found !== null && path.relative(root, found).split(path.sep).every((p) => !BUILD_DIRS.has(p))) return found;
  }
  return null;
}

/**
 * The repository's packages by name (its own, and a monorepo's workspaces: every package.json
 * outside node_modules, three folders deep at most): a test imports them by name, and nothing is
 * installed in node_modules to find them.
 */
export function repositoryPackages(root) {
  const out = new Map();
  const walk = (dir, depth) => {
    try {
      const name = JSON.parse(fs.readFileSync(path.join(dir, 'package.json'), 'utf8')).name;
      if (typeof name === 'string' && name !== '' && !out.has(name)) out.set(name, dir);
    } catch {
      // no package here
    }
    if (depth >= 3) return;
    let entries = [];
    try {
      entries = fs.readdirSync(dir, { withFileTypes: true });
    } catch {
      return;
    }
    for (const e of entries) if (e.isDirectory() && e.name !== 'node_modules' && !e.name.startsWith('.') && !BUILD_DIRS.has(e.name)) walk(path.join(dir, e.name), depth + 1);
  };
  walk(root, 0);
  return out;
}

/** The path a specifier naming one of `packages` (`pkg`, `@scope/pkg/sub`) leads to, or null. */
export function packagePath(specifier, packages) {
  for (const [name, dir] of packages) {
    if (specifier === name) return dir;
    if (specifier.startsWith(`${name}/`)) return path.join(dir, specifier.slice(name.length + 1));
  }
  return null;
}
