import { copyFile, lstat, mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { join, relative, resolve, sep } from 'node:path';
import { KEPT_METADATA_FILES } from '../mask/scrub-paths.js';

/** Files over this size are left out of snapshots: generated data, not code worth a task. */
export const MAX_SNAPSHOT_FILE_BYTES = 1024 * 1024;

/** Folder names skipped anywhere: VCS data, caches, virtual environments, installed dependencies. */
export const SKIPPED_DIRS: ReadonlySet<string> = new Set(['.git', '.hg', '.svn', '__pycache__', 'node_modules', '.venv', '.tox', '.nox', '.mypy_cache', '.pytest_cache', '.ruff_cache']);
/**
 * Build output skipped at the repository root only (the default of `rootDirsLeftOut`): a package may
 * well have a subpackage called `build` or `dist`, and removing it would break its imports.
 */
export const SKIPPED_ROOT_DIRS: ReadonlySet<string> = new Set(['build', 'dist']);

/** A path left out of a snapshot, and why. */
export interface SkippedPath {
  path: string;
  reason: 'ignored-folder' | 'bytecode' | 'too-large' | 'symlink' | 'not-a-regular-file';
}

export interface CopyResult {
  /** Repository-relative POSIX paths of the copied files, sorted. */
  files: string[];
  skipped: SkippedPath[];
}

/**
 * Copies `from` into `to` (which must exist), leaving out VCS folders, caches, virtual environments,
 * root-level build output (`rootDirsLeftOut`, default SKIPPED_ROOT_DIRS), `*.egg-info` and
 * `*.dist-info` (but for the name, version and requirements of one at the root, `copyMetadata`),
 * bytecode, symlinks and files over 1 MiB. `exclude` is an absolute path never descended into (the
 * work root when it sits inside the source).
 */
export async function copyFilteredTree(
  from: string,
  to: string,
  options: { signal?: AbortSignal; exclude?: string; rootDirsLeftOut?: ReadonlySet<string> } = {},
): Promise<CopyResult> {
  const rootDirsLeftOut = options.rootDirsLeftOut ?? SKIPPED_ROOT_DIRS;
  const files: string[] = [];
  const skipped: SkippedPath[] = [];
  const exclude = options.exclude === undefined ? undefined : resolve(options.exclude);
  const walk = async (relativeDir: string): Promise<void> => {
    options.signal?.throwIfAborted();
    const entries = await readdir(join(from, relativeDir), { withFileTypes: true });
    entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    for (const entry of entries) {
      const rel = relativeDir === '' ? entry.name : `${relativeDir}/${entry.name}`;
      const source = join(from, rel);
      if (entry.isSymbolicLink()) {
        skipped.push({ path: rel, reason: 'symlink' });
      } else if (entry.isDirectory()) {
        if (relativeDir === '' && /\.(egg|dist)-info$/.test(entry.name)) {
          const kept = await copyMetadata(source, join(to, rel));
          files.push(...kept.map((name) => `${rel}/${name}`));
          if (kept.length === 0) skipped.push({ path: `${rel}/`, reason: 'ignored-folder' });
        } else if (SKIPPED_DIRS.has(entry.name) || entry.name.endsWith('.egg-info') || (relativeDir === '' && rootDirsLeftOut.has(entry.name))) {
          skipped.push({ path: `${rel}/`, reason: 'ignored-folder' });
        } else if (exclude !== undefined && isInside(resolve(source), exclude)) {
          skipped.push({ path: `${rel}/`, reason: 'ignored-folder' });
        } else {
          await mkdir(join(to, rel), { recursive: true });
          await walk(rel);
        }
      } else if (!entry.isFile()) {
        skipped.push({ path: rel, reason: 'not-a-regular-file' });
      } else if (/\.py[co]$/.test(entry.name)) {
        skipped.push({ path: rel, reason: 'bytecode' });
      } else if ((await lstat(source)).size > MAX_SNAPSHOT_FILE_BYTES) {
        skipped.push({ path: rel, reason: 'too-large' });
      } else {
        await copyFile(source, join(to, rel));
        files.push(rel);
      }
    }
  };
  await walk('');
  files.sort();
  return { files, skipped };
}

/**
 * An installed distribution's metadata folder, reduced to what code and the dependency reader use:
 * `requires.txt`, and `PKG-INFO` / `METADATA` headers only (name, version, `Requires-Dist`; the
 * description after the first blank line, a README that may quote the code, is cut off). Returns
 * the names copied.
 */
async function copyMetadata(from: string, to: string): Promise<string[]> {
  const kept: string[] = [];
  for (const name of [...KEPT_METADATA_FILES].sort()) {
    const info = await lstat(join(from, name)).catch(() => null);
    if (!info?.isFile() || info.size > MAX_SNAPSHOT_FILE_BYTES) continue;
    const text = await readFile(join(from, name), 'utf8');
    await mkdir(to, { recursive: true });
    await writeFile(join(to, name), name === 'requires.txt' ? text : `${text.split(/\r?\n\r?\n/)[0] ?? ''}\n`);
    kept.push(name);
  }
  return kept;
}

function isInside(path: string, folder: string): boolean {
  const rel = relative(folder, path);
  return rel === '' || (!rel.startsWith('..') && !rel.startsWith(sep) && rel !== '..');
}
