import { z } from 'zod';
import { taskTestsShape, type TaskTests } from '../../tasks/task-schema.js';
import type { TestRunner } from '../../tasks/test-runner.js';

/** task.json `tests.runner` of Rust tasks: recorded cases judged by the Rust judge (runtime/judge.py). */
export const RUST_TESTS_RUNNER = 'rust';

const rustTestsSchema = z
  .object({
    ...taskTestsShape,
    runner: z.literal(RUST_TESTS_RUNNER),
    /** The recorded cases under hidden/: the rust runner judges nothing else yet. */
    cases: z.string(),
  })
  .strict();

/** task.json `tests` of a task judged by the Rust judge. */
export type RustTests = z.infer<typeof rustTestsSchema>;

/** The `rust` runner, provided by the Rust plugin. Each case names its module file; the layout adds nothing. */
export const rustTestRunner: TestRunner = Object.freeze({
  name: RUST_TESTS_RUNNER,
  testsSchema: rustTestsSchema,
  hiddenFiles: () => [],
  casesOnly: (cases: string, limits: { timeoutMs: number; caseTimeoutMs: number }): TaskTests => ({ runner: RUST_TESTS_RUNNER, cases, ...limits }),
});

/** `tests` read as the rust runner's (the loader validated it); throws for a task of another runner. */
export function rustTestsOf(tests: TaskTests): RustTests {
  const parsed = rustTestsSchema.safeParse(tests);
  if (parsed.success) return parsed.data;
  throw new Error(`task.json tests is not the ${RUST_TESTS_RUNNER} runner's (runner "${tests.runner}"): ${parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`);
}
