import type { RecordedCase } from '../types.js';
import { stableJson } from '../write/stable-json.js';

/** How the memoriser control did on a task's hidden cases. */
export interface MemoriserResult {
  /** Hidden cases it passes. */
  passed: number;
  total: number;
  /** Its reward under the task's reward mode. */
  reward: number;
}

const inputsOf = (c: RecordedCase): string => stableJson({ module: c.module, target: c.target, init: c.init, args: c.args, kwargs: c.kwargs });
const verdictOf = (c: RecordedCase): string => stableJson({ expect: c.expect, argsAfter: c.argsAfter });

/**
 * The memoriser control (issue 19, part 7): a policy that learnt the prompt's examples by heart. It
 * answers an input the prompt shows with the outcome shown for it, and any other input with the
 * outcome the examples show most often (the first of them on a tie); it knows nothing else. The
 * judge compares a case's outcome exactly (value with its type, exception type, arguments after the
 * call), so whether the memoriser passes a case is whether its answer is that case's expected
 * verdict: computed here on the recorded cases, no sandbox needed. A task it passes tests no more
 * than its prompt shows.
 */
export function memoriserScore(cases: readonly RecordedCase[], shown: readonly RecordedCase[], rewardMode: 'binary' | 'fraction'): MemoriserResult {
  const answers = new Map(shown.map((c) => [inputsOf(c), verdictOf(c)]));
  const counts = new Map<string, number>();
  for (const c of shown) counts.set(verdictOf(c), (counts.get(verdictOf(c)) ?? 0) + 1);
  let fallback: string | null = null;
  for (const [verdict, n] of counts) if (fallback === null || n > (counts.get(fallback) ?? 0)) fallback = verdict;
  const passed = cases.filter((c) => (answers.get(inputsOf(c)) ?? fallback) === verdictOf(c)).length;
  const total = cases.length;
  const reward = total === 0 ? 0 : rewardMode === 'binary' ? (passed === total ? 1 : 0) : passed / total;
  return { passed, total, reward };
}
