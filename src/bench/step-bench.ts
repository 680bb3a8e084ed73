import { spawnSync } from 'node:child_process';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { projectRoot } from '../project-root.js';
import Docker from 'dockerode';
import { EnvironmentGrpcClient, type WireResetResponse, type WireStepResponse, type WireTaskInfo } from '../client/environment-grpc-client.js';
import { elapsedMs, summarizeLatencies, type LatencySummary } from './latency-stats.js';
import { findPythonImage, measureRawDockerExec, type RawDockerExecResult } from './raw-docker-exec.js';
import { startServerProcess, type ServerProcess } from './server-process.js';

/** Step latency the server aims for (p50, shell `true`), in ms. */
export const STEP_P50_TARGET_MS = 3;

/**
 * Pause after each Reset of a Step measurement, before its first Step. A Reset hands out a pooled
 * sandbox and a replacement starts ~20 ms later (a container start: about 0.2 s of engine work on
 * two cores), and the Close before it removes a container: Steps measured meanwhile time that work,
 * not a Step. The bench's load figure (64 episodes) covers Steps beside starting containers.
 */
export const SETTLE_AFTER_RESET_MS = 1000;

/** Options of {@link runStepBench}; every field has a default. */
export interface StepBenchOptions {
  /** Measured Steps (shell `true`), after warm-up. Default 300 (at least 200 is the point). */
  steps?: number;
  /** Steps run first and not counted. Default 30. */
  warmupSteps?: number;
  /** Measured raw `docker exec true`. Default 60. */
  rawExecs?: number;
  /** Suites folder the bench's own server serves. Default `<project>/environments`. */
  environmentsDir?: string;
  /** Suite to take the task from. Default `sample`. */
  suite?: string;
  /** Task to reset; default the suite's first python task. */
  taskId?: string;
  /** Python sandbox image for the raw exec; default the newest `codemidas/python:*`. */
  image?: string;
  /** Use a running server instead of starting one. */
  address?: string;
  token?: string;
  /** Progress lines; default none. */
  log?: (line: string) => void;
  signal?: AbortSignal;
}

export interface StepBenchResult {
  startedAt: string;
  /**
   * The same Steps driven by the Python client (grpcio, what trainers use), against the same server;
   * `error` says why not when /usr/bin/python3 lacks grpcio.
   */
  pythonClientStep: (LatencySummary & { episodes: number }) | { error: string };
  /** `loadAverage1m` at the end of the run: figures from a busy machine read high. */
  machine: { cpus: number; node: string; platform: string; loadAverage1m: number };
  rawDockerExec: RawDockerExecResult;
  step: LatencySummary & {
    taskId: string;
    episodes: number;
    /** p50 of the server-reported observation duration (the command inside the sandbox). */
    serverCommandP50Ms: number;
  };
  /** ListTasks round trips on the same channel: the gRPC + server floor, no sandbox involved. */
  grpcFloor: LatencySummary;
  /** raw docker exec p50 / Step p50: how many times faster a Step is than a naive exec. */
  speedupP50: number;
  targetStepP50Ms: number;
  meetsTarget: boolean;
}

/**
 * Measures, in one run so the ratio holds on a noisy machine: a raw dockerode `docker exec true`
 * on a container of the python sandbox image, and Step(shell `true`) over gRPC against a real
 * server on the sample suite. Starts (and stops) its own server unless `address` is given.
 */
