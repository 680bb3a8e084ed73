import { z } from 'zod';
import { taskTestsShape, type TaskTests } from '../../tasks/task-schema.js';
import type { TestRunner } from '../../tasks/test-runner.js';
import { importRootOf } from './parse-module-names.js';

/** task.json `tests.runner` of Python tasks: cases judged by the Python judge, scripts run by hardened pytest. */
export const PYTHON_TESTS_RUNNER = 'python';

/** Why `path` is not a workspace-relative folder in POSIX form (`src`, `packages/beta`), or null when it is one. */
function importRootProblem(path: string): string | null {
  if (path.startsWith('/')) return 'expected a folder relative to the workspace, not an absolute path';
  if (/[\\\0]/.test(path)) return 'expected a POSIX path (no backslash or NUL)';
  if (path.split('/').some((segment) => segment === '' || segment === '.' || segment === '..')) return 'expected a path without empty, "." or ".." segments';
  return null;
}

const importRootSchema = z.string().superRefine((path, ctx) => {
  const problem = importRootProblem(path);
  if (problem !== null) ctx.addIssue({ code: 'custom', message: problem });
});

const pythonTestsSchema = z
  .object({
    ...taskTestsShape,
    runner: z.literal(PYTHON_TESTS_RUNNER),
    /** Paths under hidden/ of pytest test scripts. */
    scripts: z.array(z.string()),
    /**
     * Workspace-relative folders the task's modules are imported from besides the workspace root
     * (`["src"]` for a src layout, `["packages/beta"]` for a package of a monorepo); appended to
     * `sys.path` after the workspace. Absent: the workspace root only.
     */
    importRoots: z.array(importRootSchema).min(1).optional(),
  })
  .strict()
  .refine((t) => t.cases !== null || t.scripts.length > 0, 'a task needs cases or scripts');

/** task.json `tests` of a task judged by the Python judge. */
export type PythonTests = z.infer<typeof pythonTestsSchema>;

/** The `python` runner, provided by the Python plugin. */
export const pythonTestRunner: TestRunner = Object.freeze({
  name: PYTHON_TESTS_RUNNER,
  testsSchema: pythonTestsSchema,
  hiddenFiles: (tests: TaskTests) => pythonTestsOf(tests).scripts.map((path, i) => ({ field: `scripts.${i}`, path })),
  casesOnly: (cases: string, limits: { timeoutMs: number; caseTimeoutMs: number }, unit: { file: string; module: string }): TaskTests => {
    const root = importRootOf(unit);
    // A module imported from the workspace root leaves the key out, so such tasks read as before.
    return { runner: PYTHON_TESTS_RUNNER, cases, scripts: [], ...limits, ...(root === '' ? {} : { importRoots: [root] }) };
  },
});

/**
 * `tests` read as the Python runner's: the loader has validated it already, so this only narrows
 * the type; it throws for a task of another runner (a task handed to the wrong scorer).
 */
export function pythonTestsOf(tests: TaskTests): PythonTests {
  const parsed = pythonTestsSchema.safeParse(tests);
  if (parsed.success) return parsed.data;
  throw new Error(`task.json tests is not the ${PYTHON_TESTS_RUNNER} runner's (runner "${tests.runner}"): ${parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`);
}
