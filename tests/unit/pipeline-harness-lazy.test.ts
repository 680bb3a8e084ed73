/**
 * Plain functions that RETURN an iterator (map, zip, a generator object, itertools.count, a custom
 * iterator class, a method) in the record/mutate harness (tests/fixtures/record, recfix/lazy.py),
 * run on the host with /usr/bin/python3: each such case is recorded on the first items (`lazy`),
 * mutants are judged the same way, and mutate.py gives the case back as
 * `list(itertools.islice(<call>, 100))`, which the real judge (src/languages/python/judge/judge.py) passes on
 * the original module and fails on a wrong one; a call that raises at call time stays a plain case.
 */
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RecordedCase, Unit } from '../../src/pipeline/types.js';
import { renderPrompt } from '../../src/languages/python/render-prompt.js';
import { renderReadableTest } from '../../src/languages/python/render-readable-test.js';
import { runJudgeProcess } from '../fixtures/scoring-fixtures.js';
import { FIXTURE, PYTHON, root, runHarness, target } from './pipeline-harness-helpers.js';

const MODULE = 'recfix.lazy';
const NAMES = ['scaled', 'paired', 'evens_halved', 'multiples', 'chunked', 'checked', 'maybe_lazy', 'countdown', 'Stepper.walk'];
const COLLECTED = /^itertools\.islice\(recfix\.lazy\.(\w+|Stepper\(-?\d+\)\.walk)\(.*\), 100\)$/;

let recorded: Map<string, any>;
let mutated: Map<string, any>;
let work: string;

