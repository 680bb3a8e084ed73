import { writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import ts from 'typescript';
import { afterAll, describe, expect, it } from 'vitest';
import * as inputsModule from '../../src/languages/javascript/runtime/inputs.mjs';
import * as mutantsModule from '../../src/languages/javascript/runtime/mutants.mjs';
import * as usageModule from '../../src/languages/javascript/runtime/usage-shapes.mjs';
import { mutateResultSchema } from '../../src/pipeline/record/harness-result-schema.js';
import { makeTempDir, removeTempDirs, runJavaScriptDriver } from './languages-javascript-fixtures.js';

afterAll(removeTempDirs);

type Shape = { k: string; props?: { name: string; optional: boolean; type: Shape }[]; of?: Shape[]; v?: unknown; name?: string };
type Tagged = { t: string; v?: unknown };
const { usageShapes, entryFunction } = usageModule as unknown as {
  usageShapes(t: typeof ts, sf: ts.SourceFile, fn: ts.FunctionLikeDeclaration): (Shape | null)[];
  entryFunction(t: typeof ts, sf: ts.SourceFile, exportPath: string): ts.FunctionLikeDeclaration | null;
};
const { fieldAdditions } = inputsModule as unknown as { fieldAdditions(tagged: Tagged, shape: Shape | null, pools?: { strings?: string[]; numbers?: number[] }, perField?: number): Tagged[] };
const { mutantsOf, findFunction } = mutantsModule as unknown as {
  mutantsOf(t: typeof ts, sf: ts.SourceFile, fn: ts.FunctionLikeDeclaration): { description: string; guarded: boolean }[];
  findFunction(t: typeof ts, sf: ts.SourceFile, startLine: number, endLine: number): ts.FunctionLikeDeclaration | null;
};
const HOST_TYPESCRIPT = dirname(dirname(createRequire(import.meta.url).resolve('typescript')));

// a CommonJS module written here: formatters taking option objects the way small npm packages do
// (a copy with defaults, a recased field switched on, a destructured parameter with defaults
// compared with module constants)
const MODULE = `
const MODE_FULL = 'full';
const ALIGN_CENTER = 'center';

function describeItem(name, options) {
  var opt = options || {};
  var out = String(name);
  if (opt.count != null) {
    var count = opt.count - 0;
    if (!isFinite(count)) throw new TypeError('count is invalid');
    out += ' x' + Math.floor(count);
  }
  if (opt.tag) out += ' #' + opt.tag;
  if (opt.mode) {
    var mode = typeof opt.mode === 'string' ? opt.mode.toLowerCase() : opt.mode;
    switch (mode) {
      case 'short':
        out = out.slice(0, 3);
        break;
      case MODE_FULL:
        out = '[' + out + ']';
        break;
      default:
        throw new TypeError('mode is invalid');
    }
  }
  return out;
}

function layout(text, { width = 10, align = 'left', fill = false } = {}) {
  if (align === ALIGN_CENTER) return text.padStart(Math.floor((width + text.length) / 2)).padEnd(width);
  if (fill) return text.padEnd(width, '.');
  return width > 4 ? text.slice(0, width) : text;
}

function merged(settings) {
  const s = { ...{ count: 1 }, ...settings };
  return s.count * 2 + (s.label ? s.label.length : 0);
}

function render(tokens) {
  var out = '';
  for (var _i = 0, tokens_1 = tokens; _i < tokens_1.length; _i++) {
    var token = tokens_1[_i];
    if (typeof token === 'string') out += token;
    else if (token.kind === 'strong') out += '**' + token.text + '**';
    else out += token.text;
  }
  return out;
}

function total(rows) {
  let sum = 0;
  for (const row of rows) sum += row.qty * row.price;
  return sum + rows.filter((r) => r.tag === 'gift').length;
}

module.exports = { describeItem: describeItem, layout: layout, merged: merged, render: render, total: total };
`;

function parsed(): ts.SourceFile {
  return ts.createSourceFile('index.js', MODULE, ts.ScriptTarget.Latest, true, ts.ScriptKind.JS);
}

function shapeOf(name: string, position: number): Shape {
  const sf = parsed();
  return usageShapes(ts, sf, entryFunction(ts, sf, name)!)[position]!;
}

const fieldNames = (shape: Shape): string[] => (shape.props ?? []).map((p) => p.name);

describe('what a body reads of an options object (usage-shapes.mjs)', () => {
  it('follows `options || {}` into its copy, and a recased field into the variable the switch reads', () => {
    const shape = shapeOf('describeItem', 1);
    expect(fieldNames(shape)).toEqual(['count', 'tag', 'mode']);
    const mode = shape.props!.find((p) => p.name === 'mode')!.type;
    // the switch's literals, the module constant's value among them
    expect(mode.of?.filter((s) => s.k === 'literal').map((s) => s.v)).toEqual(['short', 'full']);
  });

  it('reads the members of a destructured parameter where they are used, module constants as their values', () => {
    const shape = shapeOf('layout', 1);
    const byName = new Map(shape.props!.map((p) => [p.name, p.type] as const));
    expect([...byName.keys()]).toEqual(['width', 'align', 'fill']);
    expect(byName.get('align')!.of?.some((s) => s.k === 'literal' && s.v === 'center')).toBe(true);
    expect(byName.get('width')!.k).toBe('number');
  });

  it('follows a spread copy (`{ ...defaults, ...settings }`)', () => {
    expect(fieldNames(shapeOf('merged', 0))).toEqual(['count', 'label']);
  });

  it('reads the items of a list: by index after a transpiled loop\'s copy, by for-of, and by a callback\'s parameter', () => {
    const tokens = shapeOf('render', 0);
    expect(tokens.k).toBe('array');
    const item = tokens.of as unknown as Shape;
    expect(item.k).toBe('union');
    const record = item.of!.find((s) => s.k === 'object')!;
    expect(fieldNames(record)).toEqual(['kind', 'text']);
    expect(record.props![0]!.type).toEqual({ k: 'literal', v: 'strong' });
    expect(item.of!.some((s) => s.k === 'string')).toBe(true);
    const rows = shapeOf('total', 0);
    expect(rows.k).toBe('array');
    expect(fieldNames(rows.of as unknown as Shape)).toEqual(['qty', 'price', 'tag']);
  });
});

describe('fieldAdditions', () => {
  it('adds each field the shape names and the object lacks, in the ways its kind gives, and leaves present ones', () => {
    const shape = shapeOf('describeItem', 1);
    const added = fieldAdditions({ t: 'object', v: [['tag', { t: 'str', v: 'a' }]] }, shape, { numbers: [0, 7] });
    const names = added.map((o) => (o.v as [string, Tagged][]).map(([k]) => k).join(','));
    expect(new Set(names)).toEqual(new Set(['tag,count', 'tag,mode']));
    expect(added).toContainEqual({ t: 'object', v: [['tag', { t: 'str', v: 'a' }], ['mode', { t: 'str', v: 'short' }]] });
    expect(added).toContainEqual({ t: 'object', v: [['tag', { t: 'str', v: 'a' }], ['count', { t: 'number', v: '7' }]] });
    expect(fieldAdditions({ t: 'str', v: 'a' }, shape)).toEqual([]);
    expect(fieldAdditions({ t: 'object', v: [] }, null)).toEqual([]);
  });
});

const lineOf = (text: string): number => MODULE.split('\n').findIndex((l) => l.includes(text)) + 1;

/**
 * The mutate run with search on MODULE's `name` (its lines from its declaration to the line before
 * `next`'s), given recorded calls `[args, returned string]`.
 */
async function searched(name: string, next: string, params: string[], calls: [Tagged[], string][]) {
  const dir = makeTempDir('cm-jssearch-');
  writeFileSync(join(dir, 'index.js'), MODULE);
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'options-kit', version: '1.0.0', main: 'index.js' }));
  const cases = calls.map(([args, result], i) => ({
    id: `${name}-${i}`, module: 'index', target: name, init: null, args, kwargs: {}, expect: { returns: { t: 'str', v: result } }, argsAfter: null, source: 'type-hint',
  }));
  const target = {
    unitId: `index:${name}`, module: 'index', file: 'index.js', target: name,
    params: params.map((p) => ({ name: p, kind: 'positional', annotation: null, defaultValue: null })),
    docstring: null, callSites: [], initCallSites: [], startLine: lineOf(`function ${name}`), endLine: lineOf(`function ${next}`) - 2, cases,
  };
  const config = { repoRoot: dir, seed: 1, workDir: makeTempDir('cm-jssearch-'), callTimeoutMs: 2000, typescriptPath: HOST_TYPESCRIPT, search: true, maxNewCases: 20, maxMutants: 150, targets: [target] };
  const result = mutateResultSchema.parse(await runJavaScriptDriver('mutate', config)).targets[0]!;
  expect(result.error).toBeNull();
  return { result, survivorsAt: (text: string) => result.mutation.survivors.filter((s) => s.startsWith(`line ${lineOf(text)}:`)) };
}

