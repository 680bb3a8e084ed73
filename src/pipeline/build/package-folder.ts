import { InvalidArgumentError } from '../../errors.js';
import type { LanguagePlugin } from '../../languages/language.js';
import { compareStrings } from '../write/stable-json.js';

/**
 * `build --package <dir>`: one package of a monorepo. The snapshot stays the whole repository (its
 * workspace siblings still resolve, and the task's workspace is the real monorepo); only the units of
 * files under `<dir>` become candidates, and `<dir>`'s manifests are read with the root's.
 */

/** How deep below the root `packageFoldersOf` looks for manifests (`packages/group/name` is 3). */
const MAX_PACKAGE_DEPTH = 3;

/**
 * `raw` as a repository-relative POSIX folder (`./packages/beta/` is `packages/beta`); an absolute
 * path, a `..` or the root itself is refused (`InvalidArgumentError('package', ...)`).
 */
export function normalizePackageFolder(raw: string): string {
  const parts = raw.replace(/\\/g, '/').split('/').filter((p) => p !== '' && p !== '.');
  if (raw.startsWith('/') || parts.includes('..') || parts.length === 0) {
    throw new InvalidArgumentError('package', `'${raw}' is not a folder inside the repository; pass one relative to the repository root, e.g. --package packages/core`);
  }
  return parts.join('/');
}

/** True when the repository-relative `file` lies under the package folder `folder`. */
export function isInPackage(file: string, folder: string): boolean {
  return file.startsWith(`${folder}/`);
}

/**
 * Checks that `folder` (normalized) is a folder of the repository whose `files` are given and holds
 * at least one source file of the language; else throws `InvalidArgumentError('package', ...)` that
 * lists the folders that look like packages (holding one of the language's package manifests).
 */
export function checkPackageFolder(folder: string, files: readonly string[], language: Pick<LanguagePlugin, 'displayName' | 'isSourceFile' | 'dependencies'>): void {
  const inside = files.filter((f) => isInPackage(f, folder));
  let problem: string | null = null;
  if (inside.length === 0) problem = `'${folder}' is not a folder of the repository`;
  else if (!inside.some((f) => language.isSourceFile(f))) problem = `'${folder}' holds no ${language.displayName} source file`;
  if (problem === null) return;
  const found = packageFoldersOf(files, language.dependencies.packageManifests);
  const manifests = language.dependencies.packageManifests.join(', ');
  const listed = found.length > 0 ? `folders that look like packages (holding ${manifests}): ${found.join(', ')}` : `no folder holds ${manifests} up to ${MAX_PACKAGE_DEPTH} levels down`;
  throw new InvalidArgumentError('package', `${problem}; ${listed}`);
}

/** The folders below the root, up to MAX_PACKAGE_DEPTH deep, holding one of `manifests`, sorted. */
export function packageFoldersOf(files: readonly string[], manifests: readonly string[]): string[] {
  const names = new Set(manifests);
  const folders = new Set<string>();
  for (const file of files) {
    const parts = file.split('/');
    const name = parts.pop();
    if (name !== undefined && names.has(name) && parts.length >= 1 && parts.length <= MAX_PACKAGE_DEPTH) folders.add(parts.join('/'));
  }
  return [...folders].sort(compareStrings);
}

/** The files under `folder`, by their path relative to it: the package as if it were a repository of its own. */
export function packageFiles(files: ReadonlyMap<string, Buffer>, folder: string): Map<string, Buffer> {
  const out = new Map<string, Buffer>();
  for (const [path, content] of files) if (isInPackage(path, folder)) out.set(path.slice(folder.length + 1), content);
  return out;
}
