import { runtimeSpecFields } from '../tasks/task-runtime.js';
import type { Limits } from '../config/limits.js';
import { linkSignals } from '../abort.js';
import { CodeMidasError, FailedPreconditionError, SandboxAbortedError, UnavailableError } from '../errors.js';
import type { Logger } from '../logging.js';
import type { FileEntry, Sandbox, SandboxEnd, SandboxProvider, SandboxSpec } from '../sandbox/types.js';
import type { Scorer, ScoreResult } from '../scoring/types.js';
import type { LoadedTask } from '../tasks/types.js';
import { type EpisodeState, transition } from './episode-state.js';
import { runAction } from './run-action.js';
import type { Action, CallOptions, Observation, RewardResult, StepResult } from './types.js';

/** The agent user inside every sandbox owns the workspace. */
export const AGENT_UID = 1000;
export const AGENT_GID = 1000;

/** Answers kept for retries of an earlier step_index; older ones are refused. */
export const STEP_ANSWERS_KEPT = 16;

/** Kept between a command's limit and the caller's deadline, so the answer still arrives in time. */
const DEADLINE_MARGIN_MS = 250;

/** Scoring gets the task's own limit plus this much for starting the scoring sandbox and reading out. */
const SCORING_OVERHEAD_MS = 60_000;

/**
 * Read-out caps: a file over READOUT_MAX_FILE_BYTES, or past READOUT_MAX_TOTAL_BYTES in all, is read
 * past without its bytes (the scorer then drops it and lists it), so one huge file never costs the
 * read-out. Both sit above the scorer's own caps (1 MiB a file, 16 MiB in all, by default).
 */
export const READOUT_MAX_FILE_BYTES = 4 * 1024 * 1024;
export const READOUT_MAX_TOTAL_BYTES = 64 * 1024 * 1024;

/** How long a step waits to learn how a sandbox that stopped answering ended (the engine is asked). */
const END_ATTRIBUTION_WAIT_MS = 40_000;
/** How long a failed call waits for the sandbox to report that it ended (its stream's end may lag). */
const END_NOTICE_WAIT_MS = 1_500;

export interface EpisodeInit {
  id: string;
  groupId: string | null;
  task: LoadedTask;
  limits: Readonly<Limits>;
  scorer: Scorer;
  logger: Logger;
  now: () => number;
}

export type CloseReason = 'client' | 'expired' | 'shutdown' | 'reset-failed';

/**
 * One episode: a sandbox holding the task's workspace, driven through an explicit state machine
 * (`episode-state.ts`). Steps are numbered by the client; a repeated index returns the kept answer
 * (safe retries), a gap is refused. Reward is computed once and shared by concurrent callers.
 */
export class Episode {
  readonly id: string;
  readonly groupId: string | null;
  readonly task: LoadedTask;
  readonly limits: Readonly<Limits>;
  readonly workdir: string;
  state: EpisodeState = 'starting';
  /** Set when Close (or expiry) ran; tombstones are pruned after a while. */
  closedAtMs: number | null = null;
  lastActivityMs: number;

  private readonly scorer: Scorer;
  private readonly logger: Logger;
  private readonly now: () => number;
  private readonly lifetime = new AbortController();
  private sandbox: Sandbox | null = null;
  private startedAtMs: number;
  private nextIndex = 0;
  private readonly answers = new Map<number, StepResult>();
  private inFlight: { index: number; promise: Promise<StepResult> } | null = null;
  private budgetSpent: 'steps' | 'wall' | null = null;
  private rewardPromise: Promise<RewardResult> | null = null;
  private rewardResult: RewardResult | null = null;
  /** The sandbox's removal started after scoring, which Close waits for. */
  private releasing: Promise<void> | null = null;
  /** Why the sandbox stopped during a step, when it did (`ended` or `failed`). */
  private endReason: string | null = null;

  constructor(init: EpisodeInit) {
    this.id = init.id;
    this.groupId = init.groupId;
    this.task = init.task;
    this.limits = init.limits;
    this.workdir = init.task.file.workdir;
    this.scorer = init.scorer;
    this.logger = init.logger;
    this.now = init.now;
    this.startedAtMs = init.now();
    this.lastActivityMs = this.startedAtMs;
  }

