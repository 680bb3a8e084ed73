import { tmpdir } from 'node:os';
import path from 'node:path';
import Docker from 'dockerode';
import { createOracleAgent, solutionsFromEnvironments } from '../agents/oracle-agent.js';
import { EnvironmentClient } from '../client/environment-client.js';
import { mapSettledWithConcurrency } from '../shared/map-with-concurrency.js';
import { createDockerImageResolver } from '../images/docker-image-resolver.js';
import { createLogger } from '../logging.js';
import { workspaceImageForTask } from '../episodes/workspace-image-for-task.js';
import { createDockerSandboxProvider } from '../sandbox/docker/docker-sandbox-provider.js';
import { runRollouts } from '../rollouts/run-rollouts.js';
import { JUDGE_PATH_IN_SANDBOX, pythonJudge } from '../languages/python/python-scorer.js';
import { HIDDEN_DIR_IN_SANDBOX } from '../scoring/sandbox-scorer.js';
import { listFolderFiles, listWorkspaceFiles } from '../tasks/list-workspace-files.js';
import { loadCatalog } from '../tasks/load-catalog.js';
import type { LoadedTask } from '../tasks/types.js';
import { dockerWithIsolation } from './docker-with-isolation.js';
import { elapsedMs, summarizeLatencies, type LatencySummary } from './latency-stats.js';
import {
  hostMemAvailableBytes,
  measureRawGroupStart,
  measureRawIdleMemory,
  measureRawShellRoundTrip,
  measureRawTestRun,
  timeRawCreateStart,
} from './raw-engine.js';
import { measureRawDockerExec } from './raw-docker-exec.js';
import { startServerProcess, type ServerProcess } from './server-process.js';
import { measurePythonClientSteps, SETTLE_AFTER_RESET_MS, type StepBenchResult } from './step-bench.js';

/**
 * Time between warm Resets: the pool has replaced the sandbox the previous Reset took by then (a
 * start takes ~0.2 s). The target figure spends it as a trainer does, in an episode that is then
 * closed right before the next Reset. The same Reset after the pause spent idle is shown too, beside
 * ListTasks after that pause: on a virtual machine any call after an idle pause costs more than
 * one right after another call (the idle processes and CPUs are woken), sandbox work aside.
 */
const WARM_RESET_GAP_MS = 400;

/** Options of {@link runServerBench}. */
export interface ServerBenchOptions {
  environmentsDir: string;
  suite: string;
  /** Task to measure; default the suite's first python task. */
  taskId?: string;
  /** Samples of the slower figures (create+start, Reset, Reward). Default 15. */
  samples?: number;
  /** Samples of the fast ones (exec, Step, file ops). Default 200. */
  fastSamples?: number;
  /** Concurrent episodes of the load figure. Default 64. */
  concurrentEpisodes?: number;
  /** Steps each of them runs. Default 20. */
  stepsPerEpisode?: number;
  /**
   * OCI runtime of every container of the run, raw and server alike (`serve --runtime`). Default
   * `runc`.
   */
  runtime?: 'runc' | 'runsc';
  /**
   * Disk cap of every container of the run, raw and server alike (`serve --max-disk-bytes`; 0: none).
   * Default 0: the main engine has no cap (scripts/setup-quota-engine.sh starts one that has).
   */
  maxDiskBytes?: number;
  log?: (line: string) => void;
}

