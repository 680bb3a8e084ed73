import { readdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createJavaScriptRecorder, JAVASCRIPT_HARNESS_DIR_IN_SANDBOX, TYPESCRIPT_IN_SANDBOX } from '../../src/languages/javascript/javascript-recorder.js';
import { parseJavaScriptUnits } from '../../src/languages/javascript/parse-javascript-units.js';
import { javascriptRuntimeDir } from '../../src/languages/javascript/record-javascript-cases.js';
import type { Candidate, InputProposal, RecordedCase } from '../../src/languages/construction-types.js';
import { type MutateResult, mutateResultSchema, type RecordResult, recordResultSchema } from '../../src/pipeline/record/harness-result-schema.js';
import { fixtureSnapshot, makeTempDir, removeTempDirs, runJavaScriptDriver } from './languages-javascript-fixtures.js';

const HOST_TYPESCRIPT = dirname(dirname(createRequire(import.meta.url).resolve('typescript')));
const recorder = createJavaScriptRecorder({ typescriptPath: HOST_TYPESCRIPT });
afterAll(removeTempDirs);

interface Fixture {
  dir: string;
  candidates: Candidate[];
  common: Record<string, unknown>;
}

/** A fixture package's candidates (every function and method unit) and the generic config fields. */
async function fixture(name: string, callTimeoutMs = 2000): Promise<Fixture> {
  const snapshot = fixtureSnapshot(name);
  const { units } = await parseJavaScriptUnits(snapshot);
  const candidates = units.filter((u) => u.kind !== 'class').map((unit) => ({ unit, reasons: [] }));
  const common = { ...recorder.config(candidates, snapshot.dir), repoRoot: snapshot.dir, seed: 7, workDir: makeTempDir('cm-jsrec-'), callTimeoutMs };
  return { dir: snapshot.dir, candidates, common };
}

async function record(f: Fixture, options: { maxCases?: number; only?: string[]; proposals?: InputProposal[] } = {}): Promise<RecordResult> {
  const candidates = options.only ? f.candidates.filter((c) => options.only!.includes(c.unit.qualname)) : f.candidates;
  const config = {
    ...f.common,
    maxCases: options.maxCases ?? 40,
    traceTimeoutMs: 10_000,
    runRepoTests: false,
    targets: candidates.map((c) => recorder.target(c, new Map(), options.proposals ?? [])),
  };
  return recordResultSchema.parse(await runJavaScriptDriver('record', config));
}

async function mutate(f: Fixture, recorded: RecordResult, options: { search: boolean; maxMutants?: number }): Promise<MutateResult> {
  const byId = new Map(f.candidates.map((c) => [c.unit.id, c] as const));
  const config = {
    ...f.common,
    search: options.search,
    maxNewCases: 20,
    maxMutants: options.maxMutants ?? 150,
    targets: recorded.targets.filter((t) => !t.drop).map((t) => ({ ...recorder.target(byId.get(t.unitId)!, new Map(), []), cases: t.cases })),
  };
  return mutateResultSchema.parse(await runJavaScriptDriver('mutate', config));
}

function target<T extends { unitId: string }>(targets: T[], unitId: string): T {
  const found = targets.find((t) => t.unitId === unitId);
  if (found === undefined) throw new Error(`no result for ${unitId}`);
  return found;
}

const num = (v: number): { t: string; v: string } => ({ t: 'number', v: String(v) });

