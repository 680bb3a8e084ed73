import type { Logger } from '../../logging.js';
import type { SandboxProvider } from '../../sandbox/types.js';
import { createSandboxScorer, type JudgeCommand, type SandboxScorerLimits } from '../../scoring/sandbox-scorer.js';
import type { Scorer } from '../../scoring/types.js';
import type { LoadedTask } from '../../tasks/types.js';
import { javaTestsOf } from './java-tests.js';

/** Where the Java image puts `runtime/` (sandbox-images/java/sources.txt). */
export const JAVA_JUDGE_PATH_IN_SANDBOX = '/opt/codemidas/java/judge.py';

/**
 * The Java judge (`runtime/judge.py`): the hidden cases' inputs compiled by javac into a driver in
 * each target's package with the workspace's sources, and run with java, both as the agent user; the
 * expectations stay in the judge.
 */
export const javaJudge: JudgeCommand = Object.freeze({
  argv: Object.freeze(['python3', JAVA_JUDGE_PATH_IN_SANDBOX]),
  config: (task: LoadedTask) => {
    const tests = javaTestsOf(task.file.tests);
    return { cases: tests.cases, caseTimeoutMs: tests.caseTimeoutMs };
  },
});

/** The scorer of Java tasks: the generic sandbox scorer with the Java judge. */
export function createJavaScorer(options: { provider: SandboxProvider; logger: Logger; limits?: Partial<SandboxScorerLimits> }): Scorer {
  return createSandboxScorer({ ...options, judge: javaJudge });
}
