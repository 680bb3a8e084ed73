/**
 * Structured inputs captured where the repository's own code builds them (record.py and mutate.py on
 * the host with /usr/bin/python3, fixture recfix/arith.py and its test tests/test_arith.py):
 * - a method called by the repository's tests on a receiver its init alone does not give back
 *   (`Parser._atom`, with the parser halfway through its tokens) is recorded on that receiver,
 *   rebuilt from its attributes (init `restore`); as `_atom` advances the parser, judged by its result
 *   and the attributes after it on that rebuilt parser,
 *   `list((_r, <attributes of _o>) for _ in (0,) for _o in ((lambda _o: vars(_o).update({...}) or _o)(object.__new__(recfix.arith.Parser)),) for _r in (_o._atom(),))`,
 *   and the search varies those attributes;
 * - a method no test calls (`Evaluator.visit_binop`) gets the inputs the other targets' recorded
 *   cases pass it (`calculate`'s strings reach it through `Evaluator.visit`): source `inner-call`;
 * - the repository's data files (tests/data/expressions.txt), whole and line by line, are string
 *   inputs (`calculate("1 + 2 * 3")`).
 * Without them: `_atom` has one case (an IndexError on a fresh parser) and `visit_binop` only
 * generated values.
 */
import { spawnSync } from 'node:child_process';
import { cpSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { exampleBlock } from '../../src/languages/python/render-prompt.js';
import { renderReadableTest } from '../../src/languages/python/render-readable-test.js';
import { mutateResultSchema, recordResultSchema } from '../../src/pipeline/record/harness-result-schema.js';
import { makeUnit } from '../fixtures/units.js';
import { FIXTURE, judgeCases, PYTHON, runHarness, target } from './pipeline-harness-helpers.js';
import { useTempDirs } from './temp-dirs.js';

const MODULE = 'recfix.arith';
const NAMES = ['Parser._atom', 'Evaluator.visit_binop', 'calculate', 'evaluate_with'];
let recorded: Map<string, any>;
let mutated: Map<string, any>;
const tempDir = useTempDirs();

beforeAll(() => {
  const targets = NAMES.map((n) => target(n, MODULE));
  // through the schemas recordCandidates reads them with: `restore` reaches mutate.py
  const rec = recordResultSchema.parse(runHarness('record.py', { runRepoTests: true, testPaths: ['tests/test_arith.py'], targets }));
  recorded = new Map(NAMES.map((n, k) => [n, rec.targets[k]]));
  const mut = mutateResultSchema.parse(runHarness('mutate.py', { targets: targets.map((t, k) => ({ ...t, cases: rec.targets[k]!.cases })) }));
  mutated = new Map(NAMES.map((n, k) => [n, mut.targets[k]]));
}, 300_000);

describe('a receiver rebuilt from the attributes it had at the call', () => {
  it("records the parser's inner method on the parser as the tests' parse left it", () => {
    const cases = recorded.get('Parser._atom').cases as any[];
    const restored = cases.filter((c: any) => c.init?.restore);
    expect(restored.length).toBeGreaterThan(5);
    expect(restored.every((c: any) => c.source === 'repo-test' && c.argsAfter === null)).toBe(true);
    const attrs = restored[0].init.restore.attrs;
    expect(Object.keys(attrs).sort()).toEqual(['_index', '_tokens']);
    expect(attrs._tokens.v.length).toBeGreaterThan(2);
    // the init form is kept only where the init alone gives the receiver (here a fresh parser: IndexError)
    const plain = cases.filter((c: any) => !c.init?.restore);
    expect(plain.every((c: any) => 'raises' in c.expect)).toBe(true);
    expect(new Set(restored.map((c: any) => JSON.stringify(c.expect))).size).toBeGreaterThan(3);
  });

  it('gives the cases back in the restored form, which the subject and the judge pass on the original and fail on a wrong one', () => {
    const m = mutated.get('Parser._atom');
    expect(m.error).toBeNull();
    const judged = m.cases as any[];
    const forms = judged.filter((c: any) => c.target === 'list' && c.args[0].v.includes('object.__new__(recfix.arith.Parser)'));
    expect(forms.length).toBe(recorded.get('Parser._atom').cases.filter((c: any) => c.init?.restore).length);
    for (const c of forms) {
      expect([c.module, c.init, c.argsAfter]).toEqual(['builtins', null, null]);
      // _atom advances the parser: judged by its result and the state it leaves (common.stated_case) on the rebuilt parser
      expect(c.args[0].v).toMatch(/ for _ in \(0,\) for _o in \(\(lambda _o: vars\(_o\)\.update\(\{'_index': \d+, '_tokens': \[.*\]\}\) or _o\)\(object\.__new__\(recfix\.arith\.Parser\)\),\) for _r in \(_o\._atom\(\),\)\)$/s);
    }
    expect(judgeCases(judged, FIXTURE).filter(([ok]) => !ok)).toEqual([]);
    const wrong = tempDir('codemidas-restored-');
    cpSync(join(FIXTURE, 'recfix'), join(wrong, 'recfix'), { recursive: true });
    const file = join(wrong, 'recfix', 'arith.py');
    writeFileSync(file, readFileSync(file, 'utf8').replace('            self._index += 1\n            return {"num": token["value"]}', '            return {"num": token["value"]}'));
    expect(judgeCases(judged, wrong).filter(([ok]) => !ok).length).toBeGreaterThan(0);
  });

  it("varies the rebuilt receiver's attributes in the mutant search, and kills at least 80% of the mutants", () => {
    const m = mutated.get('Parser._atom');
    expect(m.mutation.score, m.mutation.survivors.join('; ')).toBeGreaterThanOrEqual(0.8);
    expect(m.search.tried).toBeGreaterThan(0);
  });

  it('shows the call on the rebuilt instance as a prompt example, and the readable test runs', () => {
    const judged = mutated.get('Parser._atom').cases as any[];
    const shown = judged.filter((c: any) => 'returns' in c.expect).sort((a: any, b: any) => a.args[0].v.length - b.args[0].v.length)[0];
    const unit = makeUnit({ id: `${MODULE}:Parser._atom`, kind: 'method', module: MODULE, qualname: 'Parser._atom', file: 'recfix/arith.py', signature: 'def _atom(self):' });
    // (a long receiver is past the size a prompt picks examples up to: the block is what it shows when one is picked)
    expect(exampleBlock(unit, shown)).toMatch(
      /^# the call's result, then the instance's attributes after it\n>>> _o = \(lambda _o: vars\(_o\)\.update\(\{'_index': \d+, '_tokens': .*\}\) or _o\)\(object\.__new__\(recfix\.arith\.Parser\)\)\n>>> _o\._atom\(\)\n\{'(num|op)': .*\}\n>>> vars\(_o\)\n\{'_index': \d+, '_tokens': .*\}$/s,
    );
    const dir = tempDir('codemidas-restored-test-');
    const file = join(dir, 'test_atom.py');
    writeFileSync(file, renderReadableTest({ taskId: 'recfix/atom', module: MODULE, target: 'Parser._atom', cases: judged }));
    const run = spawnSync(PYTHON, ['-B', '-m', 'pytest', '-q', '-p', 'no:cacheprovider', file], { encoding: 'utf8', cwd: dir, env: { ...process.env, PYTHONPATH: FIXTURE }, timeout: 120_000 });
    expect(run.status, run.stdout + run.stderr).toBe(0);
  });
});

