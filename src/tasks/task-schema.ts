import { z } from 'zod';
import { scrubPathProblem } from '../sandbox/scrub-paths.js';

/**
 * `task.json`, version 1. A task folder holds task.json, workspace/ (the masked codebase, seen by
 * the agent at `workdir`), hidden/ (tests, copied in only at scoring), solution/ (reference files at
 * their paths relative to the workspace) and, from construction, report.json.
 *
 * hidden/ layout (Python):
 * - `cases.json` — recorded input/output cases, judged out of process (see docs/task-format.md)
 * - `tests/test_*.py` — test scripts run by the hardened pytest runner
 */
export const TASK_SCHEMA_VERSION = 1;

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

export const taskFileSchema = z
  .object({
    schemaVersion: z.literal(TASK_SCHEMA_VERSION),
    /** `<suite>/<name>`; must match the folder. */
    id: z.string().regex(/^[a-z0-9][a-z0-9._-]*\/[a-z0-9][a-z0-9._-]*$/, 'expected "<suite>/<name>" in lower case'),
    title: z.string().min(1),
    language: z.enum(['python', 'javascript', 'typescript']),
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
      })
      .strict(),
    workdir: z.string().startsWith('/').default('/workspace'),
    tests: z
      .object({
        /** Path under hidden/ of the recorded cases, or null when the task has none. */
        cases: z.string().nullable(),
        /** Paths under hidden/ of pytest test scripts. */
        scripts: z.array(z.string()),
        /** Wall-clock limit of one scoring run. */
        timeoutMs: z.number().int().positive().default(120_000),
        /** Limit of one recorded case. */
        caseTimeoutMs: z.number().int().positive().default(10_000),
      })
      .strict()
      .refine((t) => t.cases !== null || t.scripts.length > 0, 'a task needs cases or scripts'),
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

export type TaskFile = z.infer<typeof taskFileSchema>;

export const suiteFileSchema = z
  .object({
    schemaVersion: z.literal(TASK_SCHEMA_VERSION),
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
