import type { RecordedCase } from '../types.js';

/**
 * A case's behaviour class: where the target's call ended (the return it took, or the line an
 * exception came out of; `path`, where the language's record stage gives it) and its outcome (returns, or raises which type). Two cases of one class
 * exercise the same behaviour; a prompt shows one example of every class it can (issue 19, part 3).
 */
export function behaviourClassOf(c: RecordedCase): string {
  // a line is one function's (a class or module task's removed units share one file); without one,
  // the class is the target's own: another unit's example never shows it
  return `${c.path ?? `- ${c.target}`}|${'raises' in c.expect ? `raises ${c.expect.raises}` : 'returns'}`;
}

/** report.json `classes`: each behaviour class of the hidden cases, how many cases it holds, and whether an example of it holds in the prompt. */
export interface BehaviourClasses {
  total: number;
  shown: number;
  classes: { class: string; cases: number; shown: boolean }[];
}

/** The classes of `cases`, those of `shown` (the examples that hold in the final prompt) marked. */
export function behaviourClasses(cases: readonly RecordedCase[], shown: readonly RecordedCase[]): BehaviourClasses {
  const counts = new Map<string, number>();
  for (const c of cases) counts.set(behaviourClassOf(c), (counts.get(behaviourClassOf(c)) ?? 0) + 1);
  const seen = new Set(shown.map(behaviourClassOf));
  const classes = [...counts].map(([key, n]) => ({ class: key, cases: n, shown: seen.has(key) }));
  return { total: classes.length, shown: classes.filter((c) => c.shown).length, classes };
}
