import type { Logger } from '../../logging.js';
import type { SandboxProvider } from '../../sandbox/types.js';
import { createSandboxScorer, type JudgeCommand, type SandboxScorerLimits } from '../../scoring/sandbox-scorer.js';
import type { Scorer } from '../../scoring/types.js';
import type { LoadedTask } from '../../tasks/types.js';
import { pythonTestsOf } from './python-tests.js';

/** Where the Python image puts every file of `src/languages/python/judge/`. */
export const JUDGE_PATH_IN_SANDBOX = '/opt/codemidas/scoring/judge.py';

/**
 * Python's judge (`src/languages/python/judge/judge.py`): recorded cases judged out of process by subject
 * processes, test scripts by the hardened pytest runner, a canary each.
 */
export const pythonJudge: JudgeCommand = Object.freeze({
  // -S: the judge needs only the standard library, not site's start-up work (~5 ms).
  argv: Object.freeze(['python3', '-I', '-S', JUDGE_PATH_IN_SANDBOX]),
  config: (task: LoadedTask) => {
    const tests = pythonTestsOf(task.file.tests);
    return {
      cases: tests.cases,
      scripts: tests.scripts,
      caseTimeoutMs: tests.caseTimeoutMs,
      pytestTimeoutMs: tests.timeoutMs,
      ...(tests.importRoots === undefined ? {} : { importRoots: tests.importRoots }),
    };
  },
});

/** The scorer of Python tasks: the generic sandbox scorer with Python's judge. */
export function createPythonScorer(options: { provider: SandboxProvider; logger: Logger; limits?: Partial<SandboxScorerLimits> }): Scorer {
  return createSandboxScorer({ ...options, judge: pythonJudge });
}
