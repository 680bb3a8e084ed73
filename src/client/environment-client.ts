import { status as GrpcStatus, type ServiceError } from '@grpc/grpc-js';
import type { Action, Observation, RewardResult, StepResult, ToolSpec } from '../episodes/types.js';
import type { ScoreOutcome, TestOutcome } from '../scoring/types.js';
import { EnvironmentGrpcClient } from './environment-grpc-client.js';

/** A task as ListTasks gives it. */
export interface RemoteTask {
  taskId: string;
  suite: string;
  language: string;
  title: string;
  /** Pass rate of a reference policy, or null when the task has none. */
  difficulty: number | null;
}

/** One episode as Reset / ResetGroup start it. */
export interface RemoteEpisode {
  episodeId: string;
  taskId: string;
  prompt: string;
  workdir: string;
  tools: ToolSpec[];
  limits: { maxSteps: number; maxWallMs: number; maxCommandMs: number; maxOutputBytes: number; maxFileBytes: number };
}

/** One episode's score, as Reward / RewardGroup give it. */
export type RemoteReward = RewardResult;

export interface RemoteGroupReward {
  groupId: string;
  rewards: RemoteReward[];
  advantages: number[];
  mask: boolean[];
}

/** A failed call, with the gRPC status name (`NOT_FOUND`, `UNAVAILABLE`, ...) and the server's words. */
export class RemoteCallError extends Error {
  readonly codeName: string;
  readonly method: string;
  constructor(method: string, codeName: string, details: string, options?: { cause?: unknown }) {
    super(`${method}: ${codeName}: ${details}`, options);
    this.name = 'RemoteCallError';
    this.method = method;
    this.codeName = codeName;
  }
}

export interface EnvironmentClientOptions {
  /** Bearer token for a server that requires one. */
  token?: string | undefined;
  /** Deadline of one call. Default 300000 (a Reward runs the hidden tests). */
  deadlineMs?: number;
  /** Retries of a call that is safe to repeat when the server answers UNAVAILABLE. Default 3. */
  retries?: number;
}

/**
 * A typed client of `codemidas.v1.Environment` for rollout workers: wire messages in the domain's
 * shapes, errors as `RemoteCallError`. Step (same index), Reward, RewardGroup and Close are repeated
 * on UNAVAILABLE; Reset and ResetGroup never are (a repeat would start a second episode).
 */
export class EnvironmentClient {
  readonly address: string;
  readonly #grpc: EnvironmentGrpcClient;
  readonly #deadlineMs: number;
  readonly #retries: number;

  constructor(address: string, options: EnvironmentClientOptions = {}) {
    this.address = address;
    this.#grpc = new EnvironmentGrpcClient(address, options.token);
    this.#deadlineMs = options.deadlineMs ?? 300_000;
    this.#retries = options.retries ?? 3;
  }

  async waitReady(timeoutMs: number): Promise<void> {
    try {
      await this.#grpc.waitReady(timeoutMs);
    } catch (err) {
      throw new RemoteCallError('connect', 'UNAVAILABLE', `no CodeMidas server answers at ${this.address} within ${timeoutMs} ms; start one with \`codemidas serve\` or check --server`, { cause: err });
    }
  }

  async listTasks(filter: { suite?: string; language?: string } = {}): Promise<RemoteTask[]> {
    const res = await this.#call<{ tasks: WireTask[] }>('ListTasks', { suite: filter.suite ?? '', language: filter.language ?? '' }, true);
    return res.tasks.map((t) => ({
      taskId: t.task_id,
      suite: t.suite,
      language: t.language,
      title: t.title,
      difficulty: t.difficulty >= 0 ? t.difficulty : null,
    }));
  }

