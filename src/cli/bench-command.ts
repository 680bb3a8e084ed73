import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { dirname, resolve } from 'node:path';
import { Command, Option } from 'commander';
import { formatRewardBenchTable, runRewardBench } from '../bench/reward-bench.js';
import { formatRuntimeComparisonTable } from '../bench/runtime-comparison.js';
import { formatServerBenchTable, runServerBench, type ServerBenchResult } from '../bench/server-bench.js';
import { formatStepBenchTable, runStepBench, type StepBenchOptions } from '../bench/step-bench.js';
import { CliError } from './cli-error.js';
import { parseByteSize, RUNTIMES } from './isolation-options.js';
import { runBenchSoak, SOAK_CONCURRENCY_OPTION, SOAK_OPTION } from './bench-soak.js';
import { positiveInt } from './positive-int.js';

interface BenchFlags {
  json?: string;
  steps: number;
  rawExecs: number;
  samples: number;
  concurrent: number;
  environments: string;
  suite: string;
  task?: string;
  address?: string;
  stepOnly: boolean;
  rewardOnly: boolean;
  compareWith?: string;
  grpoRounds: number;
  runtime: (typeof RUNTIMES)[number];
  maxDiskBytes: number;
  soak?: number | true;
  soakConcurrency: number;
}

/**
 * `codemidas bench`: the server against the raw engine in ONE run, so the ratios hold on a noisy
 * machine. By default every figure (Reset cold and warm, Step, file ops, Reward, ResetGroup, 64
 * concurrent episodes, memory per idle episode, GRPO groups per minute) beside its raw counterpart;
 * `--step-only` (or `--address`, a running server) measures Step latency alone; `--reward-only` the
 * figures scoring bounds (Reward, and GRPO groups per minute). `--runtime runsc` runs the whole
 * bench twice in the one invocation, under runc and then under runsc, every figure of the two side
 * by side.
 */
