import { z } from 'zod';
import { taskTestsShape, type TaskTests } from '../../tasks/task-schema.js';
import type { TestRunner } from '../../tasks/test-runner.js';

/** task.json `tests.runner` of JavaScript and TypeScript tasks: recorded cases judged by the Node judge. */
export const NODE_TESTS_RUNNER = 'node';

const nodeTestsSchema = z
  .object({
    ...taskTestsShape,
    runner: z.literal(NODE_TESTS_RUNNER),
    /** The recorded cases under hidden/: the node runner judges nothing else yet. */
    cases: z.string(),
  })
  .strict();

/** task.json `tests` of a task judged by the Node judge. */
export type NodeTests = z.infer<typeof nodeTestsSchema>;

/** The `node` runner, provided by the JavaScript plugin. */
export const nodeTestRunner: TestRunner = Object.freeze({
  name: NODE_TESTS_RUNNER,
  testsSchema: nodeTestsSchema,
  hiddenFiles: () => [],
  // The Node judge resolves a case's module by its workspace path: the unit's layout adds nothing.
  casesOnly: (cases: string, limits: { timeoutMs: number; caseTimeoutMs: number }): TaskTests => ({ runner: NODE_TESTS_RUNNER, cases, ...limits }),
});

/** `tests` read as the node runner's (the loader validated it); throws for a task of another runner. */
export function nodeTestsOf(tests: TaskTests): NodeTests {
  const parsed = nodeTestsSchema.safeParse(tests);
  if (parsed.success) return parsed.data;
  throw new Error(`task.json tests is not the ${NODE_TESTS_RUNNER} runner's (runner "${tests.runner}"): ${parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`);
}
