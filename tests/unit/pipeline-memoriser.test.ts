import { describe, expect, it } from 'vitest';
import { memoriserScore } from '../../src/pipeline/gate/memoriser.js';
import type { RecordedCase } from '../../src/pipeline/types.js';

const int = (n: number): { t: string; v: string } => ({ t: 'int', v: String(n) });
const caseOf = (n: number, expect: RecordedCase['expect']): RecordedCase => ({ id: `c${n}`, module: 'm', target: 'f', init: null, args: [int(n)], kwargs: {}, expect, argsAfter: null, source: 'type-hint' });

describe('the memoriser control', () => {
  const cases = [caseOf(1, { returns: int(1) }), caseOf(2, { returns: int(0) }), caseOf(3, { returns: int(1) }), caseOf(4, { returns: int(2) }), caseOf(5, { raises: 'builtins.ValueError' })];

  it('passes the shown inputs and the others whose outcome is the one the examples show most often, nothing else', () => {
    // shown: f(1) -> 1, f(3) -> 1, f(5) raises; its answer elsewhere is 1, which f(2) and f(4) do not give
    const shown = [cases[0]!, cases[2]!, cases[4]!];
    expect(memoriserScore(cases, shown, 'fraction')).toEqual({ passed: 3, total: 5, reward: 0.6 });
    expect(memoriserScore(cases, shown, 'binary')).toEqual({ passed: 3, total: 5, reward: 0 });
    // shown f(2) -> 0 twice as often as any other: f(2) and the shown ones only
    expect(memoriserScore(cases, [cases[1]!], 'fraction').passed).toBe(1);
  });

  it('scores 1 on a task whose hidden cases are all in its prompt', () => {
    expect(memoriserScore(cases.slice(0, 3), cases.slice(0, 3), 'binary')).toEqual({ passed: 3, total: 3, reward: 1 });
    // a constant function: every input gives the shown value
    const constant = [caseOf(1, { returns: int(7) }), caseOf(2, { returns: int(7) }), caseOf(3, { returns: int(7) })];
    expect(memoriserScore(constant, constant.slice(0, 1), 'binary').reward).toBe(1);
  });
});
