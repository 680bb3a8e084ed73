import { randomUUID } from 'node:crypto';
import { mkdir, open, type FileHandle } from 'node:fs/promises';
import path from 'node:path';
import { Command, Option } from 'commander';
import type { Agent } from '../agents/types.js';
import { EnvironmentClient } from '../client/environment-client.js';
import { DEFAULT_LISTEN } from '../config/listen-address.js';
import { createProgressPrinter, formatRolloutSummary } from '../rollouts/rollout-report.js';
import { runRollouts, type RolloutSummary } from '../rollouts/run-rollouts.js';
import type { Trajectory } from '../rollouts/trajectory-schema.js';
import { addAgentOptions, createAgentsFromFlags, type AgentFlags } from './agent-options.js';
import { CliError } from './cli-error.js';
import { positiveInt } from './positive-int.js';

interface RolloutFlags extends AgentFlags {
  server: string;
  suite: string;
  groupSize: number;
  groups?: number;
  concurrency: number;
  seed: number;
  out?: string;
  environments: string;
  token?: string;
}

/** `codemidas rollout`: a rollout worker against a running server. */
export function createRolloutCommand(): Command {
  const command = new Command('rollout')
    .description('run a policy on groups of episodes of a served suite and write one trajectory per episode (JSON lines)')
    .option('--server <host:port>', 'address of a running `codemidas serve`', DEFAULT_LISTEN)
    .requiredOption('--suite <name>', 'suite to draw tasks from (groups cycle through its tasks)')
    .option('--group-size <n>', 'episodes per group (G)', positiveInt('--group-size'), 8)
    .option('--groups <n>', 'groups to run (default: one per task)', positiveInt('--groups'))
    .option('--concurrency <n>', 'groups in flight at once', positiveInt('--concurrency'), 2)
    .option('--seed <n>', 'seed of the first group (group i gets seed + i)', (raw) => Number(raw), 0)
    .option('--out <file>', 'trajectories file, appended to (default: trajectories/<suite>-<run id>.jsonl)')
    .option('--environments <dir>', 'where the served suites lie on disk (the oracle reads solutions there)', 'environments')
    .addOption(new Option('--token <token>', 'bearer token of a server that requires one').env('CODEMIDAS_AUTH_TOKEN'));
  addAgentOptions(command);
  command.action(async (flags: RolloutFlags) => {
    const say = (line: string): void => void process.stderr.write(`${line}\n`);
    const agents = await createAgentsFromFlags(flags, flags.environments, say);
    const client = new EnvironmentClient(flags.server, { token: flags.token });
    try {
      await client.waitReady(15_000);
      const tasks = await client.listTasks({ suite: flags.suite });
      if (tasks.length === 0) {
        const suites = [...new Set((await client.listTasks()).map((t) => t.suite))];
        throw new CliError(`the server at ${flags.server} serves no task in suite '${flags.suite}'`, `it serves: ${suites.join(', ') || 'nothing'}`);
      }
      const runId = randomUUID().slice(0, 8);
      const out = flags.out ?? path.join('trajectories', `${flags.suite}-${runId}.jsonl`);
      const summary = await rolloutToFile({
        client,
        taskIds: tasks.map((t) => t.taskId),
        agents,
        groupSize: flags.groupSize,
        groups: flags.groups ?? tasks.length,
        concurrency: flags.concurrency,
        seed: flags.seed,
        runId,
        out,
        say,
      });
      process.stdout.write(`${formatRolloutSummary(summary)}\n`);
      say(`wrote ${summary.episodes} trajectories to ${out} (run ${runId})`);
      failOnFatal(summary);
    } finally {
      client.dispose();
    }
  });
  return command;
}

export interface RolloutToFileOptions {
  client: EnvironmentClient;
  taskIds: readonly string[];
  agents: readonly Agent[];
  groupSize: number;
  groups: number;
  concurrency: number;
  seed: number;
  runId: string;
  out: string;
  say: (line: string) => void;
}

/** Runs the worker with a progress display, appending each trajectory to `out` as it finishes. */
export async function rolloutToFile(options: RolloutToFileOptions): Promise<RolloutSummary> {
  await mkdir(path.dirname(path.resolve(options.out)), { recursive: true });
  let file: FileHandle;
  try {
    file = await open(options.out, 'a');
  } catch (err) {
    throw new CliError(`cannot open the trajectories file ${options.out}: ${err instanceof Error ? err.message : String(err)}`, 'pass --out with a writable path');
  }
  const progress = createProgressPrinter(process.stderr);
  const stop = new AbortController();
  const onSignal = (): void => {
    options.say('interrupted: finishing the groups in flight (no new ones start)');
    stop.abort(new Error('interrupted'));
  };
  process.once('SIGINT', onSignal);
  try {
    return await runRollouts({
      client: options.client,
      taskIds: options.taskIds,
      groupSize: options.groupSize,
      groups: options.groups,
      concurrency: options.concurrency,
      agentFor: (member) => options.agents[member % options.agents.length] as Agent,
      seed: options.seed,
      runId: options.runId,
      write: async (t: Trajectory) => {
        await file.write(`${JSON.stringify(t)}\n`);
      },
      onProgress: (p) => progress.update(p),
      signal: stop.signal,
    });
  } finally {
    process.removeListener('SIGINT', onSignal);
    progress.done();
    await file.close();
  }
}

/** An LLM failure that stopped the run, or a run where no group ran, is the command's failure. */
export function failOnFatal(summary: RolloutSummary): void {
  if (summary.fatal) throw new CliError(`the rollout stopped early: ${summary.fatal}`);
  if (summary.episodes === 0 && summary.groupFailures.length > 0) {
    throw new CliError(`no group ran: ${summary.groupFailures[0]?.error ?? 'unknown error'}`);
  }
}