  /** True while the episode holds (or is creating) a sandbox: what counts against capacity. */
  get holdsSandbox(): boolean {
    return (
      this.state === 'starting' ||
      this.state === 'ready' ||
      this.state === 'stepping' ||
      this.state === 'submitted' ||
      this.state === 'ended' ||
      this.state === 'scoring'
    );
  }

  get sandboxId(): string | null {
    return this.sandbox?.id ?? null;
  }

  /**
   * Creates the sandbox and, unless it starts from `workspaceImage` (the workspace baked in), copies
   * the workspace in: `starting` → `ready`.
   */
  async start(
    provider: SandboxProvider,
    workspace: readonly FileEntry[],
    options: { signal: AbortSignal; expiresAt: Date; workspaceImage?: string | null },
  ): Promise<void> {
    const linked = linkSignals([options.signal, this.lifetime.signal]);
    try {
      await this.startSandbox(provider, workspace, options, linked.signal);
    } finally {
      linked.dispose();
    }
  }

  private async startSandbox(
    provider: SandboxProvider,
    workspace: readonly FileEntry[],
    options: { expiresAt: Date; workspaceImage?: string | null },
    signal: AbortSignal,
  ): Promise<void> {
    const baked = options.workspaceImage ?? null;
    const spec: SandboxSpec = {
      image: baked ?? provider.imageFor(this.task.file.runtime.image),
      role: 'episode',
      workdir: this.workdir,
      resources: { memoryBytes: 1024 ** 3, cpus: 1, pids: 256 },
      labels: {
        'codemidas.episode': this.id,
        'codemidas.task': this.task.id,
        ...(this.groupId ? { 'codemidas.group': this.groupId } : {}),
      },
      expiresAt: options.expiresAt,
      // A baked image was built on the scrubbed one, with the dependencies.
      ...(baked === null ? runtimeSpecFields(this.task.file.runtime) : {}),
    };
    const sandbox = await provider.create(spec, { signal });
    if (this.state === 'closed') {
      await sandbox.destroy();
      throw new FailedPreconditionError(`episode '${this.id}' was closed while starting`);
    }
    this.sandbox = sandbox;
    this.logger.debug({ sandboxId: sandbox.id, image: spec.image }, 'sandbox created');
    if (baked === null) {
      await sandbox.putFiles(
        this.workdir,
        workspace.map((entry) => ({ ...entry, uid: AGENT_UID, gid: AGENT_GID })),
        { signal },
      );
    }
    // The wall budget runs from the moment the agent can act.
    this.startedAtMs = this.now();
    this.lastActivityMs = this.startedAtMs;
    transition(this, 'ready', this.logger);
  }

  /** Runs (or replays) step `index`. */
  async step(index: number, action: Action, options: CallOptions = {}): Promise<StepResult> {
    this.lastActivityMs = this.now();
    if (this.state === 'closed') throw new FailedPreconditionError(`episode '${this.id}' is closed; Reset a new episode`);
    if (index < this.nextIndex) {
      const kept = this.answers.get(index);
      if (kept) return kept;
      throw new FailedPreconditionError(
        `step_index ${index} is older than the last ${STEP_ANSWERS_KEPT} answers kept; the next step_index is ${this.nextIndex}`,
      );
    }
    if (this.inFlight && this.inFlight.index === index) return this.inFlight.promise;
    if (index > this.nextIndex) {
      throw new FailedPreconditionError(`step_index ${index} skips ahead: the next step_index is ${this.nextIndex}`);
    }
    switch (this.state) {
      case 'failed':
        throw new SandboxAbortedError(this.sandboxId ?? '', `episode '${this.id}' failed: its sandbox was stopped from outside (${this.endReason ?? 'it died'}); Reset a new episode`);
      case 'ended':
        throw new FailedPreconditionError(
          `episode '${this.id}' has ended: its sandbox stopped because of what ran in it (${this.endReason ?? 'unknown'}); call Reward (the workspace is scored as it stands), then Close`,
        );
      case 'submitted':
      case 'scoring':
      case 'scored':
        throw new FailedPreconditionError(`episode '${this.id}' was submitted; call Reward, then Close`);
      case 'starting':
      case 'stepping':
        throw new FailedPreconditionError(`episode '${this.id}' is ${this.state}; wait for the previous call to answer`);
      case 'ready':
        break;
    }
    if (this.budgetSpent) {
      const what = this.budgetSpent === 'steps' ? `step budget of ${this.limits.maxSteps} steps` : `wall-time budget of ${this.limits.maxWallMs} ms`;
      throw new FailedPreconditionError(`episode '${this.id}': the ${what} is spent; call Reward, then Close`);
    }
    transition(this, 'stepping', this.logger);
    const promise = this.runStep(index, action, options);
    this.inFlight = { index, promise };
    try {
      return await promise;
    } finally {
      if (this.inFlight?.promise === promise) this.inFlight = null;
    }
  }

