import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { createLeakAuditor } from '../audit/audit-leaks.js';
import { storeSuiteOnce } from '../package/store-suite-once.js';
import { createSuiteStaging, type SuiteStaging, writeFileAtomic, writeFileTree } from '../package/suite-staging.js';
import type { FunnelDependencies } from '../report/funnel-report.js';
import type { RuntimeDependencies } from '../../sandbox/runtime-dependencies.js';
import { createLimiter } from '../../shared/limiter.js';
import type { Recording, TaskShape, Unit } from '../types.js';
import { TASK_SHAPES } from '../../languages/construction-types.js';
import { stableJson } from '../write/stable-json.js';
import type { BuildRun } from './build-run.js';
import { BuildFailedError, type BuildSuiteResult, type Explored, type Recorded } from './build-types.js';
import { buildTask, unitOfRecording, type TaskOutcome, type TaskStageContext } from './build-task.js';
import type { EarlyRecordings } from './record-behaviour.js';

/** The task stages of a build: gating recordings as they become final, then the rest and the package. */
export interface TaskStages extends EarlyRecordings {
  /**
   * The task stages for every recording not gated yet, then the package: the suite is written to a
   * staging folder beside its target and renamed into place only when at least one task was
   * accepted (else `BuildFailedError`, the existing suite untouched); the funnel goes inside the
   * suite and, with timings, beside it.
   */
  finish(recorded: Recorded): Promise<BuildSuiteResult>;
  /** Starts no more task stages, waits for those in flight, and removes the staging folder (a no-op after a commit). */
  close(): Promise<void>;
}

/**
 * The task stages (write → mask → audit → gate each, `buildTask`), `concurrency` at a time across
 * the recordings gated early (`final`, while the record stage goes on; not with `maxTasks`, whose
 * cap is applied in unit order) and those gated in `finish`. The runtime image and the leak
 * auditor are prepared once, for the first task.
 */
