import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Logger } from '../logging.js';
import type { SandboxProvider } from '../sandbox/types.js';
import type { LanguagePlugin } from '../languages/language.js';
import type { Scorer } from '../scoring/types.js';
import { taskFileSchema } from '../tasks/task-schema.js';
import type { LoadedTask } from '../tasks/types.js';
import type { ParseProblem } from './adapters/language-adapter.js';
import { MaskBodyError } from './adapters/python/mask-body.js';
import { analyzeRepository } from './analyze/analyze-repository.js';
import { ingestRepository } from './ingest/ingest-repository.js';
import { selectCandidates } from './select/select-candidates.js';
import { createLeakAuditor, type LeakAuditResult } from './audit/audit-leaks.js';
import { coMaskSiblings } from './audit/co-mask-siblings.js';
import { findLibraryCopies } from './audit/library-copies.js';
import type { ImageFileReader } from './audit/image-files.js';
import { DEFAULT_GATE_OPTIONS, runGates, type GateOptions, type GateReport } from './gate/run-gates.js';
import { maskWorkspace, type MaskedWorkspace } from './mask/mask-workspace.js';
import { storeSuiteOnce } from './package/store-suite-once.js';
import { createSuiteStaging, reclaimStaleStaging, writeFileAtomic, writeFileTree } from './package/suite-staging.js';
import { stagedWorkspace, writeTaskPackage } from './package/write-task-package.js';
import { countDrops, sortDrops, summariseLlmFallbacks, type AcceptedTask, type BuildTimings, type FunnelReport, type LlmFallback } from './report/funnel-report.js';
import type { Candidate, Drop, DropStage, Recording, RepoSnapshot, Unit } from './types.js';
import { withCoMaskedNote } from './write/render-prompt.js';
import { renderTaskFile, repoLabel, type GatesSummary } from './write/render-task-file.js';
import { referenceCodeOf } from './llm/reference-code.js';
import { noopAssertionReviewer, noopInputProposer, noopSpecWriter, type AssertionReviewer, type InputProposal, type InputProposer, type ReferenceCode, type SpecWriter } from './write/spec-writer.js';
import { compareStrings, stableJson } from './write/stable-json.js';
import { WriteError, assignTaskNames, writeTask, type WrittenTask } from './write/write-task.js';

/** A line of progress: the stage running and how far it is. */
export interface BuildProgress {
  stage: DropStage | 'package';
  done: number;
  total: number;
  unitId?: string;
  message?: string;
}

/** What the record stage reports while it runs (the Python record driver); shown as `record: <message>`. */
export interface RecordStageProgress {
  done?: number;
  total?: number;
  unitId?: string;
  phase?: string;
  message?: string;
}

/**
 * The stages before write, each replaceable (unit tests inject fakes; the composition root passes the
 * real ones). Contracts are those of src/pipeline/types.ts.
 */
export interface PipelineStages {
  ingest(source: string, options: { workRoot: string; signal?: AbortSignal }): Promise<RepoSnapshot & { skipped?: { path: string; reason: string }[] }>;
  analyze(snapshot: RepoSnapshot, options: { signal?: AbortSignal }): Promise<{ units: Unit[]; problems: ParseProblem[] }>;
  select(units: readonly Unit[], options: { snapshot: RepoSnapshot; seed: number }): Promise<{ candidates: Candidate[]; drops: Drop[] }> | { candidates: Candidate[]; drops: Drop[] };
  record(options: {
    provider: SandboxProvider;
    snapshot: RepoSnapshot;
    candidates: Candidate[];
    seed: number;
    logger: Logger;
    onProgress?: (event: RecordStageProgress) => void;
    signal?: AbortSignal;
    /** Every unit of the repository (a method's class and its constructor's call sites). */
    units?: Unit[];
    /** Extra inputs per unit id, from the `InputProposer`; recorded like every other input (source `llm`). */
    proposals?: ReadonlyMap<string, readonly InputProposal[]>;
  }): Promise<{ recordings: Recording[]; drops: Drop[] }>;
}

