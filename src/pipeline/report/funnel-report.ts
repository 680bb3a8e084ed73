import type { Drop, DropStage, Funnel, TaskShape } from '../types.js';
import { compareStrings } from '../write/stable-json.js';

/** Stage order of the funnel, for sorting drops. */
export const STAGE_ORDER: readonly DropStage[] = ['ingest', 'analyze', 'select', 'record', 'write', 'mask', 'audit', 'gate'];

/** One accepted task in the funnel. */
export interface AcceptedTask {
  name: string;
  unitId: string;
  cases: number;
  mutationScore: number;
  /** The unit whose calls the cases make, when it is not the task's own (`Unit.via`). */
  via?: string;
  /** One function, a feature (an entry with the private helpers only it reaches), or a class's methods. Absent: `function`. */
  shape?: TaskShape;
  /** Body lines the task removes (every removed body's). */
  removedLines?: number;
  /** A feature's entry unit, and the helpers removed with it (their unit ids); a class task's first method, and its others. */
  feature?: string;
  helpers?: string[];
}

/**
 * The funnel of one build, without timings: written inside the suite as `funnel.json` (part of the
 * byte-identical output) and, with `timings` added, beside it as `<out>/<suite>.funnel.json`.
 */
export interface FunnelReport {
  schemaVersion: 1;
  suite: string;
  /** The repository and its revision; `package` when `build --package` took one package of a monorepo. */
  source: { repo: string; revision: string; package?: string };
  seed: number;
  funnel: Funnel;
  /** Drops counted per stage and code. */
  dropCounts: Record<string, number>;
  tasks: AcceptedTask[];
  /** Present when the build ran with LLM hooks: where they kept the deterministic behaviour, and why. */
  llm?: LlmFallbackSummary;
  /** Present when the repository declares dependencies: what it declares, what was installed, what is missing. */
  dependencies?: FunnelDependencies;
}

/** The funnel's account of a repository's declared dependencies. */
export interface FunnelDependencies {
  /** Each declared dependency, where, and what the installer was asked for (null: nothing installs it). */
  declared: { name: string; from: string; install: string | null }[];
  /** What the tasks' image installs (task.json `runtime.dependencies`); absent when nothing. */
  installed?: { tool: string; packages: string[] };
  /** The declared dependencies that are not there, and why; units importing them are `record:dependency-missing`. */
  missing: { name: string; from: string; reason: string }[];
}

/** One time an LLM hook kept the deterministic behaviour (the draft prompt, no proposals, every case). */
export interface LlmFallback {
  hook: 'spec-writer' | 'input-proposer' | 'assertion-reviewer';
  unitId: string;
  /** `llm-error:<kind>` (src/llm/errors.ts), `leak`, `empty`, `no-signature`, `malformed-answer`, `review-below-minimum`, ... */
  reason: string;
}

export interface LlmFallbackSummary {
  fallbacks: number;
  /** Counted per `<hook>:<reason>`. */
  byReason: Record<string, number>;
  /** Every fallback, sorted by hook, unit and reason. */
  items: LlmFallback[];
}

/** The report's `llm` section from the fallbacks of a build, in a stable order (hooks run concurrently). */
export function summariseLlmFallbacks(fallbacks: readonly LlmFallback[]): LlmFallbackSummary {
  const items = [...fallbacks].sort((a, b) => compareStrings(a.hook, b.hook) || compareStrings(a.unitId, b.unitId) || compareStrings(a.reason, b.reason));
  const byReason: Record<string, number> = {};
  for (const f of items) byReason[`${f.hook}:${f.reason}`] = (byReason[`${f.hook}:${f.reason}`] ?? 0) + 1;
  return { fallbacks: items.length, byReason, items };
}

/** Wall-clock figures of a build (never inside the suite: they change from run to run). */
export interface BuildTimings {
  totalMs: number;
  /** Per stage, summed over units where stages overlap. */
  stageMs: Record<string, number>;
  /** Gated tasks per minute of total build time. */
  tasksPerMinute: number;
  /** The cores the build had (`os.availableParallelism()`). */
  cores: number;
  /** Gated tasks per core-minute: per minute of total build time, per core (construction throughput). */
  tasksPerCoreMinute: number;
  /** Where the record stage's time went; absent when nothing was recorded. */
  record?: RecordTimings;
}

