/**
 * record.py on the fixture library (tests/fixtures/record), run on the host with /usr/bin/python3:
 * inputs from doctests, call sites, type hints, constructors and the repo's own tests; exceptions by
 * type; effects on arguments; and the inputs and targets it must drop (clock, randomness,
 * non-determinism, hangs), while an endless printer neither floods nor breaks the result.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { judgeCases, root, runHarness, runWithHarnessModule, target } from './pipeline-harness-helpers.js';

let byId: Map<string, any>;
let result: any;

beforeAll(() => {
  result = runHarness('record.py', {
    targets: [
      target('clamp'),
      target('count_below', 'recfix.core', { callSites: [{ argumentTexts: ['[1, 5, 9, 12]', '9'], allLiteral: true }] }),
      target('normalize'),
      target('parse_pair'),
      target('stamp'),
      target('capped', 'recfix.core', { callSites: [{ argumentTexts: ['250'], allLiteral: true }] }),
      target('lucky'),
      target('token'),
      target('spin'),
      target('chatty'),
      target('babble'),
      target('manhattan', 'recfix.shapes'),
      target('Counter.advance', 'recfix.shapes'),
    ],
  });
  byId = new Map(result.targets.map((t: any) => [t.unitId, t]));
}, 300_000);

const get = (id: string): any => byId.get(id);
const sourcesOf = (id: string): string[] => get(id).cases.map((c: any) => c.source);

describe('record.py', () => {
  it("traces the repo's unittest suites built by the load_tests protocol, which pytest does not collect", () => {
    const traced = get('recfix.core:parse_pair').cases.filter((c: any) => c.source === 'repo-test').map((c: any) => c.args[0].v);
    expect(traced).toEqual(expect.arrayContaining(['k:12', 'zz:404', 'q:7']));
  });

  it("traces a single-module library's suite beside it (tests.py), which pytest's file patterns do not collect", () => {
    const fixture = join(root, 'tests', 'fixtures', 'suitemod');
    const recorded = runHarness('record.py', { repoRoot: fixture, sysPath: [fixture], targets: [target('split_pointer', 'pointers')] });
    const traced = recorded.targets[0].cases.filter((c: any) => c.source === 'repo-test').map((c: any) => c.args[0].v);
    expect(traced).toEqual(expect.arrayContaining(['/a~1b/c~0d', '']));
  }, 300_000);

  it("traces the tests of a repository whose conftest fails pytest's whole session (written for an older pytest), by naming its test files", () => {
    const fixture = join(root, 'tests', 'fixtures', 'oldconftest');
    const recorded = runHarness('record.py', { repoRoot: fixture, sysPath: [fixture], targets: [target('parse_range', 'ranges')] });
    const traced = recorded.targets[0].cases.filter((c: any) => c.source === 'repo-test').map((c: any) => c.args[0].v);
    expect(traced).toEqual(expect.arrayContaining(['2-5', '7']));
  }, 300_000);

  it("gives each traced test a time limit: a benchmark looping for minutes neither spends the trace budget nor loses the tests after it", () => {
    const fixture = join(root, 'tests', 'fixtures', 'benchsuite');
    const recorded = runHarness('record.py', { repoRoot: fixture, sysPath: [fixture], testSeconds: 2, traceTimeoutMs: 30_000, targets: [target('slug', 'slugs')] });
    const traced = recorded.targets[0].cases.filter((c: any) => c.source === 'repo-test').map((c: any) => c.args[0].v);
    expect(traced).toEqual(expect.arrayContaining(['Hello World', 'snake_case_name']));
    const pytestRun = recorded.traces.find((t: any) => t.mode === 'pytest');
    expect(pytestRun.timedOut).toBe(false);
    expect(pytestRun.ms).toBeLessThan(20_000);
  }, 300_000);

  it('records under fixed hash seeds: an order that follows string hashes is dropped when the two runs differ, and the same cases come back on every build', () => {
    const record = (): any => runHarness('record.py', { runRepoTests: false, targets: [target('distinct_words')] }).targets[0];
    const [first, second] = [record(), record()];
    expect(first.rejected['non-deterministic']).toBeGreaterThan(0);
    expect(second.cases).toEqual(first.cases);
    expect(second.rejected).toEqual(first.rejected);
  }, 300_000);

  it("passes what one target returns to another that had no real input (result flow): the evaluator of a parser's nodes gets nodes", () => {
    const node = { name: 'node', kind: 'positional', annotation: null, defaultValue: null };
    const recorded = runHarness('record.py', { runRepoTests: false, targets: [target('parse_sum', 'recfix.nodes'), target('evaluate', 'recfix.nodes', { params: [node] })] });
    const evaluate = recorded.targets[1];
    const flowed = evaluate.cases.filter((c: any) => c.source === 'result-flow');
    // parse_sum's doctests return {'type': 'add', ...} for "1+2" and {'type': 'num', 'value': 7} for "7"
    expect(flowed.map((c: any) => c.expect)).toEqual(expect.arrayContaining([{ returns: { t: 'int', v: '3' } }, { returns: { t: 'int', v: '7' } }]));
    expect(evaluate.sources['result-flow'].kept).toBe(flowed.length);
    // a parameter with a type hint gets values of its type, not other targets' results
    const hinted = runHarness('record.py', { runRepoTests: false, targets: [target('parse_sum', 'recfix.nodes'), target('evaluate', 'recfix.nodes', { params: [{ ...node, annotation: 'int' }] })] });
    expect(hinted.targets[1].cases.filter((c: any) => c.source === 'result-flow')).toEqual([]);
    // the dicts inside a result flow too: the number nodes in parse_terms' wrapper reach double_num
    const nested = runHarness('record.py', { runRepoTests: false, targets: [target('parse_terms', 'recfix.nodes'), target('double_num', 'recfix.nodes', { params: [node] })] });
    const doubled = nested.targets[1].cases.filter((c: any) => c.source === 'result-flow' && c.expect.returns);
    expect(doubled.map((c: any) => c.expect.returns.v[1][1])).toEqual(expect.arrayContaining([{ t: 'int', v: '2' }, { t: 'int', v: '4' }]));
  }, 300_000);

  it("replays a namedtuple receiver by calling its class on its fields, and gives a method no example calls the receivers its siblings' examples built", () => {
    const recorded = runHarness('record.py', {
      runRepoTests: false,
      targets: [target('Slot.clashes', 'recfix.bookings'), target('Diary.total', 'recfix.bookings'), target('Diary.busiest', 'recfix.bookings')],
    });
    const [clashes, , busiest] = recorded.targets;
    const fromDoctest = clashes.cases.filter((c: any) => c.source === 'doctest');
    expect(fromDoctest.map((c: any) => c.init)).toContainEqual({ args: [{ t: 'int', v: '1' }, { t: 'int', v: '4' }, { t: 'none', v: null }], kwargs: {} });
    expect(fromDoctest.find((c: any) => c.args[0].v === '3')?.expect).toEqual({ returns: { t: 'bool', v: true } });
    expect(clashes.rejected['init-raises'] ?? 0).toBe(0);
    // busiest is in no example: the diary Diary.total was called on is one of its receivers
    const labels = busiest.cases.map((c: any) => c.expect.returns?.v);
    expect(labels).toContain('lunch');
  }, 300_000);

  it('judges a method that changes its instance and returns a value by both: dropping the change is a mutant its cases kill', () => {
    const label = { name: 'label', kind: 'positional', annotation: 'str', defaultValue: null };
    const recorded = runHarness('record.py', { runRepoTests: false, targets: [target('Diary.total', 'recfix.bookings'), target('Diary.cancel', 'recfix.bookings', { params: [label] })] });
    const cancel = recorded.targets[1];
    expect(cancel.drop).toBeNull();
    expect(cancel.cases.length).toBeGreaterThan(1);
    expect(cancel.cases.filter((c: any) => !c.warm).every((c: any) => c.state === true)).toBe(true);
    const mutated = runHarness('mutate.py', { targets: [target('Diary.cancel', 'recfix.bookings', { cases: cancel.cases })] }).targets[0];
    const assignLine = mutated.mutants.find((m: any) => m.description.endsWith('statement removed') && m.line === 57);
    expect(assignLine?.killed).toBe(true);
    expect(judgeCases(mutated.cases).filter(([ok]: [boolean, string]) => !ok)).toEqual([]);
  }, 300_000);

  it('judges a method that returns None by the state it leaves, warmed receivers (another method called first) included', () => {
    const slot = { name: 'slot', kind: 'positional', annotation: null, defaultValue: null };
    const recorded = runHarness('record.py', {
      runRepoTests: false,
      targets: [target('Diary.total', 'recfix.bookings'), target('Diary.book', 'recfix.bookings', { params: [slot] })],
    });
    const book = recorded.targets[1];
    expect(book.drop).toBeNull();
    expect(book.cases.length).toBeGreaterThan(1);
    // every case in the stated form: [(None, {'slots': [...]})], none in the warmed form, which builds its receiver otherwise
    expect(book.cases.every((c: any) => c.state === true && c.warm === undefined)).toBe(true);
    const states = new Set(book.cases.filter((c: any) => c.expect.returns).map((c: any) => JSON.stringify(c.expect.returns.v[0].v[1])));
    expect(states.size).toBeGreaterThan(1);
    // a warmed or rebuilt receiver's case gives [value]: None on one receiver and [None] on another are one value
    const none = { t: 'none', v: null };
    const inOne = { t: 'list', v: [none] };
    const oneValue = runWithHarnessModule('record', ['data = json.load(sys.stdin)', 'print(json.dumps([record._returns_one_value(k) for k in data]))'], JSON.stringify([
      [['doctest', { init: { args: [] } }, { kind: 'returns', value: none }], ['doctest', { init: { args: [] }, warm: 'total' }, { kind: 'returns', value: inOne }]],
      [['doctest', { init: { args: [] } }, { kind: 'returns', value: none }], ['doctest', { init: { args: [], kwargs: {}, restore: { attrs: {} } } }, { kind: 'returns', value: inOne }]],
      [['doctest', { init: { args: [] } }, { kind: 'returns', value: none }], ['doctest', { init: { args: [] } }, { kind: 'returns', value: inOne }]],
    ]));
    expect(oneValue).toEqual([true, true, false]);
    // the callback an instance keeps (a lambda no codec encodes) is left out of the state it is judged by
    const minutes = { name: 'minutes', kind: 'positional', annotation: 'int', defaultValue: null };
    const snooze = runHarness('record.py', { runRepoTests: false, targets: [target('Reminder.snooze', 'recfix.bookings', { params: [minutes] })] }).targets[0];
    expect(snooze.drop).toBeNull();
    expect(snooze.cases.filter((c: any) => c.state === true && c.expect.returns).length).toBeGreaterThan(1);
    const judged = runHarness('mutate.py', { search: false, targets: [target('Reminder.snooze', 'recfix.bookings', { cases: snooze.cases })] }).targets[0].cases;
    expect(judged.length).toBe(snooze.cases.length);
    expect(judgeCases(judged).filter(([ok]: [boolean, string]) => !ok)).toEqual([]);
  }, 300_000);

  it('records doctest examples, the repo tests traced at run time and type-hint values', () => {
    const clamp = get('recfix.core:clamp');
    expect(clamp.drop).toBeNull();
    const doctest = clamp.cases.filter((c: any) => c.source === 'doctest');
    expect(doctest.map((c: any) => [c.args[0].v, c.expect.returns.v])).toEqual(expect.arrayContaining([['5', '5'], ['-3', '0']]));
    expect(sourcesOf('recfix.core:clamp')).toContain('repo-test');
    expect(sourcesOf('recfix.core:clamp')).toContain('type-hint');
    expect(clamp.cases.length).toBeLessThanOrEqual(40);
    expect(new Set(clamp.cases.map((c: any) => c.id)).size).toBe(clamp.cases.length);
  });

  it('records literal arguments at call sites', () => {
    const site = get('recfix.core:count_below').cases.find((c: any) => c.source === 'call-site');
    expect(site.args[1]).toEqual({ t: 'int', v: '9' });
    expect(site.expect).toEqual({ returns: { t: 'int', v: '2' } });
  });

  it('builds a method instance from init args seen in the doctest and the repo tests', () => {
    const cases = get('recfix.shapes:Counter.advance').cases;
    const doctest = cases.find((c: any) => c.source === 'doctest');
    expect(doctest.init.args).toEqual([{ t: 'int', v: '2' }, { t: 'int', v: '3' }]);
    // advance changes the counter and returns its value: judged by both, [(8, {'value': 8, 'step': 3})]
    expect(doctest.state).toBe(true);
    expect(doctest.expect.returns.v[0].v[0]).toEqual({ t: 'int', v: '8' });
    expect(cases.find((c: any) => c.source === 'repo-test').init.args.map((a: any) => a.v)).toEqual(['10', '-2']);
  });

  it('builds structured inputs with the codebase constructors as repr values', () => {
    const constructed = get('recfix.shapes:manhattan').cases.filter((c: any) => c.source === 'constructed');
    expect(constructed.length).toBeGreaterThan(0);
    expect(constructed[0].args[0]).toMatchObject({ t: 'repr', imports: ['recfix.shapes'] });
    expect(constructed[0].args[0].v).toMatch(/^recfix\.shapes\.Point\(/);
  });

  it('records exceptions by their type, never their message', () => {
    const raises = get('recfix.core:parse_pair').cases.filter((c: any) => 'raises' in c.expect);
    expect(raises.length).toBeGreaterThan(0);
    expect(raises.every((c: any) => c.expect.raises === 'builtins.ValueError')).toBe(true);
    expect(JSON.stringify(raises.map((c: any) => c.expect))).not.toContain('colon');
  });

  it('records the effect on a mutable argument', () => {
    const changed = get('recfix.core:normalize').cases.filter((c: any) => JSON.stringify(c.argsAfter) !== JSON.stringify(c.args));
    expect(changed.length).toBeGreaterThan(0);
    const words = changed[0].argsAfter[0].v.map((w: any) => w.v);
    expect(words.every((w: string) => w === w.trim().toLowerCase())).toBe(true);
  });

  it('drops functions that read the clock or use randomness', () => {
    expect(get('recfix.core:stamp').drop.code).toBe('impure:clock');
    expect(get('recfix.core:lucky').drop.code).toBe('impure:randomness');
  });

  it('keeps a function that logs: the time a log record is stamped with is no clock use of its own', () => {
    const capped = get('recfix.core:capped');
    expect(capped.drop).toBeNull();
    expect(capped.cases.some((c: any) => c.args[0].v === '250' && c.expect.returns?.v === '100')).toBe(true);
  });

  it('drops a function whose result differs between two runs', () => {
    expect(get('recfix.core:token').drop.code).toBe('no-cases');
    expect(get('recfix.core:token').rejected['non-deterministic']).toBeGreaterThan(0);
  });

  it('drops a hanging function with `timeout`, and an endless printer too, without flooding the result', () => {
    expect(get('recfix.core:spin').drop.code).toBe('timeout');
    expect(get('recfix.core:babble').drop.code).toBe('timeout');
    const chatty = get('recfix.core:chatty');
    expect(chatty.drop).toBeNull();
    expect(chatty.cases[0].expect.returns.t).toBe('int');
  });

  it('gives the same result for the same seed', () => {
    const again = runHarness('record.py', { targets: [target('clamp'), target('Counter.advance', 'recfix.shapes')] });
    const first = result.targets.filter((t: any) => ['recfix.core:clamp', 'recfix.shapes:Counter.advance'].includes(t.unitId));
    // everything but the wall-clock time each target took
    const untimed = (targets: any[]): string => JSON.stringify(targets.map(({ ms, ...t }: any) => (expect(ms).toBeGreaterThanOrEqual(0), t)));
    expect(untimed(again.targets)).toBe(untimed(first));
    // two targets at a time (common.map_targets): the same result, in the same order
    const parallel = runHarness('record.py', { parallel: 2, targets: [target('clamp'), target('Counter.advance', 'recfix.shapes')] });
    expect(untimed(parallel.targets)).toBe(untimed(first));
  }, 300_000);

  it('never records an outcome that depends on what earlier inputs of a shared first run left behind', () => {
    // first runs share a child (record.py _FirstRuns): `remember` counts 1, 2, 3, ... there, but 1 in
    // the fresh fork of the second run, so only an input whose two runs agree is kept
    const out = runHarness('record.py', { targets: [target('remember', 'recfix.loops')] }).targets[0];
    for (const c of out.cases) expect(c.expect).toEqual({ returns: { t: 'int', v: '1' } });
    expect(out.rejected['non-deterministic']).toBeGreaterThan(0);
  }, 120_000);
});