export interface BuildSuiteOptions {
  /** A repository path or git URL. */
  source: string;
  /** Suite name (folder under `outDir`). */
  suite: string;
  /** Folder of suites, e.g. `environments/`. */
  outDir: string;
  /** At most this many tasks in the suite. Default: no limit. */
  maxTasks?: number;
  /** Seed of every random choice of the build. Default 0. */
  seed?: number;
  provider: SandboxProvider;
  logger: Logger;
  /** Reads the runtime image's files for the leak audit (docker export, or a folder). */
  imageReader: ImageFileReader;
  stages: PipelineStages;
  /** The language plugin of the repository's code: masking, the unit checks, its image and scorer. */
  language: LanguagePlugin;
  /** Default: the language plugin's (`language.createScorer`). */
  scorer?: Scorer;
  gates?: Partial<GateOptions>;
  /**
   * LLM hooks; no-ops by default (see write/spec-writer.ts). When any is given, the funnel report
   * holds `llm`: every time a hook kept the deterministic behaviour, with its reason.
   */
  specWriter?: SpecWriter;
  inputProposer?: InputProposer;
  assertionReviewer?: AssertionReviewer;
  /** Tasks written, audited and gated at once. Default 2 (each gate starts 4 + 2 sandboxes). */
  concurrency?: number;
  /** Where the snapshot is copied. Default: a fresh folder under the OS temp folder, removed at the end. */
  workRoot?: string;
  onProgress?: (event: BuildProgress) => void;
  signal?: AbortSignal;
}

export interface BuildSuiteResult {
  /** Where the suite now is. */
  suiteDir: string;
  report: FunnelReport;
  timings: BuildTimings;
  /** `<outDir>/<suite>.funnel.json`: the report with timings (outside the suite). */
  funnelFile: string;
}

/** The build produced no task that passed the gates; the existing suite (if any) is untouched. */
export class BuildFailedError extends Error {
  constructor(
    message: string,
    readonly report: FunnelReport,
    readonly timings: BuildTimings,
  ) {
    super(message);
    this.name = 'BuildFailedError';
  }
}

interface TaskOutcome {
  unit: Unit;
  name: string;
  accepted: AcceptedTask | null;
  drop: Drop | null;
  written: boolean;
}

/**
 * `codemidas build`: repository → suite of gated task packages. ingest → analyze → select → record →
 * write → mask → audit → gate → package. Every unit that does not make it is a drop with a stage,
 * code and reason; bad input as a whole (not a folder, no Python) throws `InvalidArgumentError`, and a
 * build left with nothing (no unit, no candidate, nothing recorded, nothing gated) stops there with a
 * `BuildFailedError` saying which, its funnel written to `<out>/<suite>.funnel.json`. The suite is
 * written to a temporary folder beside its target and renamed into place only when at least one task
 * was accepted (what a build killed outright leaves is cleared by the next build of the suite); the
 * same repository and seed give byte-identical packages.
 */
