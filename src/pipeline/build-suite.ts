import type { LanguagePlugin } from '../languages/language.js';
import { analyzeRepository } from './analyze/analyze-repository.js';
import { createBuildRun } from './build/build-run.js';
import type { BuildSuiteOptions, BuildSuiteResult, PipelineStages } from './build/build-types.js';
import { exploreRepository } from './build/explore-repository.js';
import { createTaskStages } from './build/task-stages.js';
import { recordBehaviour } from './build/record-behaviour.js';
import { DEFAULT_GATE_OPTIONS } from './gate/run-gates.js';
import { ingestRepository } from './ingest/ingest-repository.js';
import { selectCandidates } from './select/select-candidates.js';

export { BuildFailedError } from './build/build-types.js';
export type { BuildProgress, BuildSuiteOptions, BuildSuiteResult, PipelineStages, RecordStageProgress } from './build/build-types.js';

/**
 * `codemidas build`: repository → suite of gated task packages, as DESIGN.md's data flow:
 * explore (ingest → analyze → select) → record → per task write → mask → audit → gate → package,
 * a task's stages starting as soon as its recording is final (while the others are recorded).
 * Every unit that does not make it is a drop with a stage, code and reason; bad input as a whole
 * (not a folder, no source of the language) throws `InvalidArgumentError`, and a build left with
 * nothing (no unit, no candidate, nothing recorded, nothing gated) stops there with a
 * `BuildFailedError` saying which, its funnel written to `<out>/<suite>.funnel.json`. The suite is
 * written to a temporary folder beside its target and renamed into place only when at least one
 * task was accepted (what a build killed outright leaves is cleared by the next build of the
 * suite); the same repository and seed give byte-identical packages.
 */
export async function buildSuite(options: BuildSuiteOptions): Promise<BuildSuiteResult> {
  const run = await createBuildRun(options);
  try {
    const explored = await exploreRepository(run);
    // recordings final before the record stage ends are gated while the rest are recorded
    const tasks = createTaskStages(run, explored);
    try {
      const recorded = await recordBehaviour(run, explored, tasks);
      return await tasks.finish(recorded);
    } finally {
      await tasks.close();
    }
  } finally {
    await run.dispose();
  }
}

export { DEFAULT_GATE_OPTIONS };

/**
 * The real stages before write, for the composition root: ingest (copy or clone), analyze (the
 * language plugin's adapter, tree-sitter), select, and the record stage passed in.
 */
export function createDefaultStages(parts: { record: PipelineStages['record']; language: LanguagePlugin; maxCandidates?: number }): PipelineStages {
  const adapter = parts.language;
  return {
    ingest: (source, options) => ingestRepository(source, { ...options, rootDirsLeftOut: new Set(adapter.rootBuildDirs) }),
    analyze: async (snapshot, options) => {
      const analysis = await analyzeRepository(snapshot, [adapter], options);
      return { units: analysis.units, problems: analysis.problems };
    },
    select: (units, options) => selectCandidates(units, { seed: options.seed, ...adapter.selection, ...(parts.maxCandidates === undefined ? {} : { maxCandidates: parts.maxCandidates }) }),
    record: parts.record,
  };
}