describe('createJavaScriptRecorder', () => {
  it('ships the runtime and the typescript package under the harness folder, and runs the drivers with node', async () => {
    const harness = createJavaScriptRecorder();
    const entries = await harness.entries();
    const paths = entries.map((e) => e.path);
    const base = JAVASCRIPT_HARNESS_DIR_IN_SANDBOX.slice(1);
    for (const name of ['record-driver.mjs', 'mutate-driver.mjs', 'record.mjs', 'codec.mjs', 'load.mjs', 'inspect.mjs', 'evaluate.mjs', 'mutant.mjs', 'mutant-hooks.mjs']) {
      expect(paths).toContain(`${base}/${name}`);
    }
    expect(paths).toContain(`${TYPESCRIPT_IN_SANDBOX.slice(1)}/lib/typescript.js`);
    expect(paths.every((p) => !p.startsWith('tmp'))).toBe(true);
    // folders come before what they hold
    for (const [i, e] of entries.entries()) {
      const parent = e.path.split('/').slice(0, -1).join('/');
      if (parent !== 'var/lib' && parent !== 'var') expect(paths.slice(0, i)).toContain(parent);
    }
    expect(harness.command('record')).toEqual(['node', `${JAVASCRIPT_HARNESS_DIR_IN_SANDBOX}/record-driver.mjs`]);
    expect(harness.command('mutate')).toEqual(['node', `${JAVASCRIPT_HARNESS_DIR_IN_SANDBOX}/mutate-driver.mjs`]);
    expect(harness.config([], '/workspace')).toEqual({ typescriptPath: TYPESCRIPT_IN_SANDBOX });
  });

  it('gives each target its module, file, export path, lines, parameters, JSDoc and literal call sites', async () => {
    const f = await fixture('rec-esm');
    const bucket = f.candidates.find((c) => c.unit.qualname === 'bucket')!;
    expect(recorder.target(bucket, new Map(), [])).toMatchObject({
      unitId: 'src/calc:bucket',
      module: 'src/calc',
      file: 'src/calc.js',
      target: 'bucket',
      params: [{ name: 'n' }],
      callSites: [{ argumentTexts: ['5'] }, { argumentTexts: ['50'] }],
      initCallSites: [],
    });
    const proposed = recorder.target(bucket, new Map(), [{ args: [num(7)], kwargs: {}, init: null }]);
    expect(proposed.proposed).toEqual([{ args: [num(7)], init: null }]);
  });
});