export interface ServerBenchResult {
  startedAt: string;
  /** The runtime every container of this run ran under. */
  runtime: 'runc' | 'runsc';
  /** The disk cap every container of this run had, in bytes (0: none). */
  maxDiskBytes: number;
  taskId: string;
  taskImage: string;
  raw: {
    createStart: LatencySummary;
    dockerExecTrue: LatencySummary;
    shellRoundTrip: LatencySummary;
    testRun: LatencySummary;
    groupStart8: LatencySummary;
    idleContainerBytes: number;
  };
  server: {
    resetCold: LatencySummary;
    /** Reset right after the previous episode's Close, the pool refilled: a trainer's loop. */
    resetWarm: LatencySummary;
    /** The same warm Reset after an idle pause of the same length (no call just before it). */
    resetWarmAfterIdle: LatencySummary;
    /**
     * ListTasks after the same idle gap as each warm Reset: what any call costs after that pause on
     * this machine (waking the idle processes), sandbox work aside.
     */
    idleCallFloor: LatencySummary;
    stepTrue: LatencySummary;
    /** ListTasks back to back on the same channel: a call with no sandbox work, the floor under a Step. */
    callFloor: LatencySummary;
    /** The same Step from the Python client (grpcio, what trainers use). */
    pythonClientStep: StepBenchResult['pythonClientStep'];
    readFile64k: LatencySummary;
    writeFile64k: LatencySummary;
    reward: LatencySummary;
    resetGroup8: LatencySummary;
    concurrent: { episodes: number; stepsEach: number; errors: number; firstError: string | null; wallMs: number; step: LatencySummary };
    idleEpisodeBytes: number;
    grpo: { groups: number; groupSize: number; episodes: number; wallMs: number; groupsPerMinute: number; episodesPerMinute: number; solved: number };
  };
  /**
   * Whose Step figure the Step targets use: the Python client (grpcio), what trainers use, or the
   * Node client when /usr/bin/python3 lacks grpcio.
   */
  targetStepClient: 'python' | 'node';
  ratios: {
    /** raw docker exec p50 / Step p50 of the target's client: how many times faster a Step is. */
    stepSpeedup: number;
    /** raw docker exec p50 / Step p50 from the Node client (grpc-js). */
    stepSpeedupNode: number;
    /** cold Reset p50 / raw create+start p50. */
    resetColdOverCreateStart: number;
    /** Reward p50 / (raw create+start p50 + raw test run p50). */
    rewardOverRaw: number;
    /** ResetGroup(8) p50 / raw 8 create+starts at once p50. */
    resetGroupOverRaw: number;
    /** Step p50 / raw kept-alive shell round trip p50. */
    stepOverShell: number;
  };
  targets: Array<{ name: string; value: number; limit: string; met: boolean }>;
}

const MB = 1024 * 1024;
const KIB64 = 'x'.repeat(64 * 1024 - 1) + '\n';

/**
 * `codemidas bench`, the server half against the raw engine, in one run: raw create+start of the
 * task image, docker exec, a kept-alive shell, a test run, 8 starts at once and idle memory, then
 * the same work through the server (a cold server without a warm pool for cold Resets, then a
 * server with its warm pool for the rest), each server figure beside its raw counterpart.
 */