export function createTaskStages(run: BuildRun, explored: Explored): TaskStages {
  const { options } = run;
  const limiter = createLimiter(options.concurrency ?? 2);
  let staging: Promise<SuiteStaging> | null = null;
  let context: Promise<TaskStageContext> | null = null;
  const stagingOnce = (): Promise<SuiteStaging> => (staging ??= createSuiteStaging(options.outDir, options.suite));
  // one context per build: recordings are handed on early only once the tasks' dependencies are settled
  const contextOnce = (dependencies: RuntimeDependencies | undefined): Promise<TaskStageContext> =>
    (context ??= (async () => taskContext(run, explored, (await stagingOnce()).dir, dependencies))());
  const early = new Map<string, Promise<TaskOutcome>>();
  // every task's stages started, and the first that threw (no task starts after it, nor after `close`)
  const started: Promise<TaskOutcome>[] = [];
  let failure: unknown = null;
  let closed = false;
  // progress: tasks gated of those recorded (while recording, of the candidates)
  let gated = 0;
  let total = explored.toRecord.length;
  let recording = true;

  const gate = (r: Recording, context: Promise<TaskStageContext>): Promise<TaskOutcome> => {
    const outcome = limiter.run(async () => {
      if (failure !== null) throw failure;
      if (closed) throw new Error('the build ended before this task was gated');
      options.signal?.throwIfAborted();
      try {
        if (r.feature === undefined && !(options.taskShapes ?? TASK_SHAPES).includes('function')) return notAsked(r, explored);
        // a shape the language's prompts cannot describe (a class, for a writer without class prompts)
        if (r.feature !== undefined && !(options.language.writer.shapes ?? WRITER_SHAPES).includes(r.feature.shape ?? 'feature')) return notAsked(r, explored);
        const o = await buildTask(await context, r);
        const what = o.accepted ? `accepted ${o.name}` : `dropped ${o.unit.id} (${o.drop?.code})`;
        run.progress({ stage: 'gate', done: ++gated, total, unitId: o.unit.id, message: recording ? `${what} (while recording)` : what });
        return o;
      } catch (error) {
        failure ??= error;
        throw error;
      }
    });
    // awaited by `finish` (or `close`): a failure here is never unhandled
    outcome.catch(() => undefined);
    started.push(outcome);
    return outcome;
  };

  return {
    final(r, dependencies) {
      if (options.maxTasks !== undefined || early.has(r.unitId) || failure !== null) return;
      early.set(r.unitId, gate(r, contextOnce(dependencies)));
    },

    async finish(recorded) {
      const { logger } = run;
      const { suite } = options;
      const { recordings } = recorded;
      recording = false;
      total = recordings.length;
      const context = contextOnce(recorded.dependencies.runtime);
      const outcomes = await buildTasks(await context, recordings, early, (r) => gate(r, context));
      for (const o of outcomes) if (o.drop) run.drops.push(o.drop);
      const accepted = outcomes.flatMap((o) => (o.accepted ? [o.accepted] : []));
      const report = run.report(
        explored,
        // a feature's recording is its entry's cases again: `recorded` counts candidates
        { candidates: explored.candidates.length, recorded: recordings.filter((r) => r.feature === undefined).length, written: outcomes.filter((o) => o.written).length, gated: accepted.length },
        accepted,
        dependencySummary(recorded.dependencies),
      );
      const timings = run.timings(accepted.length);
      if (accepted.length === 0) {
        await writeFileAtomic(run.funnelFile, Buffer.from(stableJson({ ...report, timings })));
        throw new BuildFailedError(`none of the ${recordings.length} recorded candidates of ${options.source} passed the gates (${run.countsOf('write', 'mask', 'audit', 'gate')}); the funnel is in ${run.funnelFile}`, report, timings);
      }
      run.progress({ stage: 'package', done: 0, total: 1 });
      const target = await stagingOnce();
      await writeFileTree(
        target.dir,
        new Map([
          ['suite.json', Buffer.from(stableJson({ schemaVersion: 1, name: suite, description: `Built by codemidas build from ${report.source.repo} (seed ${run.seed}).`, tasks: accepted.map((t) => t.name) }))],
          ['funnel.json', Buffer.from(stableJson(report))],
        ]),
      );
      await storeSuiteOnce(target.dir, accepted.map((t) => t.name));
      await target.commit();
      // Beside the suite, after it: the funnel of the suite on disk (with the timings of its build).
      await writeFileAtomic(run.funnelFile, Buffer.from(stableJson({ ...report, timings })));
      run.progress({ stage: 'package', done: 1, total: 1 });
      logger.info({ gated: accepted.length, totalMs: timings.totalMs }, 'suite built');
      return { suiteDir: target.target, report, timings, funnelFile: run.funnelFile };
    },

    async close() {
      closed = true;
      await Promise.allSettled(started);
      // a staging folder that could not be made failed the build already
      await staging?.then((made) => made.abort(), () => undefined);
    },
  };
}

/** The shapes a language's prompts describe when its writer names none. */
const WRITER_SHAPES: readonly TaskShape[] = Object.freeze(['function', 'feature']);

/** A recording of a shape the build was not asked for, or its language cannot describe: no task, no drop. */
function notAsked(r: Recording, explored: Explored): TaskOutcome {
  const unit = unitOfRecording(explored, r);
  return { unit, name: explored.names.get(r.unitId) ?? r.unitId, accepted: null, drop: null, written: false };
}

