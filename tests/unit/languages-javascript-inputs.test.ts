import { createRequire } from 'node:module';
import { writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import ts from 'typescript';
import { afterAll, describe, expect, it } from 'vitest';
import { createJavaScriptRecorder } from '../../src/languages/javascript/javascript-recorder.js';
import { createJavaScriptParser, loadJavaScriptGrammars } from '../../src/languages/javascript/javascript-grammars.js';
import { impuritiesIn } from '../../src/languages/javascript/javascript-syntax.js';
import { parseJavaScriptUnits } from '../../src/languages/javascript/parse-javascript-units.js';
import * as declaredTypes from '../../src/languages/javascript/runtime/declared-types.mjs';
import * as examples from '../../src/languages/javascript/runtime/examples.mjs';
import * as inputs from '../../src/languages/javascript/runtime/inputs.mjs';
import * as mutants from '../../src/languages/javascript/runtime/mutants.mjs';
import * as mutateDriver from '../../src/languages/javascript/runtime/mutate-driver.mjs';
import * as regexSamplesModule from '../../src/languages/javascript/runtime/regex-samples.mjs';
import * as sourceStringsModule from '../../src/languages/javascript/runtime/source-strings.mjs';
import { mutateResultSchema, recordResultSchema } from '../../src/pipeline/record/harness-result-schema.js';
import { FIXTURES, fixtureSnapshot, makeTempDir, removeTempDirs, runJavaScriptDriver } from './languages-javascript-fixtures.js';

interface Tagged { t: string; v?: unknown }
interface Shape { k: string; v?: unknown; of?: Shape[] | Shape; name?: string; props?: { name: string; optional: boolean; type: Shape }[] }
interface Declared { params: { shape: Shape | null; optional: boolean; text: string | null }[]; docs: string | null }
interface TypeReader { ts: typeof ts; parse(file: string): ts.SourceFile | null }

const { createTypeReader, declaredParams } = declaredTypes as unknown as {
  createTypeReader(t: typeof ts): TypeReader;
  declaredParams(reader: TypeReader, repoRoot: string, target: Record<string, unknown>): Declared | null;
};
const { shapeValues, paramValues, variationsOf, generatedInputs } = inputs as unknown as {
  shapeValues(shape: Shape, pools?: { strings?: string[] }): unknown[];
  paramValues(param: Record<string, unknown>, body: string, pools?: { strings?: string[] }): Tagged[];
  variationsOf(tagged: Tagged, boundaries?: number[], strings?: string[]): Tagged[];
  generatedInputs(params: Record<string, unknown>[], body: string, random: () => number, extra?: number, pools?: { strings?: string[] }): Tagged[][];
};
const { regexSamples } = regexSamplesModule as unknown as { regexSamples(regex: RegExp, limit?: number): string[] };
const { sourceStrings } = sourceStringsModule as unknown as { sourceStrings(reader: TypeReader, file: string, range: { start: number; end: number } | null, basics: string[]): string[] | null };
const { readmeInputs, codeBlocks } = examples as unknown as { readmeInputs(root: string, target: string): Tagged[][]; codeBlocks(markdown: string): string[] };
const { mutantsOf, findFunction } = mutants as unknown as {
  mutantsOf(t: typeof ts, sf: ts.SourceFile, fn: ts.Node): { description: string }[];
  findFunction(t: typeof ts, sf: ts.SourceFile, start: number, end: number): ts.Node | null;
};

const { namedConstants } = mutateDriver as unknown as { namedConstants(t: typeof ts, sf: ts.SourceFile, fn: ts.Node): number[] };

const PKG = join(FIXTURES, 'typed-pkg');
const HOST_TYPESCRIPT = dirname(dirname(createRequire(import.meta.url).resolve('typescript')));

afterAll(() => removeTempDirs());

async function unitsOf(name: string) {
  return (await parseJavaScriptUnits(fixtureSnapshot(name))).units;
}

async function declaredFor(qualname: string): Promise<Declared | null> {
  const unit = (await unitsOf('typed-pkg')).find((u) => u.qualname === qualname && !u.file.startsWith('cjs/'));
  if (unit === undefined) throw new Error(`no unit ${qualname}`);
  return declaredParams(createTypeReader(ts), PKG, { file: unit.file, target: unit.qualname, startLine: unit.startLine, endLine: unit.endLine });
}

describe('declared parameter types (declared-types.mjs)', () => {
  it('reads a JavaScript module’s parameters from the package’s declaration file, with the declaration’s JSDoc', async () => {
    const sum = await declaredFor('sumBytes');
    expect(sum?.params.map((p) => [p.shape, p.optional])).toEqual([
      [{ k: 'builtin', name: 'Uint8Array', of: [] }, false],
      [{ k: 'number' }, true],
    ]);
    expect(sum?.docs).toContain('sumBytes(bytes, 1)');
    const count = await declaredFor('countAbove');
    expect(count?.params[0]?.shape).toEqual({ k: 'builtin', name: 'Map', of: [{ k: 'string' }, { k: 'number' }] });
    // an interface of the same file, and a union of string literals
    const user = await declaredFor('describeUser');
    expect(user?.params[0]?.shape).toEqual({ k: 'object', props: [
      { name: 'name', optional: false, type: { k: 'string' } },
      { name: 'age', optional: false, type: { k: 'number' } },
      { name: 'nick', optional: true, type: { k: 'string' } },
    ] });
    expect(user?.params[1]?.shape).toEqual({ k: 'union', of: [{ k: 'literal', v: 'short' }, { k: 'literal', v: 'long' }] });
    // a default export
    expect((await declaredFor('default'))?.params[0]?.shape).toEqual({ k: 'string' });
  });

  it('resolves a TypeScript source’s interfaces, enums and types imported from another file', async () => {
    const area = await declaredFor('area');
    const box = area?.params[0]?.shape;
    expect(box?.props?.map((p) => [p.name, p.optional, p.type.k])).toEqual([['size', false, 'object'], ['tags', false, 'array'], ['when', true, 'builtin']]);
    expect(box?.props?.[0]?.type.props?.map((p) => p.name)).toEqual(['width', 'height']);
    expect(area?.params[1]?.shape).toEqual({ k: 'union', of: [{ k: 'literal', v: 0 }, { k: 'literal', v: 4 }] });
    expect(area?.params[2]?.shape).toEqual({ k: 'union', of: [{ k: 'bigint' }, { k: 'null' }] });
    const seen = await declaredFor('firstSeen');
    expect(seen?.params.map((p) => p.shape?.k === 'builtin' ? p.shape.name : p.shape?.k)).toEqual(['Set', 'array', 'RegExp', 'union']);
  });

  it('reads JSDoc @param types of a JavaScript file without declarations, bracketed ones optional', async () => {
    const doc = await declaredFor('repeatWord');
    expect(doc?.params.map((p) => [p.shape, p.optional])).toEqual([
      [{ k: 'union', of: [{ k: 'string' }, { k: 'number' }] }, false],
      [{ k: 'number' }, true],
    ]);
  });
});

describe('values of declared types (inputs.mjs)', () => {
  it('builds typed arrays, maps, sets, dates and objects as the shape says, the most ordinary first', () => {
    const bytes = shapeValues({ k: 'builtin', name: 'Uint8Array', of: [] });
    expect(bytes[0]).toEqual(new Uint8Array([1, 2, 3]));
    expect(bytes.every((b) => b instanceof Uint8Array)).toBe(true);
    const maps = shapeValues({ k: 'builtin', name: 'Map', of: [{ k: 'string' }, { k: 'number' }] }, { strings: ['x', 'y'] });
    expect(maps[0]).toEqual(new Map([['x', 0], ['y', 1]]));
    expect(maps).toContainEqual(new Map());
    expect(shapeValues({ k: 'builtin', name: 'Set', of: [{ k: 'number' }] })[0]).toEqual(new Set([0, 1]));
    expect(shapeValues({ k: 'builtin', name: 'Date', of: [] })[0]).toBeInstanceOf(Date);
    const users = shapeValues({ k: 'object', props: [{ name: 'name', optional: false, type: { k: 'string' } }, { name: 'nick', optional: true, type: { k: 'string' } }] }, { strings: ['ann', 'bo'] });
    expect(users.slice(0, 3)).toEqual([{ name: 'ann' }, { name: 'ann', nick: 'ann' }, { name: 'bo', nick: 'ann' }]);
    // an object that needs a function gets pool callbacks, of the role its name says first
    const withEquals = shapeValues({ k: 'object', props: [{ name: 'equals', optional: false, type: { k: 'function', params: [{ k: 'any' }, { k: 'any' }] } }] }) as { equals: unknown }[];
    expect(withEquals.map((o) => String(o.equals))).toEqual(['(a, b) => a === b', '() => true', '() => false']);
    // a union shows each member early, null last
    expect(shapeValues({ k: 'union', of: [{ k: 'null' }, { k: 'literal', v: 'a' }, { k: 'literal', v: 2 }] })).toEqual(['a', 2, null]);
  });

  it('encodes a declared parameter’s values, an optional one also left out, then a value of another kind', () => {
    const bytes = { name: 'bytes', kind: 'positional', annotation: null, defaultValue: null, shape: { k: 'builtin', name: 'Uint8Array', of: [] }, optional: true };
    const values = paramValues(bytes, 'if (!(bytes instanceof Uint8Array)) throw new TypeError()');
    expect(values[0]).toEqual({ t: 'typedarray', v: { type: 'Uint8Array', b64: Buffer.from([1, 2, 3]).toString('base64') } });
    expect(values[1]).toEqual({ t: 'undefined' });
    expect(values.slice(-2)).toEqual([{ t: 'null' }, { t: 'str', v: 'abc' }]);
    // a body that does not check its argument's kind gets only values of the declared type
    expect(paramValues(bytes, 'return bytes.length').every((v) => v.t === 'typedarray' || v.t === 'undefined')).toBe(true);
    // string parameters take the pool of strings shaped like the code's checks first
    const first = generatedInputs([{ name: 'v', kind: 'positional', annotation: 'string', defaultValue: null }], '', () => 0, 0, { strings: ['1.2.3', 'x'] });
    expect(first[0]).toEqual([{ t: 'str', v: '1.2.3' }]);
  });

  it('varies typed arrays, maps, sets and objects for the search, and strings into the shaped ones', () => {
    const bytes = { t: 'typedarray', v: { type: 'Uint8Array', b64: Buffer.from([1, 2, 3]).toString('base64') } };
    const decoded = variationsOf(bytes).map((v) => [...Buffer.from((v.v as { b64: string }).b64, 'base64')]);
    expect(decoded).toEqual(expect.arrayContaining([[], [1, 2], [2, 3], [1, 2, 3, 1], [1, 2, 4], [3, 2, 1]]));
    const map = { t: 'map', v: [[{ t: 'str', v: 'a' }, { t: 'number', v: '1' }]] };
    expect(variationsOf(map)).toContainEqual({ t: 'map', v: [] });
    expect(variationsOf(map)).toContainEqual({ t: 'map', v: [[{ t: 'str', v: 'a' }, { t: 'number', v: '2' }]] });
    const object = { t: 'object', v: [['a', { t: 'number', v: '1' }], ['b', { t: 'bool', v: true }]] };
    expect(variationsOf(object)).toContainEqual({ t: 'object', v: [['b', { t: 'bool', v: true }]] });
    expect(variationsOf(object)).toContainEqual({ t: 'object', v: [['a', { t: 'number', v: '1' }], ['b', { t: 'bool', v: false }]] });
    const strings = variationsOf({ t: 'str', v: '1.2.3-4' }, [], ['2.0.0']).map((v) => v.v);
    expect(strings).toEqual(expect.arrayContaining(['1.2.3-5', '2.0.0', '"1.2.3-4"', "'1.2.3-4'", '1.2.3-4\\']));
    // a typed array as long as a boundary of the body
    const long = variationsOf(bytes, [5]).map((v) => Buffer.from((v.v as { b64: string }).b64, 'base64').length);
    expect(long).toContain(5);
  });

  it('gives a rest parameter one value, then two, after the ordinary inputs', () => {
    const params = [{ name: 's', kind: 'positional', annotation: 'string', defaultValue: null }, { name: 'values', kind: 'var-positional', annotation: null, defaultValue: null, shape: { k: 'number' } }];
    const lists = generatedInputs(params, '', () => 0, 0, { strings: ['x'] });
    expect(lists).toContainEqual([{ t: 'str', v: 'x' }, { t: 'number', v: '0' }]);
    expect(lists).toContainEqual([{ t: 'str', v: 'x' }, { t: 'number', v: '0' }, { t: 'number', v: '1' }]);
  });
});

describe('strings shaped like what the code checks', () => {
  it('gives strings a regular expression accepts: optional groups one at a time, each alternation branch, each class character', () => {
    const version = /^[v^~<>=]*?(\d+)(?:\.(\d+)(?:\.(\d+)(?:-([\da-z-]+))?)?)?$/i;
    const samples = regexSamples(version);
    expect(samples).toEqual(expect.arrayContaining(['1', '1.2', '1.2.3', '1.2.3-4']));
    expect(samples.every((s) => version.test(s))).toBe(true);
    const duration = /^(\d+(?:\.\d+)?) *(ms|seconds?|h)$/;
    const units = regexSamples(duration, 20);
    expect(units).toEqual(expect.arrayContaining(['1ms', '1.2 seconds', '1h']));
    expect(units.every((s) => duration.test(s))).toBe(true);
    expect(regexSamples(/^([<>=~^]+)/)).toEqual(expect.arrayContaining(['<', '>', '=', '~', '^']));
  });

  it('puts the body’s pattern samples and split separators before the plain pool, the module’s literals after', () => {
    const file = join(PKG, 'index.js');
    const reader = createTypeReader(ts);
    const sf = reader.parse(file)!;
    const unit = sf.text.indexOf('export default function');
    const strings = sourceStrings(reader, file, { start: unit, end: sf.text.length }, ['abc']);
    expect(strings?.slice(0, 6)).toEqual(['1ms', '1 ms', '1 s', '1s', '1 m', '1m']);
    expect(strings).toContain('abc');
    expect(strings?.indexOf('short')).toBeGreaterThan(strings!.indexOf('abc'));
  });
});

describe('README examples (examples.mjs)', () => {
  it('reads JavaScript code blocks only, and calls of a default export by the name the package is imported under', () => {
    expect(codeBlocks('```sh\nnpm i x\n```\n\n```js\nf(1)\n```\n\n```\ng(2)\n```\n')).toEqual(['f(1)\n', 'g(2)\n']);
    expect(readmeInputs(PKG, 'default')).toEqual([[{ t: 'str', v: '20ms' }], [{ t: 'str', v: '3 s' }]]);
  });

  it('evaluates a call whose arguments name constants the example declared before it', () => {
    expect(readmeInputs(PKG, 'countAbove')).toEqual([[
      { t: 'map', v: [[{ t: 'str', v: 'a' }, { t: 'number', v: '5' }], [{ t: 'str', v: 'b' }, { t: 'number', v: '1' }]] },
      { t: 'number', v: '2' },
    ]]);
  });
});

describe('loading a default export (load.mjs)', () => {
  it('takes a transpiled ES module’s own default export, not module.exports, in CommonJS', async () => {
    const { loadModule, callTarget } = (await import('../../src/languages/javascript/runtime/load.mjs')) as unknown as {
      loadModule(file: string): Promise<unknown>;
      callTarget(loaded: unknown, target: string, init: null, args: unknown[]): unknown;
    };
    const loaded = await loadModule(join(PKG, 'cjs/transpiled.js'));
    expect(callTarget(loaded, 'default', null, [4])).toBe(8);
  });
});

describe('mutants and impurities', () => {
  it('makes no mutant inside a built-in error’s arguments (its message is never compared)', () => {
    const source = "export function f(v) {\n  if (v < 0) throw new Error('bad ' + JSON.stringify(v) + 'x');\n  return v + 1;\n}\n";
    const sf = ts.createSourceFile('f.js', source, ts.ScriptTarget.Latest, true, ts.ScriptKind.JS);
    const fn = findFunction(ts, sf, 1, 4)!;
    const found = mutantsOf(ts, sf, fn).map((m) => m.description);
    expect(found.some((d) => d.includes("'bad '") || /line 2: \+ -> -/.test(d))).toBe(false);
    expect(found).toContain('line 3: + -> -');
    // `void 0` is undefined whatever the number
    const voided = ts.createSourceFile('g.js', 'function g(v) {\n  return v === void 0 ? 1 : v;\n}\n', ts.ScriptTarget.Latest, true, ts.ScriptKind.JS);
    const numbers = mutantsOf(ts, voided, findFunction(ts, voided, 1, 3)!).map((m) => m.description).filter((d) => /: \(?-?\d+\)? -> /.test(d));
    expect(numbers).toEqual(['line 2: 1 -> 2', 'line 2: 1 -> 0']);
  });

  it('counts deterministic built-ins reached through globalThis as pure, the rest of globalThis not', async () => {
    await loadJavaScriptGrammars();
    const parser = createJavaScriptParser('javascript');
    const tree = parser.parse('function f(a) { const t = new globalThis.TextDecoder(); return globalThis.btoa(t.decode(a)) + globalThis.myCache; }')!;
    expect(impuritiesIn(tree.rootNode)).toEqual(['global:globalThis.myCache']);
    tree.delete();
    parser.delete();
  });
});

describe('record-driver.mjs with declared types and README examples', () => {
  it('records a plain JavaScript function on values of its .d.ts types, README and declaration examples first', async () => {
    const recorder = createJavaScriptRecorder({ typescriptPath: HOST_TYPESCRIPT });
    const units = await unitsOf('typed-pkg');
    const candidates = units.filter((u) => ['sumBytes', 'countAbove', 'default'].includes(u.qualname) && u.file === 'index.js').map((unit) => ({ unit, reasons: [] }));
    const config = {
      ...recorder.config(candidates, PKG), repoRoot: PKG, seed: 1, workDir: makeTempDir('cm-jsinputs-'), callTimeoutMs: 2000,
      maxCases: 40, traceTimeoutMs: 10_000, runRepoTests: false, targets: candidates.map((c) => recorder.target(c, new Map(), [])),
    };
    const result = recordResultSchema.parse(await runJavaScriptDriver('record', config));
    const byId = new Map(result.targets.map((t) => [t.unitId, t] as const));
    const sum = byId.get('index:sumBytes')!;
    expect(sum.drop).toBeNull();
    expect(sum.cases[0]).toMatchObject({ source: 'doctest', expect: { returns: { t: 'number', v: '5' } } });
    expect(new Set(sum.cases.map((c) => JSON.stringify(c.expect))).size).toBeGreaterThan(3);
    const count = byId.get('index:countAbove')!;
    expect(count.cases[0]).toMatchObject({ source: 'readme', expect: { returns: { t: 'number', v: '1' } } });
    const parse = byId.get('index:default')!;
    expect(parse.sources.readme).toEqual({ tried: 2, kept: 2 });
    // generated strings reach past the pattern: durations in every unit
    const returned = parse.cases.filter((c) => 'returns' in c.expect && c.source === 'type-hint');
    expect(returned.length).toBeGreaterThanOrEqual(3);
  }, 60_000);

  it('searches typed arrays as long as a module constant the body names (`bytes.length < LIMIT`)', async () => {
    const recorder = createJavaScriptRecorder({ typescriptPath: HOST_TYPESCRIPT });
    const candidates = (await unitsOf('typed-pkg')).filter((u) => u.qualname === 'blockSum').map((unit) => ({ unit, reasons: [] }));
    const common = { ...recorder.config(candidates, PKG), repoRoot: PKG, seed: 1, workDir: makeTempDir('cm-jsinputs-'), callTimeoutMs: 2000 };
    const targets = candidates.map((c) => recorder.target(c, new Map(), []));
    const recorded = recordResultSchema.parse(await runJavaScriptDriver('record', { ...common, maxCases: 40, traceTimeoutMs: 10_000, runRepoTests: false, targets }));
    const cases = recorded.targets[0]!.cases;
    // the generated arrays are all shorter than the limit: `<` and `<=` agree on them
    expect(cases.every((c) => c.expect.returns?.v === '-1' || !('returns' in c.expect))).toBe(true);
    const mutated = mutateResultSchema.parse(await runJavaScriptDriver('mutate', { ...common, search: true, maxNewCases: 20, maxMutants: 150, targets: targets.map((t) => ({ ...t, cases })) }));
    const found = mutated.targets[0]!;
    expect(found.newCases.some((c) => Buffer.from((c.args[0] as { v: { b64: string } }).v.b64, 'base64').length >= 6)).toBe(true);
    expect(found.mutation.survivors.filter((s) => s.startsWith('line 5:'))).toEqual([]);
  }, 90_000);
});

describe('inputs for a unit table and its constants', () => {
  it('samples each branch of an alternation alone, its optional parts taken and left out (`years?`: years and year)', () => {
    const samples = regexSamples(/^(-?\d+) *(seconds?|minutes?|hours?|days?|weeks?|years?)?$/i);
    for (const unit of ['second', 'minute', 'hour', 'day', 'week', 'year']) {
      expect(samples.some((s) => new RegExp(`^-?\\d+ *${unit}$`).test(s)), unit).toBe(true);
      expect(samples.some((s) => new RegExp(`^-?\\d+ *${unit}s$`).test(s)), `${unit}s`).toBe(true);
    }
  });

  it('takes README calls of a default export by the package name in camelCase when no import shows the binding', () => {
    const dir = makeTempDir('cm-readme-');
    writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: '@scope/to-ms' }));
    writeFileSync(join(dir, 'readme.md'), "# to-ms\n\n```js\ntoMs('2 days') // 172800000\ntoMs(60000, { long: true })\n```\n");
    expect(readmeInputs(dir, 'default')).toEqual([
      [{ t: 'str', v: '2 days' }],
      [{ t: 'number', v: '60000' }, { t: 'object', v: [['long', { t: 'bool', v: true }]] }],
    ]);
  });

  it('searches around the module constants a body names, computed ones too (`var d = h * 24`)', () => {
    const source = 'var s = 1000;\nvar m = s * 60;\nvar h = m * 60;\nconst d = (h * 24);\nfunction fmt(ms) {\n  if (ms >= d) return Math.round(ms / d) + "d";\n  return ms + "ms";\n}\n';
    const sf = ts.createSourceFile('x.js', source, ts.ScriptTarget.Latest, true);
    const fn = findFunction(ts, sf, 5, 8)!;
    expect([...new Set(namedConstants(ts, sf, fn))]).toEqual([86399999, 86400000, 86400001]);
  });
});
