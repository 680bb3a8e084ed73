import { normaliseScrubPaths, scrubPathProblem } from '../../sandbox/scrub-paths.js';
import { pythonModuleLocation } from './parse-module-names.js';

/**
 * The copies of the library under construction that a runtime image carries: a Debian python3-*
 * package in dist-packages, a tool's vendored copy (`pkg_resources/_vendor/more_itertools`), a
 * wheel left in site-packages. Such a copy hands every masked body back, so the task's sandboxes
 * run on the image without it (task.json `runtime.scrub`; DESIGN.md, Construction: mask scrubs any
 * installed copy of the package itself); the leak audit then searches what is left.
 *
 * A copy is a folder (or module file) of the image named like one of the library's top-level
 * import names, below which sits a `.py` file at the same relative path as one of the library's
 * own modules other than `__init__.py` (`more_itertools/more.py`), read from the folder each module
 * is imported from (`src/more_itertools/more.py` is `more_itertools/more.py`). A package that only shares the
 * name matches no module path and stays, and so does a single module inside another package (a
 * folder with an `__init__.py`) other than a vendoring folder (`_vendor`, `extern`, `packages`, …):
 * the standard library's `asyncio/tasks.py` is no copy of a repository's own top-level `tasks.py`,
 * while a copy of the library's package folder inside any other package still is. Returned sorted; paths
 * that no sandbox may lose (`scrubPathProblem`) are never returned.
 */
export function findLibraryCopies(imagePaths: readonly string[], library: { importNames: ReadonlySet<string>; files: ReadonlySet<string> }): string[] {
  const modules = new Set(
    [...library.files]
      .filter((file) => file.endsWith('.py') && !file.endsWith('/__init__.py') && file !== '__init__.py')
      .map((file) => {
        const { importRoot } = pythonModuleLocation(file, library.files);
        return importRoot === '' ? file : file.slice(importRoot.length + 1);
      }),
  );
  const packages = new Set(imagePaths.filter((path) => path.endsWith('/__init__.py')).map((path) => path.slice(0, -'/__init__.py'.length)));
  const copies: string[] = [];
  for (const path of imagePaths) {
    if (!path.endsWith('.py')) continue;
    const parts = path.split('/').filter(Boolean);
    for (let i = 0; i < parts.length; i++) {
      const part = parts[i] as string;
      const name = part.endsWith('.py') ? part.slice(0, -3) : part;
      if (!library.importNames.has(name) || !modules.has(parts.slice(i).join('/'))) continue;
      const root = `/${parts.slice(0, i + 1).join('/')}`;
      if (i === parts.length - 1 && insideOtherPackage(parts.slice(0, i), packages)) break;
      if (scrubPathProblem(root) === null) copies.push(root);
      break;
    }
  }
  return normaliseScrubPaths(copies);
}

/** Folder names a package vendors other distributions in (`pip/_vendor`, `setuptools/extern`, `requests/packages`). */
const VENDORING_FOLDER = /^_?(vendor|vendored|extern|packages|bundled|third_?party)$/i;

/** Whether the folder `parents` names is a package of its own (it has an `__init__.py`) that vendors nothing. */
function insideOtherPackage(parents: readonly string[], packages: ReadonlySet<string>): boolean {
  const name = parents[parents.length - 1];
  return name !== undefined && !VENDORING_FOLDER.test(name) && packages.has(`/${parents.join('/')}`);
}
