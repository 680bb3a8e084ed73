import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import type { Logger } from '../../logging.js';
import { CodeMidasError } from '../../errors.js';
import type { LanguagePlugin, RecordHarness } from '../../languages/language.js';
import { hasDependencies, MISSING_DEPENDENCIES_FILE, type RuntimeDependencies } from '../../sandbox/runtime-dependencies.js';
import type { FileEntry, Sandbox, SandboxProvider } from '../../sandbox/types.js';
import { mapSettledWithConcurrency } from '../../shared/map-with-concurrency.js';
import { DEFAULT_GATE_OPTIONS } from '../gate/run-gates.js';
import type { RecordTimings } from '../report/funnel-report.js';
import type { Candidate, Drop, MutationResult, RecordedCase, Recording, RepoSnapshot, TaskShape, Unit } from '../types.js';
import { classUnitId, featureUnitId, moduleUnitId } from '../../languages/construction-types.js';
import type { InputProposal } from '../write/spec-writer.js';
import { entryAttempts, unitEntry } from './entry-attempts.js';
import { featureSlices } from './feature-slices.js';
import { mutateResultSchema, recordResultSchema, type MutateResult, type RecordResult } from './harness-result-schema.js';

/** The harness's scratch folder inside the sandbox (never /tmp: the scrubbed images mount it). */
export const WORK_DIR_IN_SANDBOX = '/var/lib/codemidas/work';
const WORKSPACE = '/workspace';

/** Tunables of the recorder; every field has a documented default. */
export interface RecordOptions {
  /** Cases kept per target before the search. Default 40. */
  maxCases: number;
  /** Wall-clock limit of one call of the target. Default 2000. */
  callTimeoutMs: number;
  /** Limit for running the repository's own tests under the tracer. Default 120000. */
  traceTimeoutMs: number;
  /** Limit of the whole record run. Default 20 minutes. */
  recordTimeoutMs: number;
  /** Limit of the whole mutate run. Default 30 minutes. */
  mutateTimeoutMs: number;
  /** Run the repository's own tests to trace real arguments. Default true. */
  runRepoTests: boolean;
  /** Search for inputs that kill surviving mutants. Default true. */
  search: boolean;
  /** New `mutant-search` cases per target, at most. Default 20. */
  maxNewCases: number;
  /** Mutants per target, at most (a seeded sample beyond). Default 150. */
  maxMutants: number;
  /** Targets the harness works on at once, each with its own workers (never more than the host's cores). Default 2. */
  parallel?: number;
  /**
   * A candidate whose cases kill fewer of its mutants than this (or that kept no case) is tried
   * again through the recorded candidates that reach it (the entry pass), where its harness can.
   * Default: the mutation gate's threshold (0.8).
   */
  entryPassBelow: number;
}

const DEFAULT_RECORD_PARALLEL = 2;

export const DEFAULT_RECORD_OPTIONS: Readonly<RecordOptions> = Object.freeze({
  maxCases: 40,
  callTimeoutMs: 2000,
  traceTimeoutMs: 120_000,
  recordTimeoutMs: 20 * 60_000,
  mutateTimeoutMs: 30 * 60_000,
  runRepoTests: true,
  search: true,
  maxNewCases: 20,
  maxMutants: 150,
  entryPassBelow: DEFAULT_GATE_OPTIONS.minKillRate,
});

/** Progress of the record stage: `done` of `total` candidates finished, with a line for people. */
export interface RecordProgress {
  phase: 'sandbox' | 'record' | 'mutate' | 'done';
  done: number;
  total: number;
  message: string;
}