describe('an argument object without a repr that evaluates back', () => {
  it("is rebuilt from its attributes, as the repository's test passed it", () => {
    const cases = recorded.get('evaluate_with').cases as any[];
    const traced = cases.filter((c: any) => c.source === 'repo-test');
    expect(traced.length).toBeGreaterThan(0);
    expect(traced[0].args[0]).toEqual({ t: 'repr', v: "(lambda _o: vars(_o).update({'precision': 2}) or _o)(object.__new__(recfix.arith.Evaluator))", imports: ['recfix.arith'] });
    expect(traced[0].expect).toEqual({ returns: { t: 'int', v: '7' } });
    expect(judgeCases(cases, FIXTURE).filter(([ok]) => !ok)).toEqual([]);
  });
});

describe('an argument that is a list subclass holding an attribute (a token stream and the error it raises)', () => {
  it("is rebuilt by list.__new__, its items and its attributes, as the repository's tests passed it, and judged on the reference", () => {
    const targets = [target('take_flag', 'recfix.streams')];
    const rec = recordResultSchema.parse(runHarness('record.py', { runRepoTests: true, testPaths: ['tests/test_streams.py'], targets }));
    const traced = rec.targets[0]!.cases.filter((c: any) => c.source === 'repo-test') as any[];
    expect(traced.map((c: any) => c.args[0].v)).toContain(
      "(lambda _o: list.extend(_o, ['--verb']) or _o)((lambda _o: vars(_o).update({'error': (recfix.streams.LanguageError)}) or _o)(list.__new__(recfix.streams.TokenStream)))",
    );
    expect(traced.map((c: any) => c.expect)).toEqual(expect.arrayContaining([{ returns: { t: 'str', v: '--verbose' } }, { raises: 'recfix.streams.LanguageError' }]));
    expect(judgeCases(rec.targets[0]!.cases, FIXTURE).filter(([ok]) => !ok)).toEqual([]);
  });
});