describe('record-driver.mjs', () => {
  let esm: Fixture;
  let recorded: RecordResult;
  beforeAll(async () => {
    esm = await fixture('rec-esm');
    recorded = await record(esm);
  }, 60_000);

  it('records doc examples first, then generated inputs, as deterministic cases in the schema', async () => {
    const clamp = target(recorded.targets, 'src/calc:clamp');
    expect(clamp.drop).toBeNull();
    expect(clamp.cases.length).toBe(40);
    expect(clamp.sources.doctest).toEqual({ tried: 3, kept: 3 });
    expect(clamp.cases.slice(0, 3).map((c) => [c.args, c.expect, c.source])).toEqual([
      [[num(5), num(0), num(10)], { returns: num(5) }, 'doctest'],
      [[num(-3), num(0), num(10)], { returns: num(0) }, 'doctest'],
      [[num(42), num(0), num(10)], { returns: num(10) }, 'doctest'],
    ]);
    expect(clamp.cases.some((c) => 'raises' in c.expect && c.expect.raises === 'RangeError')).toBe(true);
    for (const c of clamp.cases) expect(c).toMatchObject({ module: 'src/calc', target: 'clamp', init: null, kwargs: {}, argsAfter: null });
    expect(new Set(clamp.cases.map((c) => c.id)).size).toBe(clamp.cases.length);
    expect(recorded.traces).toEqual([]);
    // the same seed gives the same cases
    const again = await record(esm, { only: ['clamp'] });
    expect(target(again.targets, 'src/calc:clamp').cases).toEqual(clamp.cases);
  }, 60_000);

  it('takes call-site arguments, builds instances from constructor calls, and keeps mutated arguments', () => {
    const bucket = target(recorded.targets, 'src/calc:bucket');
    expect(bucket.cases.slice(0, 2).map((c) => [c.args, c.source])).toEqual([
      [[num(5)], 'call-site'],
      [[num(50)], 'call-site'],
    ]);
    const add = target(recorded.targets, 'src/calc:Counter.add');
    expect(add.cases[0]).toMatchObject({ init: { args: [num(7)], kwargs: {} }, args: [num(0)], expect: { returns: num(7) } });
    const sorted = target(recorded.targets, 'src/calc:sortInPlace').cases.find((c) => c.argsAfter !== null);
    expect(sorted?.argsAfter).toEqual([{ t: 'array', v: [num(1), num(2), num(2), num(3)] }]);
  });

  it('evaluates example texts in a process of its own: one that exits or loops is lost, not the run', () => {
    const twice = target(recorded.targets, 'src/calc:twice');
    expect(twice.sources.doctest).toEqual({ tried: 1, kept: 1 });
    expect(twice.cases[0]).toMatchObject({ args: [num(2)], expect: { returns: num(4) }, source: 'doctest' });
  });

  it('records proposed inputs (codec-encoded) as source llm, after call sites and before generated ones', async () => {
    const proposed = await record(esm, { only: ['bucket'], proposals: [{ args: [num(5000)], kwargs: {}, init: null }, { args: [num(5)], kwargs: {}, init: null }] });
    const bucket = target(proposed.targets, 'src/calc:bucket');
    expect(bucket.sources.llm).toEqual({ tried: 1, kept: 1 }); // 5 is a call site's already
    expect(bucket.cases[2]).toMatchObject({ args: [num(5000)], expect: { returns: { t: 'str', v: 'huge' } }, source: 'llm' });
    expect(bucket.cases[3]?.source).toBe('type-hint');
  }, 60_000);

  it('keeps no case of a function that is not deterministic', () => {
    const jitter = target(recorded.targets, 'src/calc:jitter');
    expect(jitter.cases).toEqual([]);
    expect(jitter.rejected['non-deterministic']).toBeGreaterThan(0);
    expect(jitter.drop?.code).toBe('no-cases');
  });

  it('records CommonJS modules, and drops a module that throws at load instead of crashing', async () => {
    const cjs = await record(await fixture('rec-cjs'), { only: ['titleCase', 'vowels', 'never'] });
    expect(target(cjs.targets, 'lib/broken:never').drop).toMatchObject({ code: 'import-error', reason: expect.stringContaining('this module cannot be loaded') });
    const title = target(cjs.targets, 'lib/words:titleCase');
    expect(title.drop).toBeNull();
    expect(title.cases.find((c) => JSON.stringify(c.args) === JSON.stringify([{ t: 'str', v: 'Hello World' }]))?.expect).toEqual({ returns: { t: 'str', v: 'Hello World' } });
    expect(target(cjs.targets, 'lib/words:vowels').cases.length).toBeGreaterThan(3);
  }, 60_000);

  it('stops a call that never returns, records it as a timeout, and goes on with the next inputs', async () => {
    const started = Date.now();
    const loops = await record(await fixture('rec-cjs', 300), { only: ['halve'] });
    const halve = target(loops.targets, 'lib/loops:halve');
    expect(halve.rejected.timeout).toBeGreaterThan(0);
    expect(halve.cases.map((c) => [c.args, c.expect])).toContainEqual([[num(10)], { returns: num(5) }]);
    expect(halve.cases.every((c) => Number((c.args[0] as { v: string }).v) % 2 === 0)).toBe(true);
    expect(Date.now() - started).toBeLessThan(30_000);
  }, 60_000);

  it('records TypeScript sources, with values from the annotations, transpiling each file once', async () => {
    const f = await fixture('rec-ts');
    const ts = await record(f, { only: ['inRange', 'compare'] });
    // the processes share what they transpiled (range.ts and sign.ts): later ones need not load typescript
    expect(readdirSync(join(f.common.workDir as string, 'ts-cache')).filter((n) => n.endsWith('.js')).length).toBe(2);
    const inRange = target(ts.targets, 'src/range:inRange');
    expect(inRange.drop).toBeNull();
    expect(inRange.cases.every((c) => c.args.every((a) => (a as { t: string }).t === 'number'))).toBe(true);
    const compare = target(ts.targets, 'src/range:compare');
    const words = new Set(compare.cases.map((c) => JSON.stringify(c.expect)));
    expect(words).toEqual(new Set(['equal', 'greater', 'less'].map((w) => JSON.stringify({ returns: { t: 'str', v: w } }))));
  }, 60_000);
});

