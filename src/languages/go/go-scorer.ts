import type { Logger } from '../../logging.js';
import type { SandboxProvider } from '../../sandbox/types.js';
import { createSandboxScorer, type JudgeCommand, type SandboxScorerLimits } from '../../scoring/sandbox-scorer.js';
import type { Scorer } from '../../scoring/types.js';
import type { LoadedTask } from '../../tasks/types.js';
import { goTestsOf } from './go-tests.js';

/** Where the Go image puts `runtime/` (sandbox-images/go/sources.txt). */
export const GO_JUDGE_PATH_IN_SANDBOX = '/opt/codemidas/go/judge.py';

/**
 * The Go judge (`runtime/judge.py`): the hidden cases' inputs compiled into a driver in each package
 * and run with `go test` as the agent user; the expectations stay in the judge.
 */
export const goJudge: JudgeCommand = Object.freeze({
  argv: Object.freeze(['python3', GO_JUDGE_PATH_IN_SANDBOX]),
  config: (task: LoadedTask) => {
    const tests = goTestsOf(task.file.tests);
    return { cases: tests.cases, caseTimeoutMs: tests.caseTimeoutMs };
  },
});

/** The scorer of Go tasks: the generic sandbox scorer with the Go judge. */
export function createGoScorer(options: { provider: SandboxProvider; logger: Logger; limits?: Partial<SandboxScorerLimits> }): Scorer {
  return createSandboxScorer({ ...options, judge: goJudge });
}
