import { randomUUID } from 'node:crypto';
import type { Limits } from '../config/limits.js';
import { limitsForTask } from '../config/limits.js';
import { linkSignals } from '../abort.js';
import { InvalidArgumentError, NotFoundError, ResourceExhaustedError, UnavailableError } from '../errors.js';
import type { Logger } from '../logging.js';
import type { FileEntry, SandboxProvider } from '../sandbox/types.js';
import type { Scorer } from '../scoring/types.js';
import type { LoadedTask, TaskCatalog } from '../tasks/types.js';
import { type CloseReason, Episode } from './episode.js';
import { createEpisodeGroups } from './episode-groups.js';
import { createToolSpecs } from './tool-schemas.js';
import type { Action, CallOptions, ResetGroupResult, ResetResult, RewardGroupResult, RewardResult, StepResult, ToolSpec } from './types.js';
import { createWorkspaceImageQueue } from './workspace-image-queue.js';

export interface EpisodeManagerOptions {
  provider: SandboxProvider;
  catalog: TaskCatalog;
  scorer: Scorer;
  logger: Logger;
  limits: Readonly<Limits>;
  /** Reads a task's workspace files (paths relative to the workspace root). Cached per task. */
  readWorkspace: (task: LoadedTask) => Promise<FileEntry[]>;
  /** Sandboxes started (or scored) at once by ResetGroup / RewardGroup. Default 4. */
  groupConcurrency?: number;
  /** Interval of `provider.reap()`. Default 60 s. */
  reapIntervalMs?: number;
  /** Interval of the idle-expiry sweep. Default min(30 s, idleExpiryMs / 4). */
  sweepIntervalMs?: number;
  /** How long a closed episode is remembered (so a late Step says "closed", not "unknown"). Default 1 h. */
  closedRetentionMs?: number;
  /** Clock, for tests. Default `Date.now`. */
  now?: () => number;
  /**
   * Bake each task's workspace into an image (where the adapter can), so Reset starts it
   * copy-on-write instead of uploading it. A task's first Reset starts the build in the background
   * and uploads meanwhile; `prepareWorkspaceImages` builds ahead. Default true.
   */
  bakeWorkspaces?: boolean;
}

export interface ShutdownOptions {
  /** How long calls in flight may run before they are aborted. Default 10 s. */
  graceMs?: number;
}

/**
 * Owns every episode of one server: capacity, ids, idle expiry, the reaper, and a graceful shutdown.
 * Groups (`createEpisodeGroups`) and the workspace-image builds (`createWorkspaceImageQueue`) are
 * its parts, each in a module of its own. The gRPC layer and the CLI's `episode` command are its
 * only callers.
 */
export interface EpisodeManager {
  /** Reaps leftovers of earlier runs, then starts the reaper and expiry timers. */
  start(): Promise<void>;
  /** Checks the sandbox engine answers. */
  ping(signal?: AbortSignal): Promise<void>;
  /** `seed` is the request's uint64, exact (a bigint: numbers round above 2^53). */
  reset(taskId: string, options?: CallOptions & { seed?: bigint }): Promise<ResetResult>;
  resetGroup(taskId: string, groupSize: number, options?: CallOptions & { seed?: bigint }): Promise<ResetGroupResult>;
  step(episodeId: string, stepIndex: number, action: Action, options?: CallOptions): Promise<StepResult>;
  reward(episodeId: string, options?: CallOptions): Promise<RewardResult>;
  rewardGroup(groupId: string, options?: CallOptions): Promise<RewardGroupResult>;
  /** Idempotent; returns how many episodes this call closed. */
  close(target: { episodeId: string } | { groupId: string }): Promise<number>;
  /** Closes idle episodes and forgets old closed ones; returns how many were closed. Run by a timer. */
  sweep(): Promise<number>;
  /** Refuses new episodes, lets calls in flight finish within the grace period, then destroys every sandbox. */
  shutdown(options?: ShutdownOptions): Promise<void>;
  /** Episodes holding a sandbox now. */
  readonly activeCount: number;
  /**
   * Builds the workspace images of these tasks (default: every loaded task) ahead of their Resets;
   * resolves when each is ready or has failed (a failed one leaves its task on the upload path).
   */
  prepareWorkspaceImages(taskIds?: readonly string[], options?: { signal?: AbortSignal; onReady?: (taskId: string, image: string | null, error: unknown) => void }): Promise<void>;
}

const DEFAULT_GROUP_CONCURRENCY = 4;
const REAP_INTERVAL_MS = 60_000;
/** Sandboxes outlive their episode's budgets by this much before the reaper may take them. */
const EXPIRY_SLACK_MS = 15 * 60_000;