export interface RecordCandidatesInput {
  provider: SandboxProvider;
  /** The language's harness and the image it runs in (its plugin's `recorder` and `image`). */
  language: Pick<LanguagePlugin, 'recorder' | 'image'>;
  snapshot: RepoSnapshot;
  candidates: Candidate[];
  seed: number;
  logger: Logger;
  onProgress?: (event: RecordProgress) => void;
  signal?: AbortSignal;
  /** Every unit of the repository, so a method's class (its constructor's call sites) can be found. */
  units?: Unit[];
  /**
   * Extra inputs per unit id (an `InputProposer`'s): the record harness runs them on the original code like
   * every other input, as source `llm` (target `proposed`). Default: none.
   */
  proposals?: ReadonlyMap<string, readonly InputProposal[]>;
  /** The repository's dependencies, installed on the record image (`SandboxSpec.dependencies`). Default: none. */
  dependencies?: RuntimeDependencies;
  /** The task shapes the build proposes (`feature`: the feature pass records them too). Default: `function` only. */
  shapes?: readonly TaskShape[];
  options?: Partial<RecordOptions>;
  /** The record run's drops, once it ends and before mutation testing starts (the build looks for undeclared imports in them). */
  onRecordDrops?: (drops: readonly Drop[]) => void;
  /**
   * Each recording as soon as it is final, before the stage ends: its mutation testing done and, where
   * the entry pass may replace it, at or above the pass's threshold. The build gates it while the
   * rest are recorded; the stage's result still holds every recording.
   */
  onFinal?: (recording: Recording) => void;
}

export interface RecordCandidatesResult {
  /** One per candidate that kept at least one case, sorted by unit id. */
  recordings: Recording[];
  /** Candidates dropped at the record stage, with reasons, sorted by unit id. */
  drops: Drop[];
  /** The packages of `dependencies` the image's installer could not install (its `MISSING_DEPENDENCIES_FILE`). */
  missingDependencies: string[];
  /** Where the time went: the sandbox's setup, tracing, and each candidate (for the build summary; never in a suite). */
  timings: RecordTimings;
}

/** The harness failed as a whole (not one target): it crashed, timed out or printed something unreadable. */
export class RecordHarnessError extends CodeMidasError {
  readonly script: string;
  readonly exitCode: number;
  readonly stderr: string;
  constructor(script: string, exitCode: number, stderr: string, message: string) {
    super('ABORTED', message);
    this.script = script;
    this.exitCode = exitCode;
    this.stderr = stderr;
  }
}

async function snapshotEntries(snapshot: RepoSnapshot): Promise<FileEntry[]> {
  const entries: FileEntry[] = [];
  for (const file of snapshot.files) entries.push({ path: file, type: 'file', mode: 0o644, content: await readFile(join(snapshot.dir, file)) });
  return entries;
}

/**
 * What a target's mutation testing is likely to cost, to start the costliest first: its cases times
 * its unit's lines (mutants come from the body, and each runs the cases).
 */
function mutateCost(target: Record<string, unknown>, byUnit: ReadonlyMap<string, Candidate>): number {
  const unit = byUnit.get(String(target.unitId))?.unit;
  const lines = unit ? unit.endLine - unit.startLine + 1 : 1;
  return (Array.isArray(target.cases) ? target.cases.length : 1) * lines;
}

/**
 * `run` on each item, `parallel` at a time, the costliest first; the results in the items' order,
 * `onDone` after each (with how many are done, and the item's results). The first failure is thrown
 * once the runs in flight end, and no later run starts.
 */
async function costliestFirst<T, R>(items: readonly T[], cost: (item: T) => number, parallel: number, onDone: (done: number, results: R[]) => void, run: (item: T) => Promise<R[]>): Promise<R[]> {
  const costs = items.map(cost);
  const order = items.map((_, i) => i).sort((a, b) => costs[b]! - costs[a]! || a - b);
  let done = 0;
  let failure: unknown = null;
  const settled = await mapSettledWithConcurrency(order, parallel, async (index) => {
    if (failure !== null) return [];
    try {
      const result = await run(items[index]!);
      onDone(++done, result);
      return result;
    } catch (error) {
      failure ??= error;
      throw error;
    }
  });
  if (failure !== null) throw failure;
  const results: R[][] = new Array(items.length);
  for (const [k, outcome] of settled.entries()) if (outcome.status === 'fulfilled') results[order[k]!] = outcome.value;
  return results.flat();
}