export function createBenchCommand(): Command {
  return new Command('bench')
    .description('measure the server against the raw engine in one run (table; JSON with --json)')
    .addOption(SOAK_OPTION())
    .addOption(SOAK_CONCURRENCY_OPTION())
    .option('--json <path>', 'also write the figures as JSON')
    .option('--steps <n>', 'measured Steps (and other fast figures)', positiveInt('--steps'), 200)
    .option('--raw-execs <n>', 'measured raw docker execs (--step-only)', positiveInt('--raw-execs'), 60)
    .option('--samples <n>', 'samples of the slow figures (create+start, Reset, Reward)', positiveInt('--samples'), 15)
    .option('--concurrent <n>', 'episodes of the load figure (each runs 20 steps)', positiveInt('--concurrent'), 64)
    .option('--environments <dir>', 'folder of suites the bench server serves', 'environments')
    .option('--suite <name>', 'suite to take the task from', 'sample')
    .option('--task <id>', "task to measure (default: the suite's first python task)")
    .option('--address <host:port>', 'measure Step latency on a running server (implies --step-only)')
    .option('--step-only', 'only Step latency beside a raw docker exec', false)
    .option('--reward-only', 'only Reward (the task, and a copy of it with recorded cases only) and GRPO groups per minute', false)
    .option('--compare-with <checkout>', '--reward-only: also measure the server of another built checkout, its calls interleaved with this one\'s')
    .option('--grpo-rounds <n>', '--reward-only: GRPO runs per server, alternating between servers', positiveInt('--grpo-rounds'), 1)
    .addOption(new Option('--runtime <name>', 'runsc: run the bench under runc and then under gVisor, figures side by side').choices(RUNTIMES).default('runc'))
    .option('--max-disk-bytes <n>', 'disk cap of every container of the run; the engine must enforce it (scripts/setup-quota-engine.sh); 0: none', parseByteSize('--max-disk-bytes'), 0)
    .action(async (flags: BenchFlags) => {
      const log = (line: string): void => void process.stderr.write(`${line}\n`);
      if (flags.soak !== undefined) return runBenchSoak({ ...flags, soak: flags.soak }, log);
      let result: unknown;
      if ((flags.stepOnly || flags.address) && flags.runtime !== 'runc') {
        throw new CliError(`--runtime ${flags.runtime} compares runtimes over the full bench`, 'leave out --step-only and --address, or start the server with --runtime yourself');
      }
      if (flags.stepOnly || flags.address) {
        const options: StepBenchOptions = {
          steps: flags.steps,
          rawExecs: flags.rawExecs,
          environmentsDir: resolve(flags.environments),
          suite: flags.suite,
          log,
          ...(flags.task ? { taskId: flags.task } : {}),
          ...(flags.address ? { address: flags.address } : {}),
          ...(process.env['CODEMIDAS_AUTH_TOKEN'] ? { token: process.env['CODEMIDAS_AUTH_TOKEN'] } : {}),
        };
        const step = await runStepBench(options);
        process.stdout.write(`${formatStepBenchTable(step)}\n`);
        result = step;
      } else if (flags.rewardOnly) {
        const reward = await runRewardBench({
          environmentsDir: resolve(flags.environments),
          suite: flags.suite,
          samples: flags.samples,
          grpoRounds: flags.grpoRounds,
          log,
          ...(flags.task ? { taskId: flags.task } : {}),
          ...(flags.compareWith ? { compareWith: flags.compareWith } : {}),
        });
        const machine = { cpus: cpus().length, node: process.version, loadAverage1m: loadavg()[0] ?? Number.NaN };
        process.stdout.write(`${formatRewardBenchTable(reward)}\n${machine.cpus} CPUs, load ${machine.loadAverage1m.toFixed(1)}, node ${machine.node}\n`);
        result = { ...reward, machine };
      } else {
        const runtimes = flags.runtime === 'runc' ? (['runc'] as const) : (['runc', flags.runtime] as const);
        const results: ServerBenchResult[] = [];
        const loads: number[] = [];
        for (const runtime of runtimes) {
          log(`== bench under ${runtime}`);
          results.push(
            await runServerBench({
              environmentsDir: resolve(flags.environments),
              suite: flags.suite,
              samples: flags.samples,
              fastSamples: flags.steps,
              concurrentEpisodes: flags.concurrent,
              runtime,
              maxDiskBytes: flags.maxDiskBytes,
              log,
              ...(flags.task ? { taskId: flags.task } : {}),
            }),
          );
          loads.push(loadavg()[0] ?? Number.NaN);
        }
        const machine = { cpus: cpus().length, node: process.version };
        const loadText = loads.map((l, i) => `${runtimes[i]} ${l.toFixed(1)}`).join(', ');
        if (results.length === 1) {
          process.stdout.write(`${formatServerBenchTable(results[0]!)}\n${machine.cpus} CPUs, load ${(loads[0] ?? Number.NaN).toFixed(1)}, node ${machine.node}\n`);
          result = { ...results[0]!, machine: { ...machine, loadAverage1m: loads[0] ?? Number.NaN } };
        } else {
          for (const r of results) process.stdout.write(`\n== ${r.runtime}\n${formatServerBenchTable(r)}\n`);
          process.stdout.write(`\n== runtimes side by side\n${formatRuntimeComparisonTable(results)}\n${machine.cpus} CPUs, load at the end of each half: ${loadText}, node ${machine.node}\n`);
          result = { runtimes: Object.fromEntries(results.map((r) => [r.runtime, r])), machine: { ...machine, loadAverage1mAfterEach: Object.fromEntries(runtimes.map((r, i) => [r, loads[i]])) } };
        }
      }
      if (flags.json) {
        const path = resolve(flags.json);
        mkdirSync(dirname(path), { recursive: true });
        writeFileSync(path, `${JSON.stringify(result, null, 2)}\n`);
        process.stderr.write(`wrote ${path}\n`);
      }
    });
}
