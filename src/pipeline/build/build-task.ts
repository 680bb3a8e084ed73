import type { RuntimeDependencies } from '../../sandbox/runtime-dependencies.js';
import { rm, rmdir } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { calledUnit } from '../../languages/called-unit.js';
import { MaskBodyError } from '../../languages/language-adapter.js';
import type { ExamplesCheck } from '../../languages/language.js';
import type { Scorer } from '../../scoring/types.js';
import { taskFileSchema } from '../../tasks/task-schema.js';
import type { LoadedTask } from '../../tasks/types.js';
import type { LeakAuditor, LeakAuditResult } from '../audit/audit-leaks.js';
import { coMaskSiblings } from '../audit/co-mask-siblings.js';
import { memoriserScore, type MemoriserResult } from '../gate/memoriser.js';
import { runGates, type GateReport } from '../gate/run-gates.js';
import { maskWorkspace, type MaskedWorkspace } from '../mask/mask-workspace.js';
import { stagedWorkspace, writeTaskPackage } from '../package/write-task-package.js';
import type { AcceptedTask } from '../report/funnel-report.js';
import type { DropStage, Recording, TaskShape, Unit } from '../types.js';
import { behaviourClasses } from '../write/behaviour-classes.js';
import { bodyLineCount, withFeatureNote } from '../write/feature-note.js';
import { withoutExamples } from '../write/prompt-examples.js';
import { DEFAULT_BUILD_REWARD_MODE, renderTaskFile, type GatesSummary } from '../write/render-task-file.js';
import { noopAssertionReviewer, noopSpecWriter } from '../write/spec-writer.js';
import { taskNameOf, WriteError, writeTask, type WrittenTask } from '../write/write-task.js';
import type { BuildRun } from './build-run.js';
import type { Explored } from './build-types.js';
import { referenceOf } from './record-behaviour.js';

/** What every task of a build shares once the runtime image is ready. */
export interface TaskStageContext {
  run: BuildRun;
  explored: Explored;
  /** The staging folder of the suite (tasks are written under it). */
  stagingDir: string;
  scorer: Scorer;
  auditor: LeakAuditor;
  /** The image the tasks run on: the language image, or its derivative without copies of the library. */
  image: string;
  /** The copies of the library deleted from the language image (task.json `runtime.scrub`). */
  scrub: string[];
  /** The repository's dependencies installed on the language image (task.json `runtime.dependencies`). */
  dependencies: RuntimeDependencies | undefined;
  /** The library as the prompt names it. */
  libraryName: string;
}

/**
 * The unit a recording is of: its own, or for a feature or class recording (`<entry>#feature`,
 * `<module>:<Class>#class`) its entry's unit under the recording's id.
 */
export function unitOfRecording(explored: Pick<Explored, 'unitsById'>, recording: Pick<Recording, 'unitId' | 'feature'>): Unit {
  const entry = recording.feature === undefined ? undefined : explored.unitsById.get(recording.feature.entry);
  return entry ? { ...entry, id: recording.unitId } : (explored.unitsById.get(recording.unitId) as Unit);
}

/** How one recorded unit ended: accepted, or dropped at a stage (`written`: its package reached the gates). */
export interface TaskOutcome {
  unit: Unit;
  name: string;
  accepted: AcceptedTask | null;
  drop: { unitId: string; stage: DropStage; code: string; reason: string } | null;
  written: boolean;
}

/**
 * write → mask → audit → gate for one recording, the package written into the staging folder (and
 * removed again when a gate fails). Never throws for the unit's own faults: they are its drop.
 */
