import type { RewardMode } from '../write/render-task-file.js';
import type { TaskShape } from '../types.js';
import type { RuntimeDependencies } from '../../sandbox/runtime-dependencies.js';
import type { Dependencies, MissingDependency } from './declared-dependencies.js';
import type { Logger } from '../../logging.js';
import type { LanguagePlugin } from '../../languages/language.js';
import type { ParseProblem } from '../../languages/language-adapter.js';
import type { SandboxProvider } from '../../sandbox/types.js';
import type { Scorer } from '../../scoring/types.js';
import type { ImageFileReader } from '../audit/image-files.js';
import type { GateOptions } from '../gate/run-gates.js';
import type { BuildTimings, FunnelReport, RecordTimings } from '../report/funnel-report.js';
import type { Candidate, Drop, DropStage, Recording, RepoSnapshot, Unit } from '../types.js';
import type { AssertionReviewer, InputProposal, InputProposer, SpecWriter } from '../write/spec-writer.js';

/** The options and results of `codemidas build` (`buildSuite`), and the error of a build left with nothing. */

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
    /** The repository's language: its harness and image. */
    language: LanguagePlugin;
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
    /** The repository's dependencies, installed on the record image. */
    dependencies?: RuntimeDependencies;
    /** The task shapes the build proposes (`feature`: the record stage's feature pass records them). */
    shapes?: readonly TaskShape[];
    /** The record run's drops, before mutation testing starts (recordCandidates' `onRecordDrops`). */
    onRecordDrops?: (drops: readonly Drop[]) => void;
    /** Each recording once final, before the stage ends (recordCandidates' `onFinal`); a stage may call it for none. */
    onFinal?: (recording: Recording) => void;
  }): Promise<{ recordings: Recording[]; drops: Drop[]; missingDependencies?: string[]; timings?: RecordTimings }>;
}

export interface BuildSuiteOptions {
  /** A repository path, a source tarball's path or a git URL. */
  source: string;
  /** Suite name (folder under `outDir`). */
  suite: string;
  /** Folder of suites, e.g. `environments/`. */
  outDir: string;
  /**
   * One package of a monorepo, as a folder relative to the repository root (`packages/core`): the
   * snapshot is still the whole repository, but only units of files under it become candidates, and
   * its manifests are read with the root's. Default: the whole repository.
   */
  package?: string;
  /** At most this many tasks in the suite. Default: no limit. */
  maxTasks?: number;
  /** How the suite's tasks are rewarded. Default `binary` (`DEFAULT_BUILD_REWARD_MODE`). */
  rewardMode?: RewardMode;
  /** The shapes of task proposed (`--task-shapes`). Default `DEFAULT_TASK_SHAPES`: single functions and features. */
  taskShapes?: readonly TaskShape[];
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

/** What exploring the repository hands on to recording: ingest, analyze and select done. */
export interface Explored {
  snapshot: RepoSnapshot;
  /** The snapshot's files by repository-relative path. */
  files: ReadonlyMap<string, Buffer>;
  /** Every unit found, sorted by id (a method's class, siblings the leak audit may co-mask). */
  units: Unit[];
  unitsById: ReadonlyMap<string, Unit>;
  /** Every candidate, sorted by unit id. */
  candidates: Candidate[];
  /** The candidates recorded: all of them, or the first `maxTasks * 2 + 2`. */
  toRecord: Candidate[];
  /**
   * The task folder name of each candidate recorded, whether or not it is recorded (so a task can be
   * written as soon as its recording is final, before the others are).
   */
  names: ReadonlyMap<string, string>;
}

/** What recording hands on to the task stages. */
export interface Recorded {
  /** One per recorded candidate whose unit is known, sorted by unit id. */
  recordings: Recording[];
  /** The repository's declared dependencies, what the tasks' image installs of them, and what it lacks. */
  dependencies: Dependencies & { missing: MissingDependency[] };
}

/** The funnel counts past `units`, as far as the build got. */
export type FunnelCounts = Partial<Omit<FunnelReport['funnel'], 'drops' | 'units'>>;

/** Drops a stage adds to the funnel. */
export type StageDrops = Drop[];
