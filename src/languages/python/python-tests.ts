import { z } from 'zod';
import { taskTestsShape, type TaskTests } from '../../tasks/task-schema.js';
import type { TestRunner } from '../../tasks/test-runner.js';

/** task.json `tests.runner` of Python tasks: cases judged by the Python judge, scripts run by hardened pytest. */
export const PYTHON_TESTS_RUNNER = 'python';

const pythonTestsSchema = z
  .object({
    ...taskTestsShape,
    runner: z.literal(PYTHON_TESTS_RUNNER),
    /** Paths under hidden/ of pytest test scripts. */
    scripts: z.array(z.string()),
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
  casesOnly: (cases: string, limits: { timeoutMs: number; caseTimeoutMs: number }): TaskTests => ({ runner: PYTHON_TESTS_RUNNER, cases, scripts: [], ...limits }),
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
