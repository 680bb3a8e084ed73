import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { Command, InvalidArgumentError as CommanderArgumentError } from 'commander';
import { formatStepBenchTable, runStepBench, type StepBenchOptions } from '../bench/step-bench.js';

/**
 * `codemidas bench`: measures the server against the raw engine in ONE run (so the ratio holds on a
 * noisy machine): a raw dockerode `docker exec true` beside Step(shell `true`) over gRPC.
 */
export function createBenchCommand(): Command {
  return new Command('bench')
    .description('measure Step latency over gRPC beside a raw docker exec, in one run')
    .option('--json <path>', 'also write the figures as JSON')
    .option('--steps <n>', 'measured steps after warm-up', positiveInt, 300)
    .option('--raw-execs <n>', 'measured raw docker execs', positiveInt, 60)
    .option('--environments <dir>', 'folder of suites the bench server serves', 'environments')
    .option('--suite <name>', 'suite to take the task from', 'sample')
    .option('--task <id>', "task to reset (default: the suite's first python task)")
    .option('--address <host:port>', 'measure a running server instead of starting one')
    .action(async (options: { json?: string; steps: number; rawExecs: number; environments: string; suite: string; task?: string; address?: string }) => {
      const benchOptions: StepBenchOptions = {
        steps: options.steps,
        rawExecs: options.rawExecs,
        environmentsDir: resolve(options.environments),
        suite: options.suite,
        log: (line) => void process.stderr.write(`${line}\n`),
        ...(options.task ? { taskId: options.task } : {}),
        ...(options.address ? { address: options.address } : {}),
        ...(process.env['CODEMIDAS_AUTH_TOKEN'] ? { token: process.env['CODEMIDAS_AUTH_TOKEN'] } : {}),
      };
      const result = await runStepBench(benchOptions);
      process.stdout.write(`${formatStepBenchTable(result)}\n`);
      if (options.json) {
        const path = resolve(options.json);
        mkdirSync(dirname(path), { recursive: true });
        writeFileSync(path, `${JSON.stringify(result, null, 2)}\n`);
        process.stderr.write(`wrote ${path}\n`);
      }
    });
}

function positiveInt(raw: string): number {
  const n = Number(raw);
  if (!Number.isInteger(n) || n <= 0) throw new CommanderArgumentError(`expected a positive integer, got '${raw}'`);
  return n;
}