async function runScript(sandbox: Sandbox, harness: RecordHarness, run: 'record' | 'mutate', config: unknown, timeoutMs: number, signal?: AbortSignal): Promise<unknown> {
  const script = `the ${run} harness`;
  const result = await sandbox.exec(
    { argv: harness.command(run) },
    { timeoutMs, maxOutputBytes: 256 * 1024 * 1024, cwd: WORKSPACE, stdin: Buffer.from(JSON.stringify(config)), ...(signal ? { signal } : {}) },
  );
  if (result.timedOut) throw new RecordHarnessError(script, result.exitCode, result.stderr, `${script} ran past ${timeoutMs} ms; raise recordTimeoutMs/mutateTimeoutMs or record fewer candidates`);
  if (result.exitCode !== 0 || result.truncated) {
    // 137 is 128 + SIGKILL: the kernel's out-of-memory killer, in a sandbox with a memory limit
    const killed = result.exitCode === 137 ? ' (killed with SIGKILL: most likely the record sandbox, 2 GiB a parallel slot, ran out of memory; a smaller part of the repository, `build --package <dir>`, records less at once)' : '';
    throw new RecordHarnessError(script, result.exitCode, result.stderr, `${script} failed (exit ${result.exitCode}${killed}${result.truncated ? ', output truncated' : ''}): ${result.stderr.slice(-2000)}`);
  }
  await dumpRun(run, config, result.stdout);
  try {
    return JSON.parse(result.stdout) as unknown;
  } catch (error) {
    throw new RecordHarnessError(script, result.exitCode, result.stderr, `${script} printed something that is not JSON: ${String(error)}`);
  }
}

let dumpCount = 0;

/**
 * What a user should know about the run of the repository's own tests, or null when they all
 * imported: how many ran, the test files that could not be imported and why (a module the image
 * lacks, an API their dependencies no longer have), and the modules given stand-ins.
 */
export function repositoryTestsNote(traces: RecordResult['traces']): string | null {
  const run = traces.find((t) => t.tests !== undefined);
  const unimported = run?.unimported ?? [];
  const standIns = run?.standIns ?? [];
  if (run === undefined || (unimported.length === 0 && standIns.length === 0)) return null;
  const parts = [`the repository's tests: ${run.tests} ran`];
  if (unimported.length > 0) {
    const shown = unimported.slice(0, 3).map((u) => `${u.file}: ${u.error}`).join('; ');
    parts.push(`${unimported.length} test file(s) could not be imported, so none of their tests gave inputs (${shown}${unimported.length > 3 ? '; …' : ''}): give the build what they import, at the versions they were written for`);
  }
  if (standIns.length > 0) parts.push(`stand-ins for modules this image lacks: ${standIns.join(', ')} (the tests that use them fail)`);
  return parts.join('; ');
}

/**
 * For people tuning the harnesses: with CODEMIDAS_RECORD_DUMP=<dir>, each harness run's config and raw
 * output are written there (`<n>-<run>.config.json`, `<n>-<run>.result.json`), to replay one outside
 * the pipeline. Off by default; a failed write is ignored (it must never fail a build).
 */
async function dumpRun(run: 'record' | 'mutate', config: unknown, stdout: string): Promise<void> {
  const dir = process.env.CODEMIDAS_RECORD_DUMP;
  if (!dir) return;
  const n = String(++dumpCount).padStart(3, '0');
  try {
    await mkdir(dir, { recursive: true });
    await writeFile(join(dir, `${n}-${run}.config.json`), JSON.stringify(config));
    await writeFile(join(dir, `${n}-${run}.result.json`), stdout);
  } catch {
    // a tuning aid only
  }
}

/** The packages the record image's installer listed as missing (none when it lists none). */
async function readMissingDependencies(sandbox: Sandbox, signal?: AbortSignal): Promise<string[]> {
  const read = await sandbox.exec({ argv: ['cat', MISSING_DEPENDENCIES_FILE] }, { timeoutMs: 10_000, maxOutputBytes: 1024 * 1024, ...(signal ? { signal } : {}) });
  if (read.exitCode !== 0) throw new RecordHarnessError('the dependency image', read.exitCode, read.stderr, `the dependency image has no ${MISSING_DEPENDENCIES_FILE}: ${read.stderr.trim()}`);
  return [...new Set(read.stdout.split('\n').map((line) => line.trim()).filter((line) => line !== ''))].sort();
}

/** The scratch folder every harness gets, with the folders above it. */
const WORK_DIR_ENTRIES: readonly FileEntry[] = [
  { path: 'var/lib/codemidas', type: 'directory', mode: 0o755 },
  { path: WORK_DIR_IN_SANDBOX.slice(1), type: 'directory', mode: 0o755 },
];

/** Record-stage drops the entry pass retries: the unit's own calls gave no case, or one value only. */
const ENTRY_PASS_DROPS: ReadonlySet<string> = new Set(['no-cases', 'constant-result']);