  private async runStep(index: number, action: Action, options: CallOptions): Promise<StepResult> {
    const wallLeftMs = this.startedAtMs + this.limits.maxWallMs - this.now();
    if (wallLeftMs <= 0) {
      this.budgetSpent = 'wall';
      const observation = failure(`the episode's wall-time budget of ${this.limits.maxWallMs} ms is spent; call Reward`);
      return this.record(index, { observation, terminated: false, truncated: true, stepIndex: index }, 'ready');
    }
    if (action.kind === 'submit') {
      const observation: Observation = { stdout: 'submitted', stderr: '', exitCode: 0, timedOut: false, truncated: false, durationMs: 0 };
      return this.record(index, { observation, terminated: true, truncated: false, stepIndex: index }, 'submitted');
    }
    const deadlineLeftMs = options.deadline ? options.deadline.getTime() - Date.now() - DEADLINE_MARGIN_MS : Number.POSITIVE_INFINITY;
    const sandbox = this.sandbox;
    if (!sandbox) throw new FailedPreconditionError(`episode '${this.id}' has no sandbox`);
    const linked = linkSignals([options.signal, this.lifetime.signal]);
    let observation: Observation;
    const started = performance.now();
    try {
      observation = await runAction(action, {
        sandbox,
        limits: this.limits,
        workdir: this.workdir,
        budgetMs: Math.max(1, Math.min(wallLeftMs, deadlineLeftMs)),
        signal: linked.signal,
      });
    } catch (err) {
      const end = this.state === 'closed' || linked.signal.aborted ? null : await endOf(sandbox, END_NOTICE_WAIT_MS);
      if (end?.by !== 'inside') throw await this.stepFailed(err, linked.signal, end);
      // What the agent ran stopped its own sandbox: this step says so, and the episode is over but
      // still scored as its workspace stands (an outcome the agent caused is never INFRA_ERROR).
      this.endReason = end.reason;
      this.logger.info({ sandboxId: sandbox.id, reason: end.reason }, 'the agent ended its sandbox');
      const ended: Observation = {
        stdout: '',
        stderr:
          `codemidas: the sandbox stopped during this step: ${end.reason}. ` +
          'The episode is over; its workspace will be scored as it stands: call Reward, then Close.\n',
        exitCode: 137,
        timedOut: false,
        truncated: false,
        durationMs: Math.round(performance.now() - started),
      };
      return this.record(index, { observation: ended, terminated: true, truncated: false, stepIndex: index }, 'ended');
    } finally {
      linked.dispose();
    }
    if (this.state === 'closed') throw new FailedPreconditionError(`episode '${this.id}' was closed during step ${index}`);
    let truncated = false;
    if (index + 1 >= this.limits.maxSteps) {
      this.budgetSpent = 'steps';
      truncated = true;
    } else if (this.now() >= this.startedAtMs + this.limits.maxWallMs) {
      this.budgetSpent = 'wall';
      truncated = true;
    }
    return this.record(index, { observation, terminated: false, truncated, stepIndex: index }, 'ready');
  }