describe('record-driver.mjs: which thrown classes a case asserts (issue 19, part 4)', () => {
  it("asserts a class the code throws itself or its JSDoc names; any other throw only as a throw, the original's class kept for the prompt", async () => {
    const f = await fixture('rec-throws');
    const recorded = await record(f);
    const thrown = (unitId: string): [string, string | undefined][] =>
      target(recorded.targets, unitId).cases.filter((c) => 'raises' in c.expect).map((c) => [(c.expect as { raises: string }).raises, c.shown?.[0]]);
    const count = thrown('src/throws:count');
    // `throw new RangeError` in the function: its class; `'x'.toFixed` fails in the engine: any throw
    expect(count).toContainEqual(['RangeError', undefined]);
    expect(count).toContainEqual(['*', 'TypeError']);
    // the engine's TypeError out of `''[0].toUpperCase()`, named by the JSDoc: its class
    expect(thrown('src/throws:initial')).toContainEqual(['TypeError', undefined]);
    // JSON.parse's SyntaxError (a built-in's): any throw; the library's own `new Error` thrown later: its class
    const parsed = thrown('src/throws:parsed');
    expect(parsed).toContainEqual(['*', 'SyntaxError']);
    expect(parsed).toContainEqual(['Error', undefined]);
    // every case still meets its expectation when replayed through the mutation run's baseline
    const mutated = await mutate(f, recorded, { search: false });
    for (const t of mutated.targets) expect(t.error ?? null, t.unitId).toBeNull();
  }, 60_000);
});

