import { randomUUID } from 'node:crypto';
import os from 'node:os';
import path from 'node:path';
import { Command, Option } from 'commander';
import { EnvironmentClient } from '../client/environment-client.js';
import { resolveLimits } from '../config/limits.js';
import { createLogger } from '../logging.js';
import { applyVerdicts, judgeTask, parsePassRateBand } from '../rollouts/filter-suite.js';
import { formatRolloutSummary } from '../rollouts/rollout-report.js';
import { startServer } from '../server/start-server.js';
import type { RolloutVerdict } from '../tasks/task-schema.js';
import { addAgentOptions, createAgentsFromFlags, describeAgents, type AgentFlags } from './agent-options.js';
import { CliError } from './cli-error.js';
import { nonNegativeInt, positiveInt } from './positive-int.js';
import { composeRuntime, type SandboxKind } from './compose-runtime.js';
import { addIsolationOptions, isolationFromFlags, type IsolationFlags } from './isolation-options.js';
import { addLimitOptions, limitsFromOptions } from './limit-options.js';
import { failOnFatal, rolloutToFile } from './rollout-command.js';

interface FilterFlags extends AgentFlags {
  suite: string;
  environments: string;
  rollouts: number;
  keepPassRate: string;
  concurrency: number;
  seed: number;
  out?: string;
  sandbox: SandboxKind;
  dryRun: boolean;
  warmPool: number;
  runtime: IsolationFlags['runtime'];
  maxDiskBytes?: number | undefined;
  [limit: string]: unknown;
}

/**
 * `codemidas filter`: K attempts per task of a suite by a policy (one group of K per task, served
 * in-process), then the pass-rate band decides: tasks inside it are kept with their pass rate as
 * difficulty, the others retired from suite.json with the reason in funnel.json. Retired tasks are
 * attempted again, so a rerun with a stronger policy re-admits or retires by the same band.
 */
export function createFilterCommand(): Command {
  const command = new Command('filter')
    .description('keep the tasks of a suite whose rollouts show mixed outcomes; record the pass rate as difficulty')
    .requiredOption('--suite <name>', 'suite to filter (its tasks, retired ones included)')
    .option('--environments <dir>', 'folder of suites', 'environments')
    .option('--rollouts <k>', 'attempts per task', positiveInt('--rollouts'), 4)
    .option('--keep-pass-rate <band>', 'pass rates kept: "mixed" (at least one pass and one fail) or "lo..hi", e.g. 0.1..0.9', 'mixed')
    .option('--concurrency <n>', 'tasks (groups of K) in flight at once', positiveInt('--concurrency'), 2)
    .option('--seed <n>', 'seed of the first group', (raw) => Number(raw), 0)
    .option('--out <file>', 'also append every trajectory to this file')
    .option('--dry-run', 'print the verdicts, change nothing on disk', false)
    .option('--warm-pool <n>', 'started sandboxes kept ready per hot task image and scoring image (0: off)', nonNegativeInt('--warm-pool'), 2)
    .addOption(new Option('--sandbox <kind>', 'sandbox adapter').choices(['auto', 'docker', 'local', 'memory']).default('auto'));
  addAgentOptions(command);
  addLimitOptions(command);
  addIsolationOptions(command);
  command.action(async (flags: FilterFlags, cmd: Command) => {
    const verbose = Boolean(cmd.optsWithGlobals()['verbose']);
    const band = parsePassRateBand(flags.keepPassRate);
    const say = (line: string): void => void process.stderr.write(`${line}\n`);
    const logger = createLogger(verbose ? { level: 'debug' } : { level: 'warn' });
    const agents = await createAgentsFromFlags(flags, flags.environments, say);
    const limits = resolveLimits(limitsFromOptions(flags));

    const runtime = await composeRuntime({ environmentsDir: flags.environments, sandbox: flags.sandbox, warmPool: flags.warmPool, isolation: isolationFromFlags(flags), limits, logger, say, includeRetired: true });
    const tasks = runtime.catalog.list({ suite: flags.suite });
    if (tasks.length === 0) {
      await runtime.dispose(0);
      const suites = [...new Set([...runtime.catalog.tasks.values()].map((t) => t.suite))];
      throw new CliError(`no task of suite '${flags.suite}' loaded from ${flags.environments}`, `suites there: ${suites.join(', ') || 'none'}`);
    }
    const server = await startServer({ manager: runtime.manager, catalog: runtime.catalog, logger, listen: { host: '127.0.0.1', port: 0 }, limits }).catch(async (err: unknown) => {
      await runtime.dispose(0);
      throw err;
    });
    const client = new EnvironmentClient(server.address);
    const runId = randomUUID().slice(0, 8);
    try {
      say(`filter: ${tasks.length} tasks of ${flags.suite} × ${flags.rollouts} attempts by ${describeAgents(agents).name}, band ${band.label}`);
      const summary = await rolloutToFile({
        client,
        taskIds: tasks.map((t) => t.id),
        agents,
        groupSize: flags.rollouts,
        groups: tasks.length,
        concurrency: flags.concurrency,
        seed: flags.seed,
        runId,
        out: flags.out ?? path.join(os.tmpdir(), `codemidas-filter-${runId}.jsonl`),
        say,
      });
      process.stdout.write(`${formatRolloutSummary(summary)}\n`);
      failOnFatal(summary);

      const agent = describeAgents(agents);
      const verdicts = new Map<string, RolloutVerdict>();
      for (const tally of summary.tasks) {
        verdicts.set(tally.task.slice(flags.suite.length + 1), judgeTask(tally, band, agent, runId));
      }
      for (const failure of summary.groupFailures) say(`not judged: ${failure.task}: ${failure.error}`);
      for (const [name, v] of [...verdicts].sort(([a], [b]) => (a < b ? -1 : 1))) {
        process.stdout.write(`${v.verdict.padEnd(8)} ${flags.suite}/${name}: ${v.reason}\n`);
      }
      if (flags.dryRun) {
        say('dry run: nothing written');
        return;
      }
      const suiteDir = tasks[0]?.dir ? path.dirname(tasks[0].dir) : path.join(flags.environments, flags.suite);
      const outcome = await applyVerdicts(suiteDir, verdicts);
      process.stdout.write(
        `kept ${outcome.kept.length}, retired ${outcome.retired.length} (newly ${outcome.newlyRetired.length}), re-admitted ${outcome.readmitted.length}, unscored ${outcome.unscored.length}; ` +
          `written to ${path.join(suiteDir, 'suite.json')}, funnel.json and each task.json\n`,
      );
    } finally {
      client.dispose();
      await server.close({ graceMs: 5_000 });
      await runtime.dispose(5_000);
    }
  });
  return command;
}