describe("a base class's method called on its subclasses' instances, which hold their attributes in __slots__", () => {
  it("is recorded on receivers of the subclasses, rebuilt from their slots, judged by the reference and killing the mutants", () => {
    const targets = [target('Matcher.match', 'recfix.matchers')];
    const rec = recordResultSchema.parse(runHarness('record.py', { runRepoTests: true, testPaths: ['tests/test_matchers.py'], targets }));
    const cases = rec.targets[0]!.cases as any[];
    const types = new Set(cases.map((c: any) => c.init?.restore?.type).filter(Boolean));
    expect([...types].sort()).toEqual(['recfix.matchers.Digits', 'recfix.matchers.Literal']);
    // judged as the restored form is, the list of the one result (common.restored_case)
    const digits = { t: 'tuple', v: [{ t: 'str', v: 'n' }, { t: 'str', v: '12' }, { t: 'int', v: '2' }] };
    expect(cases.map((c: any) => c.expect)).toContainEqual({ returns: { t: 'list', v: [digits] } });
    const mut = mutateResultSchema.parse(runHarness('mutate.py', { targets: targets.map((t, k) => ({ ...t, cases: rec.targets[k]!.cases })) }));
    const m = mut.targets[0] as any;
    expect(m.error).toBeNull();
    // the judged forms build each receiver by its own class
    const judged = m.cases as any[];
    expect(judged.some((c: any) => c.args[0]?.v?.includes('object.__new__(recfix.matchers.Digits)'))).toBe(true);
    expect(judged.some((c: any) => c.args[0]?.v?.includes("any(object.__setattr__(_o, k, v) for k, v in {'literal': 'ab', 'name': 'start'}.items())"))).toBe(true);
    expect(judgeCases(judged, FIXTURE).filter(([ok]) => !ok)).toEqual([]);
    expect(m.mutation.score, m.mutation.survivors.join('; ')).toBeGreaterThanOrEqual(0.8);
  });
});

describe("the repository's data files as string inputs", () => {
  it("passes the lines of tests/data/expressions.txt to calculate, whose cases then reach the visitor", () => {
    const cases = recorded.get('calculate').cases as any[];
    const lines = ['1 + 2 * 3', '(4 - 1) / 3', '12 * -3 + 7 - 8 / 2'];
    const fromFile = cases.filter((c: any) => lines.includes(c.args[0].v));
    expect(new Set(fromFile.map((c: any) => c.args[0].v)).size).toBeGreaterThanOrEqual(2);
    expect(fromFile.map((c: any) => c.expect.returns)).toContainEqual({ t: 'int', v: '7' });
    const whole = cases.find((c: any) => c.args[0].v === `${lines.join('\n')}\n`);
    expect(whole?.expect).toEqual({ raises: 'builtins.ValueError' });
  });
});

