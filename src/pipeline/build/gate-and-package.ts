import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { createLeakAuditor } from '../audit/audit-leaks.js';
import { storeSuiteOnce } from '../package/store-suite-once.js';
import { createSuiteStaging, writeFileAtomic, writeFileTree } from '../package/suite-staging.js';
import type { FunnelDependencies } from '../report/funnel-report.js';
import type { Recording, Unit } from '../types.js';
import { stableJson } from '../write/stable-json.js';
import type { BuildRun } from './build-run.js';
import { BuildFailedError, type BuildSuiteResult, type Explored, type Recorded } from './build-types.js';
import { buildTask, type TaskOutcome, type TaskStageContext } from './build-task.js';

/**
 * The task stages for every recording, `concurrency` at a time (write → mask → audit → gate each,
 * `buildTask`), then the package: the suite is written to a staging folder beside its target and
 * renamed into place only when at least one task was accepted (else `BuildFailedError`, the
 * existing suite untouched); the funnel goes inside the suite and, with timings, beside it.
 */
export async function gateAndPackage(run: BuildRun, explored: Explored, recorded: Recorded): Promise<BuildSuiteResult> {
  const { options, logger } = run;
  const { language, provider, suite } = options;
  const { recordings } = recorded;
  const staging = await createSuiteStaging(options.outDir, suite);
  try {
    const auditor = createLeakAuditor({ reader: options.imageReader, logger, language: language.leaks, selector: language.language });
    const dependencies = recorded.dependencies.runtime;
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
      run.progress({ stage: 'audit', done: 0, total: recordings.length, message: `the runtime image carries copies of the library (${scrub.join(', ')}): the tasks run on ${image}, without them` });
    }
    const ctx: TaskStageContext = {
      run,
      explored,
      recorded,
      stagingDir: staging.dir,
      scorer: options.scorer ?? language.createScorer({ provider, logger }),
      auditor,
      image,
      scrub,
      dependencies,
      libraryName: language.describeLibrary(explored.units),
    };

    const outcomes = await buildTasks(ctx, recordings);
    for (const o of outcomes) if (o.drop) run.drops.push(o.drop);
    const accepted = outcomes.flatMap((o) => (o.accepted ? [o.accepted] : []));
    const report = run.report(
      explored,
      { candidates: explored.candidates.length, recorded: recordings.length, written: outcomes.filter((o) => o.written).length, gated: accepted.length },
      accepted,
      dependencySummary(recorded.dependencies),
    );
    const timings = run.timings(accepted.length);
    if (accepted.length === 0) {
      await writeFileAtomic(run.funnelFile, Buffer.from(stableJson({ ...report, timings })));
      throw new BuildFailedError(`none of the ${recordings.length} recorded candidates of ${options.source} passed the gates (${run.countsOf('write', 'mask', 'audit', 'gate')}); the funnel is in ${run.funnelFile}`, report, timings);
    }
    run.progress({ stage: 'package', done: 0, total: 1 });
    await writeFileTree(
      staging.dir,
      new Map([
        ['suite.json', Buffer.from(stableJson({ schemaVersion: 1, name: suite, description: `Built by codemidas build from ${report.source.repo} (seed ${run.seed}).`, tasks: accepted.map((t) => t.name) }))],
        ['funnel.json', Buffer.from(stableJson(report))],
      ]),
    );
    await storeSuiteOnce(staging.dir, accepted.map((t) => t.name));
    await staging.commit();
    // Beside the suite, after it: the funnel of the suite on disk (with the timings of its build).
    await writeFileAtomic(run.funnelFile, Buffer.from(stableJson({ ...report, timings })));
    run.progress({ stage: 'package', done: 1, total: 1 });
    logger.info({ gated: accepted.length, totalMs: timings.totalMs }, 'suite built');
    return { suiteDir: staging.target, report, timings, funnelFile: run.funnelFile };
  } finally {
    await staging.abort();
  }
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
 * `buildTask` for each recording in unit order, `concurrency` at a time, until `maxTasks` are
 * accepted; the rest are dropped as `max-tasks`. Over the cap after the last batch, the first
 * `maxTasks` in unit order are kept and the others' packages removed.
 */
async function buildTasks(ctx: TaskStageContext, recordings: readonly Recording[]): Promise<TaskOutcome[]> {
  const { run, recorded } = ctx;
  const { options } = run;
  const concurrency = Math.max(1, options.concurrency ?? 2);
  const outcomes: TaskOutcome[] = [];
  const total = recordings.length;
  let acceptedCount = 0;
  for (let i = 0; i < total; i += concurrency) {
    options.signal?.throwIfAborted();
    if (options.maxTasks !== undefined && acceptedCount >= options.maxTasks) {
      for (const r of recordings.slice(i)) {
        const unit = recorded.unitsById.get(r.unitId) as Unit;
        outcomes.push({ unit, name: recorded.names.get(unit.id) ?? unit.id, accepted: null, written: false, drop: { unitId: unit.id, stage: 'gate', code: 'max-tasks', reason: `not gated: --max-tasks ${options.maxTasks} reached` } });
      }
      break;
    }
    const results = await Promise.all(recordings.slice(i, i + concurrency).map((r) => buildTask(ctx, r)));
    for (const r of results) {
      outcomes.push(r);
      if (r.accepted) acceptedCount += 1;
      run.progress({ stage: 'gate', done: outcomes.length, total, unitId: r.unit.id, message: r.accepted ? `accepted ${r.name}` : `dropped ${r.unit.id} (${r.drop?.code})` });
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
