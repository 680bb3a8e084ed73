import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { dirname, resolve } from 'node:path';
import { Command } from 'commander';
import { formatServerBenchTable, runServerBench } from '../bench/server-bench.js';
import { formatStepBenchTable, runStepBench, type StepBenchOptions } from '../bench/step-bench.js';
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
  soak?: number | true;
  soakConcurrency: number;
}

/**
 * `codemidas bench`: the server against the raw engine in ONE run, so the ratios hold on a noisy
 * machine. By default every figure (Reset cold and warm, Step, file ops, Reward, ResetGroup, 64
 * concurrent episodes, memory per idle episode, GRPO groups per minute) beside its raw counterpart;
 * `--step-only` (or `--address`, a running server) measures Step latency alone.
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
    .action(async (flags: BenchFlags) => {
      const log = (line: string): void => void process.stderr.write(`${line}\n`);
      if (flags.soak !== undefined) return runBenchSoak({ ...flags, soak: flags.soak }, log);
      let result: unknown;
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
      } else {
        const full = await runServerBench({
          environmentsDir: resolve(flags.environments),
          suite: flags.suite,
          samples: flags.samples,
          fastSamples: flags.steps,
          concurrentEpisodes: flags.concurrent,
          log,
          ...(flags.task ? { taskId: flags.task } : {}),
        });
        const machine = { cpus: cpus().length, node: process.version, loadAverage1m: loadavg()[0] ?? Number.NaN };
        process.stdout.write(`${formatServerBenchTable(full)}\n${machine.cpus} CPUs, load ${machine.loadAverage1m.toFixed(1)}, node ${machine.node}\n`);
        result = { ...full, machine };
      }
      if (flags.json) {
        const path = resolve(flags.json);
        mkdirSync(dirname(path), { recursive: true });
        writeFileSync(path, `${JSON.stringify(result, null, 2)}\n`);
        process.stderr.write(`wrote ${path}\n`);
      }
    });
}
