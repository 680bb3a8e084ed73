import { readdirSync, type Dirent } from 'node:fs';
import { join } from 'node:path';
import { SKIPPED_DIRS, SKIPPED_ROOT_DIRS } from './copy-filtered-tree.js';

/** Files listed, at most: enough to tell a language or find a package, cheap on a large tree. */
export const MAX_LISTED_FILES = 20_000;

/**
 * Repository-relative POSIX paths of the regular files under `root` (at most MAX_LISTED_FILES),
 * the folders a snapshot leaves out skipped, sorted: what the CLI looks at before it copies anything.
 */
export function listFolderFiles(root: string): string[] {
  const out: string[] = [];
  const walk = (rel: string): void => {
    if (out.length >= MAX_LISTED_FILES) return;
    let entries: Dirent[];
    try {
      entries = readdirSync(join(root, rel), { withFileTypes: true });
    } catch {
      return;
    }
    for (const entry of entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))) {
      const path = rel ? `${rel}/${entry.name}` : entry.name;
      if (entry.isDirectory()) {
        if (!isLeftOut(`${path}/`)) walk(path);
      } else if (entry.isFile()) {
        out.push(path);
      }
    }
  };
  walk('');
  return out;
}

/** True for a path under a folder a snapshot leaves out (VCS data, caches, dependencies, root build output). */
export function isLeftOut(path: string): boolean {
  const folders = path.split('/').slice(0, -1);
  return folders.some((f, i) => SKIPPED_DIRS.has(f) || f.endsWith('.egg-info') || (i === 0 && SKIPPED_ROOT_DIRS.has(f)));
}