/** A recording from a record run's target and its mutate result (`unitId`: whose recording it is). */
function recordingOf(unitId: string, t: RecordResult['targets'][number], m: MutateResult['targets'][number], search: boolean): Recording {
  const sources = { ...t.sources };
  if (search) sources['mutant-search'] = { tried: m.search.tried, kept: m.newCases.length };
  // generators, `lazy` cases (a returned iterator), `probe` cases (a returned function),
  // constructor, `state` and `attribute` cases: the mutate run gives the recorded cases back in the
  // form the task judges them; the recorder's marks and `probe` never reach a task
  const cases = [...(m.cases ?? t.cases), ...m.newCases].map(({ lazy: _lazy, probe: _probe, construct: _construct, state: _state, attribute: _attribute, warm: _warm, ...c }) => c) as RecordedCase[];
  const rejected: Record<string, number> = { ...t.rejected };
  if (m.baselineMismatches) rejected['state-dependent'] = m.baselineMismatches;
  for (const [reason, n] of Object.entries(m.rejected ?? {})) rejected[reason] = (rejected[reason] ?? 0) + n;
  return { unitId, cases, mutation: m.mutation, mutationBeforeSearch: m.before, sources, rejected };
}

/** What the entry pass and the feature pass need of the record stage. */
interface ThroughEntryInput {
  units: readonly Unit[];
  /** The record run's result per recorded candidate (an entry's cases). */
  kept: ReadonlyMap<string, RecordResult['targets'][number]>;
  threshold: number;
  /** The harness's target of a candidate, by unit id. */
  target(unitId: string): Record<string, unknown>;
  mutate(targets: Record<string, unknown>[]): Promise<MutateResult['targets']>;
  logger: Logger;
}

/**
 * The mutate target that tries `helper`'s mutants on `entry`'s cases (the harness's `mutantOf`): no
 * search, and an end as soon as the try cannot pass (most tries fail, each on an entry's many cases).
 */
function helperThroughEntry(input: ThroughEntryInput, entry: Unit, helper: Unit): Record<string, unknown> {
  return {
    ...input.target(entry.id),
    unitId: helper.id,
    mutantOf: { module: helper.module, qualname: helper.qualname },
    search: false,
    stopBelow: input.threshold,
    cases: input.kept.get(entry.id)!.cases,
  };
}

/**
 * The entry pass (DESIGN.md, Construction): each candidate kept below `threshold` (or dropped with
 * `ENTRY_PASS_DROPS`) is mutation tested again through the passing candidates whose calls may reach
 * it (entry-attempts.ts): the entry's cases, the mutants of its own body (the harness's `mutantOf`),
 * no search, and an end as soon as too many mutants survive (`stopBelow`).
 * The best try at or above `threshold` replaces its recording (or its drop), with `via` the entry.
 * `recordings` and `drops` are changed in place; returns the milliseconds spent per candidate.
 */
async function throughEntries(input: ThroughEntryInput & { recordings: Recording[]; drops: Drop[]; search: boolean }): Promise<Map<string, number>> {
  const { recordings, drops, threshold } = input;
  const ms = new Map<string, number>();
  const unitsById = new Map(input.units.map((u) => [u.id, u] as const));
  const passing = new Set(recordings.filter((r) => r.mutation.score >= threshold).map((r) => r.unitId));
  const weak = [...recordings.filter((r) => r.mutation.score < threshold).map((r) => r.unitId), ...drops.filter((d) => ENTRY_PASS_DROPS.has(d.code)).map((d) => d.unitId)]
    .map((id) => unitsById.get(id))
    .filter((u): u is Unit => u !== undefined);
  const attempts = entryAttempts(weak, passing, input.units).filter(({ entry }) => input.kept.has(entry.id));
  if (attempts.length === 0) return ms;
  const results = await input.mutate(attempts.map(({ helper, entry }) => helperThroughEntry(input, entry, helper)));
  const best = new Map<string, Recording>();
  results.forEach((m, k) => {
    const { helper, entry } = attempts[k]!;
    ms.set(helper.id, (ms.get(helper.id) ?? 0) + (m.ms ?? 0));
    if (m.error || m.mutation.score < threshold) return;
    const held = best.get(helper.id);
    if (!held || m.mutation.score > held.mutation.score) best.set(helper.id, { ...recordingOf(helper.id, input.kept.get(entry.id)!, m, input.search), via: unitEntry(entry) });
  });
  for (const [id, recording] of best) {
    const at = recordings.findIndex((r) => r.unitId === id);
    if (at >= 0) recordings[at] = recording;
    else recordings.push(recording);
  }
  for (let i = drops.length - 1; i >= 0; i -= 1) if (best.has(drops[i]!.unitId)) drops.splice(i, 1);
  input.logger.info({ tried: attempts.length, kept: best.size }, 'entry pass done');
  return ms;
}

