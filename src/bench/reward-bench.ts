import { spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Docker from 'dockerode';
import { createOracleAgent, solutionsFromEnvironments } from '../agents/oracle-agent.js';
import type { EnvironmentClient } from '../client/environment-client.js';
import { mapSettledWithConcurrency } from '../shared/map-with-concurrency.js';
import { workspaceImageForTask } from '../episodes/workspace-image-for-task.js';
import { createDockerImageResolver } from '../images/docker-image-resolver.js';
import { createLogger } from '../logging.js';
import { runRollouts } from '../rollouts/run-rollouts.js';
import { createDockerSandboxProvider } from '../sandbox/docker/docker-sandbox-provider.js';
import { projectRoot } from '../project-root.js';
import { listWorkspaceFiles } from '../tasks/list-workspace-files.js';
import { loadCatalog } from '../tasks/load-catalog.js';
import type { LoadedTask } from '../tasks/types.js';
import { elapsedMs, summarizeLatencies, type LatencySummary } from './latency-stats.js';
import { pickTask, withServer } from './server-bench.js';

/** Options of {@link runRewardBench}. */
export interface RewardBenchOptions {
  environmentsDir: string;
  suite: string;
  /** Task to measure; default the suite's first python task. */
  taskId?: string;
  /** Reward samples of each kind, per server. Default 15. */
  samples?: number;
  /**
   * Another built checkout (e.g. main) measured in the same run: its server runs beside this one's,
   * Reward calls alternate between the two, and GRPO runs alternate too, so both see the same load.
   */
  compareWith?: string;
  /** GRPO runs per server (groups of 8 over the suite's tasks each). Default 1. */
  grpoRounds?: number;
  log?: (line: string) => void;
}

export interface GrpoFigures {
  groups: number;
  groupSize: number;
  episodes: number;
  wallMs: number;
  groupsPerMinute: number;
  episodesPerMinute: number;
  solved: number;
}

/** One server's figures. */
export interface RewardFigures {
  /** The checkout the server ran from, and its commit. */
  checkout: string;
  commit: string;
  /** Reward (RewardGroup of one) of the task as it is: recorded cases and test scripts. */
  reward: LatencySummary;
  /** The same task with its test scripts left out: recorded cases only. */
  rewardCasesOnly: LatencySummary;
  /** One entry per GRPO run, in order. */
  grpo: GrpoFigures[];
}

export interface RewardBenchResult {
  startedAt: string;
  taskId: string;
  /** This checkout's server first, then the one of `compareWith`. */
  servers: RewardFigures[];
}

/** Suffix of the cases-only copy of the measured task in the bench's temporary suite. */
const CASES_ONLY_SUFFIX = '-cases-only';

/**
 * `codemidas bench --reward-only`: only the figures scoring bounds, from warm-pool servers: Reward
 * p50 of the measured task, of a copy of it with recorded cases only, and GRPO groups of 8 with the
 * oracle policy over the suite's tasks (as the full bench runs them). The servers serve a temporary
 * copy of the suite that holds the cases-only task beside the others. With `compareWith`, a second
 * checkout's server is measured in the same run, its calls interleaved with this one's.
 */
export async function runRewardBench(options: RewardBenchOptions): Promise<RewardBenchResult> {
  const log = options.log ?? ((): void => undefined);
  const samples = options.samples ?? 15;
  const grpoRounds = options.grpoRounds ?? 1;
  const startedAt = new Date().toISOString();
  const catalog = await loadCatalog(options.environmentsDir);
  const tasks = catalog.list({ suite: options.suite });
  const task = pickTask(tasks, options.taskId);
  const roots = [projectRoot(), ...(options.compareWith ? [path.resolve(options.compareWith)] : [])];

  const copyRoot = mkdtempSync(path.join(tmpdir(), 'codemidas-reward-bench-'));
  try {
    const casesOnlyId = writeSuiteCopy(copyRoot, task);
    const copy = await loadCatalog(copyRoot);
    log(`task images of the ${copy.tasks.size} tasks served ...`);
    const docker = new Docker();
    const quiet = createLogger({ level: 'warn' });
    const provider = createDockerSandboxProvider({ docker, logger: quiet, serverId: 'codemidas-bench', images: createDockerImageResolver({ docker, logger: quiet }) });
    try {
      await mapSettledWithConcurrency([...copy.tasks.values()], 2, async (t) => workspaceImageForTask(provider, t, await listWorkspaceFiles(t)));
    } finally {
      await provider.close();
    }
    // The other checkout's images (its own content-hash tags), built before it is measured.
    for (const root of roots.slice(1)) {
      log(`images of ${root} ...`);
      const built = spawnSync(process.execPath, [path.join(root, 'bin', 'codemidas.js'), 'images', 'build', '--languages', 'python', '--environments', copyRoot], { cwd: root, encoding: 'utf8' });
      if (built.status !== 0) throw new Error(`could not build the images of ${root}: ${built.stderr.trim().split('\n').slice(-3).join(' | ')}`);
    }

    const withServers = async <T>(index: number, clients: EnvironmentClient[], work: (clients: EnvironmentClient[]) => Promise<T>): Promise<T> => {
      const root = roots[index];
      if (root === undefined) return work(clients);
      return withServer({ ...options, environmentsDir: copyRoot, serverRoot: root }, `reward-${index}`, ['--warm-pool', '2'], (client) => withServers(index + 1, [...clients, client], work));
    };

    return await withServers(0, [], async (clients) => {
      for (const client of clients) for (const id of [task.id, casesOnlyId]) await timeReward(client, id, 0); // first scoring of each image, not counted
      log(`server${clients.length > 1 ? 's' : ''} (warm pool): Reward of ${task.id} and of ${casesOnlyId}, interleaved, × ${samples} ...`);
      const reward = clients.map((): number[] => []);
      const rewardCasesOnly = clients.map((): number[] => []);
      for (let i = 0; i < samples; i++) {
        for (const [c, client] of clients.entries()) {
          reward[c]!.push(await timeReward(client, task.id, i + 1));
          rewardCasesOnly[c]!.push(await timeReward(client, casesOnlyId, i + 1));
        }
      }
      const grpo = clients.map((): GrpoFigures[] => []);
      for (let round = 0; round < grpoRounds; round++) {
        for (const [c, client] of clients.entries()) {
          log(`server ${c + 1} (${roots[c]}): GRPO groups of 8 with the oracle policy, run ${round + 1} of ${grpoRounds} ...`);
          grpo[c]!.push(await runGrpo(client, copyRoot, tasks));
        }
      }
      return {
        startedAt,
        taskId: task.id,
        servers: clients.map((_, c) => ({
          checkout: roots[c]!,
          commit: commitOf(roots[c]!),
          reward: summarizeLatencies(reward[c]!),
          rewardCasesOnly: summarizeLatencies(rewardCasesOnly[c]!),
          grpo: grpo[c]!,
        })),
      };
    });
  } finally {
    rmSync(copyRoot, { recursive: true, force: true });
  }
}

/** GRPO as the full bench runs it: one group of 8 per task of the suite, two groups at once, the oracle policy. */
async function runGrpo(client: EnvironmentClient, environmentsDir: string, tasks: LoadedTask[]): Promise<GrpoFigures> {
  const oracle = createOracleAgent(solutionsFromEnvironments(environmentsDir));
  const run = await runRollouts({
    client,
    taskIds: tasks.map((t) => t.id),
    groupSize: 8,
    groups: tasks.length,
    concurrency: 2,
    agentFor: () => oracle,
    runId: 'bench',
    write: async () => undefined,
  });
  return {
    groups: run.groupsRun,
    groupSize: 8,
    episodes: run.episodes,
    wallMs: run.wallMs,
    groupsPerMinute: run.wallMs > 0 ? (run.groupsRun * 60_000) / run.wallMs : 0,
    episodesPerMinute: run.episodesPerMinute,
    solved: run.solved,
  };
}

function commitOf(root: string): string {
  const run = spawnSync('git', ['-C', root, 'log', '-1', '--format=%h'], { encoding: 'utf8' });
  return run.status === 0 ? run.stdout.trim() : 'unknown';
}

/** Copies the task's suite under `root` and adds a copy of the task without its test scripts; returns that copy's id. */
function writeSuiteCopy(root: string, task: LoadedTask): string {
  const suiteDir = path.dirname(task.dir);
  const target = path.join(root, task.suite);
  cpSync(suiteDir, target, { recursive: true });
  const name = `${task.name}${CASES_ONLY_SUFFIX}`;
  cpSync(task.dir, path.join(target, name), { recursive: true });
  const id = `${task.suite}/${name}`;
  const file = JSON.parse(readFileSync(path.join(task.dir, 'task.json'), 'utf8')) as Record<string, unknown> & { tests: Record<string, unknown> };
  if (file.tests['cases'] === null) throw new Error(`${task.id} has no recorded cases: choose a task that has (--task)`);
  writeFileSync(path.join(target, name, 'task.json'), `${JSON.stringify({ ...file, id, tests: { ...file.tests, scripts: [] } }, null, 2)}\n`);
  const suiteFile = path.join(target, 'suite.json');
  const suite = JSON.parse(readFileSync(suiteFile, 'utf8')) as { tasks: string[] };
  writeFileSync(suiteFile, `${JSON.stringify({ ...suite, tasks: [...suite.tasks, name] }, null, 2)}\n`);
  return id;
}

/** One Reward through RewardGroup of a fresh group of one (as the full bench times it); throws unless SCORED. */
async function timeReward(client: EnvironmentClient, taskId: string, seed: number): Promise<number> {
  const g = await client.resetGroup(taskId, 1, seed);
  await new Promise((r) => setTimeout(r, 600)); // scoring's warm sandbox refills meanwhile
  const t = process.hrtime.bigint();
  const scored = await client.rewardGroup(g.groupId);
  const ms = elapsedMs(t);
  await client.close({ groupId: g.groupId });
  if (scored.rewards[0]?.outcome !== 'SCORED') throw new Error(`bench Reward of ${taskId} did not score: ${scored.rewards[0]?.detail}`);
  return ms;
}

/** The figures as lines, one block per server. */
export function formatRewardBenchTable(r: RewardBenchResult): string {
  const f = (l: LatencySummary): string => `p50 ${l.p50Ms.toFixed(1)} ms, p99 ${l.p99Ms.toFixed(1)} ms (${l.samples} samples)`;
  return r.servers
    .flatMap((s) => [
      `server from ${s.checkout} at ${s.commit}:`,
      `  Reward of ${r.taskId} (cases and test scripts): ${f(s.reward)}`,
      `  Reward of ${r.taskId}${CASES_ONLY_SUFFIX} (recorded cases only): ${f(s.rewardCasesOnly)}`,
      ...s.grpo.map(
        (g, i) =>
          `  GRPO run ${i + 1} with the oracle policy: ${g.groups} groups of ${g.groupSize} in ${(g.wallMs / 1000).toFixed(1)} s = ${g.groupsPerMinute.toFixed(2)} groups/min (${g.episodesPerMinute.toFixed(1)} episodes/min, ${g.solved}/${g.episodes} solved)`,
      ),
    ])
    .join('\n');
}