export function createEpisodeManager(options: EpisodeManagerOptions): EpisodeManager {
  const { provider, catalog, scorer, limits } = options;
  const logger = options.logger.child({ component: 'episodes' });
  const now = options.now ?? Date.now;
  const closedRetentionMs = options.closedRetentionMs ?? 60 * 60_000;
  const episodes = new Map<string, Episode>();
  const workspaces = new Map<string, Promise<FileEntry[]>>();
  /** Tool specs per loaded task (its limits and workdir are part of it). */
  const toolSpecs = new WeakMap<LoadedTask, readonly ToolSpec[]>();
  /** Null when workspaces are not baked: every Reset uploads its workspace. */
  const workspaceImages = (options.bakeWorkspaces ?? true) ? createWorkspaceImageQueue({ provider, logger, readWorkspace }) : null;
  const inFlight = new Set<Promise<unknown>>();
  const stopping = new AbortController();
  const timers: NodeJS.Timeout[] = [];
  let draining = false;
  let shutdownPromise: Promise<void> | null = null;

  const activeCount = (): number => {
    let n = 0;
    for (const e of episodes.values()) if (e.holdsSandbox) n++;
    return n;
  };

  /** Runs a call so that shutdown can wait for it. */
  function track<T>(work: () => Promise<T>): Promise<T> {
    const promise = work();
    inFlight.add(promise);
    const forget = (): void => {
      inFlight.delete(promise);
    };
    promise.then(forget, forget);
    return promise;
  }

  function taskOrThrow(taskId: string): LoadedTask {
    const task = catalog.get(taskId);
    if (!task) throw new NotFoundError('task', taskId, 'ListTasks shows the loaded tasks');
    return task;
  }

  function episodeOrThrow(episodeId: string): Episode {
    const episode = episodes.get(episodeId);
    if (!episode) throw new NotFoundError('episode', episodeId, 'it may have expired after being idle; Reset a new one');
    return episode;
  }

  function refuseWhenDraining(): void {
    if (draining) throw new UnavailableError('the server is shutting down; retry against another server or after it restarts');
  }

  function reserve(count: number): void {
    const active = activeCount();
    if (active + count > limits.maxEpisodes) {
      throw new ResourceExhaustedError(
        `${active} of ${limits.maxEpisodes} episodes are running; Close finished episodes or retry later (--max-episodes raises the limit)`,
      );
    }
  }

  function toolSpecsFor(episode: Episode): readonly ToolSpec[] {
    let tools = toolSpecs.get(episode.task);
    if (!tools) {
      tools = createToolSpecs(episode.limits, episode.workdir);
      toolSpecs.set(episode.task, tools);
    }
    return tools;
  }

  function readWorkspace(task: LoadedTask): Promise<FileEntry[]> {
    let cached = workspaces.get(task.id);
    if (!cached) {
      cached = options.readWorkspace(task);
      workspaces.set(task.id, cached);
      cached.catch(() => workspaces.delete(task.id));
    }
    return cached;
  }

  function newEpisode(task: LoadedTask, groupId: string | null): Episode {
    const id = `ep-${randomUUID()}`;
    const episode = new Episode({
      id,
      groupId,
      task,
      limits: limitsForTask(limits, task.file.limits),
      scorer,
      logger: logger.child({ episodeId: id, taskId: task.id, ...(groupId ? { groupId } : {}) }),
      now,
    });
    episodes.set(id, episode);
    return episode;
  }

  async function startEpisode(episode: Episode, signal: AbortSignal): Promise<ResetResult> {
    try {
      const workspace = await readWorkspace(episode.task);
      const expiresAt = new Date(now() + episode.limits.maxWallMs + episode.limits.idleExpiryMs + EXPIRY_SLACK_MS);
      await episode.start(provider, workspace, { signal, expiresAt, workspaceImage: workspaceImages?.readyImage(episode.task) ?? null });
    } catch (err) {
      await episode.close('reset-failed');
      episodes.delete(episode.id);
      throw err;
    }
    return {
      episodeId: episode.id,
      taskId: episode.task.id,
      prompt: episode.task.file.prompt,
      workdir: episode.workdir,
      tools: toolSpecsFor(episode),
      limits: episode.limits,
    };
  }

  async function closeEpisodes(ids: readonly string[], reason: CloseReason): Promise<number> {
    const closed = await Promise.all(ids.map((id) => episodes.get(id)?.close(reason) ?? Promise.resolve(false)));
    return closed.filter(Boolean).length;
  }

  const groups = createEpisodeGroups({
    newEpisode,
    startEpisode,
    episode: (id) => episodes.get(id),
    closeEpisodes,
    forgetEpisodes: (ids) => {
      for (const id of ids) episodes.delete(id);
    },
    concurrency: options.groupConcurrency ?? DEFAULT_GROUP_CONCURRENCY,
    stopping: stopping.signal,
    logger,
  });

  const manager: EpisodeManager = {
    get activeCount() {
      return activeCount();
    },

    async start() {
      try {
        const removed = await provider.reap();
        if (removed > 0) logger.info({ removed }, 'reaped sandboxes left by earlier runs');
      } catch (err) {
        logger.warn({ err }, 'reaping leftover sandboxes failed');
      }
      const reapTimer = setInterval(() => {
        provider.reap().then(
          (removed) => removed > 0 && logger.info({ removed }, 'reaped expired or orphaned sandboxes'),
          (err: unknown) => logger.warn({ err }, 'reaping sandboxes failed'),
        );
      }, options.reapIntervalMs ?? REAP_INTERVAL_MS);
      const sweepTimer = setInterval(() => {
        manager.sweep().catch((err: unknown) => logger.warn({ err }, 'expiry sweep failed'));
      }, options.sweepIntervalMs ?? Math.max(10, Math.min(30_000, Math.floor(limits.idleExpiryMs / 4))));
      reapTimer.unref();
      sweepTimer.unref();
      timers.push(reapTimer, sweepTimer);
    },

    ping(signal) {
      return provider.ping(signal);
    },

    async prepareWorkspaceImages(taskIds, prepareOptions = {}) {
      if (!workspaceImages) return;
      // Unknown ids are skipped: their Reset answers NOT_FOUND.
      const tasks = taskIds ? taskIds.flatMap((id) => catalog.get(id) ?? []) : [...catalog.tasks.values()];
      await workspaceImages.prepare(tasks, prepareOptions);
    },

    reset(taskId, callOptions) {
      refuseWhenDraining();
      const task = taskOrThrow(taskId);
      reserve(1);
      const episode = newEpisode(task, null);
      // The call's signal joined with the server's shutdown, for as long as the start runs.
      const linked = linkSignals([callOptions?.signal, stopping.signal]);
      return track(() => startEpisode(episode, linked.signal).finally(linked.dispose));
    },

    resetGroup(taskId, groupSize, callOptions) {
      refuseWhenDraining();
      if (!Number.isInteger(groupSize) || groupSize < 1) throw new InvalidArgumentError('group_size', 'must be at least 1');
      const task = taskOrThrow(taskId);
      reserve(groupSize);
      return track(() => groups.reset(task, groupSize, callOptions));
    },

    step(episodeId, stepIndex, action, callOptions) {
      const episode = episodeOrThrow(episodeId);
      return track(() => episode.step(stepIndex, action, callOptions ?? {}));
    },

    reward(episodeId) {
      const episode = episodeOrThrow(episodeId);
      const cached = episode.cachedReward;
      if (cached) return Promise.resolve(cached);
      return track(() => episode.reward());
    },

    rewardGroup(groupId) {
      return track(() => groups.reward(groupId));
    },

    async close(target) {
      if ('groupId' in target) return groups.close(target.groupId);
      const episode = episodeOrThrow(target.episodeId);
      return (await episode.close('client')) ? 1 : 0;
    },

    async sweep() {
      const t = now();
      const expired = [...episodes.values()].filter((e) => e.isIdleExpired(t));
      const closed = await closeEpisodes(
        expired.map((e) => e.id),
        'expired',
      );
      if (closed > 0) logger.info({ closed }, 'closed idle episodes');
      for (const [id, e] of episodes) {
        if (e.closedAtMs !== null && t - e.closedAtMs >= closedRetentionMs) episodes.delete(id);
      }
      groups.sweep();
      return closed;
    },

    shutdown(shutdownOptions = {}) {
      shutdownPromise ??= (async () => {
        draining = true;
        for (const timer of timers) clearInterval(timer);
        const graceMs = shutdownOptions.graceMs ?? 10_000;
        logger.info({ inFlight: inFlight.size, graceMs }, 'draining');
        let timer: NodeJS.Timeout | undefined;
        const graceOver = new Promise<'timeout'>((resolve) => {
          timer = setTimeout(() => resolve('timeout'), graceMs);
        });
        const outcome = await Promise.race([Promise.allSettled([...inFlight]).then(() => 'done' as const), graceOver]);
        clearTimeout(timer);
        if (outcome === 'timeout') logger.warn({ inFlight: inFlight.size }, 'grace period over; aborting calls in flight');
        stopping.abort(new UnavailableError('the server is shutting down'));
        const closed = await closeEpisodes([...episodes.keys()], 'shutdown');
        logger.info({ closed }, 'episodes closed; sandboxes destroyed');
      })();
      return shutdownPromise;
    },
  };
  return manager;
}