/** The judged form of every case, as the subject computes it (scoring codec, one process for all). */
function judgeLikeSubject(cases: any[]): unknown[] {
  const script = `
import importlib, json, sys
sys.path.insert(0, ${JSON.stringify(join(root, 'src', 'languages', 'python', 'judge'))})
sys.path.insert(0, ${JSON.stringify(FIXTURE)})
import codec
out = []
for case in json.loads(sys.stdin.read()):
    try:
        args = [codec.decode(a) for a in case["args"]]
        kwargs = {k: codec.decode(v) for k, v in case["kwargs"].items()}
        fn = importlib.import_module(case["module"])
        if case["init"] is not None:
            *owner, name = case["target"].split(".")
            for part in owner:
                fn = getattr(fn, part)
            fn = getattr(fn(*[codec.decode(a) for a in case["init"]["args"]]), name)
        else:
            for part in case["target"].split("."):
                fn = getattr(fn, part)
    except Exception as exc:
        out.append({"error": repr(exc)})
        continue
    try:
        out.append({"returns": codec.encode(fn(*args, **kwargs))})
    except Exception as exc:
        out.append({"raises": type(exc).__module__ + "." + type(exc).__qualname__})
print(json.dumps(out))
`;
  const run = spawnSync(PYTHON, ['-I', '-c', script], { input: JSON.stringify(cases), encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  if (run.status !== 0) throw new Error(run.stderr);
  return JSON.parse(run.stdout);
}

/** Runs the real judge.py on `cases` against a workspace holding `lazySource` as recfix/lazy.py. */
async function runJudge(cases: RecordedCase[], lazySource: string): Promise<Record<string, string>> {
  const dir = mkdtempSync(join(work, 'judge-'));
  const workspace = join(dir, 'workspace');
  const hidden = join(dir, 'hidden');
  mkdirSync(join(workspace, 'recfix'), { recursive: true });
  mkdirSync(hidden);
  writeFileSync(join(workspace, 'recfix', '__init__.py'), '');
  writeFileSync(join(workspace, 'recfix', 'lazy.py'), lazySource);
  writeFileSync(join(hidden, 'cases.json'), JSON.stringify({ schemaVersion: 1, cases }));
  const nonce = randomBytes(6).toString('hex');
  const config = {
    workspace, hiddenDir: hidden, cases: 'cases.json', scripts: [], caseTimeoutMs: 5000, pytestTimeoutMs: 10_000,
    budgetMs: 60_000, uid: process.getuid?.() ?? 1000, gid: process.getgid?.() ?? 1000, dropPrivileges: false, nonce,
  };
  const out = await runJudgeProcess(config);
  return Object.fromEntries(out.tests.map((t) => [t.name.replace(/^case:/, ''), t.status]));
}

beforeAll(() => {
  work = mkdtempSync(join(tmpdir(), 'codemidas-lazy-'));
  const rec = runHarness('record.py', { runRepoTests: false, targets: NAMES.map((n) => target(n, MODULE)) });
  recorded = new Map(NAMES.map((n, k) => [n, rec.targets[k]]));
  const kept = NAMES.filter((n) => recorded.get(n).drop === null);
  const mut = runHarness('mutate.py', { targets: kept.map((n) => target(n, MODULE, { cases: recorded.get(n).cases })) });
  mutated = new Map(kept.map((n, k) => [n, mut.targets[k]]));
}, 600_000);

afterAll(() => {
  rmSync(work, { recursive: true, force: true });
});

describe('calls that return an iterator', () => {
  it('records them on their first items instead of rejecting them as unserialisable', () => {
    for (const name of NAMES) {
      const t = recorded.get(name);
      expect(t.drop, name).toBeNull();
      expect(t.rejected.unserialisable ?? 0, name).toBe(0);
      expect(t.cases.some((c: any) => c.lazy === true), name).toBe(true);
      for (const c of t.cases.filter((c: any) => c.lazy)) expect(c.argsAfter, name).toBeNull();
    }
    const scaled = recorded.get('scaled').cases.find((c: any) => c.source === 'doctest');
    expect(scaled.expect).toEqual({ returns: { t: 'list', v: ['4', '7', '10'].map((v) => ({ t: 'int', v })) } });
    // an endless iterator: its first 100 items
    const multiples = recorded.get('multiples').cases.find((c: any) => c.source === 'doctest');
    expect(multiples.expect.returns.v).toHaveLength(100);
    // raised while iterating: the lazy case's `raises`
    expect(recorded.get('checked').cases.some((c: any) => c.lazy && c.expect.raises === 'builtins.ZeroDivisionError')).toBe(true);
    // raised at call time: a plain case
    expect(recorded.get('chunked').cases.some((c: any) => !c.lazy && c.expect.raises === 'builtins.ValueError')).toBe(true);
    expect(recorded.get('Stepper.walk').cases.some((c: any) => !c.lazy && c.expect.raises === 'builtins.ValueError' && c.init)).toBe(true);
    // the form depends on the input: a list stays a plain case, an iterator is collected
    const maybe = recorded.get('maybe_lazy').cases;
    expect(maybe.some((c: any) => c.lazy) && maybe.some((c: any) => !c.lazy && 'returns' in c.expect)).toBe(true);
  });

  it('kills mutants judging the iterator, and gives the cases back in the form the task judges', () => {
    for (const name of NAMES) {
      const m = mutated.get(name);
      expect(m.error, name).toBeNull();
      expect(m.mutation.total, name).toBeGreaterThan(0);
      expect(m.mutation.score, name).toBeGreaterThanOrEqual(0.8);
      expect(m.cases, name).toHaveLength(recorded.get(name).cases.length);
      const all = [...m.cases, ...m.newCases];
      for (const c of all) {
        expect('lazy' in c, name).toBe(false);
        if (c.module === 'builtins') {
          expect(c.target).toBe('list');
          expect(c.init).toBeNull();
          expect(c.argsAfter).toBeNull();
          expect(c.args).toHaveLength(1);
          expect(c.args[0].t).toBe('repr');
          expect(c.args[0].imports).toEqual(['itertools', MODULE]);
          expect(c.args[0].v).toMatch(COLLECTED);
        } else {
          expect(c.module).toBe(MODULE);
          expect(c.target).toBe(name);
        }
      }
      expect(all.filter((c: any) => c.module === 'builtins').length, name).toBeGreaterThanOrEqual(recorded.get(name).cases.filter((c: any) => c.lazy).length);
    }
    expect(mutated.get('chunked').cases.some((c: any) => c.module === MODULE && c.expect.raises === 'builtins.ValueError')).toBe(true);
    expect(mutated.get('Stepper.walk').cases.some((c: any) => /^itertools\.islice\(recfix\.lazy\.Stepper\(\d+\)\.walk\(/.test(c.args[0]?.v ?? ''))).toBe(true);
    expect(mutated.get('maybe_lazy').cases.some((c: any) => c.module === MODULE && 'returns' in c.expect)).toBe(true);
  });

  it('every case given back evaluates, as the subject runs it, to what was recorded', () => {
    const all = NAMES.flatMap((n) => [...mutated.get(n).cases, ...mutated.get(n).newCases]);
    const got = judgeLikeSubject(all);
    all.forEach((c: any, k) => expect(got[k], c.args[0]?.v ?? c.target).toEqual(c.expect));
  });

  it('the real judge passes the collected cases on the original module and fails them on a wrong one', async () => {
    const nonEmpty = (c: any): boolean => c.module === 'builtins' && 'returns' in c.expect && c.expect.returns.v.length > 0;
    const cases: RecordedCase[] = [
      ...mutated.get('scaled').cases.filter(nonEmpty).slice(0, 2),
      ...mutated.get('checked').cases.filter((c: any) => c.module === 'builtins' && 'raises' in c.expect).slice(0, 1),
      ...mutated.get('chunked').cases.filter((c: any) => c.module === MODULE && 'raises' in c.expect).slice(0, 1),
      ...mutated.get('Stepper.walk').cases.filter(nonEmpty).slice(0, 2),
      ...mutated.get('multiples').cases.slice(0, 1),
    ].map((c, k) => ({ ...c, id: `c${k}` }));
    expect(cases).toHaveLength(7);
    const original = readFileSync(join(FIXTURE, 'recfix', 'lazy.py'), 'utf8');
    const good = await runJudge(cases, original);
    expect(good).toEqual(Object.fromEntries(cases.map((c) => [c.id, 'passed'])));

    // an eager implementation returning a list is judged on the same items: it passes too
    const eager = original.replace('return map(lambda v: v * factor + 1, values)', 'return [v * factor + 1 for v in values]');
    expect(eager).not.toBe(original);
    expect(await runJudge(cases, eager)).toEqual(good);

    const edits: [string, string][] = [
      ['return map(lambda v: v * factor + 1, values)', 'return map(lambda v: v * factor, values)'],
      ['return map(lambda v: 12 // v, values)', 'return map(lambda v: 12 // v if v else 0, values)'],
      ['        raise ValueError("size must be at least 1")\n', '        size = 1\n'],
      ['itertools.count(start, self.step)', 'itertools.count(start + 1, self.step)'],
      ['itertools.count(start, step))', 'itertools.count(start, step + 1))'],
    ];
    let wrong = original;
    for (const [from, to] of edits) {
      expect(wrong).toContain(from);
      wrong = wrong.replace(from, to);
    }
    expect(await runJudge(cases, wrong)).toEqual(Object.fromEntries(cases.map((c) => [c.id, 'failed'])));
  }, 180_000);

  it('drops a case to collect whose inputs have no source form, counted as no-source', () => {
    const [lazyCase, other] = recorded.get('evens_halved').cases.filter((c: any) => c.lazy && c.expect.returns.v.length > 0);
    const unwritable = { ...other, id: 'unwritable', args: [{ t: 'unknown-tag', v: null }] };
    const t = runHarness('mutate.py', { search: false, targets: [target('evens_halved', MODULE, { cases: [lazyCase, unwritable] })] }).targets[0];
    expect(t.error).toBeNull();
    expect(t.rejected).toEqual({ 'no-source': 1 });
    expect(t.cases.map((c: any) => c.id)).toEqual([lazyCase.id]);
    expect(t.cases[0].args[0].v).toMatch(COLLECTED);
    const none = runHarness('mutate.py', { search: false, targets: [target('evens_halved', MODULE, { cases: [unwritable] })] }).targets[0];
    expect(none.error?.code).toBe('no-cases');
  }, 120_000);

  it('renders a collected case as the call the task judges, in the prompt and the readable test', () => {
    const c = mutated.get('scaled').cases.find((x: any) => x.source === 'doctest') as RecordedCase;
    const unit: Unit = {
      id: `${MODULE}:scaled`, kind: 'function', module: MODULE, qualname: 'scaled', file: 'recfix/lazy.py', startLine: 5, endLine: 11,
      bodyStartLine: 11, bodyEndLine: 11, signature: 'def scaled(values: list[int], factor: int):', params: [], returnAnnotation: null,
      docstring: 'The values times factor, lazily (a map object).', decorators: [], statementCount: 1, codeLines: 4, calls: [], callSites: [],
      isAsync: false, isGenerator: false, impurities: [],
    };
    const prompt = renderPrompt({ unit, cases: [c], libraryName: 'recfix' });
    expect(prompt).toContain('>>> list(itertools.islice(recfix.lazy.scaled([1, 2, 3], 3), 100))');
    const plain = mutated.get('chunked').cases.find((x: any) => x.module === MODULE) as RecordedCase;
    const readable = renderReadableTest({ taskId: 'recfix/scaled', module: MODULE, target: 'scaled', cases: [{ ...c, id: 'lazy-1' }] });
    expect(readable).toContain('result = list(itertools.islice(recfix.lazy.scaled([1, 2, 3], 3), 100))');
    expect(readable).toContain('import itertools');
    const dir = mkdtempSync(join(work, 'readable-'));
    cpSync(join(FIXTURE, 'recfix'), join(dir, 'recfix'), { recursive: true, filter: (p) => !p.includes('__pycache__') });
    writeFileSync(join(dir, 'test_scaled.py'), readable);
    writeFileSync(
      join(dir, 'test_chunked.py'),
      renderReadableTest({ taskId: 'recfix/chunked', module: MODULE, target: 'chunked', cases: [{ ...plain, id: 'plain-1' }] }),
    );
    const run = spawnSync(PYTHON, ['-B', '-m', 'pytest', '-q', '-p', 'no:cacheprovider', 'test_scaled.py', 'test_chunked.py'], { cwd: dir, encoding: 'utf8' });
    expect(run.stdout + run.stderr).toMatch(/2 passed/);
  });
});

describe('calls that return a tuple or list of iterators', () => {
  const NESTED_NAMES = ['split_parity', 'head_and_rest', 'dealt'];
  const NESTED = /^\(\(list\(itertools\.islice\(_x, 100\)\) if isinstance\(_x, collections\.abc\.Iterator\) else _x\) for _ in \(0,\) for _x in itertools\.islice\(recfix\.lazy\.(\w+)\(.*\), 100\)\)$/;
  let nestedRecorded: Map<string, any>;
  let nestedMutated: Map<string, any>;

  beforeAll(() => {
    const rec = runHarness('record.py', { runRepoTests: false, targets: NESTED_NAMES.map((n) => target(n, MODULE)) });
    nestedRecorded = new Map(NESTED_NAMES.map((n, k) => [n, rec.targets[k]]));
    const mut = runHarness('mutate.py', { targets: NESTED_NAMES.map((n) => target(n, MODULE, { cases: nestedRecorded.get(n).cases })) });
    nestedMutated = new Map(NESTED_NAMES.map((n, k) => [n, mut.targets[k]]));
  }, 600_000);

  it('records them with each iterator element collected ("nested"), not as unserialisable', () => {
    for (const name of NESTED_NAMES) {
      const t = nestedRecorded.get(name);
      expect(t.drop, name).toBeNull();
      expect(t.rejected.unserialisable ?? 0, name).toBe(0);
      expect(t.cases.some((c: any) => c.lazy === 'nested'), name).toBe(true);
    }
    const ints = (xs: number[]) => ({ t: 'list', v: xs.map((v) => ({ t: 'int', v: String(v) })) });
    const parity = nestedRecorded.get('split_parity').cases.find((c: any) => c.source === 'doctest');
    expect(parity.expect).toEqual({ returns: { t: 'list', v: [ints([1, 3]), ints([2, 4])] } });
    // a plain list element stays as it is; a call that raises at call time is a plain case
    const head = nestedRecorded.get('head_and_rest').cases.find((c: any) => c.source === 'doctest');
    expect(head.expect).toEqual({ returns: { t: 'list', v: [ints([5, 6]), ints([7])] } });
    expect(nestedRecorded.get('dealt').cases.some((c: any) => !c.lazy && c.expect.raises === 'builtins.ValueError')).toBe(true);
  });

  it('kills mutants on the collected elements and gives the cases back in the nested form, which evaluates to what was recorded', () => {
    for (const name of NESTED_NAMES) {
      const m = nestedMutated.get(name);
      expect(m.error, name).toBeNull();
      expect(m.mutation.score, name).toBeGreaterThanOrEqual(0.8);
      const nested = [...m.cases, ...m.newCases].filter((c: any) => c.module === 'builtins');
      expect(nested.length, name).toBeGreaterThan(0);
      for (const c of nested) {
        expect(c.args[0].v).toMatch(NESTED);
        expect(c.args[0].imports).toEqual(['collections.abc', 'itertools', MODULE]);
      }
    }
    const all = NESTED_NAMES.flatMap((n) => [...nestedMutated.get(n).cases, ...nestedMutated.get(n).newCases]);
    const got = judgeLikeSubject(all) as any[];
    // a case that asserts only that the call raises ("*") is met by any exception but NotImplementedError
    const asJudged = (g: any, c: any): unknown => (c.expect.raises === '*' && typeof g.raises === 'string' && g.raises !== 'builtins.NotImplementedError' ? { raises: '*' } : g);
    all.forEach((c: any, k) => expect(asJudged(got[k], c), c.args[0]?.v ?? c.target).toEqual(c.expect));
    // and there are such cases: exceptions out of operations on the inputs, which no raise of the library makes
    expect(all.some((c: any) => c.expect.raises === '*')).toBe(true);
  });

  it('renders a nested case as the call and its value in the prompt, and as a passing readable test', () => {
    const c = nestedMutated.get('split_parity').cases.find((x: any) => x.source === 'doctest') as RecordedCase;
    const unit: Unit = {
      id: `${MODULE}:split_parity`, kind: 'function', module: MODULE, qualname: 'split_parity', file: 'recfix/lazy.py', startLine: 1, endLine: 9,
      bodyStartLine: 7, bodyEndLine: 9, signature: 'def split_parity(values: list[int]):', params: [], returnAnnotation: null,
      docstring: 'Odd values and even values.', decorators: [], statementCount: 3, codeLines: 4, calls: [], callSites: [], isAsync: false, isGenerator: false, impurities: [],
    };
    const prompt = renderPrompt({ unit, cases: [c], libraryName: 'recfix' });
    expect(prompt).toContain('# each iterator in the result is shown as the list of its items\n>>> recfix.lazy.split_parity([1, 2, 3, 4])\n[[1, 3], [2, 4]]');
    const dir = mkdtempSync(join(work, 'readable-'));
    cpSync(join(FIXTURE, 'recfix'), join(dir, 'recfix'), { recursive: true, filter: (p) => !p.includes('__pycache__') });
    writeFileSync(join(dir, 'test_split_parity.py'), renderReadableTest({ taskId: 'recfix/split-parity', module: MODULE, target: 'split_parity', cases: [{ ...c, id: 'nested-1' }] }));
    const run = spawnSync(PYTHON, ['-B', '-m', 'pytest', '-q', '-p', 'no:cacheprovider', 'test_split_parity.py'], { cwd: dir, encoding: 'utf8' });
    expect(run.stdout + run.stderr).toMatch(/1 passed/);
  });

  it('the real judge passes the original and an eager rewrite, and fails a wrong one', async () => {
    const cases: RecordedCase[] = NESTED_NAMES.flatMap((n) =>
      nestedMutated.get(n).cases.filter((c: any) => c.module === 'builtins' && 'returns' in c.expect && c.expect.returns.v.some((x: any) => x.v.length > 0))
        .slice(0, 2).map((c: any, k: number) => ({ ...c, id: `${n}-${k}` })),
    );
    expect(cases).toHaveLength(6);
    const original = readFileSync(join(FIXTURE, 'recfix', 'lazy.py'), 'utf8');
    const passed = Object.fromEntries(cases.map((c) => [c.id, 'passed']));
    expect(await runJudge(cases, original)).toEqual(passed);
    const eager = original.replace('    return odd, even\n', '    return list(odd), list(even)\n').replace('    return head, it\n', '    return head, list(it)\n');
    expect(eager).not.toBe(original);
    expect(await runJudge(cases, eager)).toEqual(passed);
    const wrong = original.replace('    return odd, even\n', '    return even, odd\n').replace('head = list(itertools.islice(it, n))', 'head = list(itertools.islice(it, n + 1))')
      .replace('itertools.islice(child, k, None, hands)', 'itertools.islice(child, k, None, hands + 1)');
    // each function's wrong edit fails at least one of its cases (not every input shows it)
    const verdicts = await runJudge(cases, wrong);
    for (const name of NESTED_NAMES) expect(Object.entries(verdicts).filter(([id, v]) => id.startsWith(`${name}-`) && v === 'failed').length, name).toBeGreaterThan(0);
  }, 180_000);
});
