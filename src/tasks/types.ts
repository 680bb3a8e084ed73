import type { TaskFile } from './task-schema.js';

/** A task package that passed validation, with absolute paths to its parts. */
export interface LoadedTask {
  /** `<suite>/<name>` */
  id: string;
  suite: string;
  name: string;
  dir: string;
  /** Where the task's workspace comes from; `listWorkspaceFiles` composes it. */
  workspace: TaskWorkspace;
  hiddenDir: string;
  solutionDir: string;
  file: TaskFile;
}

/** A task folder that was skipped, with the file and field at fault. */
export interface TaskLoadProblem {
  suite: string;
  path: string;
  field: string;
  message: string;
}

export interface TaskCatalog {
  readonly tasks: ReadonlyMap<string, LoadedTask>;
  readonly problems: readonly TaskLoadProblem[];
  get(taskId: string): LoadedTask | undefined;
  list(filter?: { suite?: string; language?: string }): LoadedTask[];
}

/**
 * Where a task's workspace is stored: a whole `workspace/` folder in the task (`folder`, the first
 * layout), or the suite's base with the task's overlay over it (`overlay`: base − deleted + overlay
 * files). Only `listWorkspaceFiles` reads it; nothing else should compose a workspace.
 */
export type TaskWorkspace =
  | { layout: 'folder'; dir: string }
  | {
      layout: 'overlay';
      /** The suite's base folder (`<suite>/_base`). */
      baseDir: string;
      /** The task's files that differ from the base or that the base lacks (`<task>/overlay`; may not exist when none). */
      overlayDir: string;
      /** Base paths the workspace does not have (a folder takes everything under it); POSIX, relative. */
      deleted: readonly string[];
    };
