import { createHash } from 'node:crypto';
import { chmod, mkdir, readFile, rm, stat, symlink, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { FileEntry } from '../../sandbox/types.js';
import { composeOverlay, compareEntryPaths, listFolderFiles } from '../../tasks/list-workspace-files.js';
import { TASK_LAYOUT } from '../../tasks/package-layout.js';
import { OVERLAY_SCHEMA_VERSION } from '../../tasks/task-schema.js';
import { stableJson } from '../write/stable-json.js';

/** One task's whole workspace and its reference files (workspace-relative path → content). */
export interface TaskWorkspaceFiles {
  workspace: readonly FileEntry[];
  solution: ReadonlyMap<string, Buffer>;
}

/** A task's workspace as a difference from the base. */
export interface WorkspaceOverlay {
  /** Entries the workspace has that the base has not, or has otherwise. */
  files: FileEntry[];
  /** Base paths the workspace has not (or has as another kind); none under another one. Sorted. */
  deleted: string[];
}

/**
 * The suite's base: for each path, the entry most of the tasks have once each task's solution/ is
 * laid back over its workspace, so a target's file is there as the repository has it and each task's
 * overlay holds only what masking changed for it. A path most tasks lack is left out. Ties go to
 * having the path, then to the smallest entry key, so the base depends only on the tasks.
 */
export function suiteBaseOf(tasks: readonly TaskWorkspaceFiles[]): FileEntry[] {
  const votes = new Map<string, Map<string, { entry: FileEntry; count: number }>>();
  for (const task of tasks) {
    for (const entry of task.workspace) {
      const solved = entry.type === 'file' ? task.solution.get(entry.path) : undefined;
      const view = solved ? { ...entry, content: solved } : entry;
      const byKey = votes.get(view.path) ?? new Map<string, { entry: FileEntry; count: number }>();
      const key = entryKey(view);
      const vote = byKey.get(key) ?? { entry: view, count: 0 };
      vote.count += 1;
      byKey.set(key, vote);
      votes.set(view.path, byKey);
    }
  }
  const base: FileEntry[] = [];
  const dirs = new Set<string>();
  for (const path of [...votes.keys()].sort(compareEntryPaths)) {
    const byKey = votes.get(path) ?? new Map();
    const ranked = [...byKey.entries()].sort(([ka, a], [kb, b]) => b.count - a.count || (ka < kb ? -1 : ka > kb ? 1 : 0));
    const [, best] = ranked[0] ?? [];
    const absent = tasks.length - [...byKey.values()].reduce((sum, v) => sum + v.count, 0);
    const parent = path.includes('/') ? path.slice(0, path.lastIndexOf('/')) : '';
    if (!best || best.count < absent || (parent !== '' && !dirs.has(parent))) continue;
    base.push(best.entry);
    if (best.entry.type === 'directory') dirs.add(path);
  }
  return base;
}

/** What `workspace` holds beyond `base` and what of `base` it lacks; `composeOverlay` undoes it. */
export function overlayOf(base: readonly FileEntry[], workspace: readonly FileEntry[]): WorkspaceOverlay {
  const baseKeys = new Map(base.map((e) => [e.path, entryKey(e)]));
  const have = new Map(workspace.map((e) => [e.path, e]));
  const deleted: string[] = [];
  for (const entry of base) {
    const mine = have.get(entry.path);
    if (mine && mine.type === entry.type) continue;
    if (deleted.some((d) => entry.path.startsWith(`${d}/`))) continue;
    deleted.push(entry.path);
  }
  const gone = (path: string): boolean => deleted.some((d) => path === d || path.startsWith(`${d}/`));
  const files = workspace.filter((e) => gone(e.path) || baseKeys.get(e.path) !== entryKey(e));
  return { files, deleted: deleted.sort(compareEntryPaths) };
}

/**
 * Rewrites the tasks of a suite folder from whole `workspace/` folders into the suite's base
 * (`_base/`) plus one overlay per task (`overlay/` and `overlay.json`), the layout `codemidas build`
 * writes (docs/task-format.md, "Stored once"). Every task keeps the same composed workspace, entry
 * for entry. A task already stored as an overlay is composed first, so running it twice changes
 * nothing. Returns how many files the base and the overlays hold.
 */
export async function storeSuiteOnce(suiteDir: string, taskNames: readonly string[]): Promise<{ baseFiles: number; overlayFiles: number }> {
  const baseDir = join(suiteDir, TASK_LAYOUT.suiteBaseDir);
  const tasks: Array<TaskWorkspaceFiles & { dir: string }> = [];
  for (const name of taskNames) {
    const dir = join(suiteDir, name);
    const workspace = await readWholeWorkspace(dir, baseDir);
    const solution = new Map<string, Buffer>();
    const solutionDir = join(dir, 'solution');
    if (await exists(solutionDir)) {
      for (const e of await listFolderFiles(solutionDir)) if (e.type === 'file' && e.content) solution.set(e.path, e.content);
    }
    tasks.push({ dir, workspace, solution });
  }
  const base = suiteBaseOf(tasks);
  await rm(baseDir, { recursive: true, force: true });
  await writeEntries(baseDir, base);
  let overlayFiles = 0;
  for (const task of tasks) {
    const overlay = overlayOf(base, task.workspace);
    await rm(join(task.dir, TASK_LAYOUT.workspaceDir), { recursive: true, force: true });
    await rm(join(task.dir, TASK_LAYOUT.overlayDir), { recursive: true, force: true });
    await writeEntries(join(task.dir, TASK_LAYOUT.overlayDir), withParents(overlay.files, task.workspace));
    const overlayFile = { schemaVersion: OVERLAY_SCHEMA_VERSION, base: TASK_LAYOUT.suiteBaseDir, deleted: overlay.deleted };
    await writeFile(join(task.dir, TASK_LAYOUT.overlayFile), stableJson(overlayFile));
    overlayFiles += overlay.files.filter((e) => e.type !== 'directory').length;
  }
  return { baseFiles: base.filter((e) => e.type !== 'directory').length, overlayFiles };
}

async function readWholeWorkspace(taskDir: string, baseDir: string): Promise<FileEntry[]> {
  const folder = join(taskDir, TASK_LAYOUT.workspaceDir);
  if (await exists(folder)) return listFolderFiles(folder);
  const overlay = JSON.parse(await readFile(join(taskDir, TASK_LAYOUT.overlayFile), 'utf8')) as { deleted?: string[] };
  return composeOverlay({ layout: 'overlay', baseDir, overlayDir: join(taskDir, TASK_LAYOUT.overlayDir), deleted: overlay.deleted ?? [] });
}

/** The overlay's entries with the folders that hold them (from the workspace, with their modes). */
function withParents(files: readonly FileEntry[], workspace: readonly FileEntry[]): FileEntry[] {
  const dirs = new Map(workspace.filter((e) => e.type === 'directory').map((e) => [e.path, e]));
  const out = new Map(files.map((e) => [e.path, e]));
  for (const e of files) {
    for (let p = dirname(e.path); p !== '.'; p = dirname(p)) {
      const dir = dirs.get(p);
      if (dir && !out.has(p)) out.set(p, dir);
    }
  }
  return [...out.values()].sort((a, b) => compareEntryPaths(a.path, b.path));
}

/** Writes entries (folders before their contents) under `root` with their modes. */
async function writeEntries(root: string, entries: readonly FileEntry[]): Promise<void> {
  if (entries.length === 0) return;
  await mkdir(root, { recursive: true, mode: 0o755 });
  const dirs: FileEntry[] = [];
  for (const e of [...entries].sort((a, b) => compareEntryPaths(a.path, b.path))) {
    if (e.path.startsWith('/') || e.path.split('/').includes('..')) throw new Error(`refusing to write outside the package: ${e.path}`);
    const full = join(root, ...e.path.split('/'));
    await mkdir(dirname(full), { recursive: true, mode: 0o755 });
    if (e.type === 'directory') {
      await mkdir(full, { recursive: true });
      dirs.push(e);
    } else if (e.type === 'symlink') {
      await symlink(e.linkTarget ?? '', full);
    } else if (e.type === 'file') {
      await writeFile(full, e.content ?? Buffer.alloc(0));
      await chmod(full, e.mode);
    }
  }
  // Folder modes last: a read-only folder would refuse its own contents.
  for (const d of dirs) await chmod(join(root, ...d.path.split('/')), d.mode);
}

function entryKey(e: FileEntry): string {
  const digest = e.content ? createHash('sha256').update(e.content).digest('hex') : '';
  return [e.type, e.mode.toString(8), e.linkTarget ?? '', digest].join('\0');
}


async function exists(path: string): Promise<boolean> {
  return (await stat(path).catch(() => null)) !== null;
}
