import type { RecordedCase } from './construction-types.js';

/** Examples a prompt shows first, and at most this many more (one of each other behaviour class). */
export const FIRST_EXAMPLES = 3;
export const MORE_EXAMPLES = 5;

/** How a plugin ranks and classes its cases for `pickExamples`. */
export interface ExampleRanking {
  /** The length of the case's example as the prompt writes it: shorter ranks first. */
  sizeOf: (c: RecordedCase) => number;
  /** The case's behaviour class (`behaviourClassOf` of the write stage, which a shared module here may not import). */
  classOf: (c: RecordedCase) => string;
  /** What ranks a case ahead of another after the repository's tests' and before size, higher first; none by default. */
  preferred?: (c: RecordedCase) => number;
}

/**
 * The cases a prompt shows: one of each behaviour class, the repository's tests' (then `preferred`)
 * and the shortest first, then the shortest others that return up to `FIRST_EXAMPLES`; at most
 * `FIRST_EXAMPLES + MORE_EXAMPLES`, those that return first, each group in the order of `cases`.
 */
export function pickExamples(cases: readonly RecordedCase[], ranking: ExampleRanking): RecordedCase[] {
  const { sizeOf, classOf, preferred = () => 0 } = ranking;
  const ranked = [...cases].sort((a, b) => Number(b.source === 'repo-test') - Number(a.source === 'repo-test') || preferred(b) - preferred(a) || sizeOf(a) - sizeOf(b));
  const picked: RecordedCase[] = [];
  const classes = new Set<string>();
  for (const c of ranked) {
    if (picked.length === FIRST_EXAMPLES + MORE_EXAMPLES) break;
    if (classes.has(classOf(c))) continue;
    classes.add(classOf(c));
    picked.push(c);
  }
  for (const c of ranked) {
    if (picked.length >= FIRST_EXAMPLES) break;
    if (!picked.includes(c) && 'returns' in c.expect) picked.push(c);
  }
  const order = (c: RecordedCase): number => Number('raises' in c.expect) * cases.length + cases.indexOf(c);
  return picked.sort((a, b) => order(a) - order(b));
}