export async function buildTask(ctx: TaskStageContext, recording: Recording): Promise<TaskOutcome> {
  const { run, explored } = ctx;
  const { options } = run;
  const { language } = options;
  const { snapshot, files, units } = explored;
  // a feature (record-candidates.ts, the feature pass): its entry's unit under the feature's id, and the helpers removed with it
  const feature = recording.feature;
  const own = unitOfRecording(explored, recording);
  const helpers = (feature?.helpers ?? []).map((id) => explored.unitsById.get(id)).filter((u): u is Unit => u !== undefined);
  // recorded through an entry that reaches it (record-candidates.ts, the entry pass): its cases call the entry
  const unit: Unit = recording.via ? { ...own, via: recording.via } : own;
  const shape: TaskShape = feature?.shape ?? (feature ? 'feature' : 'function');
  const name = shape === 'class' ? shapedTaskName(explored.names, `${taskNameOf({ qualname: unit.qualname.slice(0, unit.qualname.lastIndexOf('.')), module: unit.module })}-class`)
    : shape === 'module' ? shapedTaskName(explored.names, `${taskNameOf({ qualname: unit.module.split('.').at(-1) ?? unit.module, module: unit.module })}-module`)
    : feature ? shapedTaskName(explored.names, `${explored.names.get(feature.entry) ?? feature.entry}-feature`)
    : (explored.names.get(unit.id) ?? unit.id);
  const suite = options.suite;
  const drop = (stage: DropStage, code: string, reason: string): TaskOutcome => ({ unit, name, accepted: null, drop: { unitId: unit.id, stage, code, reason }, written: stage === 'gate' });
  for (const u of [unit, ...helpers]) {
    const unbuildable = language.unbuildable(u);
    if (unbuildable) return drop('write', unbuildable.code, u === unit ? unbuildable.reason : `${u.qualname}, removed with it: ${unbuildable.reason}`);
  }

  let written: WrittenTask;
  const reference = referenceOf(explored, unit);
  try {
    written = await run.timed('write', () =>
      writeTask({
        suite,
        name,
        unit,
        recording,
        snapshot,
        libraryName: ctx.libraryName,
        ...(shape === 'class' || shape === 'module' ? { methods: [unit, ...helpers], shape } : {}),
        writer: language.writer,
        specWriter: options.specWriter ?? noopSpecWriter,
        assertionReviewer: options.assertionReviewer ?? noopAssertionReviewer,
        ...(reference ? { reference } : {}),
        onLlmFallback: (hook, reason) => run.llmFallbacks.push({ hook, unitId: unit.id, reason }),
        ...run.signalOption,
      }),
    );
  } catch (err) {
    if (err instanceof WriteError) return drop('write', err.code, err.message);
    throw err;
  }

  const mask = (coMask: readonly Unit[] = []): Promise<MaskedWorkspace> => {
    const alsoMask = coMask.filter((u) => !helpers.some((h) => h.id === u.id));
    return run.timed('mask', () =>
      maskWorkspace({
        unit,
        files,
        units,
        maskBody: language.maskBody,
        repoTests: language.repoTests,
        workspaceRules: language.workspace,
        ...(alsoMask.length > 0 ? { alsoMask } : {}),
        ...(helpers.length > 0 ? { removeWith: helpers } : {}),
      }),
    );
  };
  let masked: MaskedWorkspace;
  try {
    masked = await mask();
  } catch (err) {
    if (err instanceof MaskBodyError) return drop('mask', err.code, err.message);
    return drop('mask', 'mask-failed', err instanceof Error ? err.message : String(err));
  }
  const audit = (m: MaskedWorkspace): Promise<LeakAuditResult> =>
    run.timed('audit', () => ctx.auditor.audit({ removedBody: m.removedBody, workspace: m.workspace, image: ctx.image, scrub: ctx.scrub, ...run.signalOption }));
  let leak = await audit(masked);
  let coMasked: Unit[] = [];
  if (!leak.clean) {
    ({ masked, leak, coMasked } = await coMaskSiblings({ unit, units, files, masked, leak, mask, audit, tokenize: language.leaks.tokenize }));
  }
  const leakDrop = (found: LeakAuditResult, whose: string): TaskOutcome => {
    const first = found.hits[0];
    return drop('audit', 'leak', `runs of ${found.runTokens} body tokens covering ${Math.round((first?.coverage ?? 0) * 100)}% of ${whose} found in ${first?.where} file ${first?.path}:${first?.line}${found.hits.length > 1 ? ` (+${found.hits.length - 1} more files)` : ''}`);
  };
  if (!leak.clean) return leakDrop(leak, 'the body');
  // a feature's every removed body is audited
  for (const helper of helpers) {
    const removedBody = referenceOf(explored, helper)?.body ?? '';
    const found = await run.timed('audit', () => ctx.auditor.audit({ removedBody, workspace: masked.workspace, image: ctx.image, scrub: ctx.scrub, ...run.signalOption }));
    if (!found.clean) return leakDrop(found, `the body of ${helper.qualname}`);
  }

  const taskDir = join(ctx.stagingDir, name);
  const noted = language.writer.withCoMaskedNote(written.prompt, coMasked.filter((u) => !helpers.some((h) => h.id === u.id)));
  // a class or module task's prompt names its methods or functions itself
  const drafted = shape === 'feature' ? withFeatureNote(noted, unit, helpers) : noted;
  const taskFileWith = (gates: GatesSummary | null, prompt: string): Record<string, unknown> =>
    renderTaskFile({ suite, language, name, unit, snapshot, scrub: ctx.scrub, dependencies: ctx.dependencies, title: written.title, prompt, gates, ...(options.rewardMode ? { rewardMode: options.rewardMode } : {}) });
  const taskFile = taskFileWith(null, drafted);
  const parsedTaskFile = taskFileSchema.parse(taskFile);
  const { tests } = parsedTaskFile;
  // the prompt's examples, run on the reference with the gates (the check's files only while they run)
  const check = language.writer.examplesCheck?.({ taskId: `${suite}/${name}`, prompt: drafted, unit, tests }) ?? null;
  await writeTaskPackage(taskDir, taskFile, check ? { hidden: new Map([...written.hidden, ...check.files]) } : written, masked, null);
  const task: LoadedTask = {
    id: `${suite}/${name}`,
    suite,
    name,
    dir: taskDir,
    workspace: stagedWorkspace(taskDir),
    hiddenDir: join(taskDir, 'hidden'),
    solutionDir: join(taskDir, 'solution'),
    file: parsedTaskFile,
  };
  const gates: GateReport = await run.timed('gate', () =>
    runGates({
      task,
      solution: masked.solution,
      mutation: recording.mutation,
      scorer: ctx.scorer,
      logger: run.logger,
      ...(options.gates ? { options: options.gates } : {}),
      ...(check ? { examplesTask: { ...task, file: { ...task.file, tests: check.tests } } } : {}),
      ...run.signalOption,
    }),
  );
  if (!gates.passed || gates.failure) {
    await rm(taskDir, { recursive: true, force: true });
    return drop('gate', gates.failure?.code ?? 'gate-failed', gates.failure?.reason ?? 'a gate failed');
  }
  if (check) await removeCheckFiles(join(taskDir, 'hidden'), check);
  const examples = check ? examplesOutcome(check, gates.examples) : null;
  if (examples?.drop) {
    await rm(taskDir, { recursive: true, force: true });
    return drop('gate', 'examples-fail', examples.drop);
  }
  const prompt = check && examples ? withoutExamples(drafted, check.examples.filter((e) => examples.failed.includes(e.id))) : drafted;
  const removedLines = [unit, ...helpers].reduce((n, u) => n + bodyLineCount(u), 0);
  const picked = language.writer.pickExamples(written.cases);
  // the behaviour classes the examples that hold show: the prompt's own examples are the picked cases, in order
  const ownIds = check?.examples.filter((e) => e.own).map((e) => e.id) ?? [];
  // (a prompt whose examples are not the picked ones, an LLM rewrite's, counts as showing them only when none failed)
  const failed = examples?.failed ?? [];
  const held = ownIds.length === picked.length ? picked.filter((_, k) => !failed.includes(ownIds[k] as string)) : failed.length === 0 ? picked : [];
  const classes = behaviourClasses(written.cases, held);
  // every behaviour the hidden tests check is shown by an example that holds (where the language's
  // examples are checked): an undocumented unit's examples are all its spec
  const documented = Boolean(unit.docstring?.trim()) || (unit.via !== undefined && Boolean(calledUnit(unit).docstring?.trim()));
  if (language.writer.examplesCheck !== undefined && classes.shown < classes.total) {
    await rm(taskDir, { recursive: true, force: true });
    return drop('gate', 'classes-unshown', `the examples that hold show ${classes.shown} of the ${classes.total} behaviours the hidden tests check${documented ? '' : ' (and the unit has no docstring)'}`);
  }
  // the memoriser control: what the prompt's examples alone would score
  const memoriser = memoriserScore(written.cases, picked, options.rewardMode ?? DEFAULT_BUILD_REWARD_MODE);
  if (memoriser.passed === memoriser.total) {
    await rm(taskDir, { recursive: true, force: true });
    return drop('gate', 'memoriser-passes', `a policy answering only the prompt's examples passes all ${memoriser.total} hidden cases`);
  }
  await writeTaskPackage(taskDir, taskFileWith(gatesSummary(written, gates, leak, memoriser), prompt), written, masked, {
    schemaVersion: 1,
    task: `${suite}/${name}`,
    unit: unit.id,
    ...(unit.via ? { via: unit.via.id } : {}),
    cases: { total: written.cases.length, sources: recording.sources, rejected: recording.rejected, ...(written.reviewDropped > 0 ? { droppedByReview: written.reviewDropped } : {}) },
    gates: { ...gates, ...(gates.examples ? { examples: { passed: gates.examples.passed, notPassed: gates.examples.notPassed } } : {}), leakAudit: leak, memoriser },
    ...(examples ? { examples: { shown: examples.shown, failedOnReference: examples.failed, kept: examples.shown - examples.failed.length } } : {}),
    classes,
    spec: documented ? 'docstring' : 'examples',
    shape,
    removed: [unit, ...helpers].map((u) => ({ symbol: `${u.module}.${u.qualname}`, file: u.file, bodyLines: [u.bodyStartLine, u.bodyEndLine] })),
    removedLines,
    mask: {
      removedTests: masked.removedTests,
      scrubbed: masked.scrubbed,
      ...(ctx.scrub.length > 0 ? { imageScrubbed: ctx.scrub } : {}),
      bodyLines: [unit.bodyStartLine, unit.bodyEndLine],
      ...(masked.coMasked.length > 0 ? { coMasked: masked.coMasked } : {}),
    },
  });
  return { unit, name, written: true, drop: null, accepted: { name, unitId: unit.id, cases: written.cases.length, mutationScore: recording.mutation.score, shape, removedLines, ...(feature ? { feature: feature.entry, helpers: feature.helpers } : {}), ...(unit.via ? { via: unit.via.id } : {}) } };
}

