import { FATAL_LLM_ERRORS } from '../agents/llm-agent.js';
import type { Agent, AgentRun } from '../agents/types.js';
import type { EnvironmentClient, RemoteEpisode, RemoteGroupReward } from '../client/environment-client.js';
import type { Action } from '../episodes/types.js';
import { toWireMessages } from '../llm/wire-messages.js';
import { mapSettledWithConcurrency } from '../shared/map-with-concurrency.js';
import { TRAJECTORY_SCHEMA_VERSION, type Trajectory, type TrajectoryObservation } from './trajectory-schema.js';

export interface RolloutOptions {
  client: EnvironmentClient;
  /** Tasks to draw groups from: group i runs `taskIds[i % taskIds.length]`. */
  taskIds: readonly string[];
  groupSize: number;
  groups: number;
  /** Groups in flight at once. */
  concurrency: number;
  /** The policy of member `member` of a group (mixing policies in one group is allowed). */
  agentFor: (member: number) => Agent;
  /** Seed of group i is `seed + i`. Default 0. */
  seed?: number;
  runId: string;
  /** Receives each finished episode, in the order groups finish. */
  write: (trajectory: Trajectory) => Promise<void>;
  onProgress?: (progress: RolloutProgress) => void;
  signal?: AbortSignal;
}

export interface RolloutProgress {
  groupsDone: number;
  groups: number;
  episodesDone: number;
  solved: number;
  elapsedMs: number;
}

/** A group that could not run at all (ResetGroup refused, RewardGroup failed). */
export interface GroupFailure {
  index: number;
  task: string;
  error: string;
}

export interface TaskTally {
  task: string;
  episodes: number;
  solved: number;
  failed: number;
  /** INFRA_ERROR episodes: left out of pass rates. */
  infra: number;
  /** Episodes whose agent ended in an LLM or environment error. */
  agentErrors: number;
  rewardSum: number;
}

export interface RolloutSummary {
  runId: string;
  groupsRun: number;
  episodes: number;
  solved: number;
  infra: number;
  wallMs: number;
  episodesPerMinute: number;
  tasks: TaskTally[];
  groupFailures: GroupFailure[];
  /** Set when an LLM failure no other episode can avoid stopped the run (endpoint down, model not served, key refused). */
  fatal: string | null;
}

/**
 * The rollout worker: for each group, ResetGroup → the G agents run concurrently (each Step relayed
 * and recorded) → RewardGroup → Close, then one trajectory per episode. A group that fails is
 * recorded and the run goes on; an LLM failure that every episode would hit stops new groups from
 * starting (the ones in flight finish and are written).
 */
export async function runRollouts(options: RolloutOptions): Promise<RolloutSummary> {
  const started = performance.now();
  const seed = options.seed ?? 0;
  const tallies = new Map<string, TaskTally>();
  const failures: GroupFailure[] = [];
  let fatal: string | null = null;
  let groupsDone = 0;
  let groupsRun = 0;
  let episodesDone = 0;
  let solvedTotal = 0;
  let infraTotal = 0;
  const report = (): void =>
    options.onProgress?.({ groupsDone, groups: options.groups, episodesDone, solved: solvedTotal, elapsedMs: performance.now() - started });

  const indices = Array.from({ length: options.groups }, (_, i) => i);
  await mapSettledWithConcurrency(indices, Math.max(1, options.concurrency), async (index) => {
    const task = options.taskIds[index % options.taskIds.length];
    if (task === undefined || fatal !== null || options.signal?.aborted) return;
    groupsRun++;
    try {
      const trajectories = await runGroup(options, task, index, seed + index);
      for (const t of trajectories) {
        await options.write(t);
        const tally = tallies.get(t.task) ?? { task: t.task, episodes: 0, solved: 0, failed: 0, infra: 0, agentErrors: 0, rewardSum: 0 };
        tally.episodes++;
        tally.rewardSum += t.reward;
        if (t.outcome === 'INFRA_ERROR') tally.infra++;
        else if (t.solved) tally.solved++;
        else tally.failed++;
        if (t.agentStatus === 'llm-error' || t.agentStatus === 'env-error') tally.agentErrors++;
        tallies.set(t.task, tally);
        episodesDone++;
        if (t.solved) solvedTotal++;
        if (t.outcome === 'INFRA_ERROR') infraTotal++;
        if (fatal === null && t.llmErrorKind !== null && FATAL_LLM_ERRORS.has(t.llmErrorKind as never)) fatal = t.agentReason;
      }
    } catch (err) {
      failures.push({ index, task, error: err instanceof Error ? err.message : String(err) });
    } finally {
      groupsDone++;
      report();
    }
  });

  const wallMs = performance.now() - started;
  return {
    runId: options.runId,
    groupsRun,
    episodes: episodesDone,
    solved: solvedTotal,
    infra: infraTotal,
    wallMs,
    episodesPerMinute: wallMs > 0 ? (episodesDone * 60_000) / wallMs : 0,
    tasks: [...tallies.values()].sort((a, b) => (a.task < b.task ? -1 : a.task > b.task ? 1 : 0)),
    groupFailures: failures.sort((a, b) => a.index - b.index),
    fatal,
  };
}

