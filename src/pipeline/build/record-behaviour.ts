import { referenceCodeOf } from '../llm/reference-code.js';
import type { RuntimeDependencies } from '../../sandbox/runtime-dependencies.js';
import type { Candidate, Recording, Unit } from '../types.js';
import { TASK_SHAPES } from '../../languages/construction-types.js';
import { noopInputProposer, type InputProposal, type ReferenceCode } from '../write/spec-writer.js';
import { compareStrings } from '../write/stable-json.js';
import type { BuildRun } from './build-run.js';
import type { Explored, PipelineStages, Recorded } from './build-types.js';

type RecordStageResult = Awaited<ReturnType<PipelineStages['record']>>;
import { blameMissingDependencies, declaredDependencies, missingDependencies, undeclaredDependencies, withUndeclared, type Dependencies } from './declared-dependencies.js';

/** The unit's code as the snapshot has it (for the LLM hooks), or undefined when its file is not there. */
export function referenceOf(explored: Pick<Explored, 'files'>, unit: Unit): ReferenceCode | undefined {
  const text = explored.files.get(unit.file);
  return text === undefined ? undefined : referenceCodeOf(unit, text.toString('utf8'));
}

/** Told of recordings before the record stage ends (the task stages gate them while the rest are recorded). */
export interface EarlyRecordings {
  /**
   * A recording no later step changes, with what every task's image installs: called only once the
   * record run found no undeclared import (a second run would change that image).
   */
  final(recording: Recording, dependencies: RuntimeDependencies | undefined): void;
}

/**
 * record: the candidates' behaviour, by running the original code with the language's harness (the
 * `InputProposer`'s inputs, when one is given, recorded in the same run as every other input).
 * Recordings final before the stage ends go to `early` as they come. A build with nothing recorded
 * stops here (`BuildFailedError`).
 */
export async function recordBehaviour(run: BuildRun, explored: Explored, early?: EarlyRecordings): Promise<Recorded> {
  const { options } = run;
  const { snapshot, units, unitsById, toRecord } = explored;
  const proposals = await proposeInputs(run, explored);
  const { recorded, dependencies } = await recordInstalling(run, explored, recorderOf(run, explored, proposals), early);
  const missing = missingDependencies(dependencies, recorded.missingDependencies ?? []);
  run.drops.push(...blameMissingDependencies(recorded.drops, options.language.dependencies, dependencies, missing));
  // a feature's recording is known by its entry's unit
  const recordings = [...recorded.recordings].filter((r) => unitsById.has(r.feature?.entry ?? r.unitId)).sort((a, b) => compareStrings(a.unitId, b.unitId));
  if (recordings.length === 0) {
    await run.fail({ snapshot, units }, `none of the ${toRecord.length} candidates of ${options.source} could be recorded (${run.countsOf('record')})`, { candidates: explored.candidates.length });
  }
  return { recordings, dependencies: { ...dependencies, missing } };
}

/** The record stage's hooks for recordings handed on before it ends. */
type StageHooks = Pick<Parameters<PipelineStages['record']>[0], 'onRecordDrops' | 'onFinal'>;

/** Runs the record stage on some candidates, on the image with some dependencies installed. */
type RecordWith = (dependencies: Dependencies, candidates: Candidate[], hooks?: StageHooks) => Promise<RecordStageResult>;

function recorderOf(run: BuildRun, explored: Explored, proposals: ReadonlyMap<string, InputProposal[]>): RecordWith {
  const { options } = run;
  return async (dependencies, candidates, hooks = {}) => {
    const recorded = await run.timed('record', () =>
      options.stages.record({
        provider: options.provider,
        language: options.language,
        snapshot: explored.snapshot,
        candidates,
        seed: run.seed,
        logger: run.logger,
        units: explored.units,
        shapes: options.taskShapes ?? TASK_SHAPES,
        ...(proposals.size > 0 ? { proposals } : {}),
        ...(dependencies.runtime ? { dependencies: dependencies.runtime } : {}),
        onProgress: (e) => {
          const message = [e.phase, e.message].filter(Boolean).join(': ');
          run.progress({ stage: 'record', done: e.done ?? 0, total: e.total ?? candidates.length, ...(e.unitId ? { unitId: e.unitId } : {}), ...(message ? { message } : {}) });
        },
        ...hooks,
        ...run.signalOption,
      }),
    );
    if (recorded.timings) run.addRecordTimings(recorded.timings);
    return recorded;
  };
}