/**
 * The feature pass (issue 19, part 1): for each public recording at or above `threshold` with
 * private helpers only it reaches (feature-slices.ts), each helper mutation tested through the
 * entry's cases (the harness's `mutantOf`, as the entry pass does). A feature whose every helper
 * passes `threshold` becomes a recording of its own, `<entry>#feature`: the entry's cases, the
 * mutation result over every removed body (the entry's and each helper's, summed). Returns the
 * feature recordings and the milliseconds spent per entry.
 */
async function throughFeatures(input: ThroughEntryInput & { recordings: readonly Recording[] }): Promise<{ features: Recording[]; ms: Map<string, number> }> {
  const ms = new Map<string, number>();
  const own = new Map(input.recordings.filter((r) => r.via === undefined && r.feature === undefined && r.mutation.score >= input.threshold).map((r) => [r.unitId, r] as const));
  const slices = featureSlices(input.units, new Set([...own.keys()].filter((id) => input.kept.has(id))));
  if (slices.length === 0) return { features: [], ms };
  const attempts = slices.flatMap((slice) => slice.helpers.map((helper) => ({ slice, helper })));
  const results = await input.mutate(attempts.map(({ slice, helper }) => helperThroughEntry(input, slice.entry, helper)));
  const byHelper = new Map<string, MutateResult['targets'][number]>();
  results.forEach((m, k) => {
    const { slice, helper } = attempts[k]!;
    ms.set(slice.entry.id, (ms.get(slice.entry.id) ?? 0) + (m.ms ?? 0));
    byHelper.set(`${slice.entry.id} ${helper.id}`, m);
  });
  const features: Recording[] = [];
  for (const { entry, helpers } of slices) {
    const tried = helpers.map((h) => byHelper.get(`${entry.id} ${h.id}`));
    if (tried.some((m) => m === undefined || m.error || m.mutation.score < input.threshold)) continue;
    const base = own.get(entry.id)!;
    features.push({
      ...base,
      unitId: featureUnitId(entry.id),
      mutation: summedMutation([base.mutation, ...tried.map((m) => m!.mutation)]),
      feature: { entry: entry.id, helpers: helpers.map((h) => h.id) },
    });
  }
  input.logger.info({ slices: slices.length, kept: features.length }, 'feature pass done');
  return { features, ms };
}

/** The mutation result over several bodies: their mutants and kills summed. */
function summedMutation(parts: readonly MutationResult[]): MutationResult {
  const total = parts.reduce((n, m) => n + m.total, 0);
  const killed = parts.reduce((n, m) => n + m.killed, 0);
  return { total, killed, score: total === 0 ? 1 : killed / total, survivors: parts.flatMap((m) => m.survivors) };
}

/** Methods a class task removes, at most (each adds its cases and its mutants); functions a module task removes, at most. */
export const MAX_CLASS_METHODS = 8;

/** The units a grouped task (a class's methods, a module's functions) removes, fewest and most. */
const GROUP_SIZE = { min: 2, max: MAX_CLASS_METHODS } as const;

/**
 * The class pass (issue 19, part 1): the methods of one class recorded on their own at or above
 * `threshold` (not through an entry), two to MAX_CLASS_METHODS of them, become one more recording,
 * `<module>:<Class>#class`: every method's cases (each calls its own method) and the mutation result
 * over every method's body (each method's own, summed: a lower bound, since another method's cases
 * may kill its mutants too). No harness run: it reuses the recordings.
 */
export function classRecordings(recordings: readonly Recording[], units: readonly Unit[], threshold: number): Recording[] {
  return groupedRecordings(recordings, units, threshold, {
    member: (unit) => unit.kind === 'method',
    key: (unit) => `${unit.module}:${unit.qualname.slice(0, unit.qualname.lastIndexOf('.'))}`,
    unitId: (first) => classUnitId(first.module, first.qualname.slice(0, first.qualname.lastIndexOf('.'))),
    shape: 'class',
  });
}