/** Where the record stage's time went: wall-clock milliseconds as the harness measured them. */
export interface RecordTimings {
  /** Starting the record sandboxes and copying the snapshot and the harness in. */
  setupMs: number;
  /** Running the repository's own tests and doc examples under the tracer, by mode (`pytest`, `doctest`, …). */
  traceMs: Record<string, number>;
  /** Per candidate, sorted by unit id (a candidate recorded twice, as after installing undeclared imports, sums both). */
  candidates: CandidateTiming[];
}

export interface CandidateTiming {
  unitId: string;
  /** Collecting inputs and running each twice on the original. */
  recordMs: number;
  /** Mutation testing, the search and the entry pass's tries (record-candidates.ts) included. */
  mutateMs: number;
  /** Of `mutateMs`, the mutant-guided search for new inputs. */
  searchMs: number;
}

/** `a` and `b` together: setup and tracing summed, a candidate in both summed. */
export function mergeRecordTimings(a: RecordTimings | undefined, b: RecordTimings): RecordTimings {
  if (a === undefined) return b;
  const traceMs = { ...a.traceMs };
  for (const [mode, ms] of Object.entries(b.traceMs)) traceMs[mode] = (traceMs[mode] ?? 0) + ms;
  const byUnit = new Map(a.candidates.map((c) => [c.unitId, { ...c }] as const));
  for (const c of b.candidates) {
    const seen = byUnit.get(c.unitId);
    byUnit.set(c.unitId, seen ? { unitId: c.unitId, recordMs: seen.recordMs + c.recordMs, mutateMs: seen.mutateMs + c.mutateMs, searchMs: seen.searchMs + c.searchMs } : { ...c });
  }
  const candidates = [...byUnit.values()].sort((x, y) => compareStrings(x.unitId, y.unitId));
  return { setupMs: a.setupMs + b.setupMs, traceMs, candidates };
}

const seconds = (ms: number): string => `${(ms / 1000).toFixed(1)} s`;

/** The record stage's lines of the build summary: setup, tracing, the candidates' totals and the slowest few. */
function formatRecordTimings(record: RecordTimings, slowest = 5): string[] {
  const sum = (pick: (c: CandidateTiming) => number): number => record.candidates.reduce((n, c) => n + pick(c), 0);
  const traced = Object.entries(record.traceMs);
  const tracing = traced.reduce((n, [, ms]) => n + ms, 0);
  const lines = [
    `record: setup ${seconds(record.setupMs)}, tracing the repository ${seconds(tracing)}${traced.length ? ` (${traced.map(([m, ms]) => `${m} ${seconds(ms)}`).join(', ')})` : ''}, ` +
      `${record.candidates.length} candidates ${seconds(sum((c) => c.recordMs + c.mutateMs))} (recording ${seconds(sum((c) => c.recordMs))}, mutation testing ${seconds(sum((c) => c.mutateMs))} of which search ${seconds(sum((c) => c.searchMs))})`,
  ];
  const slow = [...record.candidates].sort((x, y) => y.recordMs + y.mutateMs - (x.recordMs + x.mutateMs) || compareStrings(x.unitId, y.unitId)).slice(0, slowest);
  if (slow.length) {
    lines.push(`  slowest: ${slow.map((c) => `${c.unitId} ${seconds(c.recordMs + c.mutateMs)} (record ${seconds(c.recordMs)}, mutate ${seconds(c.mutateMs)}, search ${seconds(c.searchMs)})`).join('; ')}`);
  }
  return lines;
}

export function sortDrops(drops: readonly Drop[]): Drop[] {
  return [...drops].sort(
    (a, b) => STAGE_ORDER.indexOf(a.stage) - STAGE_ORDER.indexOf(b.stage) || compareStrings(a.unitId, b.unitId) || compareStrings(a.code, b.code) || compareStrings(a.reason, b.reason),
  );
}

export function countDrops(drops: readonly Drop[]): Record<string, number> {
  const out: Record<string, number> = {};
  for (const d of drops) out[`${d.stage}:${d.code}`] = (out[`${d.stage}:${d.code}`] ?? 0) + 1;
  return out;
}