export async function runServerBench(options: ServerBenchOptions): Promise<ServerBenchResult> {
  const log = options.log ?? ((): void => undefined);
  const samples = options.samples ?? 15;
  const fast = options.fastSamples ?? 200;
  const concurrentEpisodes = options.concurrentEpisodes ?? 64;
  const stepsEach = options.stepsPerEpisode ?? 20;
  const startedAt = new Date().toISOString();
  const runtime = options.runtime ?? 'runc';
  const maxDiskBytes = options.maxDiskBytes ?? 0;
  // Raw containers get the server's isolation, so each ratio compares like with like.
  const docker = dockerWithIsolation(new Docker(), { ...(runtime !== 'runc' ? { runtime } : {}), diskBytes: maxDiskBytes });
  const serverArgs = ['--runtime', runtime, '--max-disk-bytes', String(maxDiskBytes)];
  const logger = createLogger({ level: 'warn' });

  const catalog = await loadCatalog(options.environmentsDir);
  const task = pickTask(catalog.list({ suite: options.suite }), options.taskId);
  const workspace = await listWorkspaceFiles(task);
  // Every task image the bench servers will look for, built now (the measured task's among them): a
  // server builds the missing ones in the background at start, which would load the machine while
  // it is measured.
  log(`task images of the ${catalog.tasks.size} tasks served ...`);
  const engine = new Docker();
  const provider = createDockerSandboxProvider({ docker: engine, logger, serverId: 'codemidas-bench', images: createDockerImageResolver({ docker: engine, logger }) });
  let languageImage: string;
  let taskImage: string | null;
  try {
    languageImage = provider.imageFor(task.file.language);
    await mapSettledWithConcurrency([...catalog.tasks.values()], 2, async (t) => workspaceImageForTask(provider, t, await listWorkspaceFiles(t)));
    taskImage = await workspaceImageForTask(provider, task, workspace);
  } finally {
    await provider.close();
  }
  if (!taskImage) throw new Error(`no task image for ${task.id}`);

  log(`raw: docker exec true × ${Math.min(fast, 60)} ...`);
  const dockerExec = await measureRawDockerExec({ image: taskImage, docker, iterations: Math.min(fast, 60) });
  log(`raw: kept-alive shell round trip × ${fast} ...`);
  const shell = await measureRawShellRoundTrip(docker, taskImage, fast);
  log(`raw: test run (copy in + judge) × ${Math.min(samples, 8)} ...`);
  const hidden = await listFolderFiles(task.hiddenDir);
  const testRun = await measureRawTestRun(docker, {
    image: languageImage,
    workdir: task.file.workdir,
    workspace,
    hidden,
    hiddenDir: HIDDEN_DIR_IN_SANDBOX,
    judgePath: JUDGE_PATH_IN_SANDBOX,
    config: {
      workspace: task.file.workdir,
      hiddenDir: HIDDEN_DIR_IN_SANDBOX,
      // cases, scripts, limits and import roots as the scorer passes them
      ...pythonJudge.config(task),
      budgetMs: task.file.tests.timeoutMs,
      uid: 1000,
      gid: 1000,
      dropPrivileges: true,
      nonce: 'bench',
    },
    iterations: Math.min(samples, 8),
  });
  log('raw: 8 create+starts at once × 5 ...');
  const groupStart = await measureRawGroupStart(docker, taskImage, 8, 5);
  log('raw: host memory of 16 idle containers ...');
  const idleRaw = await measureRawIdleMemory(docker, taskImage, 16);

  // Cold Resets: a server without a warm pool, so every Reset starts a container (from the task
  // image). Each is timed right after a raw create+start of the same image, so the two see the same
  // moment of the machine (its load moves their ratio by more than the server adds when apart).
  log(`server (no warm pool): cold Reset, each beside a raw create+start of ${taskImage}, × ${samples} ...`);
  const { resetCold, createStart } = await withServer(options, `cold-${runtime}`, ['--warm-pool', '0', ...serverArgs], async (client) => {
    await warmUp(client, task.id);
    await timeRawCreateStart(docker, taskImage); // the engine's first start of the image, not counted
    const cold: number[] = [];
    const raw: number[] = [];
    for (let i = 0; i < samples; i++) {
      raw.push(await timeRawCreateStart(docker, taskImage));
      const t = process.hrtime.bigint();
      const { episodeId } = await client.reset(task.id, i);
      cold.push(elapsedMs(t));
      await client.close({ episodeId });
    }
    return { resetCold: summarizeLatencies(cold), createStart: summarizeLatencies(raw) };
  });

  log('server (warm pool): Reset, Step, files, Reward, ResetGroup, 64 episodes, GRPO ...');
  const server = await withServer(options, `warm-${runtime}`, ['--warm-pool', '2', '--max-episodes', String(Math.max(64, concurrentEpisodes)), ...serverArgs], async (client) => {
    await warmUp(client, task.id);
    // Warm Reset as a trainer's loop calls it: an episode runs (the pause, while the pool replaces
    // the sandbox its Reset took), is closed, and the next Reset follows at once.
    const resetWarm: number[] = [];
    let previous = (await client.reset(task.id, 0)).episodeId;
    for (let i = 0; i < samples; i++) {
      await sleep(WARM_RESET_GAP_MS);
      await client.close({ episodeId: previous });
      const t = process.hrtime.bigint();
      previous = (await client.reset(task.id, i + 1)).episodeId;
      resetWarm.push(elapsedMs(t));
    }
    await client.close({ episodeId: previous });
    // The same Reset after the same pause spent idle, beside ListTasks after that pause.
    const resetWarmAfterIdle: number[] = [];
    const idleCallFloor: number[] = [];
    for (let i = 0; i < samples; i++) {
      await sleep(WARM_RESET_GAP_MS);
      let t = process.hrtime.bigint();
      await client.listTasks({ suite: options.suite });
      idleCallFloor.push(elapsedMs(t));
      await sleep(WARM_RESET_GAP_MS);
      t = process.hrtime.bigint();
      const { episodeId } = await client.reset(task.id, i);
      resetWarmAfterIdle.push(elapsedMs(t));
      await client.close({ episodeId });
    }

    const stepTrue: number[] = [];
    const writes: number[] = [];
    const reads: number[] = [];
    let episodeId = (await client.reset(task.id, 0)).episodeId;
    await sleep(SETTLE_AFTER_RESET_MS);
    let index = 0;
    for (; index < 10; index++) await stepOn(client, episodeId, index, { kind: 'shell', command: 'true', timeoutMs: 0 });
    for (let i = 0; i < fast; i++) {
      if (index >= 90) {
        // An episode allows 100 steps: go on in a fresh one.
        await client.close({ episodeId });
        episodeId = (await client.reset(task.id, i)).episodeId;
        await sleep(SETTLE_AFTER_RESET_MS);
        index = 0;
      }
      stepTrue.push(await stepOn(client, episodeId, index++, { kind: 'shell', command: 'true', timeoutMs: 0 }));
    }
    const callFloor: number[] = [];
    for (let i = 0; i < fast; i++) {
      const t = process.hrtime.bigint();
      await client.listTasks({ suite: options.suite });
      callFloor.push(elapsedMs(t));
    }
    await client.close({ episodeId });
    // The same Steps from the Python client, right after, so both clients see the same moment.
    log('server: Step(shell true) from the Python client (grpcio) ...');
    const python = measurePythonClientSteps(client.address, task.id, 20, fast);
    const fileEp = (await client.reset(task.id, 1)).episodeId;
    await sleep(SETTLE_AFTER_RESET_MS);
    let fileIndex = 0;
    for (let i = 0; i < 45; i++) {
      writes.push(await stepOn(client, fileEp, fileIndex++, { kind: 'write_file', path: 'bench.txt', content: KIB64 }));
      reads.push(await stepOn(client, fileEp, fileIndex++, { kind: 'read_file', path: 'bench.txt', offset: 0, limit: 65536 }));
    }
    await client.close({ episodeId: fileEp });

    const reward: number[] = [];
    for (let i = 0; i < samples; i++) {
      const g = await client.resetGroup(task.id, 1, i);
      await sleep(600); // scoring's warm sandbox refills meanwhile
      const t = process.hrtime.bigint();
      const scored = await client.rewardGroup(g.groupId);
      reward.push(elapsedMs(t));
      if (scored.rewards[0]?.outcome !== 'SCORED') throw new Error(`bench Reward did not score: ${scored.rewards[0]?.detail}`);
      await client.close({ groupId: g.groupId });
    }

    const groups: number[] = [];
    await client.close({ groupId: (await client.resetGroup(task.id, 8, 0)).groupId }); // the burst raises the pool to 8
    for (let i = 0; i < 5; i++) {
      await sleep(2500);
      const t = process.hrtime.bigint();
      const g = await client.resetGroup(task.id, 8, i);
      groups.push(elapsedMs(t));
      await client.close({ groupId: g.groupId });
    }

    log(`server: ${concurrentEpisodes} concurrent episodes × ${stepsEach} steps ...`);
    await sleep(1000);
    const memBefore = hostMemAvailableBytes();
    const started = process.hrtime.bigint();
    const resets = await mapSettledWithConcurrency(Array.from({ length: concurrentEpisodes }, (_, i) => i), 8, (i) => client.reset(task.id, i));
    const live = resets.flatMap((r) => (r.status === 'fulfilled' ? [r.value] : []));
    let errors = resets.length - live.length;
    let firstError = resets.find((r) => r.status === 'rejected')?.reason as unknown;
    await sleep(1500);
    const memIdle = hostMemAvailableBytes();
    const loadSteps: number[] = [];
    await Promise.all(
      live.map(async (g) => {
        const id = g.episodeId;
        for (let s = 0; s < stepsEach; s++) {
          try {
            loadSteps.push(await stepOn(client, id, s, { kind: 'shell', command: 'true', timeoutMs: 0 }));
          } catch (err) {
            errors++;
            firstError ??= err;
            return;
          }
        }
      }),
    );
    const concurrentWall = elapsedMs(started);
    await Promise.all(live.map((g) => client.close({ episodeId: g.episodeId }).catch(() => undefined)));

    log('server: GRPO groups of 8 with the oracle policy ...');
    const tasks = (await client.listTasks({ suite: options.suite })).map((t) => t.taskId);
    const oracle = createOracleAgent(solutionsFromEnvironments(options.environmentsDir));
    const grpo = await runRollouts({
      client,
      taskIds: tasks,
      groupSize: 8,
      groups: tasks.length,
      concurrency: 2,
      agentFor: () => oracle,
      runId: 'bench',
      write: async () => undefined,
    });
    return {
      pythonClientStep: python,
      resetWarm: summarizeLatencies(resetWarm),
      resetWarmAfterIdle: summarizeLatencies(resetWarmAfterIdle),
      idleCallFloor: summarizeLatencies(idleCallFloor),
      stepTrue: summarizeLatencies(stepTrue),
      callFloor: summarizeLatencies(callFloor),
      readFile64k: summarizeLatencies(reads),
      writeFile64k: summarizeLatencies(writes),
      reward: summarizeLatencies(reward),
      resetGroup8: summarizeLatencies(groups),
      concurrent: {
        episodes: live.length,
        stepsEach,
        errors,
        firstError: firstError === undefined ? null : firstError instanceof Error ? firstError.message : String(firstError),
        wallMs: concurrentWall,
        step: summarizeLatencies(loadSteps),
      },
      idleEpisodeBytes: live.length > 0 ? (memBefore - memIdle) / live.length : Number.NaN,
      grpo: {
        groups: grpo.groupsRun,
        groupSize: 8,
        episodes: grpo.episodes,
        wallMs: grpo.wallMs,
        groupsPerMinute: grpo.wallMs > 0 ? (grpo.groupsRun * 60_000) / grpo.wallMs : 0,
        episodesPerMinute: grpo.episodesPerMinute,
        solved: grpo.solved,
      },
    };
  });

  // The Step targets are read from the client trainers use (grpcio); the grpc-js figure is reported beside it.
  const python = server.pythonClientStep;
  const targetStepClient: 'python' | 'node' = 'error' in python ? 'node' : 'python';
  const targetStepP50 = 'error' in python ? server.stepTrue.p50Ms : python.p50Ms;
  const ratios = {
    stepSpeedup: dockerExec.p50Ms / targetStepP50,
    stepSpeedupNode: dockerExec.p50Ms / server.stepTrue.p50Ms,
    resetColdOverCreateStart: resetCold.p50Ms / createStart.p50Ms,
    rewardOverRaw: server.reward.p50Ms / (createStart.p50Ms + testRun.testRun.p50Ms),
    resetGroupOverRaw: server.resetGroup8.p50Ms / groupStart.p50Ms,
    stepOverShell: server.stepTrue.p50Ms / shell.p50Ms,
  };
  const targets = [
    { name: `Step p50 (ms), ${targetStepClient} client`, value: targetStepP50, limit: '<= 3', met: targetStepP50 <= 3 },
    { name: `Step speed-up over raw docker exec (x), ${targetStepClient} client`, value: ratios.stepSpeedup, limit: '>= 15', met: ratios.stepSpeedup >= 15 },
    { name: 'Reset p50, warm pool, right after a Close (ms)', value: server.resetWarm.p50Ms, limit: '<= 5', met: server.resetWarm.p50Ms <= 5 },
    { name: 'cold Reset / raw create+start (x)', value: ratios.resetColdOverCreateStart, limit: '<= 1.2', met: ratios.resetColdOverCreateStart <= 1.2 },
    { name: 'Reward / (raw create+start + raw test run) (x)', value: ratios.rewardOverRaw, limit: '<= 1.3', met: ratios.rewardOverRaw <= 1.3 },
    { name: `errors over ${server.concurrent.episodes} concurrent episodes x ${stepsEach} steps`, value: server.concurrent.errors, limit: '= 0', met: server.concurrent.errors === 0 && server.concurrent.episodes === concurrentEpisodes },
    { name: 'host memory per idle episode (MB)', value: server.idleEpisodeBytes / MB, limit: '<= 10', met: server.idleEpisodeBytes / MB <= 10 },
  ];
  return {
    startedAt,
    runtime,
    maxDiskBytes,
    taskId: task.id,
    taskImage,
    raw: {
      createStart,
      dockerExecTrue: dockerExec,
      shellRoundTrip: shell,
      testRun: testRun.testRun,
      groupStart8: groupStart,
      idleContainerBytes: idleRaw.bytesPerContainer,
    },
    server: { resetCold, ...server },
    targetStepClient,
    ratios,
    targets,
  };
}

