/**
 * mutate.py with `mutantOf` (the entry pass of record-candidates.ts): an entry's cases run with the
 * mutants of a helper they reach, its lines traced; a helper no case reaches ends at once
 * (`entry-unreached`). Fixture recfix/entries.py, Debian's python3 on the host.
 */
import { describe, expect, it } from 'vitest';
import { runHarness, target } from './pipeline-harness-helpers.js';

const MODULE = 'recfix.entries';
const int = (n: number): unknown => ({ t: 'int', v: String(n) });
const str = (s: string): unknown => ({ t: 'str', v: s });

function evaluateCase(text: string, scale: number, value: number): unknown {
  return { id: `evaluate-${text}-${scale}`, module: MODULE, target: 'Calculator.evaluate', init: { args: [int(scale)], kwargs: {} }, args: [str(text)], kwargs: {}, expect: { returns: int(value) }, argsAfter: null, source: 'repo-test' };
}

const CASES = [evaluateCase('2 3 add', 1, 5), evaluateCase('90 20 add', 1, 100), evaluateCase('7 2 sub', 3, 15), evaluateCase('2 9 sub', 1, 0), evaluateCase('60 60 add', 20, 1000)];

/** The entry `Calculator.evaluate` with its cases, mutating `helper` instead. */
const through = (helper: string): Record<string, unknown> =>
  target('Calculator.evaluate', MODULE, { unitId: `${MODULE}:${helper}`, cases: CASES, mutantOf: { module: MODULE, qualname: helper } });

describe('mutate.py through an entry (mutantOf)', () => {
  it("mutates the helper's body, not the entry's, and the entry's cases kill the mutants of a helper reached only by a dispatch by name", () => {
    const [add] = runHarness('mutate.py', { search: false, targets: [through('Calculator._op_add')] }).targets;
    expect(add.error).toBeNull();
    expect(add.unitId).toBe(`${MODULE}:Calculator._op_add`);
    // every mutant sits on the helper's lines (21-25), none on evaluate's (11-19)
    expect(add.mutants.length).toBeGreaterThan(3);
    expect(add.mutants.every((m: any) => m.line >= 21 && m.line <= 25)).toBe(true);
    expect(add.mutation.killed).toBeGreaterThan(0);
    // the cases stay the entry's
    expect((add.cases ?? CASES).every((c: any) => c.target === 'Calculator.evaluate')).toBe(true);
  }, 120_000);

  it('kills the mutants of a helper the entry calls by name, with the search on', () => {
    const [scaled] = runHarness('mutate.py', { targets: [through('Calculator._scaled')] }).targets;
    expect(scaled.error).toBeNull();
    expect(scaled.mutants.every((m: any) => m.line >= 33 && m.line <= 37)).toBe(true);
    expect(scaled.mutation.score).toBeGreaterThanOrEqual(0.8);
    expect(scaled.newCases.every((c: any) => c.target === 'Calculator.evaluate')).toBe(true);
  }, 120_000);

  it('ends with entry-unreached when no case runs a line of the helper', () => {
    const [unused] = runHarness('mutate.py', { targets: [through('Calculator._unused')] }).targets;
    expect(unused.error?.code).toBe('entry-unreached');
    expect(unused.mutation.total).toBe(0);
  }, 120_000);

  it('names a helper it cannot find', () => {
    const [missing] = runHarness('mutate.py', { targets: [through('Calculator._nowhere')] }).targets;
    expect(missing.error?.code).toBe('not-found');
    expect(missing.error?.reason).toContain('_nowhere');
  }, 120_000);
});

describe('mutate.py: a try that cannot pass ends early (stopBelow), without the search (search: false)', () => {
  it('stops once more mutants survive than the score allows, and runs no search', () => {
    // two cases that both go through add below 100: the clamp's mutants survive
    const weakCases = [evaluateCase('2 3 add', 1, 5), evaluateCase('4 4 add', 1, 8)];
    const t = { ...target('Calculator.evaluate', MODULE, { unitId: `${MODULE}:Calculator._op_add`, cases: weakCases, mutantOf: { module: MODULE, qualname: 'Calculator._op_add' } }) };
    const [full] = runHarness('mutate.py', { search: false, targets: [t] }).targets;
    expect(full.error).toBeNull();
    expect(full.mutation.score).toBeLessThan(0.8);
    const [stopped] = runHarness('mutate.py', { targets: [{ ...t, search: false, stopBelow: 0.8 }] }).targets;
    expect(stopped.error?.code).toBe('below-threshold');
    expect(stopped.search).toEqual({ tried: 0, found: 0 });
    expect(stopped.newCases).toEqual([]);
  }, 120_000);
});
