import { randomUUID } from 'node:crypto';
import { linkSignals } from '../abort.js';
import { NotFoundError } from '../errors.js';
import type { Logger } from '../logging.js';
import { mapSettledWithConcurrency } from '../shared/map-with-concurrency.js';
import type { LoadedTask } from '../tasks/types.js';
import type { CloseReason, Episode } from './episode.js';
import { computeGroupAdvantages } from './group-advantages.js';
import type { CallOptions, ResetGroupResult, ResetResult, RewardGroupResult, RewardResult } from './types.js';

/** What the groups need of the episode manager, which owns every episode. */
export interface EpisodeGroupsOptions {
  /** Creates and registers a member episode of `groupId` (no sandbox yet). */
  newEpisode(task: LoadedTask, groupId: string): Episode;
  /** Starts an episode's sandbox; a failed start has already closed and forgotten that episode. */
  startEpisode(episode: Episode, signal: AbortSignal): Promise<ResetResult>;
  /** The episode while the manager remembers it. */
  episode(id: string): Episode | undefined;
  /** Closes these episodes (unknown ids skipped); returns how many this call closed. */
  closeEpisodes(ids: readonly string[], reason: CloseReason): Promise<number>;
  /** Forgets these episodes (they were closed). */
  forgetEpisodes(ids: readonly string[]): void;
  /** Sandboxes started (or scored) at once by a group's Reset and Reward. */
  concurrency: number;
  /** Aborted when the server shuts down: a group still starting stops and is closed. */
  stopping: AbortSignal;
  logger: Logger;
}

/** The GRPO groups of one server: ResetGroup, RewardGroup (with advantages) and Close of a group. */
export interface EpisodeGroups {
  /**
   * Creates a group of `groupSize` episodes of `task` now and starts them: all or nothing (one
   * failure, or a cancelled call, closes them all). The caller has checked capacity.
   */
  reset(task: LoadedTask, groupSize: number, options?: CallOptions): Promise<ResetGroupResult>;
  /**
   * Scores every member (once each) and computes the group's advantages; a member that cannot be
   * scored counts as INFRA_ERROR and is masked out. Throws `NotFoundError` at once for an unknown group.
   */
  reward(groupId: string): Promise<RewardGroupResult>;
  /** Closes every member; idempotent. Throws `NotFoundError` for an unknown group. */
  close(groupId: string): Promise<number>;
  /** Forgets groups none of whose episodes the manager remembers. */
  sweep(): void;
}

export function createEpisodeGroups(options: EpisodeGroupsOptions): EpisodeGroups {
  const { logger, concurrency } = options;
  /** Member episode ids per group, in the order Reset returned them. */
  const groups = new Map<string, string[]>();

  function membersOrThrow(groupId: string, hint?: string): string[] {
    const ids = groups.get(groupId);
    if (!ids) throw new NotFoundError('group', groupId, hint);
    return ids;
  }

  async function start(groupId: string, members: readonly Episode[], callOptions: CallOptions | undefined): Promise<ResetGroupResult> {
    const failed = new AbortController();
    const linked = linkSignals([callOptions?.signal, options.stopping, failed.signal]);
    try {
      const settled = await mapSettledWithConcurrency(members, concurrency, async (episode) => {
        if (linked.signal.aborted) throw linked.signal.reason;
        try {
          return await options.startEpisode(episode, linked.signal);
        } catch (err) {
          failed.abort(err);
          throw err;
        }
      });
      const firstFailure = settled.find((s): s is PromiseRejectedResult => s.status === 'rejected');
      if (firstFailure) {
        const ids = members.map((e) => e.id);
        await options.closeEpisodes(ids, 'reset-failed');
        options.forgetEpisodes(ids);
        groups.delete(groupId);
        logger.warn({ groupId, err: firstFailure.reason }, 'group reset failed; started episodes closed');
        throw firstFailure.reason;
      }
      return { groupId, episodes: settled.map((s) => (s as PromiseFulfilledResult<ResetResult>).value) };
    } finally {
      linked.dispose();
    }
  }

  return {
    reset(task, groupSize, callOptions) {
      const groupId = `grp-${randomUUID()}`;
      const members = Array.from({ length: groupSize }, () => options.newEpisode(task, groupId));
      groups.set(
        groupId,
        members.map((e) => e.id),
      );
      return start(groupId, members, callOptions);
    },

    reward(groupId) {
      const ids = membersOrThrow(groupId, 'it may have expired; ResetGroup a new one');
      return (async () => {
        const settled = await mapSettledWithConcurrency(ids, concurrency, async (id) => {
          const episode = options.episode(id);
          if (!episode) throw new NotFoundError('episode', id);
          return episode.cachedReward ?? (await episode.reward());
        });
        // An episode that cannot be scored (closed early, forgotten) is an infra error for the group,
        // masked out of the statistics rather than failing the whole call.
        const rewards = settled.map((s, i): RewardResult =>
          s.status === 'fulfilled'
            ? s.value
            : {
                episodeId: ids[i] ?? '',
                reward: 0,
                outcome: 'INFRA_ERROR',
                passed: 0,
                total: 0,
                tests: [],
                detail: s.reason instanceof Error ? s.reason.message : String(s.reason),
                durationMs: 0,
              },
        );
        const { advantages, mask, mean, std } = computeGroupAdvantages(rewards);
        logger.info({ groupId, mean, std, masked: mask.filter((m) => !m).length }, 'group scored');
        return { groupId, rewards, advantages, mask };
      })();
    },

    close(groupId) {
      return options.closeEpisodes(membersOrThrow(groupId), 'client');
    },

    sweep() {
      for (const [groupId, ids] of groups) {
        if (ids.every((id) => !options.episode(id))) groups.delete(groupId);
      }
    },
  };
}