describe("inputs from the calls other targets' cases make", () => {
  it('records the visitor no test calls on the nodes the parse of calculate builds', () => {
    const r = recorded.get('Evaluator.visit_binop');
    const inner = (r.cases as any[]).filter((c: any) => c.source === 'inner-call');
    expect(inner.length).toBeGreaterThan(0);
    expect(r.sources['inner-call'].kept).toBe(inner.length);
    expect(inner.every((c: any) => c.args[0].t === 'dict' && JSON.stringify(c.args[0]).includes('"op"'))).toBe(true);
    expect(judgeCases(r.cases, FIXTURE).filter(([ok]) => !ok)).toEqual([]);
  });
});

describe('a module its package attribute shadows', () => {
  it('names the module through importlib in the judged forms, which the subject and the judge pass', () => {
    const targets = [target('ring.__init__', 'recfix.shadow.ring'), target('ring.push', 'recfix.shadow.ring')];
    const rec = recordResultSchema.parse(runHarness('record.py', { runRepoTests: false, targets }));
    const mut = mutateResultSchema.parse(runHarness('mutate.py', { targets: targets.map((t, k) => ({ ...t, cases: rec.targets[k]!.cases })) }));
    const constructed = mut.targets[0]!.cases as any[];
    expect(constructed.length).toBeGreaterThan(2);
    for (const c of constructed) expect(c.args[0].v).toContain("importlib.import_module('recfix.shadow.ring').ring(");
    const pushed = (mut.targets[1]!.cases ?? rec.targets[1]!.cases) as any[];
    expect(pushed.some((c: any) => JSON.stringify(c.args).includes("importlib.import_module('recfix.shadow.ring').ring("))).toBe(true);
    const judged = [...constructed, ...pushed];
    expect(judgeCases(judged, FIXTURE).filter(([ok]) => !ok)).toEqual([]);
  });
});

describe('a result holding a cycle', () => {
  it('is recorded with back tags, which the subject and the judge pass, a wrong chain fails and the readable test runs', () => {
    const targets = [target('Chain.extend', 'recfix.chain')];
    const rec = recordResultSchema.parse(runHarness('record.py', { runRepoTests: false, targets }));
    const cases = rec.targets[0]!.cases as any[];
    const linked = cases.filter((c: any) => JSON.stringify(c.expect).includes('"t":"back"'));
    expect(linked.length).toBeGreaterThan(0);
    expect(judgeCases(cases, FIXTURE).filter(([ok]) => !ok)).toEqual([]);
    const wrong = tempDir('codemidas-cycle-');
    cpSync(join(FIXTURE, 'recfix'), join(wrong, 'recfix'), { recursive: true });
    const file = join(wrong, 'recfix', 'chain.py');
    writeFileSync(file, readFileSync(file, 'utf8').replace('link = Link(value, self.tail)', 'link = Link(value, None)'));
    // links that no longer point back at the one before them: every chain of two or more fails
    expect(judgeCases(linked, wrong).filter(([ok]) => !ok).length).toBe(linked.length);
    const dir = tempDir('codemidas-cycle-test-');
    const test = join(dir, 'test_chain.py');
    writeFileSync(test, renderReadableTest({ taskId: 'recfix/chain', module: 'recfix.chain', target: 'Chain.extend', cases }));
    expect(readFileSync(test, 'utf8')).toContain('_back(');
    const run = spawnSync(PYTHON, ['-B', '-m', 'pytest', '-q', '-p', 'no:cacheprovider', test], { encoding: 'utf8', cwd: dir, env: { ...process.env, PYTHONPATH: FIXTURE }, timeout: 120_000 });
    expect(run.status, run.stdout + run.stderr).toBe(0);
  });
});
