import type { LatencySummary } from './latency-stats.js';
import type { ServerBenchResult } from './server-bench.js';

/** One figure of a bench run, read the same way out of each runtime's result. */
interface Figure {
  name: string;
  unit: 'ms' | 'MB' | 'per min' | 'count';
  /** Latencies: p50 and p99; other figures: the value alone. */
  read: (r: ServerBenchResult) => LatencySummary | number;
}

const MB = 1024 * 1024;

/** Every figure of `codemidas bench`, raw engine first, then the server's. */
const FIGURES: readonly Figure[] = [
  { name: 'raw: create+start of the task image', unit: 'ms', read: (r) => r.raw.createStart },
  { name: 'raw: docker exec `true`', unit: 'ms', read: (r) => r.raw.dockerExecTrue },
  { name: 'raw: kept-alive shell round trip', unit: 'ms', read: (r) => r.raw.shellRoundTrip },
  { name: 'raw: test run (copy in + judge)', unit: 'ms', read: (r) => r.raw.testRun },
  { name: 'raw: 8 create+starts at once', unit: 'ms', read: (r) => r.raw.groupStart8 },
  { name: 'raw: host memory per idle container', unit: 'MB', read: (r) => r.raw.idleContainerBytes / MB },
  { name: 'Reset, cold (no warm pool)', unit: 'ms', read: (r) => r.server.resetCold },
  { name: 'Reset, warm pool, after a Close', unit: 'ms', read: (r) => r.server.resetWarm },
  { name: 'Reset, warm pool, after an idle pause', unit: 'ms', read: (r) => r.server.resetWarmAfterIdle },
  { name: 'ListTasks after the same idle pause', unit: 'ms', read: (r) => r.server.idleCallFloor },
  { name: 'Step shell `true` (Node client)', unit: 'ms', read: (r) => r.server.stepTrue },
  { name: 'Step shell `true` (Python client)', unit: 'ms', read: (r) => ('error' in r.server.pythonClientStep ? Number.NaN : r.server.pythonClientStep) },
  { name: 'ListTasks back to back', unit: 'ms', read: (r) => r.server.callFloor },
  { name: 'read_file 64 KiB', unit: 'ms', read: (r) => r.server.readFile64k },
  { name: 'write_file 64 KiB', unit: 'ms', read: (r) => r.server.writeFile64k },
  { name: 'Reward', unit: 'ms', read: (r) => r.server.reward },
  { name: 'ResetGroup of 8', unit: 'ms', read: (r) => r.server.resetGroup8 },
  { name: 'Step under load (concurrent episodes)', unit: 'ms', read: (r) => r.server.concurrent.step },
  { name: 'errors over the concurrent episodes', unit: 'count', read: (r) => r.server.concurrent.errors },
  { name: 'host memory per idle episode', unit: 'MB', read: (r) => r.server.idleEpisodeBytes / MB },
  { name: 'GRPO groups of 8, oracle policy', unit: 'per min', read: (r) => r.server.grpo.groupsPerMinute },
  { name: 'GRPO episodes, oracle policy', unit: 'per min', read: (r) => r.server.grpo.episodesPerMinute },
];

/**
 * Each runtime's figures of one bench run side by side, with the second runtime's p50 over the
 * first's (`x runc` when the first is runc), then each runtime's targets.
 */
export function formatRuntimeComparisonTable(results: readonly ServerBenchResult[]): string {
  const [base] = results;
  if (!base) return '';
  const f = (v: number): string => (Number.isFinite(v) ? (Math.abs(v) >= 100 ? v.toFixed(0) : v.toFixed(2)) : '-');
  const header = ['measure', 'unit', ...results.flatMap((r) => [`${r.runtime} p50`, `${r.runtime} p99`]), ...results.slice(1).map((r) => `${r.runtime} / ${base.runtime}`)];
  const rows: string[][] = [header];
  for (const figure of FIGURES) {
    const values = results.map((r) => figure.read(r));
    const p50 = values.map((v) => (typeof v === 'number' ? v : v.p50Ms));
    const cells = values.flatMap((v) => (typeof v === 'number' ? [f(v), ''] : [f(v.p50Ms), f(v.p99Ms)]));
    const ratios = p50.slice(1).map((v) => (Number.isFinite(v) && Number.isFinite(p50[0]!) && p50[0]! !== 0 ? `${(v / p50[0]!).toFixed(2)}` : '-'));
    rows.push([figure.name, figure.unit, ...cells, ...ratios]);
  }
  const widths = header.map((_, c) => Math.max(...rows.map((row) => (row[c] ?? '').length)));
  const line = (row: string[]): string => row.map((cell, c) => (c <= 1 ? cell.padEnd(widths[c]!) : cell.padStart(widths[c]!))).join('  ');
  const targets = results.flatMap((r) => [
    '',
    `targets, ${r.runtime}:`,
    ...r.targets.map((t) => `  ${t.met ? 'met    ' : 'NOT met'}  ${t.name}: ${Number.isFinite(t.value) ? t.value.toFixed(2) : '-'} (${t.limit})`),
  ]);
  return [
    line(rows[0]!),
    widths.map((w) => '-'.repeat(w)).join('  '),
    ...rows.slice(1).map(line),
    ...targets,
    '',
    `task ${base.taskId}; every container of a runtime's half (raw and server) ran under that runtime with a ${base.maxDiskBytes ? `${(base.maxDiskBytes / 1024 ** 3).toFixed(2)} GiB disk cap` : 'no disk cap'}`,
  ].join('\n');
}
