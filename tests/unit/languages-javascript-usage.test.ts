import { mkdirSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import ts from 'typescript';
import { afterAll, describe, expect, it } from 'vitest';
import { createTypeReader, type TypeReader } from '../../src/languages/javascript/runtime/declared-types.mjs';
import * as inputsModule from '../../src/languages/javascript/runtime/inputs.mjs';
import * as regexSamplesModule from '../../src/languages/javascript/runtime/regex-samples.mjs';
import * as sourceStringsModule from '../../src/languages/javascript/runtime/source-strings.mjs';
import * as usageModule from '../../src/languages/javascript/runtime/usage-shapes.mjs';
import { recordResultSchema } from '../../src/pipeline/record/harness-result-schema.js';
import { makeTempDir, removeTempDirs, runJavaScriptDriver } from './languages-javascript-fixtures.js';

afterAll(removeTempDirs);

type Shape = { k: string; props?: { name: string; type: Shape }[]; of?: Shape | Shape[]; v?: unknown };
const { usageShapes, entryFunction, alikeParams, feedersOf } = usageModule as unknown as {
  usageShapes(t: typeof ts, sf: ts.SourceFile, fn: ts.FunctionLikeDeclaration): (Shape | null)[];
  alikeParams(t: typeof ts, fn: ts.FunctionLikeDeclaration): [number, number][];
  feedersOf(t: typeof ts, sf: ts.SourceFile, name: string): Map<number, Set<string>>;
  entryFunction(t: typeof ts, sf: ts.SourceFile, exportPath: string): ts.FunctionLikeDeclaration | null;
};
const { generatedInputs } = inputsModule as unknown as { generatedInputs(params: unknown[], body: string, random: () => number, extra: number, pools: { strings?: string[] }, examples?: unknown[][]): unknown[][] };
const { regexSamples } = regexSamplesModule as unknown as { regexSamples(regex: RegExp, limit?: number): string[] };
const { sourceStrings } = sourceStringsModule as unknown as { sourceStrings(reader: TypeReader, file: string, range: { start: number; end: number } | null, basics: string[]): string[] | null };
const HOST_TYPESCRIPT = dirname(dirname(createRequire(import.meta.url).resolve('typescript')));

// a CommonJS module written here: a parser that takes a string or a request-like object, as
// content-type parsers do, and a formatter of an options-like object
const MODULE = `
var KIND = /^[a-z0-9]+\\/[a-z0-9+.-]+$/i;
var PARAM = /; *([a-z]+)=([a-z0-9-]+)/gi;

function headerOf(msg) {
  var header;
  if (typeof msg.getHeader === 'function') header = msg.getHeader('x-kind');
  else if (typeof msg.headers === 'object') header = msg.headers && msg.headers['x-kind'];
  if (typeof header !== 'string') throw new TypeError('no x-kind header');
  return header;
}

function parseKind(input) {
  var text = typeof input === 'object' ? headerOf(input) : input;
  if (typeof text !== 'string') throw new TypeError('a string is required');
  var at = text.indexOf(';');
  var kind = (at === -1 ? text : text.slice(0, at)).trim();
  if (!KIND.test(kind)) throw new TypeError('invalid kind');
  var params = {};
  var m;
  PARAM.lastIndex = 0;
  while ((m = PARAM.exec(text))) params[m[1].toLowerCase()] = m[2];
  return { kind: kind.toLowerCase(), params: params };
}

function formatKind(obj) {
  var params = obj.params;
  var kind = obj.kind;
  if (!KIND.test(kind)) throw new TypeError('invalid kind');
  var out = kind;
  if (params && typeof params === 'object') for (var key of Object.keys(params).sort()) out += '; ' + key + '=' + params[key];
  if (obj.level > 2) out += ' (deep)';
  return out;
}

function pick({ name, size = 1 }) {
  return name + ':' + size;
}

module.exports = { parseKind: parseKind, formatKind: formatKind, pick: pick };
`;

function parsed(): ts.SourceFile {
  return ts.createSourceFile('index.js', MODULE, ts.ScriptTarget.Latest, true, ts.ScriptKind.JS);
}

describe('what a body reads of its parameters (usage-shapes.mjs)', () => {
  it('gives the object a request-like parameter must be, through the function it is handed to', () => {
    const sf = parsed();
    const [shape] = usageShapes(ts, sf, entryFunction(ts, sf, 'parseKind')!);
    expect(shape).toEqual({ k: 'object', props: [{ name: 'headers', optional: false, type: { k: 'object', props: [{ name: 'x-kind', optional: false, type: { k: 'string' } }] } }] });
  });

  it('follows a property into a variable, reads Object.keys and comparisons as kinds, and takes binding patterns', () => {
    const sf = parsed();
    const [format] = usageShapes(ts, sf, entryFunction(ts, sf, 'formatKind')!);
    expect(format?.props?.map((p) => [p.name, p.type.k])).toEqual([['params', 'record'], ['kind', 'string'], ['level', 'number']]);
    const [pick] = usageShapes(ts, sf, entryFunction(ts, sf, 'pick')!);
    expect(pick?.props?.map((p) => [p.name, p.type.k])).toEqual([['name', 'string'], ['size', 'number']]);
  });

  it('reads constructor comparisons, instanceof and isArray/isView checks as the built-in classes a value may be', () => {
    const code = `function same(a, b) {
      var ctor;
      if (a && b && (ctor = a.constructor) === b.constructor) {
        if (ctor === Date) return a.getTime() === b.getTime();
        if (a instanceof Map) return a.size === b.size;
        if (ArrayBuffer.isView(a)) return a.byteLength === b.byteLength;
      }
      return Array.isArray(b) && a === b;
    }`;
    const sf = ts.createSourceFile('x.js', code, ts.ScriptTarget.Latest, true, ts.ScriptKind.JS);
    const [a, b] = usageShapes(ts, sf, entryFunction(ts, sf, 'same')!);
    expect(a).toMatchObject({ k: 'union', of: ['Date', 'Map', 'Uint8Array'].map((name) => ({ k: 'builtin', name })) });
    // a Map checked at the top holds containers too, keys and values
    expect((a?.of as { name: string; of: Shape[] }[])[1]!.of.map((m) => m.k)).toEqual(['union', 'union']);
    // b: checked as an array: arrays holding values and containers (a walk's second level)
    expect(b).toMatchObject({ k: 'array', of: { k: 'union' } });
  });

  it('gives a value walked as a container nested containers, and the keys its walk singles out as fields', () => {
    const code = `function copy(val) {
      var k, out;
      if (Array.isArray(val)) { out = []; for (k = 0; k < val.length; k++) out[k] = copy(val[k]); return out; }
      if (Object.prototype.toString.call(val) === '[object Object]') {
        out = {};
        for (k in val) { if (k === '__proto__') continue; out[k] = copy(val[k]); }
        return out;
      }
      return val;
    }`;
    const sf = ts.createSourceFile('x.js', code, ts.ScriptTarget.Latest, true, ts.ScriptKind.JS);
    const [val] = usageShapes(ts, sf, entryFunction(ts, sf, 'copy')!);
    const members = (val?.of as Shape[]).map((m) => m.k);
    expect(members).toEqual(['object', 'array', 'record']);
    expect((val?.of as Shape[])[0]!.props!.map((p) => p.name)).toEqual(['__proto__']);
    // the containers hold objects and arrays of their own
    const nested = ((val?.of as Shape[])[1]!.of as Shape).of as Shape[];
    expect(nested.map((m) => m.k)).toEqual(expect.arrayContaining(['object', 'array']));
  });

  it('reads Object.prototype.toString class tags as the classes a value may be', () => {
    const code = `function copy(x) {
      var str = Object.prototype.toString.call(x);
      if (str === '[object Map]') return new Map(x);
      if (str === '[object Date]') return new Date(+x);
      if (str === '[object Array]') return x.slice();
      return x;
    }`;
    const sf = ts.createSourceFile('x.js', code, ts.ScriptTarget.Latest, true, ts.ScriptKind.JS);
    const [x] = usageShapes(ts, sf, entryFunction(ts, sf, 'copy')!);
    // (x.slice() is a string's method too)
    expect((x?.of as Shape[]).map((m) => m.name ?? m.k)).toEqual(['Map', 'Date', 'array', 'string']);
  });

  it('pairs the parameters a body compares with each other, whole or by the same property', () => {
    const code = `function eq(a, b, depth) {
      if (a === b) return true;
      if (a.size !== b.size || depth > 3) return false;
      return a.get(1) === b.get(1);
    }
    function lt(x, y) { return x.length < 3 && y.length > 1; }`;
    const sf = ts.createSourceFile('x.js', code, ts.ScriptTarget.Latest, true, ts.ScriptKind.JS);
    expect(alikeParams(ts, entryFunction(ts, sf, 'eq')!)).toEqual([[0, 1]]);
    expect(alikeParams(ts, entryFunction(ts, sf, 'lt')!)).toEqual([]);
  });

  it('finds the functions of the file whose results are handed to a function, directly or through a variable', () => {
    const code = `function parse(s) { return s.split('/'); }
    function toRegexp(tokens, flags) { return new RegExp(tokens.join('|'), flags); }
    function compile(s) { return toRegexp(parse(s), flagsOf(s)); }
    function match(s) { const tokens = parse(s); return toRegexp(tokens); }
    function flagsOf(s) { return s.endsWith('i') ? 'i' : ''; }`;
    const sf = ts.createSourceFile('x.js', code, ts.ScriptTarget.Latest, true, ts.ScriptKind.JS);
    expect([...feedersOf(ts, sf, 'toRegexp')].map(([i, names]) => [i, [...names]])).toEqual([[0, ['parse']], [1, ['flagsOf']]]);
  });

  it('gives nothing for a parameter only used whole', () => {
    const sf = ts.createSourceFile('x.js', 'function f(a, b) { return a + b; }', ts.ScriptTarget.Latest, true, ts.ScriptKind.JS);
    expect(usageShapes(ts, sf, entryFunction(ts, sf, 'f')!)).toEqual([null, null]);
  });
});

describe('strings shaped like what the code checks, of all sorts', () => {
  it('samples a character class as a lowercase letter, an uppercase one and a digit before punctuation', () => {
    const samples = regexSamples(/^[!#$%0-9A-Za-z-]+\/[!#0-9A-Za-z]+$/);
    expect(samples.slice(0, 4)).toEqual(['a/a', 'A/A', '0/0', '!/!']);
  });

  it('puts samples of whole-string patterns before those of patterns that only clean the text', () => {
    const dir = makeTempDir('cm-jsusage-');
    const file = join(dir, 'range.js');
    const code = `function satisfies(version, range) {
      range = range.replace(/([><=]+)\\s+/g, '$1');
      if (!/^[~^]?\\d+\\.\\d+$/.test(range)) throw new Error('bad range');
      return version === range.replace(/^[~^]/, '');
    }`;
    writeFileSync(file, code);
    const strings = sourceStrings(createTypeReader(ts), file, { start: 0, end: code.length }, ['abc'])!;
    expect(strings[0]).toMatch(/^[~^]?\d+\.\d+$/);
    expect(strings.indexOf('> ')).toBeGreaterThan(0);
  });

  it('varies one parameter at a time around the examples the sources give, before the pools’ plain base', () => {
    const params = [{ name: 'version', kind: 'positional', annotation: 'string', defaultValue: null }, { name: 'range', kind: 'positional', annotation: 'string', defaultValue: null }];
    const str = (v: string): { t: string; v: string } => ({ t: 'str', v });
    const lists = generatedInputs(params, '', () => 0, 0, { strings: ['> ', '1.2.3'] }, [[str('10.0.1'), str('~10.0.0')]]);
    expect(lists.slice(0, 2)).toEqual([[str('> '), str('~10.0.0')], [str('10.0.1'), str('> ')]]);
    expect(lists).toContainEqual([str('1.2.3'), str('~10.0.0')]);
    expect(lists).toContainEqual([str('> '), str('> ')]);
  });

  it('samples a negated class as several ordinary characters, one per pick', () => {
    expect(regexSamples(/^\[([^\]]*)\]$/)).toEqual(expect.arrayContaining(['[a]', '[A]', '[1]', '[.]']));
  });

  it('joins samples of the body’s patterns by what a split pattern accepts (the lines of a text it parses)', () => {
    const dir = makeTempDir('cm-jsusage-');
    const file = join(dir, 'ini.js');
    const code = `function decode(str) {
      var out = {};
      str.split(/[\\r\\n]+/).forEach(function (line) {
        var m = line.match(/^\\[([^\\]]*)\\]$|^([^=]+)=(.*)$/);
        if (m && m[1] !== undefined) out[m[1]] = {};
        else if (m) out[m[2]] = m[3];
      });
      return out;
    }
    module.exports = { decode: decode };`;
    writeFileSync(file, code);
    const strings = sourceStrings(createTypeReader(ts), file, { start: 0, end: code.length }, ['abc'])!;
    // a section line and a key line in one text, split where the body splits
    expect(strings.some((s) => /\[[^\]\r\n]*\][\r\n]+[^=\r\n]+=/.test(s))).toBe(true);
  });

  it('counts the module constants a body names as the body’s patterns, and joins one pattern’s samples to another’s', () => {
    const dir = makeTempDir('cm-jsusage-');
    const file = join(dir, 'index.js');
    writeFileSync(file, MODULE);
    const reader = createTypeReader(ts);
    const start = MODULE.indexOf('function parseKind');
    const strings = sourceStrings(reader, file, { start, end: MODULE.indexOf('function formatKind') }, ['abc'])!;
    // KIND and PARAM are declared outside the body: their samples still come before the plain pool
    expect(strings.indexOf('a/a')).toBeGreaterThanOrEqual(0);
    expect(strings.indexOf('a/a')).toBeLessThan(strings.indexOf('abc'));
    expect(strings.some((s) => /^a\/a; *a=a$/.test(s))).toBe(true);
  });
});

describe('recording a function whose parameter is a request-like object', () => {
  it('builds objects of the shape the body reads, so calls reach the internal function and return', async () => {
    const dir = makeTempDir('cm-jsusage-');
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'index.js'), MODULE);
    writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'kinds', version: '1.0.0', main: 'index.js' }));
    const lines = MODULE.split('\n');
    const lineOf = (text: string): number => lines.findIndex((l) => l.includes(text)) + 1;
    const config = {
      repoRoot: dir, seed: 1, typescriptPath: HOST_TYPESCRIPT, workDir: makeTempDir('cm-jsusage-'), callTimeoutMs: 2000, maxCases: 6, runRepoTests: false,
      targets: [{
        unitId: 'index:headerOf', module: 'index', file: 'index.js', target: 'parseKind', via: true,
        params: [{ name: 'input', kind: 'positional', annotation: null, defaultValue: null }], docstring: null, callSites: [], initCallSites: [],
        startLine: lineOf('function headerOf'), endLine: lineOf('function parseKind') - 2,
      }],
    };
    const recorded = recordResultSchema.parse(await runJavaScriptDriver('record', config));
    const cases = recorded.targets[0]!.cases;
    const objectCalls = cases.filter((c) => (c.args[0] as { t: string }).t === 'object');
    expect(objectCalls.length).toBeGreaterThan(3);
    // one of them carries a kind the pattern accepts, so the call returns
    expect(objectCalls.some((c) => 'returns' in c.expect)).toBe(true);
    // calls that throw fill at most half the 12 cases (an internal unit keeps twice maxCases) while
    // calls that return are left: in input order, throwing calls come first here
    const raising = cases.filter((c) => 'raises' in c.expect).length;
    expect(cases).toHaveLength(12);
    expect(raising).toBe(6);
  }, 60_000);
});
