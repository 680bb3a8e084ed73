import { spawnSync } from 'node:child_process';
import { mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import ts from 'typescript';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RecordedCase, Unit } from '../../src/languages/construction-types.js';
import { createJavaScriptRecorder } from '../../src/languages/javascript/javascript-recorder.js';
import { recordedFunctions, taggedToJavaScript } from '../../src/languages/javascript/javascript-values.js';
import { exampleBlock, pickExamples, renderPrompt, renderReadableTest } from '../../src/languages/javascript/javascript-writer.js';
import { parseJavaScriptUnits } from '../../src/languages/javascript/parse-javascript-units.js';
import { javascriptRuntimeDir } from '../../src/languages/javascript/record-javascript-cases.js';
import * as declaredTypes from '../../src/languages/javascript/runtime/declared-types.mjs';
import * as inputs from '../../src/languages/javascript/runtime/inputs.mjs';
import * as probesModule from '../../src/languages/javascript/runtime/probes.mjs';
import { mutateResultSchema, recordResultSchema } from '../../src/pipeline/record/harness-result-schema.js';
import { FIXTURES, makeTempDir, removeTempDirs, runJavaScriptDriver, TEST_NODE } from './languages-javascript-fixtures.js';

interface Tagged { t: string; v?: unknown }
interface Codec {
  encode(value: unknown): Tagged;
  encodeResult(value: unknown, probes: Tagged[][] | null, options?: { classes?: Record<string, unknown> }): Tagged;
  decode(tagged: Tagged): unknown;
  probesOf(tagged: unknown): Tagged[][] | null;
  same(a: unknown, b: unknown): boolean;
  describe(tagged: Tagged): string;
}
interface FnCalls { length: number; calls: ({ args: Tagged[]; returns: Tagged } | { args: Tagged[]; raises: string })[] }

const { paramValues, variationsOf } = inputs as unknown as {
  paramValues(param: Record<string, unknown>, body: string): Tagged[];
  variationsOf(tagged: Tagged): Tagged[];
};

interface Shape { k: string; params?: Shape[] }
const { createTypeReader, declaredParams } = declaredTypes as unknown as {
  createTypeReader(t: typeof ts): unknown;
  declaredParams(reader: unknown, repoRoot: string, target: Record<string, unknown>): { returns: Shape | null } | null;
};
const { probeLists } = probesModule as unknown as {
  probeLists(options: { arity: number; inputs?: { args: Tagged[] }[]; strings?: string[]; returns?: Shape | null }): Tagged[][];
};

const str = (v: string): Tagged => ({ t: 'str', v });
const num = (v: number): Tagged => ({ t: 'number', v: String(v) });
const bool = (v: boolean): Tagged => ({ t: 'bool', v });
const fnTag = (src: string): Tagged => ({ t: 'fn', v: { src } });

/** A small package of factories and a function taking a comparator, written for these tests. */
const MODULE = `/** A test of whether a string starts with \`prefix\`. */
export function makePrefixTest(prefix) {
  return (s) => s.startsWith(prefix);
}

export function makeRange(min, max) {
  return (x) => x >= min && x < max;
}

export function sortBy(items, compare) {
  return [...items].sort(compare);
}

export function makeSplitter(sep) {
  return { sep, split: (s) => s.split(sep) };
}
`;

let codec: Codec;
let pkg: string;
let units: Unit[];
let recorded: Map<string, RecordedCase[]>;

function casesOf(qualname: string): RecordedCase[] {
  const cases = recorded.get(qualname);
  if (cases === undefined) throw new Error(`nothing recorded for ${qualname}`);
  return cases;
}

function unitOf(qualname: string): Unit {
  const unit = units.find((u) => u.qualname === qualname);
  if (unit === undefined) throw new Error(`no unit ${qualname}`);
  return unit;
}

