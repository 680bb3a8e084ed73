import { spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { renderPrompt, renderReadableTest } from '../../src/languages/javascript/javascript-writer.js';
import { parseJavaScriptUnits } from '../../src/languages/javascript/parse-javascript-units.js';
import { recordJavaScriptTwice, type TaggedValue } from '../../src/languages/javascript/record-javascript-cases.js';
// @ts-expect-error: a plain .mjs runtime file without type declarations
import * as aliasesModule from '../../src/languages/javascript/runtime/aliases.mjs';
// @ts-expect-error: a plain .mjs runtime file without type declarations
import * as driveModule from '../../src/languages/javascript/runtime/drive.mjs';
import type { RecordedCase } from '../../src/pipeline/types.js';
import { type JudgeResult, makeTempDir, removeTempDirs, runJavaScriptDriver, runJudge, TEST_NODE } from './languages-javascript-fixtures.js';

type Step = number | string | { mapKey: number } | { mapValue: number } | { setMember: number };
type Pair = [Step[], Step[]];
interface Aliases {
  aliasesOf(result: unknown, args: unknown[] | Map<object, Step[]>): Pair[] | undefined;
  argumentObjects(args: unknown[]): Map<object, Step[]>;
  aliasDifference(expected: Pair[] | undefined, got: Pair[] | undefined): string | null;
  MAX_ALIASES: number;
}
const aliases = aliasesModule as Aliases;
interface Drive {
  recordTwice(base: object, inputs: { args: TaggedValue[]; init: null }[], callTimeoutMs: number): Promise<({ outcome: object } | { reason: string })[]>;
}
const drive = driveModule as Drive;

const TYPESCRIPT = join(import.meta.dirname, '../../node_modules/typescript');
const num = (v: number): TaggedValue => ({ t: 'number', v: String(v) });
const str = (v: string): TaggedValue => ({ t: 'str', v });
const obj = (entries: [string, TaggedValue][]): TaggedValue => ({ t: 'object', v: entries });
const arr = (items: TaggedValue[]): TaggedValue => ({ t: 'array', v: items });

afterAll(removeTempDirs);

describe('aliasesOf: the objects of a result that are objects of the arguments', () => {
  it('finds shared objects at any depth, by the shortest path into the arguments, and does not walk into them', () => {
    const inner = { z: 1 };
    const a = { x: { y: [1, inner] } };
    const key = { k: 1 };
    const value = { v: 1 };
    const map = new Map<unknown, unknown>([[key, value]]);
    const member = { m: 1 };
    const set = new Set([member]);
    const result = { first: a.x, deep: [inner], fresh: { again: [a.x.y] }, m: value, k: key, s: member, whole: [a] };
    expect(aliases.aliasesOf(result, [a, map, set])).toEqual([
      [['first'], [0, 'x']],
      [['deep', 0], [0, 'x', 'y', 1]],
      [['fresh', 'again', 0], [0, 'x', 'y']],
      [['m'], [1, { mapValue: 0 }]],
      [['k'], [1, { mapKey: 0 }]],
      [['s'], [2, { setMember: 0 }]],
      [['whole', 0], [0]],
    ]);
  });

  it('says [] for a fresh deep copy, [[[], [i]]] for an argument returned, and nothing for a primitive', () => {
    const a = { b: { c: [1, 2] }, d: new Date(0) };
    expect(aliases.aliasesOf(structuredClone(a), [a])).toEqual([]);
    expect(aliases.aliasesOf(a, [1, a])).toEqual([[[], [1]]]);
    expect(aliases.aliasesOf({ ...a }, [a])).toEqual([[['b'], [0, 'b']], [['d'], [0, 'd']]]);
    expect(aliases.aliasesOf(5, [a])).toBeUndefined();
    expect(aliases.aliasesOf(null, [a])).toBeUndefined();
  });

  it('takes the argument objects as they were before the call, and caps the pairs', () => {
    const arg = { items: [{ n: 1 }] };
    const before = aliases.argumentObjects([arg]);
    const taken = arg.items.pop();
    expect(aliases.aliasesOf({ taken }, before)).toEqual([[['taken'], [0, 'items', 0]]]);
    expect(aliases.aliasesOf({ taken }, [arg])).toEqual([]);
    const many = Array.from({ length: 100 }, (_, n) => ({ n }));
    expect(aliases.aliasesOf([...many], [many])).toHaveLength(aliases.MAX_ALIASES);
  });

  it('names the difference as people read it, and lets a side without aliases pass', () => {
    expect(aliases.aliasDifference([], [[[], [0]]])).toBe('the result should be a new object, not argument 0');
    expect(aliases.aliasDifference([[['a', 1], [1, 'b']]], [])).toBe('result.a[1] should be the same object as argument 1.b');
    expect(aliases.aliasDifference([[[], [0, 'x']]], [[[], [0, 'x']]])).toBeNull();
    expect(aliases.aliasDifference(undefined, [[[], [0]]])).toBeNull();
  });
});

const CLONE = `export function clone(x) {
  if (typeof x !== 'object' || x === null) return x;
  if (Array.isArray(x)) return x.map(clone);
  const out = {};
  for (const key of Object.keys(x)) out[key] = clone(x[key]);
  return out;
}

export function first(list) {
  return list[0];
}
`;

/** A one-file ES module package holding `source` as clone.js. */
function clonePackage(source: string = CLONE): string {
  const dir = makeTempDir('js-aliases-');
  writeFileSync(join(dir, 'package.json'), '{"type": "module"}\n');
  writeFileSync(join(dir, 'clone.js'), source);
  return dir;
}

const NESTED = obj([['a', num(1)], ['b', obj([['c', arr([num(1), num(2)])]])]]);
const LIST = arr([obj([['d', str('x')]]), num(2)]);

/** Records `inputs` of `target` on the original clone.js as hidden cases (every input must be kept). */
async function recordCases(target: string, inputs: TaggedValue[][]): Promise<RecordedCase[]> {
  const { kept, rejected } = await recordJavaScriptTwice({ root: clonePackage(), module: 'clone', target, init: null, inputs: inputs.map((args) => ({ args })), timeoutMs: 2000 }, { nodePath: TEST_NODE });
  expect(rejected).toEqual([]);
  return kept.map((k) => ({ id: `${target}-${k.index}`, module: 'clone', target, init: null, args: inputs[k.index] ?? [], kwargs: {}, expect: k.expect, argsAfter: k.argsAfter, source: 'constructed' }));
}

/** The cases as recorded before aliases existed. */
function withoutAliases(cases: RecordedCase[]): RecordedCase[] {
  return cases.map((c) => ('returns' in c.expect ? { ...c, expect: { returns: c.expect.returns } } : c));
}

let cloneCases: RecordedCase[] = [];
let firstCases: RecordedCase[] = [];

beforeAll(async () => {
  cloneCases = await recordCases('clone', [[NESTED], [LIST], [num(3)]]);
  firstCases = await recordCases('first', [[LIST]]);
}, 60_000);

describe('record.mjs records aliases', () => {
  it('gives a clone [] (a new object), an element returned its path, and a primitive no aliases', () => {
    expect(cloneCases.map((c) => c.expect)).toEqual([
      { returns: NESTED, aliases: [] },
      { returns: LIST, aliases: [] },
      { returns: num(3) },
    ]);
    expect(firstCases.map((c) => c.expect)).toEqual([{ returns: obj([['d', str('x')]]), aliases: [[[], [0, 0]]] }]);
  });
});

/** judge.mjs on a clone.js workspace holding `source` (privileges kept: the test is not root). */
async function judge(source: string, cases: RecordedCase[]): Promise<JudgeResult> {
  return (await runJudge(clonePackage(source), cases)).result;
}

describe('the judge compares aliases where the case records them', () => {
  it('passes the original', async () => {
    const result = await judge(CLONE, [...cloneCases, ...firstCases]);
    expect(result.tests.map((t) => t.status)).toEqual(['passed', 'passed', 'passed', 'passed']);
  });

  it('fails a clone that returns its argument, or shares a nested object, and says which object should be new', async () => {
    const same = await judge('export function clone(x) {\n  return x;\n}\n', cloneCases);
    expect(same.tests.map((t) => t.status)).toEqual(['failed', 'failed', 'passed']);
    expect(same.tests[0]?.message).toBe('the result should be a new object, not argument 0');
    const shallow = await judge('export function clone(x) {\n  return typeof x === "object" ? (Array.isArray(x) ? [...x] : { ...x }) : x;\n}\n', cloneCases);
    expect(shallow.tests.map((t) => t.message)).toEqual(['result.b should be a new object, not argument 0.b', 'result[0] should be a new object, not argument 0[0]', '']);
  });

  it('fails a copy where the original returns the argument\'s own object', async () => {
    const result = await judge('export function first(list) {\n  return structuredClone(list[0]);\n}\n', firstCases);
    expect(result.tests[0]?.message).toBe('the result should be the same object as argument 0[0]');
  });

  it('judges a case recorded without aliases on its value alone, as before', async () => {
    const result = await judge('export function clone(x) {\n  return x;\n}\n', withoutAliases(cloneCases));
    expect(result.tests.map((t) => t.status)).toEqual(['passed', 'passed', 'passed']);
  });
});

describe('mutate-driver.mjs kills a clone mutant that returns its argument', () => {
  /** The mutate driver on clone.js's `clone` with `cases`; the survivors' descriptions. */
  async function survivors(cases: RecordedCase[]): Promise<string[]> {
    const root = clonePackage();
    const config = {
      repoRoot: root, workDir: makeTempDir('js-aliases-work-'), typescriptPath: TYPESCRIPT, seed: 1, callTimeoutMs: 2000, search: false, maxNewCases: 0, maxMutants: 150,
      targets: [{ unitId: 'clone:clone', module: 'clone', file: 'clone.js', target: 'clone', startLine: 1, endLine: 7, cases }],
    };
    const document = (await runJavaScriptDriver('mutate', config)) as { targets: { error: unknown; mutation: { survivors: string[] } }[] };
    expect(document.targets[0]?.error).toBeNull();
    return document.targets[0]?.mutation.survivors ?? [];
  }

  it('with aliases `typeof x !== object` -> `===` (return x for every object) is killed; without them it survives', async () => {
    const objectCases = cloneCases.slice(0, 2);
    expect(await survivors(withoutAliases(objectCases))).toContain('line 2: !== -> ===');
    expect(await survivors(objectCases)).not.toContain('line 2: !== -> ===');
  }, 120_000);
});

describe('recording twice drops an input whose aliasing differs between the runs', () => {
  it('keeps the same values with different aliases as non-deterministic', async () => {
    // the first call in each process returns its argument, later ones a copy: the runs go in opposite orders
    const root = clonePackage('let calls = 0;\nexport function once(x) {\n  calls += 1;\n  return calls === 1 ? x : { ...x };\n}\n');
    const inputs = [{ args: [obj([['a', num(1)]])], init: null }, { args: [obj([['a', num(2)]])], init: null }];
    const verdicts = await drive.recordTwice({ root, module: 'clone', target: 'once', init: null }, inputs, 2000);
    expect(verdicts).toEqual([{ reason: 'non-deterministic' }, { reason: 'non-deterministic' }]);
  }, 30_000);
});

describe('the writer shows the result\'s identity', () => {
  async function unitOf(qualname: string): Promise<import('../../src/pipeline/types.js').Unit> {
    const dir = clonePackage();
    const { units } = await parseJavaScriptUnits({ dir, origin: dir, revision: 'x', files: ['clone.js', 'package.json'] });
    const unit = units.find((u) => u.qualname === qualname);
    if (unit === undefined) throw new Error(`no unit ${qualname}`);
    return unit;
  }

  /** The readable test of `cases` run with node --test on a clone.js workspace holding `source`. */
  function runReadable(content: string, source: string): { status: number | null; output: string } {
    const root = clonePackage(source);
    mkdirSync(join(root, 'hidden'));
    const file = join(root, 'hidden', 'x.test.mjs');
    writeFileSync(file, content);
    const run = spawnSync(TEST_NODE, ['--test', file], { cwd: root, encoding: 'utf8', timeout: 30_000 });
    return { status: run.status, output: `${run.stdout}${run.stderr}` };
  }

  it('asserts a copy is not its argument and an aliased result is: passes on the original, fails on `return x`', async () => {
    const clone = renderReadableTest({ taskId: 't', taskName: 'clone', cases: cloneCases, unit: await unitOf('clone') }).content;
    expect(clone).toContain('  assert.notStrictEqual(value, args[0]); // a new object, equal to argument 0');
    const first = renderReadableTest({ taskId: 't', taskName: 'first', cases: firstCases, unit: await unitOf('first') }).content;
    expect(first).toContain('  assert.strictEqual(value, args[0][0]);');
    expect(runReadable(clone, CLONE).status).toBe(0);
    expect(runReadable(first, CLONE).status).toBe(0);
    const broken = runReadable(clone, 'export function clone(x) {\n  return x;\n}\n');
    expect(broken.status).not.toBe(0);
    expect(broken.output).toMatch(/# fail 2/);
    // a case recorded before aliases asserts nothing of identity
    expect(renderReadableTest({ taskId: 't', taskName: 'clone', cases: withoutAliases(cloneCases), unit: await unitOf('clone') }).content).not.toContain('StrictEqual(value, args');
  }, 60_000);

  it('says in the prompt that identity is compared, and that a copying function returns a new object', async () => {
    const clone = renderPrompt({ unit: await unitOf('clone'), cases: cloneCases.slice(0, 2), libraryName: 'x' });
    expect(clone).toContain('Whether a returned object is an object of the arguments (the same object, not an equal one) is compared too. It returns a new object');
    const first = renderPrompt({ unit: await unitOf('first'), cases: firstCases, libraryName: 'x' });
    expect(first).toContain('is compared too.');
    expect(first).not.toContain('It returns a new object');
    // a primitive result among the cases: no claim that every result is a new object
    expect(renderPrompt({ unit: await unitOf('clone'), cases: cloneCases, libraryName: 'x' })).not.toContain('It returns a new object');
    expect(renderPrompt({ unit: await unitOf('clone'), cases: withoutAliases(cloneCases), libraryName: 'x' })).not.toContain('compared too');
  });
});
