import { z } from 'zod';
import { taskTestsShape, type TaskTests } from '../../tasks/task-schema.js';
import type { TestRunner } from '../../tasks/test-runner.js';

/** task.json `tests.runner` of Go tasks: recorded cases judged by the Go judge (runtime/judge.py). */
export const GO_TESTS_RUNNER = 'go';

const goTestsSchema = z
  .object({
    ...taskTestsShape,
    runner: z.literal(GO_TESTS_RUNNER),
    /** The recorded cases under hidden/: the go runner judges nothing else yet. */
    cases: z.string(),
  })
  .strict();

/** task.json `tests` of a task judged by the Go judge. */
export type GoTests = z.infer<typeof goTestsSchema>;

/** The `go` runner, provided by the Go plugin. Each case names its package folder; the layout adds nothing. */
export const goTestRunner: TestRunner = Object.freeze({
  name: GO_TESTS_RUNNER,
  testsSchema: goTestsSchema,
  hiddenFiles: () => [],
  casesOnly: (cases: string, limits: { timeoutMs: number; caseTimeoutMs: number }): TaskTests => ({ runner: GO_TESTS_RUNNER, cases, ...limits }),
});

/** `tests` read as the go runner's (the loader validated it); throws for a task of another runner. */
export function goTestsOf(tests: TaskTests): GoTests {
  const parsed = goTestsSchema.safeParse(tests);
  if (parsed.success) return parsed.data;
  throw new Error(`task.json tests is not the ${GO_TESTS_RUNNER} runner's (runner "${tests.runner}"): ${parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`);
}
