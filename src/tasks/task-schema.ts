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
  })
  .strict();

export type SuiteFile = z.infer<typeof suiteFileSchema>;
