import { readFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import path from 'node:path';
import Docker from 'dockerode';
import { solutionsFromEnvironments, type SolutionSource } from '../agents/oracle-agent.js';
import { EnvironmentClient } from '../client/environment-client.js';
import type { Action } from '../episodes/types.js';
import { mapSettledWithConcurrency } from '../shared/map-with-concurrency.js';
import { LABEL_OWNER_HOST, LABEL_OWNER_PID, LABEL_SERVER } from '../sandbox/docker/docker-sandbox-provider.js';
import { loadCatalog } from '../tasks/load-catalog.js';
import type { LoadedTask } from '../tasks/types.js';
import { elapsedMs, summarizeLatencies, type LatencySummary } from './latency-stats.js';
import { startServerProcess } from './server-process.js';

/** Options of {@link runSoakBench}. */
export interface SoakBenchOptions {
  environmentsDir: string;
  suite: string;
  /** Only this task (default: every task of the suite, in turn). */
  taskId?: string;
  /** Episodes to run. Default 1000. */
  episodes?: number;
  /** Episodes in flight at once. Default 16. */
  concurrency?: number;
  /**
   * Completed episode at which the baseline server RSS is read (the growth is measured from it to
   * the last episode). Default 100, or a tenth of `episodes` (at least 1) when that is fewer.
   */
  rssBaselineEpisode?: number;
  /**
   * Target: server RSS growth from the baseline to the last episode, in percent, judged on the
   * medians of the two windows (see {@link SoakRss}). Default 10.
   */
  maxRssGrowthPercent?: number;
  /** Episodes in each RSS window. Default a twentieth of `episodes` (at least 1): 50 of 1000. */
  rssWindowEpisodes?: number;
  /**
   * After the last episode, how long to wait for the server to hold no container while it still
   * runs (its warm pool drains a sandbox spec idle for 120 s, checked every 15 s). Default 180 000 ms.
   */
  drainTimeoutMs?: number;
  /** A progress line every this many completed episodes. Default a twentieth of `episodes` (at least 1). */
  progressEvery?: number;
  /** Extra `serve` arguments (after `--sandbox docker`). */
  serverArgs?: readonly string[];
  /** Called once the server listens (tests use the pid to clean up after a failure). */
  onServerStarted?: (server: { pid: number; address: string }) => void;
  log?: (line: string) => void;
}

/** Why one episode did not run to its Close. */
export interface SoakEpisodeFailure {
  episode: number;
  taskId: string;
  phase: 'reset' | 'step' | 'reward' | 'close';
  message: string;
}

/** An episode whose reward was not what its plan expects (oracle 1.0, others 0.0, both SCORED). */
export interface SoakRewardMismatch {
  episode: number;
  taskId: string;
  oracle: boolean;
  expected: number;
  reward: number;
  outcome: string;
  detail: string;
}

export interface SoakBenchResult {
  startedAt: string;
  suite: string;
  tasks: string[];
  episodes: number;
  concurrency: number;
  serverPid: number;
  wallMs: number;
  episodesPerMinute: number;
  /** Episodes that ran Reset, Steps, Reward and Close without an RPC error or a failed step. */
  completed: number;
  failures: { count: number; byPhase: Record<SoakEpisodeFailure['phase'], number>; first: SoakEpisodeFailure[] };
  outcomes: Record<string, number>;
  rewards: {
    oracleEpisodes: number;
    otherEpisodes: number;
    /** SCORED rewards of 1.0 and of 0.0 (both must occur for the check to mean anything). */
    ones: number;
    zeros: number;
    matched: number;
    mismatched: number;
    firstMismatches: SoakRewardMismatch[];
  };
  rss: SoakRss;
  containers: {
    /** The server's containers the moment the last episode closed (its warm pool among them). */
    afterRun: number;
    /**
     * The server's containers once its warm pool drained, the server still running: 0, or the count
     * still held when `drainTimeoutMs` ran out (episode sandboxes a Close left behind are among them).
     */
    afterDrain: number;
    drainWaitMs: number;
    /** The server's containers after it stopped (SIGTERM): its leaks. */
    afterShutdown: number;
  };
  latency: {
    reset: LatencySummary;
    step: LatencySummary;
    stepShell: LatencySummary;
    stepReadFile: LatencySummary;
    stepWriteFile: LatencySummary;
    stepSubmit: LatencySummary;
    reward: LatencySummary;
    close: LatencySummary;
  };
  targets: Array<{ name: string; value: number; limit: string; met: boolean }>;
}

/**
 * The server's resident set (VmRSS), read as each episode completes. The point figures are the
 * readings at the baseline episode and at the last one. V8 collects garbage in a sawtooth, so one
 * reading can sit high or low by more than the 10% the target allows (seen: 129 MiB at episode 100,
 * 99 MiB at 150); the target is judged on the medians of a window of readings from the baseline
 * episode on and of the last window, which a leak moves and a collection does not.
 */
export interface SoakRss {
  baselineEpisode: number;
  baselineBytes: number;
  finalEpisode: number;
  finalBytes: number;
  /** (final − baseline) / baseline × 100 of the two single readings. */
  growthPercent: number;
  windowEpisodes: number;
  /** Median of the readings at episodes baselineEpisode .. baselineEpisode + windowEpisodes − 1. */
  baselineWindowMedianBytes: number;
  /** Median of the readings at the last windowEpisodes episodes. */
  finalWindowMedianBytes: number;
  /** Growth of the window medians, in percent: what the target judges. */
  windowGrowthPercent: number;
  maxBytes: number;
  /** Server RSS after every progress step: [completed episodes, bytes]. */
  series: Array<[number, number]>;
  /**
   * The same windows read right after a full garbage collection in the server (it runs with
   * `--expose-gc`; `CODEMIDAS_GC_SIGNAL` asks it for one): live memory, whatever the collector's
   * timing. What the target judges, where present.
   */
  afterGc?: { baselineWindowMedianBytes: number; finalWindowMedianBytes: number; windowGrowthPercent: number; readings: number };
}

/** The signal the soak's server collects garbage on (serve installs it from `CODEMIDAS_GC_SIGNAL`). */
export const SOAK_GC_SIGNAL = 'SIGWINCH';
/** How long a reading waits after asking for a collection (the collection runs at the server's next turn). */
const GC_SETTLE_MS = 250;

/**
 * The RSS figures from one reading per completed episode (`readings[n - 1]` at episode n) and the
 * progress series. Windows are clamped to the readings there are.
 */
export function summarizeSoakRss(readings: readonly number[], baselineEpisode: number, windowEpisodes: number, series: Array<[number, number]>): SoakRss {
  const n = readings.length;
  const base = Math.max(1, Math.min(baselineEpisode, n));
  const window = Math.max(1, windowEpisodes);
  const baselineBytes = readings[base - 1] ?? Number.NaN;
  const finalBytes = readings[n - 1] ?? Number.NaN;
  const baselineWindowMedianBytes = median(readings.slice(base - 1, Math.min(n, base - 1 + window)));
  const finalWindowMedianBytes = median(readings.slice(Math.max(0, n - window)));
  return {
    baselineEpisode: base,
    baselineBytes,
    finalEpisode: n,
    finalBytes,
    growthPercent: ((finalBytes - baselineBytes) / baselineBytes) * 100,
    windowEpisodes: window,
    baselineWindowMedianBytes,
    finalWindowMedianBytes,
    windowGrowthPercent: ((finalWindowMedianBytes - baselineWindowMedianBytes) / baselineWindowMedianBytes) * 100,
    maxBytes: readings.length ? Math.max(...readings) : Number.NaN,
    series,
  };
}

/** Adds the after-GC window medians (readings taken in the two windows only; NaN elsewhere). */
export function withGcWindows(rss: SoakRss, gcReadings: readonly number[]): SoakRss {
  const gc = summarizeSoakRss(gcReadings, rss.baselineEpisode, rss.windowEpisodes, []);
  const readings = gcReadings.filter((b) => Number.isFinite(b)).length;
  if (readings === 0) return rss;
  return {
    ...rss,
    afterGc: { baselineWindowMedianBytes: gc.baselineWindowMedianBytes, finalWindowMedianBytes: gc.finalWindowMedianBytes, windowGrowthPercent: gc.windowGrowthPercent, readings },
  };
}

function median(values: readonly number[]): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

/** What one soak episode does: which task, and whether it writes the reference solution. */
export interface SoakEpisodePlan {
  episode: number;
  taskId: string;
  oracle: boolean;
}

/**
 * Episode `i` (from 0) takes task `i mod T`, and writes the reference solution on every other pass
 * over the tasks, so each task is run both solved and unsolved and about half the episodes are
 * oracles, whatever T is.
 */
export function planSoakEpisode(episode: number, taskIds: readonly string[]): SoakEpisodePlan {
  if (taskIds.length === 0) throw new Error('a soak needs at least one task');
  const taskId = taskIds[episode % taskIds.length]!;
  return { episode, taskId, oracle: Math.floor(episode / taskIds.length) % 2 === 0 };
}

/** The reward a plan expects: 1.0 with the reference solution written, 0.0 without. */
export function expectedSoakReward(plan: SoakEpisodePlan): number {
  return plan.oracle ? 1 : 0;
}

/** The soak's pass/fail lines, from its figures. */
export function evaluateSoakTargets(
  r: Pick<SoakBenchResult, 'episodes' | 'completed' | 'outcomes' | 'rewards' | 'rss' | 'containers'>,
  maxRssGrowthPercent = 10,
): SoakBenchResult['targets'] {
  const infra = r.outcomes['INFRA_ERROR'] ?? 0;
  return [
    { name: "the server's containers left after it stopped", value: r.containers.afterShutdown, limit: '= 0', met: r.containers.afterShutdown === 0 },
    { name: "the server's containers once its warm pool drained (still running)", value: r.containers.afterDrain, limit: '= 0', met: r.containers.afterDrain === 0 },
    rssTarget(r.rss, maxRssGrowthPercent),
    { name: 'INFRA_ERROR rewards', value: infra, limit: '= 0', met: infra === 0 },
    { name: 'episodes that failed (an RPC error or a failed step)', value: r.episodes - r.completed, limit: '= 0', met: r.completed === r.episodes },
    {
      name: 'rewards as expected (SCORED, oracle 1.0, others 0.0)',
      value: r.rewards.matched,
      limit: `= ${r.episodes}`,
      met: r.rewards.matched === r.episodes && r.rewards.ones > 0 && r.rewards.zeros > 0,
    },
  ];
}

function rssTarget(rss: SoakRss, maxRssGrowthPercent: number): SoakBenchResult['targets'][number] {
  const growth = rss.afterGc?.windowGrowthPercent ?? rss.windowGrowthPercent;
  return {
    name: `server RSS growth, episode ${rss.baselineEpisode} to ${rss.finalEpisode}, medians of ${rss.windowEpisodes}-episode windows${rss.afterGc ? ', each read after a full GC' : ''} (%)`,
    value: growth,
    limit: `< ${maxRssGrowthPercent}`,
    met: Number.isFinite(growth) && growth < maxRssGrowthPercent,
  };
}

const MAX_LISTED = 10;
const NOTE = 'soak: this episode leaves the implementation as it is\n';

/**
 * `codemidas bench --soak N`: N episodes at a fixed concurrency against a `codemidas serve` this
 * starts on the docker engine, each Reset, a shell command, a read_file, a write_file (the reference
 * solution in every other pass over the tasks, a note otherwise), Submit, Reward and Close. Reports
 * the server's RSS growth, its containers after the run, after its warm pool drained and after it
 * stopped, the Reward outcomes and whether each reward is the one expected, episodes per minute and
 * per-call latencies. Episode failures are counted, not thrown: the figures are the result.
 */
export async function runSoakBench(options: SoakBenchOptions): Promise<SoakBenchResult> {
  const log = options.log ?? ((): void => undefined);
  const episodes = options.episodes ?? 1000;
  const concurrency = options.concurrency ?? 16;
  const baselineEpisode = Math.min(episodes, options.rssBaselineEpisode ?? Math.min(100, Math.max(1, Math.floor(episodes / 10))));
  const rssWindow = options.rssWindowEpisodes ?? Math.max(1, Math.floor(episodes / 20));
  const progressEvery = options.progressEvery ?? Math.max(1, Math.floor(episodes / 20));
  const drainTimeoutMs = options.drainTimeoutMs ?? 180_000;
  const startedAt = new Date().toISOString();
  const docker = new Docker();

  const catalog = await loadCatalog(options.environmentsDir);
  const tasks = pickTasks(catalog.list({ suite: options.suite }), options.suite, options.taskId);
  const taskIds = tasks.map((t) => t.id);
  const solutions = solutionsFromEnvironments(options.environmentsDir);
  // Every solution read before the clock starts: a missing one is a set-up error, not a soak failure.
  for (const id of taskIds) await solutions(id);

  const logFile = path.join(tmpdir(), `codemidas-soak-${process.pid}.log`);
  log(`soak: ${episodes} episodes at concurrency ${concurrency} over ${taskIds.length} tasks of ${options.suite}; server log: ${logFile}`);
  const server = await startServerProcess({
    environmentsDir: path.resolve(options.environmentsDir),
    extraArgs: ['--sandbox', 'docker', '--max-episodes', String(Math.max(64, concurrency)), ...(options.serverArgs ?? [])],
    logFile,
    env: { ...process.env, NODE_OPTIONS: `${process.env['NODE_OPTIONS'] ?? ''} --expose-gc`.trim(), CODEMIDAS_GC_SIGNAL: SOAK_GC_SIGNAL },
  });
  options.onServerStarted?.({ pid: server.pid, address: server.address });
  const client = new EnvironmentClient(server.address, { deadlineMs: 300_000 });
  const countContainers = async (): Promise<number> =>
    (
      await docker.listContainers({
        all: true,
        filters: { label: [`${LABEL_OWNER_PID}=${server.pid}`, `${LABEL_OWNER_HOST}=${hostname()}`] },
      })
    ).length;

  const timings = { reset: [] as number[], reward: [] as number[], close: [] as number[], step: new Map<Action['kind'], number[]>() };
  const failures: SoakEpisodeFailure[] = [];
  const outcomes: Record<string, number> = {};
  const mismatches: SoakRewardMismatch[] = [];
  let matched = 0;
  let ones = 0;
  let zeros = 0;
  let oracleEpisodes = 0;
  let done = 0;
  const rssReadings: number[] = new Array<number>(episodes).fill(Number.NaN);
  const gcReadings: number[] = new Array<number>(episodes).fill(Number.NaN);
  const inWindow = (n: number): boolean => (n >= baselineEpisode && n < baselineEpisode + rssWindow) || n > episodes - rssWindow;
  const series: Array<[number, number]> = [];
  let wallMs = 0;
  let afterRun = -1;
  let afterDrain = -1;
  let drainWaitMs = 0;
  let serverId: string | undefined;
  try {
    await client.waitReady(30_000);
    const started = process.hrtime.bigint();
    const settled = await mapSettledWithConcurrency(
      Array.from({ length: episodes }, (_, i) => planSoakEpisode(i, taskIds)),
      concurrency,
      async (plan) => {
        if (plan.oracle) oracleEpisodes++;
        const outcome = await runSoakEpisode(client, plan, tasks[plan.episode % tasks.length]!, solutions, timings);
        if ('phase' in outcome) {
          failures.push(outcome);
        } else {
          outcomes[outcome.outcome] = (outcomes[outcome.outcome] ?? 0) + 1;
          if (outcome.outcome === 'SCORED' && outcome.reward === 1) ones++;
          if (outcome.outcome === 'SCORED' && outcome.reward === 0) zeros++;
          const expected = expectedSoakReward(plan);
          // An INFRA_ERROR's 0 is no score: it never counts as the 0.0 an unsolved episode expects.
          if (outcome.outcome === 'SCORED' && Math.abs(outcome.reward - expected) < 1e-9) matched++;
          else mismatches.push({ episode: plan.episode, taskId: plan.taskId, oracle: plan.oracle, expected, reward: outcome.reward, outcome: outcome.outcome, detail: outcome.detail.slice(0, 500) });
        }
        // This episode's number among the completed ones, taken before any await below.
        const n = ++done;
        const rss = readRssBytes(server.pid);
        rssReadings[n - 1] = rss;
        if (inWindow(n)) {
          process.kill(server.pid, SOAK_GC_SIGNAL);
          await new Promise((resolve) => setTimeout(resolve, GC_SETTLE_MS));
          gcReadings[n - 1] = readRssBytes(server.pid);
        }
        if (n % progressEvery === 0 || n === episodes) {
          series.push([n, rss]);
          const minutes = elapsedMs(started) / 60_000;
          log(
            `soak: ${n}/${episodes} episodes, ${(n / minutes).toFixed(1)}/min, server RSS ${(rss / MB).toFixed(1)} MiB, ` +
              `${outcomes['INFRA_ERROR'] ?? 0} INFRA_ERROR, ${mismatches.length} unexpected rewards, ${failures.length} failed`,
          );
        }
        if (n === 1) serverId ??= await serverIdOf(docker, server.pid);
      },
    );
    wallMs = elapsedMs(started);
    // Episode failures are counted inside; what rejects here is the soak's own bookkeeping (the
    // server's /proc entry gone, the engine not answering): the figures would be wrong.
    const broken = settled.find((s) => s.status === 'rejected');
    if (broken) throw broken.reason;
    afterRun = await countContainers();
    log(`soak: ${afterRun} containers held by the server after the run; waiting up to ${drainTimeoutMs / 1000} s for its warm pool to drain ...`);
    const drainStarted = Date.now();
    for (;;) {
      const n = await countContainers();
      if (n === 0) {
        afterDrain = 0;
        break;
      }
      if (Date.now() - drainStarted >= drainTimeoutMs) {
        afterDrain = n;
        break;
      }
      await sleep(2_000);
    }
    drainWaitMs = Date.now() - drainStarted;
  } catch (err) {
    throw new Error(`${err instanceof Error ? err.message : String(err)}\n--- server output ---\n${server.outputTail()}`, { cause: err });
  } finally {
    client.dispose();
    await server.stop();
  }
  // By owner pid and by the server's id (read off its first container), in case either label changes.
  const left = new Set((await docker.listContainers({ all: true, filters: { label: [`${LABEL_OWNER_PID}=${server.pid}`, `${LABEL_OWNER_HOST}=${hostname()}`] } })).map((c) => c.Id));
  if (serverId) for (const c of await docker.listContainers({ all: true, filters: { label: [`${LABEL_SERVER}=${serverId}`] } })) left.add(c.Id);
  const afterShutdown = left.size;
  log(`soak: ${afterShutdown} of the server's containers left after it stopped`);

  const byPhase = { reset: 0, step: 0, reward: 0, close: 0 };
  for (const f of failures) byPhase[f.phase]++;
  const stepAll = [...timings.step.values()].flat();
  const partial = {
    episodes,
    completed: episodes - failures.length,
    outcomes,
    rewards: { oracleEpisodes, otherEpisodes: episodes - oracleEpisodes, ones, zeros, matched, mismatched: mismatches.length, firstMismatches: mismatches.slice(0, MAX_LISTED) },
    rss: withGcWindows(summarizeSoakRss(rssReadings, baselineEpisode, rssWindow, series), gcReadings),
    containers: { afterRun, afterDrain, drainWaitMs, afterShutdown },
  };
  return {
    startedAt,
    suite: options.suite,
    tasks: taskIds,
    concurrency,
    serverPid: server.pid,
    wallMs,
    episodesPerMinute: wallMs > 0 ? (episodes * 60_000) / wallMs : 0,
    failures: { count: failures.length, byPhase, first: failures.slice(0, MAX_LISTED) },
    latency: {
      reset: summarizeLatencies(timings.reset),
      step: summarizeLatencies(stepAll),
      stepShell: summarizeLatencies(timings.step.get('shell') ?? []),
      stepReadFile: summarizeLatencies(timings.step.get('read_file') ?? []),
      stepWriteFile: summarizeLatencies(timings.step.get('write_file') ?? []),
      stepSubmit: summarizeLatencies(timings.step.get('submit') ?? []),
      reward: summarizeLatencies(timings.reward),
      close: summarizeLatencies(timings.close),
    },
    ...partial,
    targets: evaluateSoakTargets(partial, options.maxRssGrowthPercent),
  };
}

interface SoakTimings {
  reset: number[];
  reward: number[];
  close: number[];
  step: Map<Action['kind'], number[]>;
}

/** One episode: its reward, or where it failed. Close always runs once Reset answered. */
async function runSoakEpisode(
  client: EnvironmentClient,
  plan: SoakEpisodePlan,
  task: LoadedTask,
  solutions: SolutionSource,
  timings: SoakTimings,
): Promise<{ reward: number; outcome: string; detail: string } | SoakEpisodeFailure> {
  const fail = (phase: SoakEpisodeFailure['phase'], err: unknown): SoakEpisodeFailure => ({
    episode: plan.episode,
    taskId: plan.taskId,
    phase,
    message: (err instanceof Error ? err.message : String(err)).slice(0, 500),
  });
  let episodeId: string;
  try {
    const t = process.hrtime.bigint();
    episodeId = (await client.reset(plan.taskId, plan.episode)).episodeId;
    timings.reset.push(elapsedMs(t));
  } catch (err) {
    return fail('reset', err);
  }
  let result: { reward: number; outcome: string; detail: string } | SoakEpisodeFailure;
  try {
    const source = task.file.source.path;
    const writes: Action[] = plan.oracle
      ? [...(await solutions(plan.taskId))].map(([file, content]) => ({ kind: 'write_file' as const, path: file, content }))
      : [{ kind: 'write_file', path: 'soak-note.txt', content: NOTE }];
    const actions: Action[] = [
      { kind: 'shell', command: `ls -la . && wc -c ${shellQuote(source)}`, timeoutMs: 0 },
      { kind: 'read_file', path: source, offset: 0, limit: 65_536 },
      ...writes,
      { kind: 'submit' },
    ];
    result = await (async () => {
      for (const [index, action] of actions.entries()) {
        const t = process.hrtime.bigint();
        let step;
        try {
          step = await client.step(episodeId, index, action);
        } catch (err) {
          return fail('step', err);
        }
        pushTo(timings.step, action.kind, elapsedMs(t));
        if (action.kind !== 'submit' && step.observation.exitCode !== 0) {
          return fail('step', new Error(`${action.kind} answered exit ${step.observation.exitCode}: ${step.observation.stderr.trim()}`));
        }
      }
      const t = process.hrtime.bigint();
      try {
        const scored = await client.reward(episodeId);
        timings.reward.push(elapsedMs(t));
        return { reward: scored.reward, outcome: scored.outcome, detail: scored.detail };
      } catch (err) {
        return fail('reward', err);
      }
    })();
  } catch (err) {
    result = fail('step', err);
  }
  const t = process.hrtime.bigint();
  try {
    await client.close({ episodeId });
    timings.close.push(elapsedMs(t));
  } catch (err) {
    if (!('phase' in result)) return fail('close', err);
  }
  return result;
}

/** The `codemidas.server` label of one of the server's containers, while it runs. */
async function serverIdOf(docker: Docker, pid: number): Promise<string | undefined> {
  const [first] = await docker.listContainers({ all: true, filters: { label: [`${LABEL_OWNER_PID}=${pid}`, `${LABEL_OWNER_HOST}=${hostname()}`] } });
  return first?.Labels[LABEL_SERVER];
}

/** VmRSS of a process, in bytes, from /proc/<pid>/status. */
export function readRssBytes(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const match = /^VmRSS:\s+(\d+)\s+kB$/m.exec(status);
  if (!match?.[1]) throw new Error(`/proc/${pid}/status has no VmRSS line (is ${pid} a running process on this host?)`);
  return Number(match[1]) * 1024;
}

function pickTasks(tasks: LoadedTask[], suite: string, wanted?: string): LoadedTask[] {
  const picked = wanted ? tasks.filter((t) => t.id === wanted) : tasks;
  if (picked.length === 0) throw new Error(wanted ? `no task ${wanted} in suite ${suite}: pass one of --task ${tasks.map((t) => t.id).join(', ')}` : `suite ${suite} has no task: pass --suite with a suite under --environments`);
  return [...picked].sort((a, b) => a.id.localeCompare(b.id));
}

function pushTo<K>(map: Map<K, number[]>, key: K, value: number): void {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}

function shellQuote(text: string): string {
  return `'${text.replaceAll("'", `'\\''`)}'`;
}

function sleep(ms: number): Promise<void> {
  return new Promise((r) => setTimeout(r, ms));
}

const MB = 1024 * 1024;

/** The figures as text: counts, RSS, containers, latencies, then the targets. */
export function formatSoakBenchTable(r: SoakBenchResult): string {
  const f = (ms: number): string => (Number.isFinite(ms) ? ms.toFixed(2) : '-');
  const rows: string[][] = [['call', 'samples', 'p50 ms', 'p99 ms', 'max ms']];
  const add = (name: string, l: LatencySummary): void => void rows.push([name, String(l.samples), f(l.p50Ms), f(l.p99Ms), f(l.maxMs)]);
  add('Reset', r.latency.reset);
  add('Step (all)', r.latency.step);
  add('Step shell', r.latency.stepShell);
  add('Step read_file', r.latency.stepReadFile);
  add('Step write_file', r.latency.stepWriteFile);
  add('Step submit', r.latency.stepSubmit);
  add('Reward', r.latency.reward);
  add('Close', r.latency.close);
  const widths = rows[0]!.map((_, c) => Math.max(...rows.map((row) => (row[c] ?? '').length)));
  const line = (row: string[]): string => row.map((cell, c) => (c === 0 ? cell.padEnd(widths[c]!) : cell.padStart(widths[c]!))).join('  ');
  const outcomes = Object.entries(r.outcomes).map(([k, v]) => `${k} ${v}`).join(', ') || 'none';
  return [
    `soak: ${r.episodes} episodes at concurrency ${r.concurrency} over ${r.tasks.length} tasks in ${(r.wallMs / 60_000).toFixed(1)} min = ${r.episodesPerMinute.toFixed(1)} episodes/min`,
    `completed ${r.completed}, failed ${r.failures.count} (reset ${r.failures.byPhase.reset}, step ${r.failures.byPhase.step}, reward ${r.failures.byPhase.reward}, close ${r.failures.byPhase.close})`,
    ...r.failures.first.slice(0, 3).map((x) => `  failed: episode ${x.episode} ${x.taskId} at ${x.phase}: ${x.message}`),
    `Reward outcomes: ${outcomes}`,
    `rewards as expected: ${r.rewards.matched}/${r.episodes} (${r.rewards.oracleEpisodes} oracle episodes, ${r.rewards.otherEpisodes} others; ${r.rewards.ones} rewards of 1.0, ${r.rewards.zeros} of 0.0)`,
    ...r.rewards.firstMismatches.slice(0, 3).map((m) => `  unexpected: episode ${m.episode} ${m.taskId} ${m.oracle ? 'oracle' : 'unsolved'}: ${m.reward} (${m.outcome}) ${m.detail.slice(0, 200)}`),
    `server RSS: ${(r.rss.baselineBytes / MB).toFixed(1)} MiB at episode ${r.rss.baselineEpisode}, ${(r.rss.finalBytes / MB).toFixed(1)} MiB at episode ${r.rss.finalEpisode} (${r.rss.growthPercent.toFixed(1)}%); ` +
      `medians of ${r.rss.windowEpisodes}-episode windows ${(r.rss.baselineWindowMedianBytes / MB).toFixed(1)} MiB and ${(r.rss.finalWindowMedianBytes / MB).toFixed(1)} MiB (${r.rss.windowGrowthPercent.toFixed(1)}%); max ${(r.rss.maxBytes / MB).toFixed(1)} MiB` +
      (r.rss.afterGc
        ? `; after a full GC: ${(r.rss.afterGc.baselineWindowMedianBytes / MB).toFixed(1)} MiB and ${(r.rss.afterGc.finalWindowMedianBytes / MB).toFixed(1)} MiB (${r.rss.afterGc.windowGrowthPercent.toFixed(1)}%)`
        : ''),
    `server containers: ${r.containers.afterRun} right after the run, ${r.containers.afterDrain} after ${(r.containers.drainWaitMs / 1000).toFixed(0)} s (warm pool drained), ${r.containers.afterShutdown} after it stopped`,
    '',
    line(rows[0]!),
    widths.map((w) => '-'.repeat(w)).join('  '),
    ...rows.slice(1).map(line),
    '',
    'targets:',
    ...r.targets.map((t) => `  ${t.met ? 'met    ' : 'NOT met'}  ${t.name}: ${Number.isFinite(t.value) ? (Number.isInteger(t.value) ? String(t.value) : t.value.toFixed(2)) : '-'} (${t.limit})`),
  ].join('\n');
}
