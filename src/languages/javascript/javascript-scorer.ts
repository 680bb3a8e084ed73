import type { Logger } from '../../logging.js';
import type { SandboxProvider } from '../../sandbox/types.js';
import { createSandboxScorer, type JudgeCommand, type SandboxScorerLimits } from '../../scoring/sandbox-scorer.js';
import type { Scorer } from '../../scoring/types.js';
import type { LoadedTask } from '../../tasks/types.js';
import { nodeTestsOf } from './javascript-tests.js';

/** Where the node image puts `runtime/` (sandbox-images/node/sources.txt). */
export const JAVASCRIPT_JUDGE_PATH_IN_SANDBOX = '/opt/codemidas/scoring/javascript/judge.mjs';
/** The typescript package in the node image (sandbox-images/node/npm-packages.txt), for `.ts` workspaces. */
export const TYPESCRIPT_IN_IMAGE = '/opt/codemidas/node_modules/typescript';

/**
 * The JavaScript judge (`runtime/judge.mjs`): recorded cases judged out of process by subject
 * processes running as the agent user; the judge holds the expected encodings and never loads the
 * agent's code.
 */
export const javascriptJudge: JudgeCommand = Object.freeze({
  argv: Object.freeze(['node', JAVASCRIPT_JUDGE_PATH_IN_SANDBOX]),
  config: (task: LoadedTask) => {
    const tests = nodeTestsOf(task.file.tests);
    return { cases: tests.cases, caseTimeoutMs: tests.caseTimeoutMs, typescriptPath: TYPESCRIPT_IN_IMAGE };
  },
});

/** The scorer of JavaScript and TypeScript tasks: the generic sandbox scorer with the Node judge. */
export function createJavaScriptScorer(options: { provider: SandboxProvider; logger: Logger; limits?: Partial<SandboxScorerLimits> }): Scorer {
  return createSandboxScorer({ ...options, judge: javascriptJudge });
}