describe('the mutate run\'s search on option objects (mutate-driver.mjs)', () => {
  it('kills mutants behind options the recorded calls never gave, and behind a recased value only a later round tries', async () => {
    // recorded calls with no option at all: every option branch is left to the search
    const calls: [Tagged[], string][] = ['ab', 'pear', ''].map((name) => [[{ t: 'str', v: name }, { t: 'object', v: [] }], name]);
    const { result, survivorsAt } = await searched('describeItem', 'layout', ['name', 'options'], calls);
    // the recorded cases alone reach no option: the mutants of those lines survive them
    expect(result.before.survivors.some((s) => s.startsWith(`line ${lineOf("out += ' #' + opt.tag")}:`))).toBe(true);
    expect(survivorsAt("out += ' #' + opt.tag")).toEqual([]);
    expect(survivorsAt("out += ' x' + Math.floor(count)")).toEqual([]);
    expect(survivorsAt("out = '[' + out + ']'")).toEqual([]);
    // `typeof opt.mode === 'string'` negated differs only on a mode in capitals ('SHORT'): a variation of an added field
    expect(survivorsAt('var mode = typeof opt.mode')).toEqual([]);
    expect(result.newCases.some((c) => JSON.stringify(c.args[1]).includes('"mode"'))).toBe(true);
    expect(result.mutation.score).toBeGreaterThanOrEqual(0.9);
    // three rounds: the first at most 240 inputs, each later one at most 120
    expect(result.search.tried).toBeLessThanOrEqual(480);
  }, 90_000);

  it('varies the fields of a list\'s records (`token.kind === \'strong\'`), which no recorded call reached', async () => {
    const plain = (text: string): Tagged => ({ t: 'object', v: [['kind', { t: 'str', v: 'plain' }], ['text', { t: 'str', v: text }]] });
    const calls: [Tagged[], string][] = [[[{ t: 'array', v: [plain('a'), { t: 'str', v: '-' }] }], 'a-'], [[{ t: 'array', v: [plain('xy')] }], 'xy'], [[{ t: 'array', v: [] }], '']];
    const { result, survivorsAt } = await searched('render', 'total', ['tokens'], calls);
    const strongLine = `line ${lineOf("token.kind === 'strong'")}:`;
    expect(result.before.survivors.some((s) => s.startsWith(strongLine))).toBe(true);
    expect(survivorsAt("token.kind === 'strong'")).toEqual([]);
    expect(result.newCases.some((c) => JSON.stringify(c.args).includes('"strong"'))).toBe(true);
  }, 90_000);
});

