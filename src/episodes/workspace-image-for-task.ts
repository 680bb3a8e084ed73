import { runtimeSpecFields } from '../tasks/task-runtime.js';
import type { FileEntry, SandboxProvider } from '../sandbox/types.js';
import type { LoadedTask } from '../tasks/types.js';

/**
 * The image a task's episodes start from with the masked workspace baked in: the language image
 * (with the task's `runtime.dependencies` installed and its `runtime.scrub` paths deleted, where it
 * has any) plus the workspace, built once and cached by content. Null where the sandbox adapter cannot bake (the workspace is copied in instead).
 */
export async function workspaceImageForTask(
  provider: SandboxProvider,
  task: LoadedTask,
  files: readonly FileEntry[],
  options: { signal?: AbortSignal } = {},
): Promise<string | null> {
  const language = provider.imageFor(task.file.runtime.image);
  const { scrub = [], dependencies } = runtimeSpecFields(task.file.runtime);
  const base = await provider.prepareImage(language, scrub, { ...options, dependencies });
  return provider.prepareWorkspaceImage(base, task.file.workdir, files, options);
}