/**
 * The module pass (issue 19, part 1: "a small module's bodies"): the module-level functions of one
 * module recorded on their own at or above `threshold`, two to MAX_CLASS_METHODS of them, become one
 * more recording, `<module>#module`, as the class pass does for a class's methods (a module with
 * more such functions is not small: it makes no module task).
 */
export function moduleRecordings(recordings: readonly Recording[], units: readonly Unit[], threshold: number): Recording[] {
  return groupedRecordings(recordings, units, threshold, {
    member: (unit) => unit.kind === 'function',
    key: (unit) => unit.module,
    unitId: (first) => moduleUnitId(first.module),
    shape: 'module',
  });
}

/** The recordings of the units `group.member` takes, grouped by `group.key`, one per group of GROUP_SIZE members, in key order. */
function groupedRecordings(
  recordings: readonly Recording[],
  units: readonly Unit[],
  threshold: number,
  group: { member: (unit: Unit) => boolean; key: (unit: Unit) => string; unitId: (first: Unit) => string; shape: 'class' | 'module' },
): Recording[] {
  const unitsById = new Map(units.map((u) => [u.id, u] as const));
  const byKey = new Map<string, { unit: Unit; recording: Recording }[]>();
  for (const r of recordings) {
    const unit = unitsById.get(r.unitId);
    if (!unit || !group.member(unit) || r.via !== undefined || r.feature !== undefined || r.mutation.score < threshold) continue;
    const key = group.key(unit);
    byKey.set(key, [...(byKey.get(key) ?? []), { unit, recording: r }]);
  }
  const out: Recording[] = [];
  for (const [, members] of [...byKey].sort((a, b) => (a[0] < b[0] ? -1 : 1))) {
    if (members.length < GROUP_SIZE.min || members.length > GROUP_SIZE.max) continue;
    members.sort((a, b) => a.unit.startLine - b.unit.startLine);
    const sources: Recording['sources'] = {};
    for (const { recording } of members) {
      for (const [src, n] of Object.entries(recording.sources)) sources[src] = { tried: (sources[src]?.tried ?? 0) + n.tried, kept: (sources[src]?.kept ?? 0) + n.kept };
    }
    out.push({
      unitId: group.unitId(members[0]!.unit),
      cases: members.flatMap((m) => m.recording.cases),
      mutation: summedMutation(members.map((m) => m.recording.mutation)),
      sources,
      rejected: {},
      feature: { entry: members[0]!.unit.id, helpers: members.slice(1).map((m) => m.unit.id), shape: group.shape },
    });
  }
  return out;
}

function byId<T extends { unitId: string }>(a: T, b: T): number {
  return a.unitId < b.unitId ? -1 : a.unitId > b.unitId ? 1 : 0;
}

/**
 * Records every candidate's behaviour by running the original code in one sandbox for the
 * repository with the language's harness: its record run (inputs from the repo's tests, doc
 * examples, call sites, type hints and constructors, each run twice) then its mutate run (mutation
 * score and the mutant-guided search).
 * The same snapshot, candidates and seed give the same result; the sandbox is always destroyed.
 */
