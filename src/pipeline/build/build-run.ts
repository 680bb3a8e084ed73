import { mkdtemp, rm } from 'node:fs/promises';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Logger } from '../../logging.js';
import { reclaimStaleStaging, writeFileAtomic } from '../package/suite-staging.js';
import { countDrops, mergeRecordTimings, sortDrops, summariseLlmFallbacks, type BuildTimings, type RecordTimings, type FunnelDependencies, type FunnelReport, type LlmFallback } from '../report/funnel-report.js';
import type { Drop, DropStage, RepoSnapshot } from '../types.js';
import { repoLabel } from '../write/render-task-file.js';
import { compareStrings, stableJson } from '../write/stable-json.js';
import { normalizePackageFolder } from './package-folder.js';
import { BuildFailedError, type BuildProgress, type BuildSuiteOptions, type FunnelCounts } from './build-types.js';

/**
 * One build in progress: what every stage shares (options, logger, progress, stage timings, the
 * drops and LLM fallbacks so far) and the funnel report made from them. The stages hand their
 * results to each other as values; only the funnel accumulates here.
 */
export interface BuildRun {
  readonly options: BuildSuiteOptions;
  readonly seed: number;
  readonly logger: Logger;
  /** `{ signal }` when the build has one, else `{}` (for exactOptionalPropertyTypes call sites). */
  readonly signalOption: { signal?: AbortSignal };
  /** Where the snapshot is copied. */
  readonly workRoot: string;
  /** `options.package` as a repository-relative folder (`packages/core`), or null for the whole repository. */
  readonly packageFolder: string | null;
  /** `<outDir>/<suite>.funnel.json`. */
  readonly funnelFile: string;
  readonly drops: Drop[];
  readonly llmFallbacks: LlmFallback[];
  progress(event: BuildProgress): void;
  /** Runs `fn`, adding its time to `stage`'s in the timings. */
  timed<T>(stage: string, fn: () => Promise<T> | T): Promise<T>;
  /** The funnel of the drops so far, with these counts and accepted tasks. */
  report(source: FunnelSource, counts: FunnelCounts, tasks: FunnelReport['tasks'], dependencies?: FunnelDependencies): FunnelReport;
  /** Adds a record run's timings (a build can record twice: again after installing undeclared imports). */
  addRecordTimings(timings: RecordTimings): void;
  /** Total and per-stage times, the record stage's detail, and tasks per minute and per core-minute for `accepted` tasks. */
  timings(accepted: number): BuildTimings;
  /** Writes the funnel so far beside the suite and stops the build with `BuildFailedError`. */
  fail(source: FunnelSource, message: string, counts?: FunnelCounts): Promise<never>;
  /** `3 too-small, 1 impure:clock` (one stage) or `2 gate:mutation-score, 1 audit:leak` (several). */
  countsOf(...stages: DropStage[]): string;
  /** Removes the work root when the build made it. */
  dispose(): Promise<void>;
}

/** The snapshot and unit count a funnel report names. */
export interface FunnelSource {
  snapshot: Pick<RepoSnapshot, 'origin' | 'revision'>;
  units: { length: number };
}

/** Starts a build: its work root (a fresh temp folder unless given) and clears what killed builds of the suite left. */
export async function createBuildRun(options: BuildSuiteOptions): Promise<BuildRun> {
  const started = performance.now();
  const seed = options.seed ?? 0;
  // A --package outside the repository fails before anything is made.
  const packageFolder = options.package === undefined ? null : normalizePackageFolder(options.package);
  const { suite, signal } = options;
  const logger = options.logger.child({ component: 'build', suite });
  const stageMs: Record<string, number> = {};
  const ownWorkRoot = options.workRoot === undefined;
  const workRoot = options.workRoot ?? (await mkdtemp(join(tmpdir(), 'codemidas-build-')));
  const drops: Drop[] = [];
  const llmFallbacks: LlmFallback[] = [];
  const llmHooked = options.specWriter !== undefined || options.inputProposer !== undefined || options.assertionReviewer !== undefined;
  const funnelFile = join(options.outDir, `${suite}.funnel.json`);

  const report = (source: FunnelSource, counts: FunnelCounts, tasks: FunnelReport['tasks'], dependencies?: FunnelDependencies): FunnelReport => {
    const sortedDrops = sortDrops(drops);
    return {
      schemaVersion: 1,
      suite,
      source: { repo: repoLabel(source.snapshot.origin), revision: source.snapshot.revision, ...(packageFolder === null ? {} : { package: packageFolder }) },
      seed,
      funnel: { units: source.units.length, candidates: 0, recorded: 0, written: 0, gated: 0, ...counts, drops: sortedDrops },
      dropCounts: countDrops(sortedDrops),
      tasks,
      ...(llmHooked ? { llm: summariseLlmFallbacks(llmFallbacks) } : {}),
      ...(dependencies ? { dependencies } : {}),
    };
  };
  let recordTimings: RecordTimings | undefined;
  const cores = availableParallelism();
  const timings = (accepted: number): BuildTimings => {
    const totalMs = Math.round(performance.now() - started);
    const tasksPerMinute = totalMs > 0 && accepted > 0 ? (accepted * 60_000) / totalMs : 0;
    return { totalMs, stageMs, tasksPerMinute, cores, tasksPerCoreMinute: tasksPerMinute / cores, ...(recordTimings ? { record: recordTimings } : {}) };
  };

  // Leftovers of builds of this suite that were killed outright (their process is gone).
  try {
    for (const r of await reclaimStaleStaging(options.outDir, suite)) {
      logger.warn({ folder: join(options.outDir, r.name), action: r.action }, r.action === 'restored' ? 'put back a suite a killed build had set aside' : 'removed what a killed build left behind');
    }
  } catch (err) {
    logger.warn({ err, outDir: options.outDir }, 'could not clear what a killed build left behind; carrying on');
  }

  return {
    options,
    seed,
    logger,
    signalOption: signal ? { signal } : {},
    workRoot,
    packageFolder,
    funnelFile,
    drops,
    llmFallbacks,
    progress: (event) => options.onProgress?.(event),
    async timed(stage, fn) {
      const t0 = performance.now();
      try {
        return await fn();
      } finally {
        stageMs[stage] = Math.round((stageMs[stage] ?? 0) + performance.now() - t0);
      }
    },
    report,
    addRecordTimings(t) {
      recordTimings = mergeRecordTimings(recordTimings, t);
    },
    timings,
    async fail(source, message, counts = {}) {
      const funnel = report(source, counts, []);
      const times = timings(0);
      await writeFileAtomic(funnelFile, Buffer.from(stableJson({ ...funnel, timings: times })));
      throw new BuildFailedError(`${message}; the funnel is in ${funnelFile}`, funnel, times);
    },
    countsOf(...stages) {
      const counts = countDrops(drops.filter((d) => stages.includes(d.stage)));
      const label = (key: string): string => (stages.length === 1 ? key.slice(key.indexOf(':') + 1) : key);
      return Object.entries(counts).sort((a, b) => b[1] - a[1] || compareStrings(a[0], b[0])).map(([k, n]) => `${n} ${label(k)}`).join(', ') || 'no drops';
    },
    async dispose() {
      if (ownWorkRoot) await rm(workRoot, { recursive: true, force: true });
    },
  };
}