function recorderSetup() {
  const recorder = createJavaScriptRecorder({ typescriptPath: join(import.meta.dirname, '../../node_modules/typescript') });
  const candidates = units.map((unit) => ({ unit, reasons: [] }));
  const common = { ...recorder.config(candidates, pkg), repoRoot: pkg, seed: 1, workDir: makeTempDir('cm-jsfn-work-'), callTimeoutMs: 2000 };
  return { common, targets: candidates.map((c) => recorder.target(c, new Map(), [])) };
}

beforeAll(async () => {
  codec = (await import(pathToFileURL(join(javascriptRuntimeDir(), 'codec.mjs')).href)) as Codec;
  pkg = makeTempDir('cm-jsfn-pkg-');
  writeFileSync(join(pkg, 'package.json'), JSON.stringify({ name: 'fn-pkg', type: 'module' }));
  writeFileSync(join(pkg, 'index.js'), MODULE);
  const files = readdirSync(pkg).sort();
  units = (await parseJavaScriptUnits({ dir: pkg, origin: pkg, revision: 'working-tree', files })).units;
  const { common, targets } = recorderSetup();
  const result = recordResultSchema.parse(await runJavaScriptDriver('record', { ...common, maxCases: 40, traceTimeoutMs: 10_000, runRepoTests: false, targets }));
  recorded = new Map(result.targets.map((t) => {
    expect(t.drop, t.unitId).toBeNull();
    return [t.unitId.split(':')[1] ?? '', t.cases as RecordedCase[]] as const;
  }));
}, 90_000);
afterAll(removeTempDirs);

describe('functions in the JavaScript codec', () => {
  it('decodes an fn tag to the function its source says, which encodes back to the same tag', () => {
    const tag = fnTag('(a, b) => a - b');
    const compare = codec.decode(tag) as (a: number, b: number) => number;
    expect(compare(5, 2)).toBe(3);
    expect(codec.encode([compare])).toEqual({ t: 'array', v: [tag] });
    expect(codec.same(codec.encode(compare), tag)).toBe(true);
    expect(codec.same(codec.encode(compare), fnTag('(a, b) => b - a'))).toBe(false);
    // a function we did not write has no form
    expect(() => codec.encode(() => 1)).toThrow(expect.objectContaining({ reason: 'function' }));
    expect(() => codec.decode(fnTag('not a function'))).toThrow(/fn tag/);
  });

  it('records a returned function, at any depth, by its length and its calls on the probes', () => {
    const probes = [[str('abc')], [str('x')], [num(1)]];
    const made = { test: (s: string) => s.startsWith('a'), n: 1 };
    const tagged = codec.encodeResult(made, probes);
    const calls: FnCalls = {
      length: 1,
      calls: [{ args: [str('abc')], returns: bool(true) }, { args: [str('x')], returns: bool(false) }, { args: [num(1)], raises: 'TypeError' }],
    };
    expect(tagged).toEqual({ t: 'object', v: [['test', { t: 'fncalls', v: calls }], ['n', num(1)]] });
    expect(JSON.parse(JSON.stringify(tagged))).toEqual(tagged);
    expect(codec.probesOf({ returns: tagged })).toEqual(probes);
    expect(codec.probesOf(num(1))).toBeNull();
    expect(codec.describe(tagged)).toContain('f("abc") => true; f("x") => false; f(1) throws TypeError');
    // another function is another value
    expect(codec.same(codec.encodeResult({ test: () => true, n: 1 }, probes), tagged)).toBe(false);
    // without probes, a returned function says the length of the lists to call it with
    expect(() => codec.encodeResult((a: number, b: number) => a + b, null)).toThrow(expect.objectContaining({ reason: 'function', arity: 2 }));
    // a probe call that returns a function is not followed
    expect(() => codec.encodeResult(() => () => 1, probes)).toThrow(expect.objectContaining({ reason: 'function' }));
    expect(() => codec.decode({ t: 'fncalls', v: calls })).toThrow();
  });
});