/** A feature, class or module task's folder name (`<entry>-feature`, `<class>-class`, `<module>-module`), numbered on the rare clash with another task's name. */
function shapedTaskName(names: ReadonlyMap<string, string>, base: string): string {
  const taken = new Set(names.values());
  let name = base;
  for (let k = 2; taken.has(name); k += 1) name = `${base}-${k}`;
  return name;
}

/** The examples check's files under `hiddenDir`, and the folders they leave empty. */
async function removeCheckFiles(hiddenDir: string, check: ExamplesCheck): Promise<void> {
  for (const path of check.files.keys()) {
    await rm(join(hiddenDir, path), { force: true });
    for (let dir = dirname(path); dir !== '.' && dir !== ''; dir = dirname(dir)) {
      // a folder that still holds files stays (ENOTEMPTY)
      if (!(await rmdir(join(hiddenDir, dir)).then(() => true, () => false))) break;
    }
  }
}

/**
 * Which of the prompt's examples failed on the reference (every example the run did not report
 * passed: one it never reached failed too), and the drop when none of the prompt's own examples
 * held (a prompt whose every example is wrong teaches nothing by example).
 */
function examplesOutcome(check: ExamplesCheck, run: GateReport['examples']): { shown: number; failed: string[]; drop: string | null } {
  const held = new Set((run?.passed ?? []).map((name) => check.exampleOf(name)));
  const failed = check.examples.filter((e) => !held.has(e.id)).map((e) => e.id);
  const own = check.examples.filter((e) => e.own);
  const drop = own.length > 0 && own.every((e) => failed.includes(e.id))
    ? `none of the prompt's ${own.length} examples holds on the reference (${run?.firstFailure?.replace(/\s+/g, ' ').slice(0, 400) ?? 'the run of the examples reported no test'})`
    : null;
  return { shown: check.examples.length, failed, drop };
}

function gatesSummary(written: WrittenTask, gates: GateReport, leak: LeakAuditResult, memoriser: MemoriserResult): GatesSummary {
  const ref = gates.reference?.runs ?? [];
  const masked = gates.masked?.runs ?? [];
  return {
    cases: written.cases.length,
    referencePasses: `${ref.filter((r) => r.reward === 1).length}/${ref.length}`,
    maskedFails: `${masked.filter((r) => r.reward < 1).length}/${masked.length}`,
    mutationScore: Math.round(gates.mutation.score * 1000) / 1000,
    mutantsKilled: `${gates.mutation.killed}/${gates.mutation.total}`,
    leakAudit: leak.clean ? 'clean' : 'leak',
    memoriserPasses: `${memoriser.passed}/${memoriser.total}`,
  };
}
