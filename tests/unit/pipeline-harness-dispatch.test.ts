/**
 * Inputs that neither a type hint nor a parameter name gives, read off the body and the values
 * seen (record.py and variations.py on the host with /usr/bin/python3, fixture recfix/dispatch.py):
 * exception classes and thunks for `except err:` / `thunk()`, instances of the classes an isinstance
 * check names (and a value of none of them), instances of the method's own class for `other`,
 * numbers inside strings varied by the mutant search, callables for a function-named parameter seen
 * only with a plain value, iterators for a sequence seen only as a tuple; and a method that returns
 * the same value for every input (`Cursor.seek` returns None) judged by its result and the state it
 * leaves; a property's getter judged on the attribute of built instances, the inits spread over
 * every constructor parameter (`step` too). Each target's cases then kill >= 80% of its mutants
 * (without these: 0.05-0.8, `arity` a constant-result drop, `Window.length` not a function). A
 * constructor storing a function or a class is judged with them as refs (`Guard.__init__`).
 */
import { spawnSync } from 'node:child_process';
import { cpSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { renderPrompt } from '../../src/languages/python/render-prompt.js';
import { mutateResultSchema, recordResultSchema } from '../../src/pipeline/record/harness-result-schema.js';
import { renderReadableTest } from '../../src/languages/python/render-readable-test.js';
import { runPromptExamples } from '../fixtures/prompt-examples-run.js';
import { makeUnit } from '../fixtures/units.js';
import { FIXTURE, judgeCases, PYTHON, runHarness, target } from './pipeline-harness-helpers.js';
import { useTempDirs } from './temp-dirs.js';

const tempDir = useTempDirs();

const MODULE = 'recfix.dispatch';
const NAMES = ['fails', 'as_pair', 'clip_percent', 'arity', 'count_items', 'Version.covers', 'Cursor.seek', 'Window.length', 'Guard.__init__', 'Stamp.replace', 'thread', 'Catching.label', 'Lookahead.__next__'];
let recorded: Map<string, any>;
let mutated: Map<string, any>;

beforeAll(() => {
  const targets = NAMES.map((n) => target(n, MODULE));
  // through the schemas recordCandidates reads them with: the `state` and `attribute` marks reach mutate.py
  const rec = recordResultSchema.parse(runHarness('record.py', { runRepoTests: false, targets }));
  recorded = new Map(NAMES.map((n, k) => [n, rec.targets[k]]));
  const mut = mutateResultSchema.parse(runHarness('mutate.py', { targets: targets.map((t, k) => ({ ...t, cases: rec.targets[k]!.cases })) }));
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

  it("passes the keys its own docstring quotes to a **kwargs the body reads no literal key from", () => {
    const keys = new Set(recorded.get('Stamp.replace').cases.flatMap((c: any) => Object.keys(c.kwargs)));
    expect(keys).toEqual(new Set(['major', 'minor', 'patch']));
  });

  it('passes (func, arg) forms beside callables to a *args of callables whose body checks for tuples', () => {
    const forms = recorded.get('thread').cases.flatMap((c: any) => c.args.slice(1));
    expect(forms.some((f: any) => f.t === 'tuple' && f.v[0].t === 'repr' && f.v[1].t === 'int')).toBe(true);
    expect(forms.some((f: any) => f.t === 'repr')).toBe(true);
  });

  it('passes exception classes to a parameter named exc (a constructor the property reads them from)', () => {
    const t = recorded.get('Catching.label');
    expect(t.drop).toBeNull();
    const labels = new Set(t.cases.map((c: any) => c.expect.returns?.v?.[0]?.v));
    expect([...labels].some((l: any) => /_catching_ZeroDivisionError$/.test(l))).toBe(true);
    expect(new Set([...labels].map((l: any) => String(l).split('_catching_')[1])).size).toBeGreaterThanOrEqual(3);
  });

  it("calls a method on instances another of the class's methods was called on first, judged in that form", () => {
    const warmed = recorded.get('Lookahead.__next__').cases.filter((c: any) => c.warm === 'peek');
    expect(warmed.length).toBeGreaterThan(0);
    const judged = mutated.get('Lookahead.__next__').cases as any[];
    const forms = judged.filter((c: any) => c.target === 'list' && /for _w in \(_o\.peek\(\),\)/.test(c.args[0].v));
    expect(forms.length).toBe(warmed.length);
    expect(judged.every((c: any) => !('warm' in c))).toBe(true);
    expect(judgeCases(judged).every(([ok]) => ok)).toBe(true);
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

describe('a method judged by the state it leaves', () => {
  it('records the result and the attributes after the call, iterators left out, when the result alone is constant', () => {
    const cases = recorded.get('Cursor.seek').cases as any[];
    expect(cases.length).toBeGreaterThan(3);
    expect(cases.every((c: any) => c.state === true && c.argsAfter === null)).toBe(true);
    const returned = cases.filter((c: any) => 'returns' in c.expect).map((c: any) => c.expect.returns);
    // [(None, {'_cache': [...], '_index': n})]: no `_source`, the iterator the instance reads from
    const keys = returned.map((r: any) => r.v[0].v[1].v.map(([k]: any) => k.v).join());
    expect(new Set(keys)).toEqual(new Set(['_cache,_index']));
    expect(new Set(returned.map((r: any) => JSON.stringify(r))).size).toBeGreaterThan(2);
  });

  it('gives the cases back in the stated form, which the subject and the judge pass on the original and fail on a wrong one', () => {
    const judged = mutated.get('Cursor.seek').cases as any[];
    for (const c of judged) {
      expect([c.module, c.target, c.init]).toEqual(['builtins', 'list', null]);
      expect(c.args[0].v).toMatch(/ for _ in \(0,\) for _o in \(recfix\.dispatch\.Cursor\(.*\),\) for _r in \(_o\.seek\(.*\),\)\)$/);
    }
    expect(judgeCases(judged, FIXTURE).filter(([ok]) => !ok)).toEqual([]);
    // a seek that never reads ahead returns the same None: only the state tells it apart
    const wrong = tempDir('codemidas-stated-');
    cpSync(join(FIXTURE, 'recfix'), join(wrong, 'recfix'), { recursive: true });
    const file = join(wrong, 'recfix', 'dispatch.py');
    writeFileSync(file, readFileSync(file, 'utf8').replace('        if remainder > 0:\n', '        if remainder > 0 and False:\n'));
    expect(judgeCases(judged, wrong).filter(([ok]) => !ok).length).toBeGreaterThan(0);
  });

  it('shows the call on the instance and the (result, state) pair in the prompt', () => {
    const judged = mutated.get('Cursor.seek').cases as any[];
    const shown = judged.find((c: any) => 'returns' in c.expect);
    const unit = makeUnit({ id: 'recfix.dispatch:Cursor.seek', kind: 'method', module: 'recfix.dispatch', qualname: 'Cursor.seek', file: 'recfix/dispatch.py',
      signature: 'def seek(self, index):' });
    const prompt = renderPrompt({ unit, cases: [shown], libraryName: 'recfix' });
    // a session as the REPL shows it: the instance, the call (None: no output), then its attributes
    // as vars() prints them (an address as 0x..., which doctest's ELLIPSIS matches)
    expect(prompt).toMatch(/# the call's result, then the instance's attributes after it\n>>> _o = recfix\.dispatch\.Cursor\(.*\)\n>>> _o\.seek\(.*\)\n>>> vars\(_o\)\n\{'_source': <list_iterator object at 0x\.\.\.>, '_cache': /);
    // and it holds, run as a doctest on the original
    expect(runPromptExamples(prompt, unit, FIXTURE)).toMatchObject({ held: ['e1'], failed: [] });
  });
});

describe("a property's getter", () => {
  it('is judged on the attribute of instances built from inits that vary every constructor parameter', () => {
    const cases = recorded.get('Window.length').cases as any[];
    expect(cases.every((c: any) => c.attribute === true && c.args.length === 0 && c.init !== null)).toBe(true);
    expect(cases.some((c: any) => c.init.args.length === 3 || 'step' in c.init.kwargs)).toBe(true);
    const judged = mutated.get('Window.length').cases as any[];
    for (const c of judged) expect(c.args[0].v).toMatch(/^\(_o\.length for _ in \(0,\) for _o in \(recfix\.dispatch\.Window\(.*\),\)\)$/);
    expect(judgeCases(judged, FIXTURE).filter(([ok]) => !ok)).toEqual([]);
    // the getter's mutants, not those of the setter defined after it under the same name
    const mutation = mutated.get('Window.length').mutation;
    expect(mutation.score, mutation.survivors.join('; ')).toBeGreaterThanOrEqual(0.8);
    expect(mutation.survivors.join(' ')).not.toMatch(/line 131:/);
    const unit = makeUnit({ id: 'recfix.dispatch:Window.length', kind: 'method', module: 'recfix.dispatch', qualname: 'Window.length', file: 'recfix/dispatch.py',
      signature: 'def length(self):', decorators: ['property'] });
    const prompt = renderPrompt({ unit, cases: [judged.find((c: any) => 'returns' in c.expect)], libraryName: 'recfix' });
    expect(prompt).toMatch(/>>> recfix\.dispatch\.Window\(.*\)\.length\n-?\d+\n/);
  });
});

describe('a state holding functions and classes', () => {
  it('records them as refs, which the subject and the judge pass and the readable test renders', () => {
    const judged = mutated.get('Guard.__init__').cases as any[];
    const text = JSON.stringify(judged.map((c: any) => c.expect));
    expect(text).toContain('{"t":"ref","v":["builtins","len"]}');
    expect(judgeCases(judged, FIXTURE).filter(([ok]) => !ok)).toEqual([]);
    const dir = tempDir('codemidas-refs-');
    const file = join(dir, 'test_guard.py');
    writeFileSync(file, renderReadableTest({ taskId: 'recfix/guard', module: MODULE, target: 'Guard.__init__', cases: judged }));
    expect(readFileSync(file, 'utf8')).toContain("_ref('builtins', 'len')");
    const run = spawnSync(PYTHON, ['-B', '-m', 'pytest', '-q', '-p', 'no:cacheprovider', file], { encoding: 'utf8', cwd: dir, env: { ...process.env, PYTHONPATH: FIXTURE }, timeout: 120_000 });
    expect(run.status, run.stdout + run.stderr).toBe(0);
  });
});