describe('callbacks as inputs (inputs.mjs)', () => {
  it('offers pool callbacks by the parameter’s name or the properties the body calls, and swaps one for another of its role in the search', () => {
    const values = paramValues({ name: 'compare', kind: 'positional', annotation: null, defaultValue: null }, '');
    expect(values.slice(0, 2)).toEqual([fnTag('(a, b) => a - b'), fnTag('(a, b) => b - a')]);
    const predicate = paramValues({ name: 'pred', kind: 'positional', annotation: '(x: number) => boolean', defaultValue: null }, '');
    expect(predicate[0]).toEqual(fnTag("(x) => typeof x === 'number'"));
    // an option object holding callbacks under the properties the body calls on it, a handler one that throws first
    const body = "const kept = items.filter((x) => options.filter(x));\nif (typeof options.onDone === 'function') options.onDone(kept);";
    const options = paramValues({ name: 'options', kind: 'positional', annotation: null, defaultValue: null }, body);
    expect(options).toContainEqual({ t: 'object', v: [['filter', fnTag("(x) => typeof x === 'number'")]] });
    expect(options).toContainEqual({ t: 'object', v: [['onDone', fnTag("() => { throw new RangeError('callback called'); }")]] });
    expect(options).toContainEqual({ t: 'object', v: [['filter', fnTag("(x) => typeof x === 'number'")], ['onDone', fnTag("() => { throw new RangeError('callback called'); }")]] });
    expect(variationsOf(fnTag('(a, b) => a - b')).slice(0, 2)).toEqual([fnTag('(a, b) => b - a'), fnTag('(a, b) => (String(a) < String(b) ? -1 : String(a) > String(b) ? 1 : 0)')]);
  });
});

describe('probe lists (probes.mjs)', () => {
  it('takes the inputs’ own scalars first, one value of each kind they lack next, at most 8 lists', () => {
    const lists = probeLists({ arity: 1, inputs: [{ args: [str('a')] }, { args: [{ t: 'array', v: [str('b'), str('a')] }] }] });
    expect(lists.slice(0, 4)).toEqual([[str('a')], [str('b')], [num(0)], [{ t: 'null' }]]);
    expect(lists).toHaveLength(8);
    // two arguments: one list of equal ones (comparators, equality checks)
    const pairs = probeLists({ arity: 2, inputs: [{ args: [num(3), num(4)] }] });
    expect(pairs.slice(0, 2)).toEqual([[num(3), num(4)], [num(3), num(3)]]);
  });

  it('calls a returned function on values of its declared parameter types', () => {
    const dir = makeTempDir('cm-jsfn-ts-');
    writeFileSync(join(dir, 'adder.ts'), 'export function makeAdder(n: number): (x: number, label?: string) => string {\n  return (x, label = "") => label + (x + n);\n}\n');
    const declared = declaredParams(createTypeReader(ts), dir, { file: 'adder.ts', target: 'makeAdder', startLine: 1, endLine: 3 });
    expect(declared?.returns).toEqual({ k: 'function', params: [{ k: 'number' }, { k: 'string' }] });
    const lists = probeLists({ arity: 1, returns: declared?.returns ?? null, strings: ['px'] });
    expect(lists.every((l) => l.length === 2 && l[0]?.t === 'number' && l[1]?.t === 'str')).toBe(true);
    // the strings the body checks are among the declared string's values
    expect(lists.map((l) => l[1])).toContainEqual(str('px'));
  });
});

