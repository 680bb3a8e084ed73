import type { Logger } from '../logging.js';
import type { FileEntry, SandboxProvider } from '../sandbox/types.js';
import { createLimiter } from '../shared/limiter.js';
import { mapSettledWithConcurrency } from '../shared/map-with-concurrency.js';
import type { LoadedTask } from '../tasks/types.js';
import { workspaceImageForTask } from './workspace-image-for-task.js';

export interface WorkspaceImageQueueOptions {
  provider: SandboxProvider;
  logger: Logger;
  /** Reads a task's workspace files; the caller caches them (Reset reads the same files). */
  readWorkspace: (task: LoadedTask) => Promise<FileEntry[]>;
  /** Image builds run at once. Default 2. */
  buildsAtOnce?: number;
}

/**
 * The workspace images of one server's tasks (each task's masked workspace baked into its image),
 * built once per task and a few at a time, so Reset can start a task copy-on-write once its image is
 * ready and uploads the workspace until then.
 */
export interface WorkspaceImageQueue {
  /** The task's image when it is ready now; otherwise starts its build (once) and returns null. */
  readyImage(task: LoadedTask): string | null;
  /**
   * Builds these tasks' images (sharing builds already started); resolves when each is ready or has
   * failed (a failed one leaves its task on the upload path, and a later call retries it).
   */
  prepare(tasks: readonly LoadedTask[], options?: { signal?: AbortSignal; onReady?: (taskId: string, image: string | null, error: unknown) => void }): Promise<void>;
}

const BUILDS_AT_ONCE = 2;

interface Entry {
  /** The image once built; null while building, or where the adapter cannot bake. */
  image: string | null;
  build: Promise<string | null>;
}

export function createWorkspaceImageQueue(options: WorkspaceImageQueueOptions): WorkspaceImageQueue {
  const { provider, logger } = options;
  const buildsAtOnce = options.buildsAtOnce ?? BUILDS_AT_ONCE;
  const entries = new Map<string, Entry>();

  /**
   * Builds run a few at a time: the first Resets of many tasks at once (a suite-wide run) must not
   * start a build each, competing with the episodes' own containers for the engine.
   */
  const builds = createLimiter(buildsAtOnce);

  /** Starts (once) the build of a task's image; a failure is logged and retried on a later call. */
  function entryFor(task: LoadedTask, signal?: AbortSignal): Entry {
    let entry = entries.get(task.id);
    if (!entry) {
      const created: Entry = { image: null, build: Promise.resolve(null) };
      created.build = builds.run(async () => {
        const files = await options.readWorkspace(task);
        return workspaceImageForTask(provider, task, files, signal ? { signal } : {});
      }).then(
        (image) => {
          created.image = image;
          if (image) logger.info({ taskId: task.id, image }, 'workspace image ready');
          return image;
        },
        (err: unknown) => {
          logger.warn({ err, taskId: task.id }, 'building the workspace image failed; the workspace is uploaded at Reset instead');
          entries.delete(task.id);
          throw err;
        },
      );
      created.build.catch(() => undefined);
      entries.set(task.id, created);
      entry = created;
    }
    return entry;
  }

  return {
    readyImage: (task) => entryFor(task).image,

    async prepare(tasks, prepareOptions = {}) {
      await mapSettledWithConcurrency(tasks, tasks.length, async (task) => {
        try {
          const image = await entryFor(task, prepareOptions.signal).build;
          prepareOptions.onReady?.(task.id, image, null);
        } catch (err) {
          prepareOptions.onReady?.(task.id, null, err);
        }
      });
    },
  };
}
