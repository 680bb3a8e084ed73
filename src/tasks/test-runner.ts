import type { z } from 'zod';
import type { TaskTests } from './task-schema.js';

/** A file under hidden/ that task.json `tests` names, with its dotted field under `tests`. */
export interface NamedHiddenFile {
  /** e.g. `scripts.0` (the loader reports it as `tests.scripts.0`). */
  field: string;
  path: string;
}

/**
 * One way of judging a task: the value of task.json `tests.runner` and the schema of the whole
 * `tests` object for it. A language plugin provides its runners (`LanguagePlugin.testRunners`); the
 * catalog loader validates each task's `tests` with its runner's schema, so adding a language adds
 * a runner and never edits the task schema.
 */
export interface TestRunner {
  /** task.json `tests.runner` (`python`, ...). */
  readonly name: string;
  /**
   * The whole `tests` object: `taskTestsShape` (src/tasks/task-schema.ts) extended with the runner's
   * own fields, strict, so an unknown field is reported. Its output replaces the generic `tests`.
   */
  readonly testsSchema: z.ZodType<TaskTests>;
  /** The paths under hidden/ the runner's own fields name (not `cases`), which must be files there. */
  hiddenFiles(tests: TaskTests): readonly NamedHiddenFile[];
  /**
   * The `tests` of a constructed task judged on recorded cases alone (`cases`: its file under hidden/).
   * `unit` is the task's target, as its file and module name: a runner whose scoring needs more of
   * the layout than the workspace root (Python: the folder a module is imported from) reads it there.
   */
  casesOnly(cases: string, limits: { timeoutMs: number; caseTimeoutMs: number }, unit: { file: string; module: string }): TaskTests;
}