describe('recording functions that return or take functions (record-driver.mjs)', () => {
  it('records a factory’s returned function by what it gives for the probes', () => {
    const cases = casesOf('makePrefixTest');
    expect(cases.length).toBeGreaterThan(3);
    for (const c of cases) expect(c.expect).toMatchObject({ returns: { t: 'fncalls', v: { length: 1 } } });
    const withA = cases.find((c) => JSON.stringify(c.args) === JSON.stringify([str('a')]));
    const calls = ((withA?.expect as { returns: { v: FnCalls } }).returns.v).calls;
    expect(calls).toContainEqual({ args: [str('abc')], returns: bool(true) });
    expect(calls).toContainEqual({ args: [str('')], returns: bool(false) });
    expect(calls.some((c) => 'raises' in c && c.raises === 'TypeError')).toBe(true);
    // every case of the unit is probed with the same lists
    expect(new Set(cases.map((c) => JSON.stringify(codecProbes(c)))).size).toBe(1);
  });

  it('records a function inside a returned object the same way', () => {
    const cases = casesOf('makeSplitter');
    for (const c of cases) expect(c.expect).toMatchObject({ returns: { t: 'object', v: [['sep', expect.anything()], ['split', { t: 'fncalls', v: { length: 1 } }]] } });
    // no example shows a function it cannot call as the whole result
    expect(pickExamples(cases)).toEqual([]);
  });

  it('records a function taking a comparator with pool comparators', () => {
    const cases = casesOf('sortBy');
    const comparators = new Set(cases.map((c) => (c.args[1] as Tagged).t === 'fn' ? JSON.stringify(c.args[1]) : null).filter((x) => x !== null));
    expect(comparators.size).toBeGreaterThanOrEqual(2);
    const ascending = cases.find((c) => JSON.stringify(c.args) === JSON.stringify([{ t: 'array', v: [num(3), num(1), num(2), num(2)] }, fnTag('(a, b) => a - b')]));
    // a sorted copy: the result shares no object with the arguments (aliases.mjs)
    expect(ascending?.expect).toEqual({ returns: { t: 'array', v: [num(1), num(2), num(2), num(3)] }, aliases: [] });
  });

  it('kills mutants of a returned function in the mutate run (cases replayed with their probes)', async () => {
    const { common, targets } = recorderSetup();
    const factories = targets.filter((t) => ['index:makePrefixTest', 'index:makeRange'].includes(String(t.unitId)));
    const result = mutateResultSchema.parse(await runJavaScriptDriver('mutate', {
      ...common, search: false, maxNewCases: 20, maxMutants: 150, targets: factories.map((t) => ({ ...t, cases: casesOf(String(t.unitId).split(':')[1] ?? '') })),
    }));
    for (const t of result.targets) {
      expect(t.error, t.unitId).toBeNull();
      expect(t.baselineMismatches, t.unitId).toBe(0);
      expect(t.before.total, t.unitId).toBeGreaterThan(0);
      expect(t.before.survivors, t.unitId).toEqual([]);
    }
    // `>=` to `>` and `<` to `<=` only change what the returned function gives at the bounds
    expect(result.targets.find((t) => t.unitId === 'index:makeRange')?.before.total).toBeGreaterThanOrEqual(4);
  }, 90_000);
});

function codecProbes(c: RecordedCase): Tagged[][] | null {
  return 'returns' in c.expect ? codec.probesOf(c.expect.returns) : null;
}