  /**
   * Sorts a failure from inside a step that the agent did not cause: the caller went away, the
   * engine is down, or the sandbox was stopped from outside (`end`).
   */
  private async stepFailed(err: unknown, signal: AbortSignal, end: SandboxEnd | null): Promise<Error> {
    if (this.state === 'closed') return new FailedPreconditionError(`episode '${this.id}' was closed during the step`);
    if (signal.aborted) {
      // The caller cancelled or ran out of time: the step index is not used up, so a retry runs it.
      transition(this, 'ready', this.logger, 'step cancelled');
      return new CodeMidasError('DEADLINE_EXCEEDED', 'the step was cancelled before it finished; retry the same step_index');
    }
    if (err instanceof UnavailableError) {
      transition(this, 'ready', this.logger, 'engine unavailable');
      return err;
    }
    const sandboxId = this.sandboxId ?? '';
    this.endReason = end?.reason ?? messageOf(err);
    this.logger.warn({ err, sandboxId, reason: this.endReason }, 'sandbox failed during a step');
    transition(this, 'failed', this.logger, 'sandbox stopped from outside');
    await this.releaseSandbox();
    const what = end ? `its sandbox was stopped from outside (${end.reason})` : `its sandbox failed (${this.endReason})`;
    return new SandboxAbortedError(sandboxId, `episode '${this.id}' failed: ${what}; Reset a new episode`, { cause: err });
  }

  private record(index: number, result: StepResult, next: 'ready' | 'submitted' | 'ended'): StepResult {
    this.answers.set(index, result);
    this.answers.delete(index - STEP_ANSWERS_KEPT);
    this.nextIndex = index + 1;
    transition(this, next, this.logger);
    return result;
  }

  /**
   * Scores the workspace once; later and concurrent calls share the result. Allowed after Submit,
   * from `ready` (the agent stopped without submitting) and from `ended` (the agent's commands
   * stopped its sandbox: scored as the workspace stands). A failed episode reports INFRA_ERROR.
   */
  reward(): Promise<RewardResult> {
    this.lastActivityMs = this.now();
    if (this.rewardResult) return Promise.resolve(this.rewardResult);
    if (this.rewardPromise) return this.rewardPromise;
    switch (this.state) {
      case 'closed':
        return Promise.reject(new FailedPreconditionError(`episode '${this.id}' was closed before it was scored; Reset a new episode`));
      case 'failed':
        this.rewardResult = this.infraResult(`the episode's sandbox was stopped from outside before scoring: ${this.endReason ?? 'it died'}`, 0);
        return Promise.resolve(this.rewardResult);
      case 'starting':
      case 'stepping':
        return Promise.reject(new FailedPreconditionError(`episode '${this.id}' is ${this.state}; call Reward after the step answers`));
      case 'ready':
      case 'submitted':
      case 'ended':
      case 'scoring':
      case 'scored':
        break;
    }
    transition(this, 'scoring', this.logger);
    this.rewardPromise = this.score();
    return this.rewardPromise;
  }

  private async score(): Promise<RewardResult> {
    const result = await this.scoreOnce();
    this.rewardResult = result;
    this.logger.info({ reward: result.reward, outcome: result.outcome, passed: result.passed, total: result.total }, 'scored');
    if (this.state === 'scoring') {
      transition(this, 'scored', this.logger);
      // Nothing can run in this sandbox any more: free it now rather than at Close, without holding
      // the answer for the removal (~0.2 s). Close waits for it.
      this.releasing = this.releaseSandbox();
    }
    return result;
  }

  /**
   * Pauses the sandbox (or finds it stopped), reads the workspace out through the engine and scores
   * it elsewhere; never throws. A sandbox the agent's commands stopped is read out as it stands and
   * scored (SCORED, the cause in the detail); one stopped from outside is INFRA_ERROR.
   */
  private async scoreOnce(): Promise<RewardResult> {
    const started = performance.now();
    const signal = AbortSignal.any([this.lifetime.signal, AbortSignal.timeout(this.task.file.tests.timeoutMs + SCORING_OVERHEAD_MS)]);
    let workspace: FileEntry[];
    let end: SandboxEnd | null = null;
    try {
      const sandbox = this.sandbox;
      if (!sandbox) throw new Error('the sandbox is gone');
      end = sandbox.ended() ? await endOf(sandbox, 0) : null;
      if (end === null) {
        try {
          await sandbox.pause();
        } catch (err) {
          // It may have stopped a moment ago (a background process of the agent's killing everything).
          end = await endOf(sandbox, END_NOTICE_WAIT_MS);
          if (end === null) throw err;
        }
        end ??= sandbox.ended() ? await endOf(sandbox, 0) : null;
      }
      if (end?.by === 'outside') {
        return this.infraResult(`the episode's sandbox was stopped from outside before scoring: ${end.reason}`, performance.now() - started);
      }
      workspace = await sandbox.getFiles(this.workdir, { signal, maxFileBytes: READOUT_MAX_FILE_BYTES, maxTotalBytes: READOUT_MAX_TOTAL_BYTES });
    } catch (err) {
      this.logger.warn({ err }, 'reading the workspace out failed');
      return this.infraResult(`could not read the workspace out of the sandbox: ${messageOf(err)}`, performance.now() - started);
    }
    try {
      const scored: ScoreResult = await this.scorer.score({ task: this.task, workspace, signal });
      const reason = this.endReason ?? end?.reason;
      const detail = reason ? `the sandbox had stopped before scoring (${reason}); scored as its workspace stood; ${scored.detail}` : scored.detail;
      return { ...scored, detail, episodeId: this.id };
    } catch (err) {
      this.logger.error({ err }, 'scoring failed');
      return this.infraResult(`scoring failed: ${messageOf(err)}`, performance.now() - started);
    }
  }

