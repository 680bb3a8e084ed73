/**
 * Inputs that neither a type hint nor a parameter name gives, read off the body and the values
 * seen (record.py and variations.py on the host with /usr/bin/python3, fixture recfix/dispatch.py):
 * exception classes and thunks for `except err:` / `thunk()`, instances of the classes an isinstance
 * check names (and a value of none of them), instances of the method's own class for `other`,
 * numbers inside strings varied by the mutant search, callables for a function-named parameter seen
 * only with a plain value, iterators for a sequence seen only as a tuple. Each target's cases then
 * kill >= 80% of its mutants (without these inputs: 0.3-0.8, and `arity` is a constant-result drop).
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { runHarness, target } from './pipeline-harness-helpers.js';

const MODULE = 'recfix.dispatch';
const NAMES = ['fails', 'as_pair', 'clip_percent', 'arity', 'count_items', 'Version.covers'];
let recorded: Map<string, any>;
let mutated: Map<string, any>;

beforeAll(() => {
  const targets = NAMES.map((n) => target(n, MODULE));
  const rec = runHarness('record.py', { runRepoTests: false, targets });
  recorded = new Map(NAMES.map((n, k) => [n, rec.targets[k]]));
  const mut = runHarness('mutate.py', { targets: targets.map((t, k) => ({ ...t, cases: rec.targets[k].cases })) });
  mutated = new Map(NAMES.map((n, k) => [n, mut.targets[k]]));
}, 300_000);

/** Every recorded and mutant-search case's inputs, as source text where they are `repr` values. */
function inputs(name: string): any[] {
  return [...recorded.get(name).cases, ...mutated.get(name).newCases];
}

describe('inputs read off the body', () => {
  it('passes exception classes to a caught parameter and thunks to one called with no arguments', () => {
    const cases = inputs('fails');
    const pairs = cases.map((c: any) => [c.args[0]?.v, c.args[1]?.v]);
    expect(pairs.some(([err]) => err === 'ZeroDivisionError')).toBe(true);
    expect(pairs.some(([, thunk]) => thunk === 'lambda: 1 / 0')).toBe(true);
    const results = new Set(cases.map((c: any) => JSON.stringify(c.expect)));
    expect(results).toContain(JSON.stringify({ returns: { t: 'bool', v: true } }));
    expect(results).toContain(JSON.stringify({ returns: { t: 'bool', v: false } }));
  });

  it('passes instances of the class an isinstance check names, and a value of none of the checked types', () => {
    const cases = inputs('as_pair');
    expect(cases.some((c: any) => c.args[0].t === 'repr' && c.args[0].v.startsWith('recfix.dispatch.Version(') && 'returns' in c.expect)).toBe(true);
    expect(cases.some((c: any) => c.expect.raises === 'builtins.TypeError')).toBe(true);
  });

  it("passes instances of the method's own class, built from its inits, to `other`", () => {
    const cases = inputs('Version.covers');
    const own = cases.filter((c: any) => c.args[0].t === 'repr' && c.args[0].v.startsWith('recfix.dispatch.Version(') && 'returns' in c.expect);
    expect(new Set(own.map((c: any) => c.expect.returns.v)).size).toBe(2);
  });

  it('varies the numbers inside a string past the boundaries the body compares them with', () => {
    const values = inputs('clip_percent').filter((c: any) => c.args[0].t === 'str').map((c: any) => c.args[0].v as string);
    expect(values.some((v) => /^-\d+%$/.test(v))).toBe(true);
    const results = new Set(inputs('clip_percent').map((c: any) => c.expect.returns?.v));
    expect(results.has('low') && results.has('high')).toBe(true);
  });

  it('passes callables to a function-named parameter seen only with a plain value', () => {
    const t = recorded.get('arity');
    expect(t.drop).toBeNull();
    expect(t.cases.some((c: any) => c.args[0].t === 'repr' && c.args[0].v.startsWith('lambda'))).toBe(true);
  });

  it('passes iterators to a sequence-named parameter seen only as a tuple', () => {
    const cases = recorded.get('count_items').cases;
    expect(cases.some((c: any) => c.args[0].t === 'tuple')).toBe(true);
    expect(cases.some((c: any) => c.args[0].t === 'repr' && c.args[0].v.startsWith('iter(['))).toBe(true);
  });

  it('kills at least 80% of the mutants of each', () => {
    for (const name of NAMES) {
      const m = mutated.get(name);
      expect(m.error, name).toBeNull();
      expect(m.mutation.total, name).toBeGreaterThan(0);
      expect(m.mutation.score, `${name}: ${m.mutation.survivors.join('; ')}`).toBeGreaterThanOrEqual(0.8);
    }
  });
});
