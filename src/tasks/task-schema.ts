import { DEPENDENCY_PACKAGE, DEPENDENCY_TOOL } from '../sandbox/runtime-dependencies.js';
import { z } from 'zod';
import { scrubPathProblem } from '../sandbox/scrub-paths.js';

/**
 * `task.json`, version 2. A task folder holds task.json, the task's workspace (the masked codebase,
 * seen by the agent at `workdir`), hidden/ (tests, copied in only at scoring), solution/ (reference
 * files at their paths relative to the workspace) and, from construction, report.json.
 *
 * Version 2 differs from 1 only in `tests`: it names its `runner`, and everything but the common
 * fields below belongs to that runner, whose schema the language plugin providing it owns
 * (`LanguagePlugin.testRunners`, src/tasks/test-runner.ts). Version 1 files are still read: they
 * are upgraded in memory to version 2 with runner `python` (version 1 knew no other).
 */
export const TASK_SCHEMA_VERSION = 2;

/** The runner every version-1 task ran on: its `tests` meant "cases judged by the Python judge, scripts run by pytest". */
export const V1_TESTS_RUNNER = 'python';

/** suite.json's version (unchanged by task.json version 2). */
export const SUITE_SCHEMA_VERSION = 1;

/**
 * The fields of task.json `tests` every runner shares. A runner's schema extends this shape with its
 * own fields and is strict; the generic schema keeps the runner's fields as they are for it.
 */
export const taskTestsShape = {
  /** Which runner judges the task (a `TestRunner.name` some language plugin provides). */
  runner: z.string().regex(/^[a-z][a-z0-9-]*$/, 'expected a runner name in lower case (e.g. "python")'),
  /** Path under hidden/ of the recorded cases, or null when the task has none. */
  cases: z.string().nullable(),
  /** Wall-clock limit of one scoring run. */
  timeoutMs: z.number().int().positive().default(120_000),
  /** Limit of one recorded case. */
  caseTimeoutMs: z.number().int().positive().default(10_000),
};

const taskTestsSchema = z.object(taskTestsShape).loose();

/** task.json `tests` as the generic code sees it: the common fields, the runner's own fields unread. */
export type TaskTests = z.infer<typeof taskTestsSchema>;

const limitsOverride = z
  .object({
    maxSteps: z.number().int().positive(),
    maxWallMs: z.number().int().positive(),
    maxCommandMs: z.number().int().positive(),
  })
  .partial()
  .strict();

/** What `codemidas filter` found for a task: K attempts by a policy and the verdict of the pass-rate band. */
export const rolloutVerdictSchema = z
  .object({
    agent: z.string(),
    model: z.string().nullable(),
    attempts: z.number().int().nonnegative(),
    solved: z.number().int().nonnegative(),
    failed: z.number().int().nonnegative(),
    infra: z.number().int().nonnegative(),
    /** solved / (solved + failed); null when no attempt was scored. */
    passRate: z.number().min(0).max(1).nullable(),
    /** The band, as given (`mixed` or `lo..hi`). */
    band: z.string(),
    verdict: z.enum(['kept', 'retired', 'unscored']),
    reason: z.string(),
    runId: z.string(),
  })
  .strict();

export type RolloutVerdict = z.infer<typeof rolloutVerdictSchema>;

