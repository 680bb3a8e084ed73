import type { Dirent } from 'node:fs';
import { lstat, readdir, readFile, readlink } from 'node:fs/promises';
import path from 'node:path';
import type { FileEntry } from '../sandbox/types.js';
import type { LoadedTask } from './types.js';

export interface ListWorkspaceFilesOptions {
  signal?: AbortSignal;
}

/**
 * Reads a task's `workspace/` into entries for `Sandbox.putFiles`: POSIX paths relative to the
 * workspace root, directories before their contents, names in code-point order; regular files with
 * their content and permission bits, directories with their bits, symbolic links as links (never
 * followed, so a link cannot pull host files into a sandbox).
 *
 * Left out on purpose: bytecode caches (`__pycache__/`, `*.pyc`), which masking should already have
 * removed and the scorer drops anyway, and special files (sockets, FIFOs, devices).
 */
export async function listWorkspaceFiles(
  task: Pick<LoadedTask, 'workspaceDir'>,
  options: ListWorkspaceFilesOptions = {},
): Promise<FileEntry[]> {
  const entries: FileEntry[] = [];
  await walk(task.workspaceDir, '', entries, options.signal);
  return entries;
}

async function walk(root: string, relative: string, out: FileEntry[], signal: AbortSignal | undefined): Promise<void> {
  signal?.throwIfAborted();
  const children: Dirent[] = await readdir(path.join(root, relative), { withFileTypes: true });
  children.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  for (const child of children) {
    const rel = relative ? `${relative}/${child.name}` : child.name;
    const full = path.join(root, rel);
    if (child.isDirectory()) {
      if (child.name === '__pycache__') continue;
      out.push({ path: rel, type: 'directory', mode: (await lstat(full)).mode & 0o7777 });
      await walk(root, rel, out, signal);
    } else if (child.isFile()) {
      if (child.name.endsWith('.pyc')) continue;
      const [info, content] = await Promise.all([lstat(full), readFile(full, signal ? { signal } : {})]);
      out.push({ path: rel, type: 'file', mode: info.mode & 0o7777, content });
    } else if (child.isSymbolicLink()) {
      const [info, linkTarget] = await Promise.all([lstat(full), readlink(full)]);
      out.push({ path: rel, type: 'symlink', mode: info.mode & 0o7777, linkTarget });
    }
  }
}
