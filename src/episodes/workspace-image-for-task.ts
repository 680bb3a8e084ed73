import type { FileEntry, SandboxProvider } from '../sandbox/types.js';
import type { LoadedTask } from '../tasks/types.js';

/**
 * The image a task's episodes start from with the masked workspace baked in: the language image
 * (scrubbed of the task's `runtime.scrub` paths where it has any) plus the workspace, built once and
 * cached by content. Null where the sandbox adapter cannot bake (the workspace is copied in instead).
 */
export async function workspaceImageForTask(
  provider: SandboxProvider,
  task: LoadedTask,
  files: readonly FileEntry[],
  options: { signal?: AbortSignal } = {},
): Promise<string | null> {
  const language = provider.imageFor(task.file.runtime.image);
  const scrub = task.file.runtime.scrub;
  const base = scrub.length > 0 ? await provider.prepareImage(language, scrub, options) : language;
  return provider.prepareWorkspaceImage(base, task.file.workdir, files, options);
}