  async reset(taskId: string, seed = 0): Promise<RemoteEpisode> {
    return decodeReset(await this.#call<WireReset>('Reset', { task_id: taskId, seed: String(seed) }, false));
  }

  async resetGroup(taskId: string, groupSize: number, seed = 0): Promise<{ groupId: string; episodes: RemoteEpisode[] }> {
    const res = await this.#call<{ group_id: string; episodes: WireReset[] }>('ResetGroup', { task_id: taskId, group_size: groupSize, seed: String(seed) }, false);
    return { groupId: res.group_id, episodes: res.episodes.map(decodeReset) };
  }

  async step(episodeId: string, stepIndex: number, action: Action): Promise<StepResult> {
    const res = await this.#call<WireStep>('Step', { episode_id: episodeId, step_index: stepIndex, action: encodeAction(action) }, true);
    const o = res.observation;
    const observation: Observation = o
      ? { stdout: o.stdout, stderr: o.stderr, exitCode: o.exit_code, timedOut: o.timed_out, truncated: o.truncated, durationMs: o.duration_ms }
      : { stdout: '', stderr: '', exitCode: 0, timedOut: false, truncated: false, durationMs: 0 };
    return { observation, terminated: res.terminated, truncated: res.truncated, stepIndex: res.step_index };
  }

  /** Scores one episode (idempotent: a repeat returns the same result, so it is retried on UNAVAILABLE). */
  async reward(episodeId: string): Promise<RemoteReward> {
    return decodeReward(await this.#call<WireReward>('Reward', { episode_id: episodeId }, true));
  }

  async rewardGroup(groupId: string): Promise<RemoteGroupReward> {
    const res = await this.#call<{ group_id: string; rewards: WireReward[]; advantages: number[]; mask: boolean[] }>('RewardGroup', { group_id: groupId }, true);
    return { groupId: res.group_id, rewards: res.rewards.map(decodeReward), advantages: res.advantages, mask: res.mask };
  }

  async close(target: { episodeId?: string; groupId?: string }): Promise<void> {
    await this.#call('Close', { episode_id: target.episodeId ?? '', group_id: target.groupId ?? '' }, true);
  }

  dispose(): void {
    this.#grpc.close();
  }

  async #call<T>(method: string, request: object, idempotent: boolean): Promise<T> {
    for (let attempt = 0; ; attempt++) {
      try {
        return await this.#grpc.call<T>(method, request, this.#deadlineMs);
      } catch (err) {
        const code = (err as Partial<ServiceError>).code;
        if (idempotent && code === GrpcStatus.UNAVAILABLE && attempt < this.#retries) {
          await new Promise((r) => setTimeout(r, 200 * 2 ** attempt));
          continue;
        }
        const name = typeof code === 'number' ? (GrpcStatus[code] ?? String(code)) : 'UNKNOWN';
        const details = (err as Partial<ServiceError>).details ?? (err instanceof Error ? err.message : String(err));
        throw new RemoteCallError(method, name, details, { cause: err });
      }
    }
  }
}

interface WireTask {
  task_id: string;
  suite: string;
  language: string;
  title: string;
  difficulty: number;
}
interface WireReset {
  episode_id: string;
  task_id: string;
  prompt: string;
  workdir: string;
  tools: { name: string; description: string; parameters_json: string }[];
  limits: { max_steps: number; max_wall_ms: number; max_command_ms: number; max_output_bytes: number; max_file_bytes: number } | null;
}
interface WireStep {
  observation: { stdout: string; stderr: string; exit_code: number; timed_out: boolean; truncated: boolean; duration_ms: number } | null;
  terminated: boolean;
  truncated: boolean;
  step_index: number;
}
interface WireReward {
  episode_id: string;
  reward: number;
  outcome: string;
  passed: number;
  total: number;
  tests: TestOutcome[];
  detail: string;
  duration_ms: number;
}

function decodeReset(r: WireReset): RemoteEpisode {
  const l = r.limits;
  return {
    episodeId: r.episode_id,
    taskId: r.task_id,
    prompt: r.prompt,
    workdir: r.workdir,
    tools: r.tools.map((t) => ({ name: t.name as ToolSpec['name'], description: t.description, parameters: JSON.parse(t.parameters_json || '{}') as Record<string, unknown> })),
    limits: {
      maxSteps: l?.max_steps ?? 0,
      maxWallMs: l?.max_wall_ms ?? 0,
      maxCommandMs: l?.max_command_ms ?? 0,
      maxOutputBytes: l?.max_output_bytes ?? 0,
      maxFileBytes: l?.max_file_bytes ?? 0,
    },
  };
}

function decodeReward(r: WireReward): RemoteReward {
  const outcome: ScoreOutcome = r.outcome === 'SCORED' || r.outcome === 'TIMEOUT' ? r.outcome : 'INFRA_ERROR';
  return {
    episodeId: r.episode_id,
    reward: r.reward,
    outcome,
    passed: r.passed,
    total: r.total,
    tests: r.tests.map((t) => ({ name: t.name, status: t.status, message: t.message })),
    detail: r.detail,
    durationMs: r.duration_ms,
  };
}

function encodeAction(action: Action): Record<string, unknown> {
  switch (action.kind) {
    case 'shell':
      return { shell: { command: action.command, timeout_ms: action.timeoutMs } };
    case 'read_file':
      return { read_file: { path: action.path, offset: String(action.offset), limit: String(action.limit) } };
    case 'write_file':
      return { write_file: { path: action.path, content: action.content } };
    case 'edit':
      return { edit: { path: action.path, old_text: action.oldText, new_text: action.newText } };
    case 'submit':
      return { submit: {} };
  }
}