/** The readable summary printed at the end of `codemidas build`. */
export function formatFunnelSummary(report: FunnelReport, timings: BuildTimings | null, options: { maxDropLines?: number } = {}): string {
  const f = report.funnel;
  const lines: string[] = [];
  const pkg = report.source.package === undefined ? '' : `, package ${report.source.package}`;
  lines.push(`suite ${report.suite} from ${report.source.repo} @ ${report.source.revision}${pkg} (seed ${report.seed})`);
  lines.push(`funnel: ${f.units} units → ${f.candidates} candidates → ${f.recorded} recorded → ${f.written} tests written → ${f.gated} gated`);
  const counts = Object.entries(report.dropCounts).sort((a, b) => b[1] - a[1] || compareStrings(a[0], b[0]));
  if (counts.length) lines.push(`drops: ${counts.map(([k, n]) => `${k} ${n}`).join(', ')}`);
  const max = options.maxDropLines ?? 40;
  // select drops are many and expected (too small, private, impure): counted above, listed in the JSON
  const listed = f.drops.filter((d) => d.stage !== 'select');
  const shown = listed.slice(0, max);
  for (const d of shown) lines.push(`  ${d.stage === 'ingest' || d.stage === 'analyze' ? 'skipped' : 'dropped'} ${d.unitId} at ${d.stage} (${d.code}): ${d.reason}`);
  const selectDrops = f.drops.length - listed.length;
  const beyond = listed.length - shown.length;
  const hidden = [selectDrops ? `${selectDrops} select drop${selectDrops === 1 ? '' : 's'}` : '', beyond ? `${beyond} more beyond the first ${max}` : ''].filter(Boolean);
  if (hidden.length) lines.push(`  … ${hidden.join(' and ')}: see the funnel JSON`);
  if (report.dependencies) {
    const { installed, missing } = report.dependencies;
    lines.push(`dependencies: ${report.dependencies.declared.length} declared${installed ? `; ${installed.tool} asked for ${installed.packages.join(', ')}` : ''}`);
    for (const m of missing) lines.push(`  missing ${m.name} (declared in ${m.from}): ${m.reason}`);
  }
  if (report.llm) {
    const reasons = Object.entries(report.llm.byReason).sort((a, b) => b[1] - a[1] || compareStrings(a[0], b[0]));
    lines.push(`llm fallbacks: ${report.llm.fallbacks}${reasons.length ? ` (${reasons.map(([k, n]) => `${k} ${n}`).join(', ')})` : ''}`);
  }
  if (report.tasks.length) {
    const scores = report.tasks.map((t) => t.mutationScore).sort((a, b) => a - b);
    const median = scores[Math.floor((scores.length - 1) / 2)] ?? 0;
    lines.push(`accepted: ${report.tasks.length} tasks, mutation kill rate median ${median.toFixed(2)}, min ${(scores[0] ?? 0).toFixed(2)}`);
    const shapes = new Map<string, number[]>();
    for (const t of report.tasks) shapes.set(t.shape ?? 'function', [...(shapes.get(t.shape ?? 'function') ?? []), t.removedLines ?? 0]);
    const medianOf = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor((xs.length - 1) / 2)] ?? 0;
    lines.push(`shapes: ${[...shapes].sort((a, b) => compareStrings(a[0], b[0])).map(([shape, removed]) => `${shape} ${removed.length} (median ${medianOf(removed)} removed lines, max ${Math.max(...removed)})`).join(', ')}`);
  }
  if (timings) {
    const stages = Object.entries(timings.stageMs).map(([k, ms]) => `${k} ${seconds(ms)}`).join(', ');
    // a stage's time is summed over the tasks in flight, and tasks are gated while others are recorded: the stages overlap
    lines.push(`time: ${seconds(timings.totalMs)} (summed per stage, overlapping: ${stages})`);
    if (timings.record) lines.push(...formatRecordTimings(timings.record));
    lines.push(`throughput: ${timings.tasksPerCoreMinute.toFixed(2)} gated tasks per core-minute (${timings.cores} cores), ${timings.tasksPerMinute.toFixed(2)} per minute`);
  }
  return lines.join('\n');
}