/** The task a bench measures: `wanted`, or the suite's first python task. */
export function pickTask(tasks: LoadedTask[], wanted?: string): LoadedTask {
  const task = wanted ? tasks.find((t) => t.id === wanted) : tasks.find((t) => t.file.language === 'python');
  if (!task) throw new Error(wanted ? `no task ${wanted} in the suite` : 'the suite has no python task');
  return task;
}

function sleep(ms: number): Promise<void> {
  return new Promise((r) => setTimeout(r, ms));
}

async function stepOn(client: EnvironmentClient, episodeId: string, index: number, action: Parameters<EnvironmentClient['step']>[2]): Promise<number> {
  const t = process.hrtime.bigint();
  const r = await client.step(episodeId, index, action);
  const ms = elapsedMs(t);
  if (r.observation.exitCode !== 0) throw new Error(`bench step ${action.kind} failed (exit ${r.observation.exitCode}): ${r.observation.stderr}`);
  return ms;
}

/** A few uncounted Resets: the server's task image lookup and the first container start. */
async function warmUp(client: EnvironmentClient, taskId: string): Promise<void> {
  await sleep(1500);
  for (let i = 0; i < 3; i++) {
    const { episodeId } = await client.reset(taskId, i);
    await client.close({ episodeId });
  }
}