export async function recordCandidates(input: RecordCandidatesInput): Promise<RecordCandidatesResult> {
  const { provider, snapshot, seed, signal } = input;
  const harness = input.language.recorder;
  const options: RecordOptions = { ...DEFAULT_RECORD_OPTIONS, ...input.options };
  const logger = input.logger.child({ component: 'record' });
  const total = input.candidates.length;
  const progress = (phase: RecordProgress['phase'], done: number, message: string): void => input.onProgress?.({ phase, done, total, message });
  const candidates = [...input.candidates].sort((a, b) => (a.unit.id < b.unit.id ? -1 : a.unit.id > b.unit.id ? 1 : 0));
  if (candidates.length === 0) return { recordings: [], drops: [], missingDependencies: [], timings: { setupMs: 0, traceMs: {}, candidates: [] } };
  const classes = new Map((input.units ?? []).filter((u) => u.kind === 'class').map((u) => [u.id, u] as const));

  // targets recorded and mutation-tested this many at a time (a harness may take them one by one)
  const parallel = Math.max(1, Math.min(availableParallelism(), options.parallel ?? DEFAULT_RECORD_PARALLEL));
  progress('sandbox', 0, `starting a sandbox for ${candidates.length} candidates`);
  const setupStarted = performance.now();
  const sandbox = await provider.create(
    {
      image: provider.imageFor(input.language.image),
      role: 'episode',
      workdir: WORKSPACE,
      resources: { memoryBytes: parallel * 2 * 1024 ** 3, cpus: parallel, pids: parallel * 512 },
      labels: { 'codemidas.purpose': 'record' },
      expiresAt: new Date(Date.now() + options.recordTimeoutMs + options.mutateTimeoutMs + 10 * 60_000),
      ...(input.dependencies ? { dependencies: input.dependencies } : {}),
    },
    signal ? { signal } : {},
  );
  try {
    const signalOption = signal ? { signal } : {};
    const missingDependencies = hasDependencies(input.dependencies) ? await readMissingDependencies(sandbox, signal) : [];
    if (missingDependencies.length > 0) logger.warn({ missingDependencies }, 'the installer could not install some of the dependencies');
    await sandbox.putFiles(WORKSPACE, await snapshotEntries(snapshot), signalOption);
    await sandbox.putFiles('/', [...WORK_DIR_ENTRIES, ...(await harness.entries())], signalOption);
    const setupMs = Math.round(performance.now() - setupStarted);
    const common = {
      ...harness.config(candidates, WORKSPACE),
      repoRoot: WORKSPACE,
      seed,
      workDir: WORK_DIR_IN_SANDBOX,
      callTimeoutMs: options.callTimeoutMs,
      parallel,
    };
    progress('record', 0, `recording ${candidates.length} candidates`);
    const recordConfig = {
      ...common,
      maxCases: options.maxCases,
      traceTimeoutMs: options.traceTimeoutMs,
      runRepoTests: options.runRepoTests,
      targets: candidates.map((c) => harness.target(c, classes, input.proposals?.get(c.unit.id) ?? [])),
    };
    const recorded = recordResultSchema.parse(await runScript(sandbox, harness, 'record', recordConfig, options.recordTimeoutMs, signal));
    for (const trace of recorded.traces) if (trace.timedOut) logger.warn({ trace }, 'tracing the repository ran out of time; partial traces kept');
    const testsNote = repositoryTestsNote(recorded.traces);
    if (testsNote !== null) {
      logger.warn({ traces: recorded.traces }, testsNote);
      progress('record', 0, testsNote);
    }

    const drops: Drop[] = [];
    const kept = recorded.targets.filter((t) => {
      if (t.drop) drops.push({ unitId: t.unitId, stage: 'record', code: t.drop.code, reason: t.drop.reason });
      return !t.drop && t.cases.length > 0;
    });
    input.onRecordDrops?.([...drops]);
    const byUnit = new Map(candidates.map((c) => [c.unit.id, c] as const));
    progress('mutate', total - kept.length, `mutation testing ${kept.length} recorded candidates`);
    const mutateConfig = {
      ...common,
      search: options.search,
      maxNewCases: options.maxNewCases,
      maxMutants: options.maxMutants,
    };
    // one harness run per target, `parallel` of them at a time, the costliest first: a run of
    // several targets waits for its slowest, and so did every run after it (vdf's binary_load,
    // 7.6 s, held a core idle beside it). Each target's mutation testing is its own (its own
    // workers, its own seeded random): the results are those of one run of them all.
    const mutateDeadline = performance.now() + options.mutateTimeoutMs;
    const mutateEach = (targets: Record<string, unknown>[], onDone: (done: number, results: MutateResult['targets']) => void): Promise<MutateResult['targets']> =>
      costliestFirst(targets, (t) => mutateCost(t, byUnit), parallel, onDone, async (target) => {
        const left = Math.round(mutateDeadline - performance.now());
        if (left <= 0) throw new RecordHarnessError('the mutate harness', -1, '', `the mutate harness ran past ${options.mutateTimeoutMs} ms; raise recordTimeoutMs/mutateTimeoutMs or record fewer candidates`);
        return mutateResultSchema.parse(await runScript(sandbox, harness, 'mutate', { ...mutateConfig, targets: [target] }, left, signal)).targets;
      });
    const keptById = new Map(kept.map((t) => [t.unitId, t] as const));
    const entryPass = harness.mutatesThroughEntries && input.units !== undefined;
    // each candidate's recording as its mutation testing ends, handed on at once when no entry pass can replace it
    const recordingById = new Map<string, Recording>();
    const mutatedTargets = await mutateEach(
      kept.map((t) => ({ ...harness.target(byUnit.get(t.unitId)!, classes, []), cases: t.cases })),
      (done, results) => {
        for (const m of results) {
          const t = keptById.get(m.unitId);
          if (!t || m.error) continue;
          const recording = recordingOf(m.unitId, t, m, options.search);
          recordingById.set(m.unitId, recording);
          if (!entryPass || recording.mutation.score >= options.entryPassBelow) input.onFinal?.(recording);
        }
        if (done < kept.length) progress('mutate', total - kept.length + done, `mutation tested ${done} of ${kept.length} recorded candidates`);
      },
    );
    const mutationByUnit = new Map(mutatedTargets.map((m) => [m.unitId, m] as const));

    const recordings: Recording[] = [];
    for (const t of kept) {
      const m = mutationByUnit.get(t.unitId);
      const recording = recordingById.get(t.unitId);
      if (!m || m.error || !recording) {
        drops.push({ unitId: t.unitId, stage: 'record', code: m?.error?.code ?? 'mutation-error', reason: m?.error?.reason ?? 'the mutate harness gave no result' });
        continue;
      }
      recordings.push(recording);
    }

    // the entry pass: a candidate whose own cases do not pin its body down, tried through one that reaches it
    const entryMs = entryPass && input.units
      ? await throughEntries({
          recordings,
          drops,
          units: input.units,
          kept: keptById,
          threshold: options.entryPassBelow,
          search: options.search,
          target: (unitId) => harness.target(byUnit.get(unitId)!, classes, []),
          mutate: (targets) => {
            progress('mutate', total, `mutation testing ${targets.length} weak candidates again through the entries that reach them`);
            return mutateEach(targets, () => undefined);
          },
          logger,
        })
      : new Map<string, number>();
    // the feature pass: public entries with the private helpers only they reach, masked together
    const featurePass = entryPass && input.units && (input.shapes ?? []).includes('feature')
      ? await throughFeatures({
          recordings,
          units: input.units,
          kept: keptById,
          threshold: options.entryPassBelow,
          target: (unitId) => harness.target(byUnit.get(unitId)!, classes, []),
          mutate: (targets) => {
            progress('mutate', total, `mutation testing the helpers of ${new Set(targets.map((t) => t['module'] + ':' + String(t['qualname']))).size} features through their entries`);
            return mutateEach(targets, () => undefined);
          },
          logger,
        })
      : { features: [], ms: new Map<string, number>() };
    // the class pass: the methods of a class recorded on their own, removed together
    const classTasks = (input.shapes ?? []).includes('class') ? classRecordings(recordings, input.units ?? [], options.entryPassBelow) : [];
    // the module pass: the functions of a small module recorded on their own, removed together
    const moduleTasks = (input.shapes ?? []).includes('module') ? moduleRecordings(recordings, input.units ?? [], options.entryPassBelow) : [];
    for (const feature of [...featurePass.features, ...classTasks, ...moduleTasks]) {
      recordings.push(feature);
      input.onFinal?.(feature);
    }
    recordings.sort(byId);
    drops.sort(byId);
    const traceMs: Record<string, number> = {};
    for (const trace of recorded.traces) traceMs[trace.mode] = (traceMs[trace.mode] ?? 0) + (trace.ms ?? 0);
    const timings: RecordTimings = {
      setupMs,
      traceMs,
      candidates: recorded.targets
        .map((t) => {
          const m = mutationByUnit.get(t.unitId);
          return { unitId: t.unitId, recordMs: t.ms ?? 0, mutateMs: (m?.ms ?? 0) + (entryMs.get(t.unitId) ?? 0) + (featurePass.ms.get(t.unitId) ?? 0), searchMs: m?.searchMs ?? 0 };
        })
        .sort(byId),
    };
    progress('done', total, `${recordings.length} recorded, ${drops.length} dropped`);
    logger.info({ recorded: recordings.length, dropped: drops.length }, 'record stage done');
    return { recordings, drops, missingDependencies, timings };
  } finally {
    await sandbox.destroy().catch((error: unknown) => logger.warn({ err: error, containerId: sandbox.id }, 'could not destroy the record sandbox'));
  }
}