export async function buildSuite(options: BuildSuiteOptions): Promise<BuildSuiteResult> {
  const started = performance.now();
  const seed = options.seed ?? 0;
  const { suite, stages, provider, signal } = options;
  const logger = options.logger.child({ component: 'build', suite });
  const progress = (event: BuildProgress): void => options.onProgress?.(event);
  const stageMs: Record<string, number> = {};
  const timed = async <T>(stage: string, fn: () => Promise<T> | T): Promise<T> => {
    const t0 = performance.now();
    try {
      return await fn();
    } finally {
      stageMs[stage] = Math.round((stageMs[stage] ?? 0) + performance.now() - t0);
    }
  };
  const signalOption = signal ? { signal } : {};
  const ownWorkRoot = options.workRoot === undefined;
  const workRoot = options.workRoot ?? (await mkdtemp(join(tmpdir(), 'codemidas-build-')));
  const drops: Drop[] = [];
  const llmHooked = options.specWriter !== undefined || options.inputProposer !== undefined || options.assertionReviewer !== undefined;
  const llmFallbacks: LlmFallback[] = [];
  const funnelFile = join(options.outDir, `${suite}.funnel.json`);

  try {
    // Leftovers of builds of this suite that were killed outright (their process is gone).
    try {
      for (const r of await reclaimStaleStaging(options.outDir, suite)) {
        logger.warn({ folder: join(options.outDir, r.name), action: r.action }, r.action === 'restored' ? 'put back a suite a killed build had set aside' : 'removed what a killed build left behind');
      }
    } catch (err) {
      logger.warn({ err, outDir: options.outDir }, 'could not clear what a killed build left behind; carrying on');
    }
    progress({ stage: 'ingest', done: 0, total: 1 });
    const snapshot = await timed('ingest', () => stages.ingest(options.source, { workRoot, ...signalOption }));
    for (const s of snapshot.skipped ?? []) {
      if (s.path.endsWith('.py')) drops.push({ unitId: s.path, stage: 'ingest', code: `skipped:${s.reason}`, reason: `${s.path} left out of the snapshot (${SKIP_REASONS[s.reason] ?? s.reason})` });
    }
    progress({ stage: 'analyze', done: 0, total: snapshot.files.length });
    const analysis = await timed('analyze', () => stages.analyze(snapshot, signalOption));
    for (const p of analysis.problems) drops.push({ unitId: p.file, stage: 'analyze', code: p.code ?? 'parse-error', reason: p.message });
    const units = [...analysis.units].sort((a, b) => compareStrings(a.id, b.id));
    progress({ stage: 'analyze', done: units.length, total: units.length, message: `${units.length} units` });

    /** The funnel report of the drops so far, with these counts and accepted tasks. */
    const funnelReport = (counts: Partial<Omit<FunnelReport['funnel'], 'drops' | 'units'>>, tasks: FunnelReport['tasks']): FunnelReport => {
      const sortedDrops = sortDrops(drops);
      return {
        schemaVersion: 1,
        suite,
        source: { repo: repoLabel(snapshot.origin), revision: snapshot.revision },
        seed,
        funnel: { units: units.length, candidates: 0, recorded: 0, written: 0, gated: 0, ...counts, drops: sortedDrops },
        dropCounts: countDrops(sortedDrops),
        tasks,
        ...(llmHooked ? { llm: summariseLlmFallbacks(llmFallbacks) } : {}),
      };
    };
    /** The funnel so far, written beside the suite; then the build stops with `BuildFailedError`. */
    const fail = async (message: string, counts: Partial<Omit<FunnelReport['funnel'], 'drops' | 'units'>> = {}): Promise<never> => {
      const report = funnelReport(counts, []);
      const totalMs = Math.round(performance.now() - started);
      const timings: BuildTimings = { totalMs, stageMs, tasksPerMinute: 0 };
      await writeFileAtomic(funnelFile, Buffer.from(stableJson({ ...report, timings })));
      throw new BuildFailedError(`${message}; the funnel is in ${funnelFile}`, report, timings);
    };
    /** `3 too-small, 1 impure:clock` (one stage) or `2 gate:mutation-score, 1 audit:leak` (several). */
    const countsOf = (...stagesOf: DropStage[]): string => {
      const counts = countDrops(drops.filter((d) => stagesOf.includes(d.stage)));
      const label = (key: string): string => (stagesOf.length === 1 ? key.slice(key.indexOf(':') + 1) : key);
      return Object.entries(counts).sort((a, b) => b[1] - a[1] || compareStrings(a[0], b[0])).map(([k, n]) => `${n} ${label(k)}`).join(', ') || 'no drops';
    };
    if (units.length === 0) {
      const python = snapshot.files.filter((f) => f.endsWith('.py')).length;
      const skipped = analysis.problems.length;
      await fail(
        `found no function or method to build a task from in ${options.source}: ${python} Python files` +
          (skipped ? `, ${skipped} of them skipped (${countsOf('analyze')})` : '') +
          '; tests, examples, docs and tooling are not library code',
      );
    }

    const selected = await timed('select', () => stages.select(units, { snapshot, seed }));
    drops.push(...selected.drops);
    const candidates = [...selected.candidates].sort((a, b) => compareStrings(a.unit.id, b.unit.id));
    if (candidates.length === 0) {
      await fail(`none of the ${units.length} definitions found in ${options.source} is a candidate for a task (${countsOf('select')})`);
    }
    // Record more than the cap needs, since some candidates fail later stages.
    const recordCap = options.maxTasks === undefined ? candidates.length : Math.min(candidates.length, options.maxTasks * 2 + 2);
    for (const c of candidates.slice(recordCap)) {
      drops.push({ unitId: c.unit.id, stage: 'select', code: 'max-tasks', reason: `beyond --max-tasks ${options.maxTasks} (not recorded)` });
    }
    const toRecord = candidates.slice(0, recordCap);
    progress({ stage: 'select', done: toRecord.length, total: units.length, message: `${candidates.length} candidates` });
    const files = await readSnapshotFiles(snapshot);
    const referenceOf = (unit: Unit): ReferenceCode | undefined => {
      const text = files.get(unit.file);
      return text === undefined ? undefined : referenceCodeOf(unit, text.toString('utf8'));
    };

    // Asked before recording, so the proposals are run on the original code in the same record run
    // as every other input (there are no recorded cases to show the model yet).
    const proposals = new Map<string, InputProposal[]>();
    if (options.inputProposer !== undefined && options.inputProposer !== noopInputProposer) {
      const proposer = options.inputProposer;
      const concurrency = Math.max(1, options.concurrency ?? 2);
      await timed('propose', async () => {
        for (let i = 0; i < toRecord.length; i += concurrency) {
          signal?.throwIfAborted();
          await Promise.all(
            toRecord.slice(i, i + concurrency).map(async ({ unit }) => {
              const reference = referenceOf(unit);
              const proposed = await proposer.propose({
                unit,
                existing: [],
                seed,
                ...(reference ? { reference } : {}),
                onFallback: (reason) => llmFallbacks.push({ hook: 'input-proposer', unitId: unit.id, reason }),
                ...signalOption,
              });
              if (proposed.length > 0) proposals.set(unit.id, proposed);
            }),
          );
          progress({ stage: 'record', done: 0, total: toRecord.length, message: `llm proposals for ${Math.min(i + concurrency, toRecord.length)}/${toRecord.length} candidates` });
        }
      });
    }

    progress({ stage: 'record', done: 0, total: toRecord.length });
    const recorded = await timed('record', () =>
      stages.record({
        provider,
        snapshot,
        candidates: toRecord,
        seed,
        logger,
        units,
        ...(proposals.size > 0 ? { proposals } : {}),
        onProgress: (e) => {
          const message = [e.phase, e.message].filter(Boolean).join(': ');
          progress({ stage: 'record', done: e.done ?? 0, total: e.total ?? toRecord.length, ...(e.unitId ? { unitId: e.unitId } : {}), ...(message ? { message } : {}) });
        },
        ...signalOption,
      }),
    );
    drops.push(...recorded.drops);
    const unitsById = new Map(units.map((u) => [u.id, u]));
    const recordings = [...recorded.recordings].filter((r) => unitsById.has(r.unitId)).sort((a, b) => compareStrings(a.unitId, b.unitId));
    const names = assignTaskNames(recordings.map((r) => unitsById.get(r.unitId) as Unit));
    if (recordings.length === 0) {
      await fail(`none of the ${toRecord.length} candidates of ${options.source} could be recorded (${countsOf('record')})`, { candidates: candidates.length });
    }

    const libraryName = libraryNameOf(units);
    const staging = await createSuiteStaging(options.outDir, suite);
    try {
      const { language } = options;
      const scorer = options.scorer ?? language.createScorer({ provider, logger });
      const auditor = createLeakAuditor({ reader: options.imageReader, logger });
      const languageImage = provider.imageFor(language.image);
      // Copies of this library in the language image are scrubbed from the tasks' image (and their
      // hits then do not count); anything else the audit finds still fails the task.
      const scrub = await timed('audit', async () =>
        findLibraryCopies(await auditor.imagePaths(languageImage, signal), { importNames: new Set(units.map((u) => u.module.split('.')[0] ?? u.module)), files: new Set(files.keys()) }),
      );
      const image = scrub.length === 0 ? languageImage : await timed('audit', () => provider.prepareImage(languageImage, scrub, signalOption));
      if (scrub.length > 0) {
        logger.info({ languageImage, image, scrub }, 'the language image carries copies of the library; its tasks run without them');
        progress({ stage: 'audit', done: 0, total: recordings.length, message: `the runtime image carries copies of the library (${scrub.join(', ')}): the tasks run on ${image}, without them` });
      }
      const concurrency = Math.max(1, options.concurrency ?? 2);
      const outcomes: TaskOutcome[] = [];
      let done = 0;
      let acceptedCount = 0;

      const buildOne = async (recording: Recording): Promise<TaskOutcome> => {
        const unit = unitsById.get(recording.unitId) as Unit;
        const name = names.get(unit.id) ?? unit.id;
        const drop = (stage: DropStage, code: string, reason: string): TaskOutcome => ({ unit, name, accepted: null, drop: { unitId: unit.id, stage, code, reason }, written: stage === 'gate' });
        const unbuildable = language.unbuildable(unit);
        if (unbuildable) return drop('write', unbuildable.code, unbuildable.reason);
        let written: WrittenTask;
        const reference = referenceOf(unit);
        try {
          written = await timed('write', () =>
            writeTask({
              suite,
              name,
              unit,
              recording,
              snapshot,
              libraryName,
              specWriter: options.specWriter ?? noopSpecWriter,
              assertionReviewer: options.assertionReviewer ?? noopAssertionReviewer,
              ...(reference ? { reference } : {}),
              onLlmFallback: (hook, reason) => llmFallbacks.push({ hook, unitId: unit.id, reason }),
              ...signalOption,
            }),
          );
        } catch (err) {
          if (err instanceof WriteError) return drop('write', err.code, err.message);
          throw err;
        }
        let masked: MaskedWorkspace;
        try {
          masked = await timed('mask', () => maskWorkspace({ unit, files, maskBody: language.maskBody }));
        } catch (err) {
          if (err instanceof MaskBodyError) return drop('mask', err.code, err.message);
          return drop('mask', 'mask-failed', messageOf(err));
        }
        const audit = (m: MaskedWorkspace): Promise<LeakAuditResult> => timed('audit', () => auditor.audit({ removedBody: m.removedBody, workspace: m.workspace, image, scrub, ...signalOption }));
        let leak = await audit(masked);
        let coMasked: Unit[] = [];
        if (!leak.clean) {
          const mask = (alsoMask: readonly Unit[]): Promise<MaskedWorkspace> => timed('mask', () => maskWorkspace({ unit, files, maskBody: language.maskBody, alsoMask }));
          ({ masked, leak, coMasked } = await coMaskSiblings({ unit, units, files, masked, leak, mask, audit }));
        }
        if (!leak.clean) {
          const first = leak.hits[0];
          return drop('audit', 'leak', `runs of ${leak.runTokens} body tokens covering ${Math.round((first?.coverage ?? 0) * 100)}% of the body found in ${first?.where} file ${first?.path}:${first?.line}${leak.hits.length > 1 ? ` (+${leak.hits.length - 1} more files)` : ''}`);
        }

        const taskDir = join(staging.dir, name);
        const prompt = withCoMaskedNote(written.prompt, coMasked);
        const taskFile = renderTaskFile({ suite, name, unit, snapshot, scrub, title: written.title, prompt, gates: null });
        await writeTaskPackage(taskDir, taskFile, written, masked, null);
        const task: LoadedTask = {
          id: `${suite}/${name}`,
          suite,
          name,
          dir: taskDir,
          workspace: stagedWorkspace(taskDir),
          hiddenDir: join(taskDir, 'hidden'),
          solutionDir: join(taskDir, 'solution'),
          file: taskFileSchema.parse(taskFile),
        };
        const gates: GateReport = await timed('gate', () =>
          runGates({ task, solution: masked.solution, mutation: recording.mutation, scorer, logger, ...(options.gates ? { options: options.gates } : {}), ...signalOption }),
        );
        if (!gates.passed || gates.failure) {
          await rm(taskDir, { recursive: true, force: true });
          return drop('gate', gates.failure?.code ?? 'gate-failed', gates.failure?.reason ?? 'a gate failed');
        }
        const summary = gatesSummary(written, gates, leak);
        await writeTaskPackage(taskDir, renderTaskFile({ suite, name, unit, snapshot, scrub, title: written.title, prompt, gates: summary }), written, masked, {
          schemaVersion: 1,
          task: `${suite}/${name}`,
          unit: unit.id,
          cases: { total: written.cases.length, sources: recording.sources, rejected: recording.rejected, ...(written.reviewDropped > 0 ? { droppedByReview: written.reviewDropped } : {}) },
          gates: { ...gates, leakAudit: leak },
          mask: {
            removedTests: masked.removedTests,
            scrubbed: masked.scrubbed,
            ...(scrub.length > 0 ? { imageScrubbed: scrub } : {}),
            bodyLines: [unit.bodyStartLine, unit.bodyEndLine],
            ...(masked.coMasked.length > 0 ? { coMasked: masked.coMasked } : {}),
          },
        });
        return { unit, name, written: true, drop: null, accepted: { name, unitId: unit.id, cases: written.cases.length, mutationScore: recording.mutation.score } };
      };

      const total = recordings.length;
      for (let i = 0; i < total; i += concurrency) {
        signal?.throwIfAborted();
        const batch = recordings.slice(i, i + concurrency);
        if (options.maxTasks !== undefined && acceptedCount >= options.maxTasks) {
          for (const r of recordings.slice(i)) {
            const unit = unitsById.get(r.unitId) as Unit;
            outcomes.push({ unit, name: names.get(unit.id) ?? unit.id, accepted: null, written: false, drop: { unitId: unit.id, stage: 'gate', code: 'max-tasks', reason: `not gated: --max-tasks ${options.maxTasks} reached` } });
          }
          break;
        }
        const results = await Promise.all(batch.map(buildOne));
        for (const r of results) {
          outcomes.push(r);
          done += 1;
          if (r.accepted) acceptedCount += 1;
          progress({ stage: 'gate', done, total, unitId: r.unit.id, message: r.accepted ? `accepted ${r.name}` : `dropped ${r.unit.id} (${r.drop?.code})` });
        }
      }
      // Over the cap after the last batch: keep the first maxTasks in unit order.
      let kept = 0;
      for (const o of outcomes) {
        if (!o.accepted) continue;
        kept += 1;
        if (options.maxTasks !== undefined && kept > options.maxTasks) {
          await rm(join(staging.dir, o.name), { recursive: true, force: true });
          o.accepted = null;
          o.drop = { unitId: o.unit.id, stage: 'gate', code: 'max-tasks', reason: `passed the gates, beyond --max-tasks ${options.maxTasks}` };
        }
      }
      for (const o of outcomes) if (o.drop) drops.push(o.drop);

      const accepted = outcomes.flatMap((o) => (o.accepted ? [o.accepted] : []));
      const report = funnelReport(
        { candidates: candidates.length, recorded: recordings.length, written: outcomes.filter((o) => o.written).length, gated: accepted.length },
        accepted,
      );
      const totalMs = Math.round(performance.now() - started);
      const timings: BuildTimings = { totalMs, stageMs, tasksPerMinute: totalMs > 0 ? (accepted.length * 60_000) / totalMs : 0 };
      if (accepted.length === 0) {
        await writeFileAtomic(funnelFile, Buffer.from(stableJson({ ...report, timings })));
        throw new BuildFailedError(`none of the ${recordings.length} recorded candidates of ${options.source} passed the gates (${countsOf('write', 'mask', 'audit', 'gate')}); the funnel is in ${funnelFile}`, report, timings);
      }
      progress({ stage: 'package', done: 0, total: 1 });
      await writeFileTree(
        staging.dir,
        new Map([
          ['suite.json', Buffer.from(stableJson({ schemaVersion: 1, name: suite, description: `Built by codemidas build from ${report.source.repo} (seed ${seed}).`, tasks: accepted.map((t) => t.name) }))],
          ['funnel.json', Buffer.from(stableJson(report))],
        ]),
      );
      await storeSuiteOnce(staging.dir, accepted.map((t) => t.name));
      await staging.commit();
      // Beside the suite, after it: the funnel of the suite on disk (with the timings of its build).
      await writeFileAtomic(funnelFile, Buffer.from(stableJson({ ...report, timings })));
      progress({ stage: 'package', done: 1, total: 1 });
      logger.info({ gated: accepted.length, totalMs }, 'suite built');
      return { suiteDir: staging.target, report, timings, funnelFile };
    } finally {
      await staging.abort();
    }
  } finally {
    if (ownWorkRoot) await rm(workRoot, { recursive: true, force: true });
  }
}