describe('returned functions for people (javascript-values.ts, javascript-writer.ts)', () => {
  it('renders a callback as its source and finds returned functions by their path', () => {
    expect(taggedToJavaScript({ t: 'array', v: [fnTag('(x) => x')] })).toBe('[(x) => x]');
    const value = { t: 'object', v: [['parse', { t: 'fncalls', v: { length: 1, calls: [] } }], ['a-b', { t: 'array', v: [{ t: 'fncalls', v: { length: 2, calls: [] } }] }]] };
    expect(recordedFunctions(value).map((f) => [f.path, f.length])).toEqual([['.parse', 1], ["['a-b'][0]", 2]]);
  });

  it('shows a returned function in a prompt example as calls on it, as a Node REPL prints them', () => {
    const unit = unitOf('makePrefixTest');
    const cases = casesOf('makePrefixTest');
    const examples = pickExamples(cases);
    expect(examples.length).toBeGreaterThan(0);
    const block = exampleBlock(unit, examples[0]!);
    expect(block.split('\n').slice(0, 3)).toEqual([`> var f = makePrefixTest(${taggedToJavaScript(examples[0]!.args[0])})`, 'undefined', expect.stringMatching(/^> f\(/)]);
    const lines = block.split('\n');
    const inputLines = lines.filter((l) => l.startsWith('> ')).map((l) => l.slice(2));
    const run = spawnSync(TEST_NODE, [join(FIXTURES, 'repl-eval.mjs'), JSON.stringify([[pathToFileURL(join(pkg, 'index.js')).href], inputLines])], { cwd: pkg, encoding: 'utf8', timeout: 20_000 });
    expect(run.status, run.stderr).toBe(0);
    const printed = JSON.parse(run.stdout) as string[];
    const shown = lines.filter((l) => !l.startsWith('> '));
    shown.forEach((text, i) => {
      if (text.startsWith('Uncaught ')) expect(printed[i]?.startsWith(text.replace(/\.\.\.$/, '')), `${inputLines[i]}: ${printed[i]}`).toBe(true);
      else expect(printed[i], inputLines[i]).toBe(text);
    });
    // each example shows more than one outcome of its function where the probes gave more than one
    for (const c of examples) {
      const results = exampleBlock(unit, c).split('\n').slice(2).filter((l) => !l.startsWith('> '));
      expect(new Set(results).size, exampleBlock(unit, c)).toBeGreaterThan(1);
    }
    const prompt = renderPrompt({ unit, cases, libraryName: 'fn-pkg' });
    expect(prompt).toContain('A returned function (the result, or a value inside it) is judged by its `length`');
    expect(renderPrompt({ unit: unitOf('sortBy'), cases: casesOf('sortBy'), libraryName: 'fn-pkg' })).not.toContain('A returned function');
  });

  it('writes a readable test that passes on the original and fails on a returned function that is always true', () => {
    const wrongs = [
      ['makePrefixTest', 'export function makePrefixTest(prefix) {\n  return (s) => true;\n}\n'],
      ['sortBy', 'export function sortBy(items, compare) {\n  return [...items];\n}\n'],
      ['makeSplitter', 'export function makeSplitter(sep) {\n  return { sep, split: (s) => [s] };\n}\n'],
    ] as const;
    for (const [qualname, wrong] of wrongs) {
      const readable = renderReadableTest({ taskId: 'suite/x', taskName: qualname.toLowerCase(), cases: casesOf(qualname), unit: unitOf(qualname) });
      const run = (source: string): { status: number | null; output: string } => {
        const root = makeTempDir('cm-jsfn-readable-');
        writeFileSync(join(root, 'package.json'), JSON.stringify({ type: 'module' }));
        writeFileSync(join(root, 'index.js'), source);
        const file = join(root, 'hidden', readable.path);
        mkdirSync(join(file, '..'), { recursive: true });
        writeFileSync(file, readable.content);
        const result = spawnSync(TEST_NODE, ['--test', file], { cwd: root, encoding: 'utf8', timeout: 30_000 });
        return { status: result.status, output: `${result.stdout}${result.stderr}` };
      };
      const original = run(MODULE);
      expect(original.status, original.output).toBe(0);
      expect(original.output).toContain(`# pass ${casesOf(qualname).length}`);
      const broken = run(MODULE.replace(new RegExp(`export function ${qualname}[\\s\\S]*?\\n}\\n`), wrong));
      expect(broken.status, broken.output).not.toBe(0);
    }
    const { content } = renderReadableTest({ taskId: 't', taskName: 'p', cases: casesOf('makePrefixTest'), unit: unitOf('makePrefixTest') });
    expect(content).toContain("const f = value;\n  assert.equal(typeof f, 'function');\n  assert.equal(f.length, 1);");
    expect(content).toContain("assert.deepStrictEqual(f('abc'), ");
    expect(content).toContain("assert.throws(() => f(0), thrown('TypeError'));");
    // a function inside the value stands for itself in the comparison of the value, then is called
    const nested = renderReadableTest({ taskId: 't', taskName: 's', cases: casesOf('makeSplitter'), unit: unitOf('makeSplitter') }).content;
    expect(nested).toMatch(/assert\.deepStrictEqual\(value, \{ sep: '[^']*', split: value\.split \}\);\n.*\n  const f = value\.split;/);
  }, 60_000);
});