  private infraResult(detail: string, durationMs: number): RewardResult {
    return { episodeId: this.id, reward: 0, outcome: 'INFRA_ERROR', passed: 0, total: 0, tests: [], detail, durationMs: Math.round(durationMs) };
  }

  /** The reward if it was computed, even after Close. */
  get cachedReward(): RewardResult | null {
    return this.rewardResult;
  }

  /** True when no call is running and none came for `idleExpiryMs`. */
  isIdleExpired(nowMs: number): boolean {
    if (this.state === 'closed' || this.state === 'starting' || this.state === 'stepping' || this.state === 'scoring') return false;
    return nowMs - this.lastActivityMs >= this.limits.idleExpiryMs;
  }

  /** Idempotent: returns true when this call closed the episode. Aborts work in flight, destroys the sandbox. */
  async close(reason: CloseReason): Promise<boolean> {
    if (this.state === 'closed') return false;
    transition(this, 'closed', this.logger, reason);
    this.closedAtMs = this.now();
    const closed = new FailedPreconditionError(`episode '${this.id}' was closed`);
    // Format the stack now: until then V8 keeps every frame's receiver reachable from the error, so
    // the closed episode (remembered for closedRetentionMs) would keep its Close's gRPC call alive.
    void closed.stack;
    this.lifetime.abort(closed);
    this.answers.clear();
    await Promise.all([this.releasing, this.releaseSandbox()]);
    return true;
  }

  private async releaseSandbox(): Promise<void> {
    const sandbox = this.sandbox;
    this.sandbox = null;
    if (!sandbox) return;
    try {
      await sandbox.destroy();
    } catch (err) {
      // The reaper removes what destroy could not (labels carry the expiry and owner).
      this.logger.warn({ err, sandboxId: sandbox.id }, 'destroying the sandbox failed; the reaper will remove it');
    }
  }
}

/**
 * How `sandbox` ended, once known; null when it has not ended (within `noticeMs`, for a call that
 * just failed: its stream's end may trail the failure). Waits at most END_ATTRIBUTION_WAIT_MS for
 * the attribution; past it the end counts as the agent's (the sandbox stopped answering it).
 */
async function endOf(sandbox: Sandbox, noticeMs: number): Promise<SandboxEnd | null> {
  let ended = sandbox.ended();
  for (const until = Date.now() + noticeMs; ended === null && Date.now() < until; ended = sandbox.ended()) {
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  if (ended === null) return null;
  let timer: NodeJS.Timeout | undefined;
  const late: SandboxEnd = { by: 'inside', reason: `it stopped answering, and the engine did not say why within ${END_ATTRIBUTION_WAIT_MS} ms` };
  try {
    return await Promise.race([ended, new Promise<SandboxEnd>((resolve) => (timer = setTimeout(() => resolve(late), END_ATTRIBUTION_WAIT_MS)))]);
  } finally {
    clearTimeout(timer);
  }
}

function failure(stderr: string): Observation {
  return { stdout: '', stderr, exitCode: 1, timedOut: false, truncated: false, durationMs: 0 };
}

function messageOf(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
