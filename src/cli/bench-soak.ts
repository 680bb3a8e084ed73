import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { dirname, resolve } from 'node:path';
import { Option } from 'commander';
import { formatSoakBenchTable, runSoakBench } from '../bench/soak-bench.js';
import { CliError } from './cli-error.js';
import { positiveInt } from './positive-int.js';

/** Episodes of a bare `--soak`. */
export const DEFAULT_SOAK_EPISODES = 1000;

/** The flags `bench --soak` reads. */
export interface BenchSoakFlags {
  /** `true` for a bare `--soak`. */
  soak: number | true;
  soakConcurrency: number;
  environments: string;
  suite: string;
  task?: string;
  json?: string;
}

/** `--soak [episodes]`: a bare flag runs {@link DEFAULT_SOAK_EPISODES}. */
export const SOAK_OPTION = (): Option =>
  new Option('--soak [episodes]', `soak: run this many episodes (default ${DEFAULT_SOAK_EPISODES}) against a fresh server; checks leaks, server RSS growth and rewards`).argParser(positiveInt('--soak'));

/** `--soak-concurrency <n>`, default 16. */
export const SOAK_CONCURRENCY_OPTION = (): Option =>
  new Option('--soak-concurrency <n>', 'episodes in flight at once during --soak').argParser(positiveInt('--soak-concurrency')).default(16);

/**
 * `codemidas bench --soak`: prints the figures (stdout), writes `--json`, and exits non-zero,
 * naming them, when a target is not met.
 */
export async function runBenchSoak(flags: BenchSoakFlags, log: (line: string) => void): Promise<void> {
  const loadBefore = loadavg()[0] ?? Number.NaN;
  const result = await runSoakBench({
    environmentsDir: resolve(flags.environments),
    suite: flags.suite,
    episodes: flags.soak === true ? DEFAULT_SOAK_EPISODES : flags.soak,
    concurrency: flags.soakConcurrency,
    log,
    ...(flags.task ? { taskId: flags.task } : {}),
  });
  const machine = { cpus: cpus().length, node: process.version, loadAverage1mBefore: loadBefore, loadAverage1mAfter: loadavg()[0] ?? Number.NaN };
  process.stdout.write(`${formatSoakBenchTable(result)}\n${machine.cpus} CPUs, load ${machine.loadAverage1mBefore.toFixed(1)} before and ${machine.loadAverage1mAfter.toFixed(1)} after, node ${machine.node}\n`);
  if (flags.json) {
    const path = resolve(flags.json);
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, `${JSON.stringify({ ...result, machine }, null, 2)}\n`);
    log(`wrote ${path}`);
  }
  const missed = result.targets.filter((t) => !t.met);
  if (missed.length > 0) {
    throw new CliError(
      `soak: ${missed.length} target${missed.length === 1 ? '' : 's'} not met: ${missed.map((t) => `${t.name} ${Number.isFinite(t.value) ? t.value.toFixed(2) : '-'} (${t.limit})`).join('; ')}`,
      `the server log named above holds the details; episodes that failed or scored unexpectedly are listed in the table${flags.json ? ` and in ${flags.json}` : ' (and in --json)'}`,
    );
  }
}
