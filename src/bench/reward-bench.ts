import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Docker from 'dockerode';
import { createOracleAgent, solutionsFromEnvironments } from '../agents/oracle-agent.js';
import type { EnvironmentClient } from '../client/environment-client.js';
import { mapSettledWithConcurrency } from '../episodes/map-with-concurrency.js';
import { workspaceImageForTask } from '../episodes/workspace-image-for-task.js';
import { createLogger } from '../logging.js';
import { runRollouts } from '../rollouts/run-rollouts.js';
import { createDockerSandboxProvider } from '../sandbox/docker/docker-sandbox-provider.js';
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
  /** Reward samples of each kind. Default 15. */
  samples?: number;
  log?: (line: string) => void;
}

export interface RewardBenchResult {
  startedAt: string;
  taskId: string;
  server: {
    /** Reward (RewardGroup of one) of the task as it is: recorded cases and test scripts. */
    reward: LatencySummary;
    /** The same task with its test scripts left out: recorded cases only. */
    rewardCasesOnly: LatencySummary;
    grpo: { groups: number; groupSize: number; episodes: number; wallMs: number; groupsPerMinute: number; episodesPerMinute: number; solved: number };
  };
}

/** Suffix of the cases-only copy of the measured task in the bench's temporary suite. */
const CASES_ONLY_SUFFIX = '-cases-only';

/**
 * `codemidas bench --reward-only`: only the figures scoring bounds, from one warm-pool server: Reward
 * p50 of the measured task, of a copy of it with recorded cases only, and GRPO groups of 8 with the
 * oracle policy over the suite's tasks (as the full bench runs them). The server serves a temporary
 * copy of the suite that holds the cases-only task beside the others.
 */
export async function runRewardBench(options: RewardBenchOptions): Promise<RewardBenchResult> {
  const log = options.log ?? ((): void => undefined);
  const samples = options.samples ?? 15;
  const startedAt = new Date().toISOString();
  const catalog = await loadCatalog(options.environmentsDir);
  const tasks = catalog.list({ suite: options.suite });
  const task = pickTask(tasks, options.taskId);

  const copyRoot = mkdtempSync(path.join(tmpdir(), 'codemidas-reward-bench-'));
  try {
    const casesOnlyId = writeSuiteCopy(copyRoot, task);
    const copy = await loadCatalog(copyRoot);
    log(`task images of the ${copy.tasks.size} tasks served ...`);
    const docker = new Docker();
    const provider = createDockerSandboxProvider({ docker, logger: createLogger({ level: 'warn' }), serverId: 'codemidas-bench' });
    try {
      await mapSettledWithConcurrency([...copy.tasks.values()], 2, async (t) => workspaceImageForTask(provider, t, await listWorkspaceFiles(t)));
    } finally {
      await provider.close();
    }

    const serverOptions = { ...options, environmentsDir: copyRoot };
    return await withServer(serverOptions, 'reward', ['--warm-pool', '2'], async (client) => {
      log(`server (warm pool): Reward of ${task.id} and of ${casesOnlyId}, interleaved, × ${samples} ...`);
      for (const id of [task.id, casesOnlyId]) await timeReward(client, id, 0); // first scoring of each image, not counted
      const reward: number[] = [];
      const rewardCasesOnly: number[] = [];
      for (let i = 0; i < samples; i++) {
        reward.push(await timeReward(client, task.id, i + 1));
        rewardCasesOnly.push(await timeReward(client, casesOnlyId, i + 1));
      }
      log('server: GRPO groups of 8 with the oracle policy ...');
      const oracle = createOracleAgent(solutionsFromEnvironments(copyRoot));
      const grpo = await runRollouts({
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
        startedAt,
        taskId: task.id,
        server: {
          reward: summarizeLatencies(reward),
          rewardCasesOnly: summarizeLatencies(rewardCasesOnly),
          grpo: {
            groups: grpo.groupsRun,
            groupSize: 8,
            episodes: grpo.episodes,
            wallMs: grpo.wallMs,
            groupsPerMinute: grpo.wallMs > 0 ? (grpo.groupsRun * 60_000) / grpo.wallMs : 0,
            episodesPerMinute: grpo.episodesPerMinute,
            solved: grpo.solved,
          },
        },
      };
    });
  } finally {
    rmSync(copyRoot, { recursive: true, force: true });
  }
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

/** The figures as lines: Reward p50/p99 of both tasks and GRPO throughput. */
export function formatRewardBenchTable(r: RewardBenchResult): string {
  const f = (l: LatencySummary): string => `p50 ${l.p50Ms.toFixed(1)} ms, p99 ${l.p99Ms.toFixed(1)} ms (${l.samples} samples)`;
  const g = r.server.grpo;
  return [
    `Reward of ${r.taskId} (cases and test scripts): ${f(r.server.reward)}`,
    `Reward of ${r.taskId}${CASES_ONLY_SUFFIX} (recorded cases only): ${f(r.server.rewardCasesOnly)}`,
    `GRPO with the oracle policy: ${g.groups} groups of ${g.groupSize} in ${(g.wallMs / 1000).toFixed(1)} s = ${g.groupsPerMinute.toFixed(2)} groups/min (${g.episodesPerMinute.toFixed(1)} episodes/min, ${g.solved}/${g.episodes} solved)`,
  ].join('\n');
}
