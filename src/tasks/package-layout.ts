/**
 * The names of a suite's parts on disk (docs/task-format.md). A task's workspace is stored either as
 * a whole folder (`workspace/`, the first layout, still read) or as an overlay over the suite's base.
 */
export const TASK_LAYOUT = Object.freeze({
  /** The suite's codebase every overlay applies to. Not a possible task name (those start with a letter or digit). */
  suiteBaseDir: '_base',
  /** A task's whole workspace (first layout). */
  workspaceDir: 'workspace',
  /** A task's files that differ from the base. */
  overlayDir: 'overlay',
  /** Names the base and the base paths a task deletes (`overlayFileSchema`). */
  overlayFile: 'overlay.json',
});
