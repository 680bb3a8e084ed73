import type { Logger } from '../../logging.js';
import type { SandboxProvider } from '../../sandbox/types.js';
import { createSandboxScorer, type JudgeCommand, type SandboxScorerLimits } from '../../scoring/sandbox-scorer.js';
import type { Scorer } from '../../scoring/types.js';
import type { LoadedTask } from '../../tasks/types.js';
import { rustTestsOf } from './rust-tests.js';

/** Where the Rust image puts `runtime/` (sandbox-images/rust/sources.txt). */
export const RUST_JUDGE_PATH_IN_SANDBOX = '/opt/codemidas/rust/judge.py';

/**
 * The Rust judge (`runtime/judge.py`): the hidden cases' inputs compiled into a driver into each module of the crate
 * and run with `cargo test --lib --no-run`, the test binary as the agent user; the expectations stay in the judge.
 */
export const rustJudge: JudgeCommand = Object.freeze({
  argv: Object.freeze(['python3', RUST_JUDGE_PATH_IN_SANDBOX]),
  config: (task: LoadedTask) => {
    const tests = rustTestsOf(task.file.tests);
    return { cases: tests.cases, caseTimeoutMs: tests.caseTimeoutMs };
  },
});

/** The scorer of Rust tasks: the generic sandbox scorer with the Rust judge. */
export function createRustScorer(options: { provider: SandboxProvider; logger: Logger; limits?: Partial<SandboxScorerLimits> }): Scorer {
  return createSandboxScorer({ ...options, judge: rustJudge });
}