interface EpisodeRecord {
  episode: RemoteEpisode;
  agent: Agent;
  run: AgentRun;
  actions: Action[];
  observations: TrajectoryObservation[];
  agentMs: number;
  startedAt: string;
}

async function runGroup(options: RolloutOptions, task: string, index: number, seed: number): Promise<Trajectory[]> {
  const { client } = options;
  const t0 = performance.now();
  const { groupId, episodes } = await client.resetGroup(task, options.groupSize, seed);
  const resetMs = performance.now() - t0;
  let reward: RemoteGroupReward;
  let rewardMs: number;
  let records: EpisodeRecord[];
  try {
    records = await Promise.all(episodes.map((episode, member) => runEpisode(options, episode, options.agentFor(member))));
    const t1 = performance.now();
    reward = await client.rewardGroup(groupId);
    rewardMs = performance.now() - t1;
  } finally {
    await client.close({ groupId }).catch(() => undefined);
  }
  const suite = task.split('/', 1)[0] ?? '';
  return records.map((r, member): Trajectory => {
    const score = reward.rewards[member];
    const outcome = score?.outcome ?? 'INFRA_ERROR';
    return {
      schema: 'codemidas.trajectory',
      schemaVersion: TRAJECTORY_SCHEMA_VERSION,
      runId: options.runId,
      task,
      suite,
      episodeId: r.episode.episodeId,
      group: { id: groupId, index, size: episodes.length, member },
      seed,
      agent: { name: r.agent.name, model: r.agent.model },
      prompt: r.episode.prompt,
      messages: toWireMessages(r.run.messages),
      actions: r.actions,
      observations: r.observations,
      agentStatus: r.run.status,
      agentReason: r.run.reason,
      llmErrorKind: r.run.llmErrorKind,
      usage: { llmCalls: r.run.llmCalls, promptTokens: r.run.promptTokens, completionTokens: r.run.completionTokens },
      reward: score?.reward ?? 0,
      outcome,
      solved: outcome === 'SCORED' && (score?.reward ?? 0) >= 1,
      testsPassed: score?.passed ?? 0,
      testsTotal: score?.total ?? 0,
      scoreDetail: score?.detail ?? 'RewardGroup returned no score for this episode',
      advantage: reward.advantages[member] ?? 0,
      mask: reward.mask[member] ?? false,
      timings: { resetMs, agentMs: r.agentMs, rewardMs, totalMs: resetMs + r.agentMs + rewardMs },
      startedAt: r.startedAt,
    };
  });
}

/** Runs one agent with a channel that relays and records each Step. Never throws. */
async function runEpisode(options: RolloutOptions, episode: RemoteEpisode, agent: Agent): Promise<EpisodeRecord> {
  const actions: Action[] = [];
  const observations: TrajectoryObservation[] = [];
  let stepIndex = 0;
  const channel = {
    step: async (action: Action) => {
      const index = stepIndex++;
      actions.push(action);
      try {
        const result = await options.client.step(episode.episodeId, index, action);
        observations.push({ stepIndex: index, ...result.observation, terminated: result.terminated, episodeTruncated: result.truncated, error: null });
        return result;
      } catch (err) {
        const error = err instanceof Error ? err.message : String(err);
        observations.push({ stepIndex: index, stdout: '', stderr: '', exitCode: -1, timedOut: false, truncated: false, durationMs: 0, terminated: false, episodeTruncated: false, error });
        throw err;
      }
    },
  };
  const startedAt = new Date().toISOString();
  const t0 = performance.now();
  const signal = options.signal ?? new AbortController().signal;
  let run: AgentRun;
  try {
    run = await agent.run(episode, channel, signal);
  } catch (err) {
    // Agents do not throw; one that does is a bug, recorded rather than taking the group down.
    const reason = `the ${agent.name} agent failed: ${err instanceof Error ? err.message : String(err)}`;
    run = { status: 'env-error', reason, llmErrorKind: null, messages: [], llmCalls: 0, promptTokens: 0, completionTokens: 0 };
  }
  return { episode, agent, run, actions, observations, agentMs: performance.now() - t0, startedAt };
}