export async function runStepBench(options: StepBenchOptions = {}): Promise<StepBenchResult> {
  const log = options.log ?? ((): void => undefined);
  const steps = options.steps ?? 300;
  const warmupSteps = options.warmupSteps ?? 30;
  const startedAt = new Date().toISOString();
  const docker = new Docker();

  const image = await findPythonImage(docker, options.image);
  log(`raw docker exec: ${options.rawExecs ?? 60} × \`true\` on ${image} ...`);
  const raw = await measureRawDockerExec({
    image,
    docker,
    ...(options.rawExecs !== undefined ? { iterations: options.rawExecs } : {}),
    ...(options.signal ? { signal: options.signal } : {}),
  });

  let server: ServerProcess | undefined;
  let address = options.address;
  if (!address) {
    log('starting codemidas serve ...');
    const logFile = join(tmpdir(), `codemidas-bench-${process.pid}-step.log`);
    log(`  server log: ${logFile}`);
    server = await startServerProcess({ ...(options.environmentsDir ? { environmentsDir: options.environmentsDir } : {}), logFile });
    address = server.address;
  }
  const client = new EnvironmentGrpcClient(address, options.token);
  try {
    await client.waitReady(30_000);
    const taskId = options.taskId ?? (await firstPythonTask(client, options.suite ?? 'sample'));
    log(`Step(shell true): ${warmupSteps} warm-up + ${steps} measured on ${taskId} via ${address} ...`);
    const measured = await measureSteps(client, taskId, warmupSteps, steps, options.signal);
    const floorMs: number[] = [];
    for (let i = 0; i < 20 + steps; i++) {
      const start = process.hrtime.bigint();
      await client.call('ListTasks', { suite: options.suite ?? 'sample', language: '' });
      if (i >= 20) floorMs.push(elapsedMs(start));
    }
    log(`Step(shell true) from the Python client (grpcio): ${warmupSteps} warm-up + ${steps} measured ...`);
    const python = measurePythonClientSteps(address, taskId, warmupSteps, steps);
    const stepSummary = summarizeLatencies(measured.samplesMs);
    const serverCommand = summarizeLatencies(measured.serverMs);
    return {
      startedAt,
      machine: {
        cpus: cpus().length,
        node: process.version,
        platform: `${process.platform}-${process.arch}`,
        loadAverage1m: loadavg()[0] ?? Number.NaN,
      },
      rawDockerExec: raw,
      step: { ...stepSummary, taskId, episodes: measured.episodes, serverCommandP50Ms: serverCommand.p50Ms },
      grpcFloor: summarizeLatencies(floorMs),
      pythonClientStep: python,
      speedupP50: raw.p50Ms / stepSummary.p50Ms,
      targetStepP50Ms: STEP_P50_TARGET_MS,
      meetsTarget: stepSummary.p50Ms <= STEP_P50_TARGET_MS,
    };
  } finally {
    client.close();
    await server?.stop();
  }
}

async function firstPythonTask(client: EnvironmentGrpcClient, suite: string): Promise<string> {
  const { tasks } = await client.call<{ tasks: WireTaskInfo[] }>('ListTasks', { suite, language: 'python' });
  const first = tasks[0];
  if (!first) throw new Error(`the server lists no python task in suite '${suite}'`);
  return first.task_id;
}

/**
 * Runs Steps back to back. An episode allows `max_steps` steps, so the run moves to a fresh episode
 * when one nears its budget; the first steps of every episode count as warm-up (they may start the
 * in-sandbox relay).
 */
async function measureSteps(
  client: EnvironmentGrpcClient,
  taskId: string,
  warmupSteps: number,
  steps: number,
  signal: AbortSignal | undefined,
): Promise<{ samplesMs: number[]; serverMs: number[]; episodes: number }> {
  const samplesMs: number[] = [];
  const serverMs: number[] = [];
  const perEpisodeWarmup = Math.min(warmupSteps, 5);
  let warmupLeft = warmupSteps;
  let episodes = 0;
  while (samplesMs.length < steps) {
    const reset = await client.call<WireResetResponse>('Reset', { task_id: taskId, seed: episodes }, 300_000);
    episodes++;
    await new Promise((resolve) => setTimeout(resolve, SETTLE_AFTER_RESET_MS));
    const budget = Math.max(2, (reset.limits?.max_steps || 100) - 1);
    try {
      for (let index = 0; index < budget && samplesMs.length < steps; index++) {
        signal?.throwIfAborted();
        const start = process.hrtime.bigint();
        const response = await client.call<WireStepResponse>('Step', {
          episode_id: reset.episode_id,
          step_index: index,
          action: { shell: { command: 'true', timeout_ms: 0 } },
        });
        const ms = elapsedMs(start);
        const exitCode = response.observation?.exit_code ?? -1;
        if (exitCode !== 0) {
          throw new Error(`Step(shell true) answered exit ${exitCode}: ${response.observation?.stderr ?? ''}`);
        }
        if (warmupLeft > 0 || index < perEpisodeWarmup) {
          warmupLeft = Math.max(0, warmupLeft - 1);
        } else {
          samplesMs.push(ms);
          serverMs.push(response.observation?.duration_ms ?? Number.NaN);
        }
        if (response.truncated || response.terminated) break;
      }
    } finally {
      await client.call('Close', { episode_id: reset.episode_id, group_id: '' }).catch(() => undefined);
    }
  }
  return { samplesMs, serverMs, episodes };
}