/**
 * Records every candidate on the image with the repository's declared dependencies; then, when the
 * code imports what no manifest declares (Debian's python3-isodate imports six, its metadata lists
 * nothing), installs the packages the import errors name too and records the units that failed on
 * them again. Recordings go to `early` as they become final only when the record run's drops name
 * no undeclared import (its mutation testing still running): the tasks' image is then settled.
 */
async function recordInstalling(run: BuildRun, explored: Explored, recordWith: RecordWith, early?: EarlyRecordings): Promise<{ recorded: RecordStageResult; dependencies: Dependencies }> {
  const { toRecord, unitsById } = explored;
  let dependencies = await declaredDependencies(run, explored);
  run.progress({ stage: 'record', done: 0, total: toRecord.length });
  const settled = dependencies;
  let handOn = false;
  const hooks: StageHooks = early
    ? {
        onRecordDrops: (drops) => {
          handOn = undeclaredDependencies(drops, run.options.language.dependencies, settled, explored.files).found.length === 0;
        },
        onFinal: (recording) => {
          if (handOn && unitsById.has(recording.feature?.entry ?? recording.unitId)) early.final(recording, settled.runtime);
        },
      }
    : {};
  const recorded = await recordWith(dependencies, toRecord, hooks);
  const undeclared = undeclaredDependencies(recorded.drops, run.options.language.dependencies, dependencies, explored.files);
  if (undeclared.found.length === 0) return { recorded, dependencies };
  dependencies = await withUndeclared(run, dependencies, undeclared.found);
  const retry = toRecord.filter((c) => undeclared.unitIds.has(c.unit.id));
  run.progress({ stage: 'record', done: 0, total: retry.length, message: `recording ${retry.length} candidates again with what the code imports undeclared: ${undeclared.found.map((d) => d.name).join(', ')}` });
  const again = await recordWith(dependencies, retry);
  return {
    dependencies,
    recorded: {
      recordings: [...recorded.recordings, ...again.recordings],
      drops: [...recorded.drops.filter((d) => !undeclared.unitIds.has(d.unitId)), ...again.drops],
      missingDependencies: again.missingDependencies ?? [],
    },
  };
}

/**
 * The `InputProposer`'s inputs per unit id, asked before recording so they are run on the original
 * code in the same record run as every other input (there are no recorded cases to show the model
 * yet). Empty without a proposer.
 */
async function proposeInputs(run: BuildRun, explored: Explored): Promise<Map<string, InputProposal[]>> {
  const proposals = new Map<string, InputProposal[]>();
  const proposer = run.options.inputProposer;
  if (proposer === undefined || proposer === noopInputProposer) return proposals;
  const { toRecord } = explored;
  const concurrency = Math.max(1, run.options.concurrency ?? 2);
  await run.timed('propose', async () => {
    for (let i = 0; i < toRecord.length; i += concurrency) {
      run.options.signal?.throwIfAborted();
      await Promise.all(
        toRecord.slice(i, i + concurrency).map(async ({ unit }) => {
          const reference = referenceOf(explored, unit);
          const proposed = await proposer.propose({
            unit,
            existing: [],
            seed: run.seed,
            ...(reference ? { reference } : {}),
            onFallback: (reason) => run.llmFallbacks.push({ hook: 'input-proposer', unitId: unit.id, reason }),
            ...run.signalOption,
          });
          if (proposed.length > 0) proposals.set(unit.id, proposed);
        }),
      );
      run.progress({ stage: 'record', done: 0, total: toRecord.length, message: `llm proposals for ${Math.min(i + concurrency, toRecord.length)}/${toRecord.length} candidates` });
    }
  });
  return proposals;
}