describe('which mutants may not run when their block does (mutants.mjs `guarded`)', () => {
  it('guards a branch of a choice and a right operand, not a condition, a left operand or the logical operator itself', () => {
    const code = 'function f(a, b) {\n  const x = a ?? b;\n  const y = a > 1 ? b + 1 : 2;\n  return x - y;\n}\n';
    const sf = ts.createSourceFile('f.js', code, ts.ScriptTarget.Latest, true, ts.ScriptKind.JS);
    const guards = new Map(mutantsOf(ts, sf, findFunction(ts, sf, 1, 5)!).map((m) => [m.description, m.guarded] as const));
    expect(guards.get('line 2: ?? -> ||')).toBe(false);
    expect(guards.get('line 3: > -> >=')).toBe(false);
    expect(guards.get('line 3: + -> -')).toBe(true);
    expect(guards.get('line 4: - -> +')).toBe(false);
  });
});

describe('mutants whose statement no case began are not run (mutants.mjs `runsAt`, mutate-driver.mjs `anyReaches`)', () => {
  const { mutantsOf: withRunsAt } = mutantsModule as unknown as {
    mutantsOf(t: typeof ts, sf: ts.SourceFile, fn: ts.FunctionLikeDeclaration): { description: string; runsAt: number | null }[];
  };

  it('places a mutant at its innermost statement, and nowhere past a function between them', () => {
    const code = "function f(a, b) {\n  if ('object' !== a && 'string' !== a) b = 1;\n  const g = (x = a + 1) => x * 2;\n  return g(b);\n}\n";
    const sf = ts.createSourceFile('f.js', code, ts.ScriptTarget.Latest, true, ts.ScriptKind.JS);
    const at = new Map(withRunsAt(ts, sf, findFunction(ts, sf, 1, 5)!).map((m) => [m.description, m.runsAt] as const));
    expect(at.get('line 2: && -> ||')).toBe(code.indexOf('if ('));
    expect(at.get('line 3: + -> -')).toBeNull();
    expect(at.get('line 3: * -> /')).toBeNull();
    expect(at.get('line 4: return g(b) -> return undefined')).toBe(code.indexOf('return g(b)'));
  });

  it('kills an operator whose right operand never ran, and counts a mutant no case reached as a survivor', async () => {
    const dir = makeTempDir('cm-jsreach-');
    const source = "function kind(value, fallback) {\n  var type = typeof value;\n  if ('object' !== type && 'string' !== type) {\n    return fallback;\n  }\n  return type + ':' + fallback;\n}\nmodule.exports = { kind };\n";
    writeFileSync(join(dir, 'index.js'), source);
    writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'kinds', version: '1.0.0', main: 'index.js' }));
    // objects only: `'string' !== type` (the right operand) and `return fallback` never run
    const cases = [[{ t: 'object', v: [] }, 'x'], [{ t: 'array', v: [] }, 'z']].map(([value, fallback], i) => ({
      id: `kind-${i}`, module: 'index', target: 'kind', init: null, args: [value, { t: 'str', v: fallback }], kwargs: {}, expect: { returns: { t: 'str', v: `object:${String(fallback)}` } }, argsAfter: null, source: 'type-hint',
    }));
    const target = { unitId: 'index:kind', module: 'index', file: 'index.js', target: 'kind', params: [], docstring: null, callSites: [], initCallSites: [], startLine: 1, endLine: 7, cases };
    const config = { repoRoot: dir, seed: 1, workDir: makeTempDir('cm-jsreach-'), callTimeoutMs: 2000, typescriptPath: HOST_TYPESCRIPT, search: true, maxNewCases: 20, maxMutants: 150, targets: [target] };
    const result = mutateResultSchema.parse(await runJavaScriptDriver('mutate', config)).targets[0]!;
    expect(result.error).toBeNull();
    expect(result.before.survivors).not.toContain('line 3: && -> ||');
    expect(result.before.survivors).toContain('line 4: return fallback -> return undefined');
    const sf = ts.createSourceFile('index.js', source, ts.ScriptTarget.Latest, true, ts.ScriptKind.JS);
    expect(result.before.total).toBe(withRunsAt(ts, sf, findFunction(ts, sf, 1, 7)!).length);
  }, 90_000);
});
