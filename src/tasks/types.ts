import type { TaskFile } from './task-schema.js';

/** A task package that passed validation, with absolute paths to its parts. */
export interface LoadedTask {
  /** `<suite>/<name>` */
  id: string;
  suite: string;
  name: string;
  dir: string;
  workspaceDir: string;
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