const taskFileV2Schema = z
  .object({
    schemaVersion: z.literal(TASK_SCHEMA_VERSION, { error: `expected ${TASK_SCHEMA_VERSION} (or 1, read as ${TASK_SCHEMA_VERSION})` }),
    /** `<suite>/<name>`; must match the folder. */
    id: z.string().regex(/^[a-z0-9][a-z0-9._-]*\/[a-z0-9][a-z0-9._-]*$/, 'expected "<suite>/<name>" in lower case'),
    title: z.string().min(1),
    /** The language plugin that builds and scores the task (checked against the registry at load). */
    language: z.string().regex(/^[a-z][a-z0-9-]*$/, 'expected a language name in lower case (e.g. "python")'),
    source: z
      .object({
        repo: z.string(),
        revision: z.string(),
        path: z.string(),
        symbol: z.string(),
      })
      .strict(),
    /** The behavioural spec, Markdown. The only part of the package the agent sees besides the workspace. */
    prompt: z.string().min(1),
    runtime: z
      .object({
        image: z.string().min(1),
        /**
         * Absolute paths deleted from the language image for this task: the copies of the library
         * under construction that the image carries (src/sandbox/scrub-paths.ts).
         */
        scrub: z
          .array(z.string().superRefine((path, ctx) => {
            const problem = scrubPathProblem(path);
            if (problem) ctx.addIssue({ code: 'custom', message: problem });
          }))
          .default([]),
        /**
         * Packages installed on the language image for this task: the repository's declared
         * dependencies (src/sandbox/runtime-dependencies.ts). Absent: none.
         */
        dependencies: z
          .object({ tool: z.string().regex(DEPENDENCY_TOOL), packages: z.array(z.string().regex(DEPENDENCY_PACKAGE)) })
          .strict()
          .optional(),
      })
      .strict(),
    workdir: z.string().startsWith('/').default('/workspace'),
    /** How the task is judged: the common fields here, the rest validated by the runner's schema at load. */
    tests: taskTestsSchema,
    /** Workspace-relative paths the agent's changes may not touch (restored at scoring). */
    protectedPaths: z.array(z.string()).default([]),
    limits: limitsOverride.default({}),
    rewardMode: z.enum(['fraction', 'binary']).default('fraction'),
    gates: z.record(z.string(), z.unknown()).nullable().default(null),
    /** Pass rate of a reference policy (0..1), or null when unknown. */
    difficulty: z.number().min(0).max(1).nullable().default(null),
    /** The last `codemidas filter` verdict on this task, or null when it was never filtered. */
    rollouts: rolloutVerdictSchema.nullable().default(null),
  })
  .strict();

/**
 * Version 1 in the version-2 shape: `tests` gains `runner: "python"`. Anything else is left for the
 * version-2 schema to judge, so a faulty version-1 file gets the same messages as before.
 */
function upgradeV1(value: unknown): unknown {
  if (!isRecord(value) || value['schemaVersion'] !== 1) return value;
  const tests = value['tests'];
  return { ...value, schemaVersion: TASK_SCHEMA_VERSION, tests: isRecord(tests) ? { ...tests, runner: V1_TESTS_RUNNER } : tests };
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** task.json of version 2, or of version 1 upgraded to 2. */
export const taskFileSchema = z.preprocess(upgradeV1, taskFileV2Schema);

export type TaskFile = z.infer<typeof taskFileSchema>;

export const suiteFileSchema = z
  .object({
    schemaVersion: z.literal(SUITE_SCHEMA_VERSION),
    name: z.string().regex(/^[a-z0-9][a-z0-9._-]*$/),
    description: z.string().default(''),
    /** Task folder names, in order. */
    tasks: z.array(z.string()),
    /**
     * Task folders `codemidas filter` retired (their rollouts showed no learning signal): kept on
     * disk, not served, attempted again by the next filter run, which may re-admit them.
     */
    retired: z.array(z.string()).default([]),
  })
  .strict();

export type SuiteFile = z.infer<typeof suiteFileSchema>;

/** `overlay.json`'s version. */
export const OVERLAY_SCHEMA_VERSION = 1;

const relativePosixPath = z.string().refine(
  (p) => p !== '' && !p.startsWith('/') && !p.includes('\\') && !p.includes('\0') && p.split('/').every((s) => s !== '' && s !== '.' && s !== '..'),
  'expected a relative POSIX path without "." or ".." segments',
);

/**
 * `overlay.json` beside task.json: the task's workspace is the suite folder `base` minus `deleted`
 * plus the files under the task's `overlay/` (docs/task-format.md, "Stored once").
 */
export const overlayFileSchema = z
  .object({
    schemaVersion: z.literal(OVERLAY_SCHEMA_VERSION),
    /** A folder of the suite (`_base`). */
    base: z.string().regex(/^[A-Za-z0-9_][A-Za-z0-9._-]*$/, 'expected a folder name of the suite'),
    /** Base paths the task's workspace does not have; a folder takes everything under it. Sorted, each once. */
    deleted: z.array(relativePosixPath).default([]),
  })
  .strict();

export type OverlayFile = z.infer<typeof overlayFileSchema>;