function gatesSummary(written: WrittenTask, gates: GateReport, leak: LeakAuditResult): GatesSummary {
  const ref = gates.reference?.runs ?? [];
  const masked = gates.masked?.runs ?? [];
  return {
    cases: written.cases.length,
    referencePasses: `${ref.filter((r) => r.reward === 1).length}/${ref.length}`,
    maskedFails: `${masked.filter((r) => r.reward < 1).length}/${masked.length}`,
    mutationScore: Math.round(gates.mutation.score * 1000) / 1000,
    mutantsKilled: `${gates.mutation.killed}/${gates.mutation.total}`,
    leakAudit: leak.clean ? 'clean' : 'leak',
  };
}

async function readSnapshotFiles(snapshot: RepoSnapshot): Promise<Map<string, Buffer>> {
  const out = new Map<string, Buffer>();
  for (const file of snapshot.files) out.set(file, await readFile(join(snapshot.dir, ...file.split('/'))));
  return out;
}

/** The library's top-level package names, for the prompt (`textkit`). */
function libraryNameOf(units: readonly Unit[]): string {
  const tops = [...new Set(units.map((u) => u.module.split('.')[0] ?? u.module))].sort(compareStrings);
  return tops.length === 1 ? `the Python package \`${tops[0]}\`` : `a Python codebase (${tops.slice(0, 5).map((t) => `\`${t}\``).join(', ')})`;
}

/** Why ingest left a `.py` file out, for people. */
const SKIP_REASONS: Record<string, string> = {
  'ignored-folder': 'in a cache, VCS, virtual-environment or build-output folder',
  bytecode: 'compiled bytecode',
  'too-large': 'over 1 MiB: generated data, not code worth a task',
  symlink: 'a symbolic link: only regular files are copied',
  'not-a-regular-file': 'not a regular file',
};

function messageOf(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

export { DEFAULT_GATE_OPTIONS };

/**
 * The real stages before write, for the composition root: ingest (copy or clone), analyze (the
 * language plugin's adapter, tree-sitter), select, and the record stage passed in.
 */
export function createDefaultStages(parts: { record: PipelineStages['record']; language: LanguagePlugin; maxCandidates?: number }): PipelineStages {
  const adapter = parts.language;
  return {
    ingest: (source, options) => ingestRepository(source, options),
    analyze: async (snapshot, options) => {
      const analysis = await analyzeRepository(snapshot, [adapter], options);
      return { units: analysis.units, problems: analysis.problems };
    },
    select: (units, options) => selectCandidates(units, { seed: options.seed, ...(parts.maxCandidates === undefined ? {} : { maxCandidates: parts.maxCandidates }) }),
    record: parts.record,
  };
}