/**
 * Runs `work` against a fresh `codemidas serve`. The server writes its log to a file of its own, as
 * a deployed server does: read through a pipe, each log line would be work for the bench's client.
 */
export async function withServer<T>(
  options: Pick<ServerBenchOptions, 'environmentsDir' | 'log'> & { serverRoot?: string },
  label: string,
  extraArgs: string[],
  work: (client: EnvironmentClient) => Promise<T>,
): Promise<T> {
  const logFile = path.join(tmpdir(), `codemidas-bench-${process.pid}-${label}.log`);
  options.log?.(`  server log: ${logFile}`);
  const server: ServerProcess = await startServerProcess({
    environmentsDir: path.resolve(options.environmentsDir),
    extraArgs: ['--sandbox', 'docker', ...extraArgs],
    logFile,
    ...(options.serverRoot ? { root: options.serverRoot } : {}),
  });
  const client = new EnvironmentClient(server.address, { deadlineMs: 300_000 });
  try {
    await client.waitReady(30_000);
    return await work(client);
  } catch (err) {
    throw new Error(`${err instanceof Error ? err.message : String(err)}\n--- server output ---\n${server.outputTail()}`, { cause: err });
  } finally {
    client.dispose();
    await server.stop();
  }
}

/** The figures as a table: each server figure beside its raw counterpart and their ratio, then the targets. */
export function formatServerBenchTable(r: ServerBenchResult): string {
  const f = (ms: number): string => (Number.isFinite(ms) ? ms.toFixed(2) : '-');
  const rows: string[][] = [['measure', 'p50 ms', 'p99 ms', 'raw counterpart', 'raw p50 ms', 'server / raw']];
  const add = (name: string, l: LatencySummary, rawName = '', raw?: LatencySummary | number): void => {
    const rawP50 = typeof raw === 'number' ? raw : raw?.p50Ms;
    rows.push([name, f(l.p50Ms), f(l.p99Ms), rawName, rawP50 === undefined ? '' : f(rawP50), rawP50 === undefined ? '' : `${(l.p50Ms / rawP50).toFixed(3)}`]);
  };
  add('Reset, cold (no warm pool)', r.server.resetCold, 'create+start of the task image', r.raw.createStart);
  add('Reset, warm pool, after a Close', r.server.resetWarm, 'create+start of the task image', r.raw.createStart);
  add(`Reset, warm pool, after ${WARM_RESET_GAP_MS / 1000} s idle`, r.server.resetWarmAfterIdle, `ListTasks after the same ${WARM_RESET_GAP_MS / 1000} s idle`, r.server.idleCallFloor);
  add('Step shell `true` (Node client)', r.server.stepTrue, 'docker exec `true`', r.raw.dockerExecTrue);
  if (!('error' in r.server.pythonClientStep)) add('Step shell `true` (Python client)', r.server.pythonClientStep, 'docker exec `true`', r.raw.dockerExecTrue);
  add('Step shell `true` (Node client)', r.server.stepTrue, 'kept-alive shell round trip', r.raw.shellRoundTrip);
  add('Step shell `true` (Node client)', r.server.stepTrue, 'ListTasks back to back', r.server.callFloor);
  add('read_file 64 KiB', r.server.readFile64k, 'docker exec `true`', r.raw.dockerExecTrue);
  add('write_file 64 KiB', r.server.writeFile64k, 'docker exec `true`', r.raw.dockerExecTrue);
  add('Reward', r.server.reward, 'create+start + test run', r.raw.createStart.p50Ms + r.raw.testRun.p50Ms);
  add('ResetGroup of 8', r.server.resetGroup8, '8 create+starts at once', r.raw.groupStart8);
  add(`Step under load (${r.server.concurrent.episodes} episodes)`, r.server.concurrent.step);
  const widths = rows[0]!.map((_, c) => Math.max(...rows.map((row) => (row[c] ?? '').length)));
  const line = (row: string[]): string => row.map((cell, c) => (c === 0 || c === 3 ? cell.padEnd(widths[c]!) : cell.padStart(widths[c]!))).join('  ');
  const c = r.server.concurrent;
  const g = r.server.grpo;
  return [
    line(rows[0]!),
    widths.map((w) => '-'.repeat(w)).join('  '),
    ...rows.slice(1).map(line),
    '',
    `raw test run (copy in + judge) p50 ${f(r.raw.testRun.p50Ms)} ms; raw create+start p50 ${f(r.raw.createStart.p50Ms)} ms`,
    `${c.episodes} concurrent episodes x ${c.stepsEach} steps: ${c.errors} errors in ${(c.wallMs / 1000).toFixed(1)} s${c.firstError ? ` (first: ${c.firstError})` : ''}`,
    `host memory per idle episode ${(r.server.idleEpisodeBytes / MB).toFixed(2)} MB (raw idle container ${(r.raw.idleContainerBytes / MB).toFixed(2)} MB)`,
    `GRPO with the oracle policy: ${g.groups} groups of ${g.groupSize} in ${(g.wallMs / 1000).toFixed(1)} s = ${g.groupsPerMinute.toFixed(2)} groups/min (${g.episodesPerMinute.toFixed(1)} episodes/min, ${g.solved}/${g.episodes} solved)`,
    '',
    'targets:',
    ...r.targets.map((t) => `  ${t.met ? 'met    ' : 'NOT met'}  ${t.name}: ${Number.isFinite(t.value) ? t.value.toFixed(2) : '-'} (${t.limit})`),
    `task ${r.taskId} on ${r.taskImage}`,
  ].join('\n');
}
