import type { Dirent } from 'node:fs';
import { lstat, readdir, readFile, readlink } from 'node:fs/promises';
import path from 'node:path';
import type { FileEntry } from '../sandbox/types.js';
import type { LoadedTask, TaskWorkspace } from './types.js';

export interface ListWorkspaceFilesOptions {
  signal?: AbortSignal;
}

/**
 * A task's workspace as entries for `Sandbox.putFiles`, whichever way it is stored: its whole
 * `workspace/` folder, or the suite's base minus the task's deleted paths plus its overlay files
 * (`TaskWorkspace`). Every reader of a workspace (episodes, images, scoring, gates, bench) uses
 * this, so a task gives the same entries in either layout.
 *
 * Entries: POSIX paths relative to the workspace root, directories before their contents, names in
 * code-point order; regular files with their content and permission bits, directories with their
 * bits, symbolic links as links (never followed, so a link cannot pull host files into a sandbox).
 *
 * Left out on purpose: bytecode caches (`__pycache__/`, `*.pyc`), which masking should already have
 * removed and the scorer drops anyway, and special files (sockets, FIFOs, devices).
 */
export async function listWorkspaceFiles(
  task: Pick<LoadedTask, 'workspace'>,
  options: ListWorkspaceFilesOptions = {},
): Promise<FileEntry[]> {
  return task.workspace.layout === 'folder' ? listFolderFiles(task.workspace.dir, options) : composeOverlay(task.workspace, options);
}

/** The entries of one folder of a package (a `workspace/`, the base, an overlay, hidden/), as `listWorkspaceFiles` gives them. */
export async function listFolderFiles(dir: string, options: ListWorkspaceFilesOptions = {}): Promise<FileEntry[]> {
  const entries: FileEntry[] = [];
  await walk(dir, '', entries, options.signal);
  return entries;
}

/**
 * base − deleted + overlay. An overlay entry replaces the base entry at its path; a deleted path
 * takes everything under it. A missing overlay folder is an empty overlay (the loader has checked
 * the base and the deleted paths).
 */
export async function composeOverlay(
  workspace: Extract<TaskWorkspace, { layout: 'overlay' }>,
  options: ListWorkspaceFilesOptions = {},
): Promise<FileEntry[]> {
  const deleted = new Set(workspace.deleted);
  const isDeleted = (p: string): boolean => {
    for (let at = p; ; at = at.slice(0, at.lastIndexOf('/'))) {
      if (deleted.has(at)) return true;
      if (!at.includes('/')) return false;
    }
  };
  const byPath = new Map<string, FileEntry>();
  for (const e of await listFolderFiles(workspace.baseDir, options)) if (!isDeleted(e.path)) byPath.set(e.path, e);
  const overlay = await listFolderFiles(workspace.overlayDir, options).catch((err: NodeJS.ErrnoException) => {
    if (err.code === 'ENOENT') return [];
    throw err;
  });
  for (const e of overlay) byPath.set(e.path, e);
  return [...byPath.values()].sort((a, b) => compareEntryPaths(a.path, b.path));
}

/** The order `listWorkspaceFiles` gives: segment by segment in code-point order, so a folder comes right before its contents. */
export function compareEntryPaths(a: string, b: string): number {
  const as = a.split('/');
  const bs = b.split('/');
  for (let i = 0; i < Math.min(as.length, bs.length); i++) {
    const x = as[i] ?? '';
    const y = bs[i] ?? '';
    if (x !== y) return x < y ? -1 : 1;
  }
  return as.length - bs.length;
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