/** What every task shares: the image with the repository's dependencies, without copies of the library, and the leak auditor reading it. */
async function taskContext(run: BuildRun, explored: Explored, stagingDir: string, dependencies: RuntimeDependencies | undefined): Promise<TaskStageContext> {
  const { options, logger } = run;
  const { language, provider } = options;
  const auditor = createLeakAuditor({ reader: options.imageReader, logger, language: language.leaks, selector: language.language });
  const languageImage = provider.imageFor(language.image);
  // The image with the repository's dependencies (the record stage built it), which the audit reads whole.
  const installed = await run.timed('audit', () => provider.prepareImage(languageImage, [], { ...run.signalOption, dependencies }));
  // Copies of this library in that image (a distro package, a dependency bundling it) are scrubbed
  // from the tasks' image (and their hits then do not count); anything else the audit finds still fails the task.
  const scrub = await run.timed('audit', async () =>
    language.leaks.findLibraryCopies(await auditor.imagePaths(installed, options.signal), { units: explored.units, files: new Set(explored.files.keys()) }),
  );
  const image = scrub.length === 0 ? installed : await run.timed('audit', () => provider.prepareImage(languageImage, scrub, { ...run.signalOption, dependencies }));
  if (scrub.length > 0) {
    logger.info({ languageImage, image, scrub }, 'the language image carries copies of the library; its tasks run without them');
    run.progress({ stage: 'audit', done: 0, total: explored.toRecord.length, message: `the runtime image carries copies of the library (${scrub.join(', ')}): the tasks run on ${image}, without them` });
  }
  return {
    run,
    explored,
    stagingDir,
    scorer: options.scorer ?? language.createScorer({ provider, logger }),
    auditor,
    image,
    scrub,
    dependencies,
    libraryName: language.describeLibrary(explored.units),
  };
}

/** The funnel's `dependencies` section: what was declared, installed and missing; undefined when nothing was declared. */
function dependencySummary(dependencies: Recorded['dependencies']): FunnelDependencies | undefined {
  if (dependencies.declared.length === 0) return undefined;
  return {
    declared: dependencies.declared.map((d) => ({ name: d.name, from: d.from, install: d.install })),
    ...(dependencies.runtime ? { installed: { tool: dependencies.runtime.tool, packages: [...dependencies.runtime.packages] } } : {}),
    missing: dependencies.missing,
  };
}

/**
 * `buildTask` for each recording in unit order (those gated early awaited, the others through
 * `gate`), until `maxTasks` are accepted; the rest are dropped as `max-tasks`. Over the cap after the
 * last batch, the first `maxTasks` in unit order are kept and the others' packages removed.
 */
async function buildTasks(
  ctx: TaskStageContext,
  recordings: readonly Recording[],
  early: ReadonlyMap<string, Promise<TaskOutcome>>,
  gate: (recording: Recording) => Promise<TaskOutcome>,
): Promise<TaskOutcome[]> {
  const { run, explored } = ctx;
  const { options } = run;
  const concurrency = Math.max(1, options.concurrency ?? 2);
  const outcomes: TaskOutcome[] = [];
  const total = recordings.length;
  let acceptedCount = 0;
  // with no cap, every recording at once (the limiter keeps `concurrency` in flight); with one, in batches
  const step = options.maxTasks === undefined ? total : concurrency;
  for (let i = 0; i < total; i += step) {
    options.signal?.throwIfAborted();
    if (options.maxTasks !== undefined && acceptedCount >= options.maxTasks) {
      for (const r of recordings.slice(i)) {
        const unit = unitOfRecording(explored, r);
        outcomes.push({ unit, name: explored.names.get(unit.id) ?? unit.id, accepted: null, written: false, drop: { unitId: unit.id, stage: 'gate', code: 'max-tasks', reason: `not gated: --max-tasks ${options.maxTasks} reached` } });
      }
      break;
    }
    const results = await Promise.all(recordings.slice(i, i + step).map((r) => early.get(r.unitId) ?? gate(r)));
    for (const r of results) {
      outcomes.push(r);
      if (r.accepted) acceptedCount += 1;
    }
  }
  let kept = 0;
  for (const o of outcomes) {
    if (!o.accepted) continue;
    kept += 1;
    if (options.maxTasks !== undefined && kept > options.maxTasks) {
      await rm(join(ctx.stagingDir, o.name), { recursive: true, force: true });
      o.accepted = null;
      o.drop = { unitId: o.unit.id, stage: 'gate', code: 'max-tasks', reason: `passed the gates, beyond --max-tasks ${options.maxTasks}` };
    }
  }
  return outcomes;
}