/** The bench's figures as a plain-text table. */
export function formatStepBenchTable(result: StepBenchResult): string {
  const f = (ms: number): string => (Number.isFinite(ms) ? ms.toFixed(2) : '-');
  const row = (name: string, l: LatencySummary): string[] => [name, String(l.samples), f(l.p50Ms), f(l.p90Ms), f(l.p99Ms), f(l.meanMs)];
  const rows: string[][] = [
    ['measure', 'samples', 'p50 ms', 'p90 ms', 'p99 ms', 'mean ms'],
    row('raw docker exec `true` (dockerode)', result.rawDockerExec),
    row('Step(shell `true`) over gRPC, Node client', result.step),
    'error' in result.pythonClientStep
      ? ['Step(shell `true`) over gRPC, Python client', '0', '-', '-', '-', '-']
      : row('Step(shell `true`) over gRPC, Python client', result.pythonClientStep),
    row('ListTasks over gRPC (no sandbox), Node client', result.grpcFloor),
  ];
  const widths = rows[0]!.map((_, c) => Math.max(...rows.map((r) => (r[c] ?? '').length)));
  const line = (r: string[]): string => r.map((cell, c) => (c === 0 ? cell.padEnd(widths[c]!) : cell.padStart(widths[c]!))).join('  ');
  return [
    line(rows[0]!),
    widths.map((w) => '-'.repeat(w)).join('  '),
    ...rows.slice(1).map(line),
    '',
    `ratio: raw exec p50 / Step p50 = ${result.speedupP50.toFixed(1)}× (Node client)` +
      ('error' in result.pythonClientStep ? '' : `, ${(result.rawDockerExec.p50Ms / result.pythonClientStep.p50Ms).toFixed(1)}× (Python client)`),
    `Step p50 target ≤ ${result.targetStepP50Ms} ms: Node client ${result.meetsTarget ? 'met' : 'NOT met'} (${f(result.step.p50Ms)} ms)` +
      ('error' in result.pythonClientStep
        ? `; Python client not measured: ${result.pythonClientStep.error}`
        : `; Python client ${result.pythonClientStep.p50Ms <= result.targetStepP50Ms ? 'met' : 'NOT met'} (${f(result.pythonClientStep.p50Ms)} ms)`) +
      `; server-side command p50 ${f(result.step.serverCommandP50Ms)} ms`,
    `task ${result.step.taskId}, ${result.step.episodes} episode(s); image ${result.rawDockerExec.image}; ` +
      `${result.machine.cpus} CPUs (load ${result.machine.loadAverage1m.toFixed(1)}), node ${result.machine.node}`,
  ].join('\n');
}

/** Runs src/bench/python/step_latency.py with Debian's python3 (grpcio) against the same server. */
export function measurePythonClientSteps(address: string, taskId: string, warmup: number, steps: number): StepBenchResult['pythonClientStep'] {
  const script = join(projectRoot(), 'src', 'bench', 'python', 'step_latency.py');
  const run = spawnSync(process.env['CODEMIDAS_PYTHON'] ?? '/usr/bin/python3', [script, address, taskId, String(warmup), String(steps), String(SETTLE_AFTER_RESET_MS / 1000)], {
    encoding: 'utf8',
    timeout: 300_000,
  });
  if (run.status !== 0) {
    return { error: `python client run failed (${run.error?.message ?? `exit ${run.status}`}): ${(run.stderr ?? '').trim().split('\n').slice(-1)[0] ?? ''}` };
  }
  const parsed = JSON.parse(run.stdout.trim().split('\n').pop() ?? '{}') as { samplesMs?: number[]; episodes?: number };
  return { ...summarizeLatencies(parsed.samplesMs ?? []), episodes: parsed.episodes ?? 0 };
}
