import { z } from 'zod';
import { taskTestsShape, type TaskTests } from '../../tasks/task-schema.js';
import type { TestRunner } from '../../tasks/test-runner.js';

/** task.json `tests.runner` of Java tasks: recorded cases judged by the Java judge (runtime/judge.py). */
export const JAVA_TESTS_RUNNER = 'java';

const javaTestsSchema = z
  .object({
    ...taskTestsShape,
    runner: z.literal(JAVA_TESTS_RUNNER),
    /** The recorded cases under hidden/: the java runner judges nothing else yet. */
    cases: z.string(),
  })
  .strict();

/** task.json `tests` of a task judged by the Java judge. */
export type JavaTests = z.infer<typeof javaTestsSchema>;

/** The `java` runner, provided by the Java plugin. Each case carries its call; the layout adds nothing. */
export const javaTestRunner: TestRunner = Object.freeze({
  name: JAVA_TESTS_RUNNER,
  testsSchema: javaTestsSchema,
  hiddenFiles: () => [],
  casesOnly: (cases: string, limits: { timeoutMs: number; caseTimeoutMs: number }): TaskTests => ({ runner: JAVA_TESTS_RUNNER, cases, ...limits }),
});

/** `tests` read as the java runner's (the loader validated it); throws for a task of another runner. */
export function javaTestsOf(tests: TaskTests): JavaTests {
  const parsed = javaTestsSchema.safeParse(tests);
  if (parsed.success) return parsed.data;
  throw new Error(`task.json tests is not the ${JAVA_TESTS_RUNNER} runner's (runner "${tests.runner}"): ${parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`);
}