describe('mutate-driver.mjs', () => {
  it('kills most mutants of a well-covered function, in the schema', async () => {
    const f = await fixture('rec-esm');
    const recorded = await record(f, { only: ['clamp', 'bucket'] });
    const mutated = await mutate(f, recorded, { search: false });
    const clamp = target(mutated.targets, 'src/calc:clamp');
    expect(clamp.error).toBeNull();
    expect(clamp.baselineMismatches).toBe(0);
    expect(clamp.mutation.total).toBeGreaterThan(8);
    expect(clamp.mutation.score).toBeGreaterThan(0.8);
    expect(clamp.mutation.survivors.length).toBe(clamp.mutation.total - clamp.mutation.killed);
    expect(clamp.before).toEqual(clamp.mutation);
    expect(clamp.newCases).toEqual([]);
    expect(target(mutated.targets, 'src/calc:bucket').mutation.score).toBe(1);
  }, 120_000);

  it('searches for cases that kill survivors when the first inputs miss a boundary', async () => {
    const f = await fixture('rec-esm');
    // the two call sites (5 and 50) only: both 'small', so the 99 and 1000 boundaries are missed
    const recorded = await record(f, { only: ['bucket', 'Counter.add'], maxCases: 2 });
    const mutated = await mutate(f, recorded, { search: true });
    const bucket = target(mutated.targets, 'src/calc:bucket');
    expect(bucket.before.score).toBeLessThan(0.5);
    expect(bucket.mutation.score).toBeGreaterThan(bucket.before.score);
    expect(bucket.mutation.score).toBeGreaterThan(0.9);
    expect(bucket.newCases.length).toBeGreaterThan(0);
    expect(bucket.newCases.length).toBeLessThanOrEqual(20);
    expect(bucket.search.found).toBe(bucket.newCases.length);
    expect(bucket.search.tried).toBeGreaterThanOrEqual(bucket.newCases.length);
    const results = new Set(bucket.newCases.map((c: RecordedCase) => JSON.stringify(c.expect)));
    expect(results.has(JSON.stringify({ returns: { t: 'str', v: 'huge' } }))).toBe(true);
    for (const c of bucket.newCases) expect(c).toMatchObject({ source: 'mutant-search', module: 'src/calc', target: 'bucket' });
    // a method: the search varies the arguments and the instance's (the cap of 100 needs a count near it)
    const add = target(mutated.targets, 'src/calc:Counter.add');
    expect(add.before.score).toBeLessThan(1);
    expect(add.mutation.score).toBe(1);
    expect(add.newCases.every((c) => c.init !== null)).toBe(true);
  }, 120_000);

  it('leaves a survivor of the search that ran for many inputs, with the same results, out of the score as likely equivalent', async () => {
    const f = await fixture('rec-esm');
    const mutated = await mutate(f, await record(f, { only: ['stars'] }), { search: true });
    const stars = target(mutated.targets, 'src/calc:stars');
    // `>=` -> `>`: at equal lengths both return the text ('*'.repeat(0) is '')
    expect(stars.mutation.survivors).toEqual(['likely equivalent (not counted): line 49: >= -> >']);
    expect(stars.mutation.total).toBe(stars.before.total - 1);
    expect(stars.mutation.score).toBe(1);
    expect(stars.before.survivors).toEqual(['line 49: >= -> >']);
  }, 60_000);

  it('rejects what depends on the calls before it, and gives back only the cases that reproduce together', async () => {
    const f = await fixture('rec-esm');
    // the second run goes through the inputs in reverse order: only the middle one can agree
    const recorded = await record(f, { only: ['nextId'] });
    const nextId = target(recorded.targets, 'src/state:nextId');
    expect(nextId.cases.length).toBeLessThanOrEqual(1);
    expect(nextId.rejected['non-deterministic']).toBeGreaterThan(1);
    // cases that each hold alone but not one after the other in one process (as the judge runs them)
    const unit = f.candidates.find((c) => c.unit.qualname === 'nextId')!;
    const str = (v: string): { t: string; v: string } => ({ t: 'str', v });
    const cases = ['a', 'b'].map((p) => ({ id: `next-id-${p}`, module: 'src/state', target: 'nextId', init: null, args: [str(p)], kwargs: {}, expect: { returns: str(`${p}-1`) }, argsAfter: null, source: 'call-site' }));
    const config = { ...f.common, search: false, maxNewCases: 20, maxMutants: 150, targets: [{ ...recorder.target(unit, new Map(), []), cases }] };
    const mutated = target(mutateResultSchema.parse(await runJavaScriptDriver('mutate', config)).targets, 'src/state:nextId');
    expect(mutated.baselineMismatches).toBe(1);
    expect(mutated.cases).toEqual(cases.slice(0, 1));
    expect(mutated.error).toBeNull();
  }, 60_000);

  it('kills a mutant that makes a call loop forever', async () => {
    const f = await fixture('rec-cjs', 300);
    const mutated = await mutate(f, await record(f, { only: ['sumTo'] }), { search: false });
    const sumTo = target(mutated.targets, 'lib/loops:sumTo');
    expect(sumTo.error).toBeNull();
    // i++ -> i-- never ends; `let i = 1` -> `let i = 0` is the one equivalent mutant
    expect(sumTo.mutation.survivors).toEqual(['line 6: 1 -> 0']);
    expect(sumTo.mutation.score).toBeGreaterThan(0.8);
  }, 60_000);

  it('mutates TypeScript and CommonJS modules in place (their imports still resolve)', async () => {
    const ts = await fixture('rec-ts');
    const tsMutated = await mutate(ts, await record(ts, { only: ['compare'] }), { search: false, maxMutants: 8 });
    const compare = target(tsMutated.targets, 'src/range:compare');
    expect(compare.error).toBeNull();
    expect(compare.mutation.total).toBe(8);
    expect(compare.mutation.killed).toBeGreaterThan(4);
    const cjs = await fixture('rec-cjs');
    const cjsMutated = await mutate(cjs, await record(cjs, { only: ['vowels'] }), { search: false });
    expect(target(cjsMutated.targets, 'lib/words:vowels').mutation.score).toBeGreaterThan(0.8);
  }, 120_000);
});
