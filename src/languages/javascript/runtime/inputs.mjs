// Where record-driver.mjs and mutate-driver.mjs get inputs from: JSDoc examples and call sites
// (literal argument texts, evaluated here: the sandbox runs the repository's own code anyway),
// values generated from the parameters (names, defaults, TypeScript annotations, the numbers in the
// body), constructor calls found in the repository, and variations of recorded inputs (the search).
// Every input is codec-encoded: {args: [TAGGED...], init: {args: [TAGGED...]} | null}.
import fs from 'node:fs';
import path from 'node:path';
import { Buffer } from 'node:buffer';
import { encode, functionFromSource } from './codec.mjs';

/**
 * The values of a comma-separated argument text, encoded; null when it is not a list of values.
 * Evaluates the text in this process: the drivers call it in evaluate.mjs, a child of their own
 * (an example's text may exit or loop), and read the answers through `evaluateArguments`.
 */
export function evaluateHere(text) {
  if (text.trim() === '') return [];
  let values;
  try {
    // eslint-disable-next-line no-new-func
    values = new Function(`"use strict"; return [${text}\n];`)();
  } catch {
    return null;
  }
  try {
    return values.map((v) => encode(v));
  } catch {
    return null;
  }
}

let evaluator = evaluateHere;

/** The values of a comma-separated argument text, encoded, or null: as the current evaluator (`withEvaluator`) says. */
export function evaluateArguments(text) {
  return evaluator(text);
}

/**
 * Runs `build` twice: once to collect every text it would evaluate, then, with their values from
 * `evaluateAll(texts)` (a Map text → values | null), to build for real. `build` must give the same
 * texts to evaluate whatever the values are (every builder here evaluates all it finds).
 */
export async function withEvaluator(build, evaluateAll) {
  const texts = new Set();
  evaluator = (text) => {
    texts.add(text);
    return null;
  };
  try {
    build();
    const values = texts.size > 0 ? await evaluateAll([...texts]) : new Map();
    evaluator = (text) => values.get(text) ?? null;
    return build();
  } finally {
    evaluator = evaluateHere;
  }
}

/** The text between the parenthesis at `open` and its match (strings and nesting skipped), or null. */
export function balancedArguments(text, open) {
  let depth = 0;
  let quote = null;
  for (let i = open; i < text.length; i++) {
    const c = text[i];
    if (quote !== null) {
      if (c === '\\') i++;
      else if (c === quote) quote = null;
      continue;
    }
    if (c === '"' || c === "'" || c === '`') quote = c;
    else if (c === '(' || c === '[' || c === '{') depth++;
    else if (c === ')' || c === ']' || c === '}') {
      depth--;
      if (depth === 0) return c === ')' ? text.slice(open + 1, i) : null;
    }
  }
  return null;
}

function escapeRegExp(text) {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** Argument texts of every call of `name` in `text` (`name(` not after `function ` or `new `, nor a property of something else when `bare`). */
export function callArgumentTexts(text, name, { isNew = false } = {}) {
  const out = [];
  const pattern = isNew ? new RegExp(`\\bnew\\s+${escapeRegExp(name)}\\s*\\(`, 'g') : new RegExp(`(?<![\\w$])${escapeRegExp(name)}\\s*\\(`, 'g');
  for (let m = pattern.exec(text); m !== null; m = pattern.exec(text)) {
    if (!isNew && /(?:function\s*\*?\s*|new\s+)$/.test(text.slice(Math.max(0, m.index - 12), m.index))) continue;
    const args = balancedArguments(text, m.index + m[0].length - 1);
    if (args !== null) out.push(args);
  }
  return out;
}

/** Single-line `const|let|var NAME = EXPR;` declarations of a code text, by name (the last one wins). */
function declarationsOf(code) {
  const out = new Map();
  for (const m of code.matchAll(/^\s*(?:export\s+)?(?:const|let|var)\s+([A-Za-z_$][\w$]*)\s*(?::[^=\n]+)?=\s*(.+?);?\s*$/gm)) {
    if (!/\brequire\s*\(|^\s*await\b|\bimport\s*\(/.test(m[2])) out.set(m[1], m[2]);
  }
  return out;
}

/** The argument text with the declarations it needs before it (names it uses, and theirs), as one evaluable text. */
function withSetup(args, declarations) {
  const needed = [];
  const visit = (text, depth) => {
    if (depth > 5) return;
    for (const [name, expr] of declarations) {
      if (needed.some(([n]) => n === name) || !new RegExp(`(?<![\\w$.])${name.replace(/\$/g, '\\$')}(?![\\w$])`).test(text)) continue;
      visit(expr, depth + 1);
      if (!needed.some(([n]) => n === name)) needed.push([name, expr]);
    }
  };
  visit(args, 0);
  if (needed.length === 0) return args;
  const setup = needed.map(([n, e]) => `const ${n} = ${e};`).join(' ');
  return `...(() => { ${setup} return [${args}\n]; })()`;
}

/** Inputs from the calls of any of `names` in a code text, with the constants the text declares. */
export function exampleCallInputs(code, names) {
  const declarations = declarationsOf(code);
  const out = [];
  for (const name of names) {
    for (const text of callArgumentTexts(code, name)) {
      const args = evaluateArguments(withSetup(text, declarations));
      if (args !== null) out.push(args);
    }
  }
  return out;
}

/** Inputs from a JSDoc comment's examples (`@example` blocks, or any `name(...)` in the comment), with the constants they declare. */
export function docExampleInputs(docstring, name) {
  if (!docstring) return [];
  const lines = String(docstring).split('\n').map((l) => l.replace(/^\s*\*\s?/, ''));
  return exampleCallInputs(lines.join('\n'), [name]);
}

/** Inputs from call sites' literal argument texts. */
export function callSiteInputs(callSites) {
  const out = [];
  for (const site of callSites ?? []) {
    const texts = site.argumentTexts ?? [];
    if (texts.some((t) => /^\s*\.\.\./.test(t))) continue;
    const args = evaluateArguments(texts.join(', '));
    if (args !== null) out.push(args);
  }
  return out;
}

const NUMBER_NAME = /^(?:[nijkxyzabcdmpqt]|num|count|size|len|length|width|height|index|idx|start|end|from|to|min|max|lo|hi|low|high|step|limit|offset|amount|value|val|score|age|times|depth|level|year|month|day|hours?|minutes?|seconds?|ms|base|radix|precision|digits|places|ratio|rate|factor)$|(?:Count|Size|Num|Len|Length|Width|Height|Index|Total|Max|Min|Limit)$/i;
const STRING_NAME = /^(?:s|str|string|text|name|prefix|suffix|sep|separator|delimiter|char|ch|word|pattern|key|label|title|message|msg|path|url|line|input|source|sentence|slug|email|id|template|format|fmt|locale|unit)$|(?:Name|Text|Str|String|Key|Path|Url|Prefix|Suffix|Label)$/i;
const ARRAY_NAME = /^(?:list|arr|array|items|values|xs|ys|nums|numbers|elements|entries|rows|words|lines|parts|tokens|data|args|keys|strings|pairs|points)$|(?:List|Array|Items|s)$/;
const BOOL_NAME = /^(?:is|has|should|can|allow|use|enable|flag|strict|loose|deep|reverse|ascending|descending|inclusive|exclusive)|^(?:enabled|disabled|verbose|force|recursive)$/i;
const OBJECT_NAME = /^(?:opts|options|config|settings|obj|object|record|dict|map|props|params|attrs)$/i;
const FUNCTION_NAME = /^(?:f|fn|func|callback|cb|compare|comparator|cmp|predicate|pred|iteratee|iterator|mapper|mapFn|reducer|test|filter|transform|handler|visitor|replacer|reviver|resolver|customizer|equals|isEqual|getKey|keyFn|sorter)$|(?:Fn|Func|Callback|Handler|Comparator|Predicate|Mapper|Reducer)$/;

export const POOLS = {
  number: [0, 1, 2, -1, 3, 10, 0.5, 100, -7],
  string: ['', 'a', 'abc', 'Hello World', '  padded  ', 'a-b_c d', '42', 'ÄÖü', '\n  first\n    second\n  '],
  boolean: [true, false],
  array: [[], [1], [1, 2, 3], [3, 1, 2, 2], ['b', 'a'], [0, -1, 5]],
  object: [{}, { a: 1 }, { a: 1, b: 'x' }],
  any: [1, 'abc', [1, 2], 'a\n  b', 0, '', null, true, -1, { a: 1 }, undefined],
};

/**
 * Callbacks offered where a function is taken (declared function types, JSDoc `{Function}`, names
 * such as `compare` or `predicate`, callback properties of an option object), by role: sources of
 * self-contained arrow functions, which travel as codec.mjs's `fn` tag.
 */
export const CALLBACKS = {
  comparator: ['(a, b) => a - b', '(a, b) => b - a', '(a, b) => (String(a) < String(b) ? -1 : String(a) > String(b) ? 1 : 0)', '() => 0'],
  equality: ['(a, b) => a === b', '() => true', '() => false', '(a, b) => String(a) === String(b)'],
  predicate: ["(x) => typeof x === 'number'", '() => true', '() => false', '(x) => Boolean(x)', "(x) => typeof x === 'string'"],
  mapper: ['(x) => x', '(x) => String(x)', '(x) => x * 2', '(x) => typeof x'],
  reducer: ['(acc, x) => acc + x', '(acc, x) => x', '(acc) => acc'],
  constant: ['() => true', '() => false', '() => undefined'],
  // an event handler's result is often ignored: one that throws shows whether it is called
  observer: ["() => { throw new RangeError('callback called'); }", '() => undefined'],
};
/** A callback's role from the name it is given (a parameter's or a property's). */
const CALLBACK_ROLES = [
  [/^on[A-Z]|listener|handler/i, 'observer'],
  [/compar|cmp|sort|order/i, 'comparator'],
  [/equal|^eq$|same/i, 'equality'],
  [/predicate|pred|test|filter|^is[A-Z]|^has[A-Z]|match|check|valid/i, 'predicate'],
  [/reduc|accum|fold/i, 'reducer'],
  [/map|transform|iteratee|format|serial|replac|revive/i, 'mapper'],
];
/** Roles tried by the callback's arity when its name says none (null: not declared). */
const ROLES_BY_ARITY = [['constant'], ['mapper', 'predicate'], ['comparator', 'equality', 'reducer']];
const MAX_CALLBACKS = 6;

/** The arity of a callback's source (its arrow function's parameter count). */
function sourceArity(src) {
  const params = /^\(([^)]*)\)/.exec(src)?.[1] ?? '';
  return params.trim() === '' ? 0 : params.split(',').length;
}

/** The sources of the callbacks offered for `name` and `arity` (either may be unknown), the role's own first. */
export function callbackSources({ arity = null, name = '' } = {}) {
  const named = CALLBACK_ROLES.find(([pattern]) => pattern.test(String(name ?? '')))?.[1];
  const roles = arity === null ? ['mapper', 'predicate', 'comparator', 'reducer'] : ROLES_BY_ARITY[Math.min(arity, 2)];
  const sources = [...(named ? CALLBACKS[named] : []), ...roles.flatMap((r) => CALLBACKS[r])];
  // a declared arity: what takes fewer arguments is fine, more is not
  const fitting = sources.filter((src) => arity === null || sourceArity(src) <= arity);
  return [...new Set(fitting)].slice(0, MAX_CALLBACKS);
}

/** Live callbacks for `name` and `arity` (they encode as `fn` tags). */
export function callbacksFor(options = {}) {
  return callbackSources(options).map(functionFromSource);
}

function encodedOrNone(value) {
  try {
    return [encode(value)];
  } catch {
    return [];
  }
}

/** Option objects tried per parameter, at most, for the callbacks the body calls on it. */
const MAX_CALLBACK_OPTIONS = 6;

/**
 * Option objects holding pool callbacks under the properties the body calls on parameter `name`
 * or a local copy of it (`const opts = options || {}`) (`options.compare(a, b)`, `opts.onMatch?.(x)`,
 * `typeof opts.filter === 'function'`): all of them together, then each alone with two callbacks
 * of its role.
 */
export function callbackOptions(name, bodyText) {
  if (!/^[A-Za-z_$][\w$]*$/.test(String(name))) return [];
  const text = String(bodyText ?? '');
  // the parameter under another name too: `const opts = options || {}`, `const o = { ...options }`
  const aliases = [...text.matchAll(new RegExp(`(?:const|let|var)\\s+([A-Za-z_$][\\w$]*)\\s*=\\s*(?:\\{\\s*\\.\\.\\.\\s*)?${escapeRegExp(String(name))}(?![\\w$.])`, 'g'))].map((m) => m[1]);
  const owner = [String(name), ...aliases].map(escapeRegExp).join('|');
  const props = new Set();
  for (const m of text.matchAll(new RegExp(`(?<![\\w$.])(?:${owner})\\??\\.([A-Za-z_$][\\w$]*)\\s*(?:\\?\\.)?\\(`, 'g'))) props.add(m[1]);
  for (const m of text.matchAll(new RegExp(`typeof\\s+(?:${owner})\\??\\.([A-Za-z_$][\\w$]*)\\s*[!=]==?\\s*['"]function['"]`, 'g'))) props.add(m[1]);
  if (props.size === 0) return [];
  const out = [];
  if (props.size > 1) out.push(Object.fromEntries([...props].map((prop) => [prop, callbacksFor({ name: prop })[0]])));
  for (const prop of props) for (const cb of callbacksFor({ name: prop }).slice(0, 2)) out.push({ [prop]: cb });
  return out.slice(0, MAX_CALLBACK_OPTIONS);
}

/** Values tried after a kind guessed from a parameter's name alone. */
const GUESS_HEDGE = [1, 100, 'abc', [1, 2]];

/** The kind of values a parameter takes: from its annotation, its default, then its name. */
export function paramKind(param) {
  const annotation = String(param.annotation ?? '').trim();
  if (/^(?:number|bigint)$/.test(annotation)) return 'number';
  if (annotation === 'string') return 'string';
  if (annotation === 'boolean') return 'boolean';
  if (/\[\]$|^(?:Readonly)?Array</.test(annotation)) return 'array';
  if (/^\{|^Record</.test(annotation)) return 'object';
  if (/^\(.*\)\s*=>|^Function$|^function\s*\(/.test(annotation)) return 'function';
  const fallback = param.defaultValue ? evaluateArguments(param.defaultValue) : null;
  const tag = fallback?.[0]?.t;
  if (tag === 'number') return 'number';
  if (tag === 'str') return 'string';
  if (tag === 'bool') return 'boolean';
  if (tag === 'array') return 'array';
  if (tag === 'object') return 'object';
  const name = String(param.name);
  if (name.startsWith('[')) return 'array';
  if (name.startsWith('{')) return 'object';
  if (FUNCTION_NAME.test(name)) return 'function';
  if (BOOL_NAME.test(name)) return 'boolean';
  if (NUMBER_NAME.test(name)) return 'number';
  if (STRING_NAME.test(name)) return 'string';
  if (OBJECT_NAME.test(name)) return 'object';
  if (ARRAY_NAME.test(name)) return 'array';
  return 'any';
}

/** Literal members of a union annotation (`'a' | 'b' | 3`), encoded; [] when it is not one. */
function unionLiterals(annotation) {
  if (!annotation || !/['"\d]/.test(annotation) || !annotation.includes('|')) return [];
  const out = [];
  for (const part of annotation.split('|')) {
    const args = evaluateArguments(part.trim());
    if (args !== null && args.length === 1 && args[0].t !== 'undefined') out.push(args[0]);
  }
  return out;
}

/** Numbers written in a source text (the body's boundaries), with their neighbours. */
export function neighbourNumbers(text) {
  const out = [];
  for (const m of String(text ?? '').matchAll(/(?<![\w$.])(\d+(?:\.\d+)?)(?![\w$])/g)) {
    const n = Number(m[1]);
    if (Number.isFinite(n) && n < 1e6) out.push(n - 1, n, n + 1);
  }
  return [...new Set(out)];
}

/** A body that checks the kind of what it was given (`typeof v`, `instanceof`, `Array.isArray`, `assertX(v)`, `isX(v)`). */
const KIND_CHECK = /\btypeof\b|\binstanceof\b|\bisArray\b|\bassert\w*\(|\bis[A-Z]\w*\(/;

/** True when a declared SHAPE takes plain numbers (the body's boundaries are worth trying). */
/** True when a declared SHAPE accepts values of the plain `kind` ('string', 'number'), alone or in a union. */
function takesKind(shape, kind) {
  if (shape.k === kind) return true;
  return shape.k === 'union' && shape.of.some((s) => takesKind(s, kind));
}

function takesNumbers(shape) {
  if (shape.k === 'number' || shape.k === 'any') return true;
  return shape.k === 'union' && shape.of.some(takesNumbers);
}

/** The kind (as `paramKind` says) of a declared SHAPE (declared-types.mjs), or null when it says none. */
function shapeKind(shape) {
  switch (shape?.k) {
    case 'number':
    case 'string':
    case 'boolean':
    case 'array':
    case 'object':
      return shape.k;
    case 'bigint':
      return 'number';
    case 'record':
      return 'object';
    case 'tuple':
      return 'array';
    case 'literal':
      return typeof shape.v === 'number' ? 'number' : typeof shape.v === 'string' ? 'string' : 'boolean';
    case 'union': {
      const kinds = new Set(shape.of.map(shapeKind).filter((k) => k !== null));
      return kinds.size === 1 ? [...kinds][0] : null;
    }
    default:
      return null;
  }
}

const TYPED_ARRAY_ITEMS = [[1, 2, 3], [], [1, 2, 3, 4], [1, 2], [3, 2, 1], [0, 255, 16], [1, 2, 4], [0]];
const MAX_SHAPE_VALUES = 10;

function typedArrayOf(name, items) {
  const Ctor = globalThis[name];
  if (name === 'BigInt64Array' || name === 'BigUint64Array') return new Ctor(items.map((n) => BigInt(n)));
  if (/^Float/.test(name)) return new Ctor(items.map((n, i) => (i === 1 ? n + 0.5 : n)));
  return new Ctor(items);
}

/** Round-robin over lists: the first of each, then the second of each, ... (each member of a union shows early). */
function interleave(lists, limit) {
  const out = [];
  for (let i = 0; out.length < limit && lists.some((l) => i < l.length); i++) for (const l of lists) if (i < l.length && out.length < limit) out.push(l[i]);
  return out;
}

/**
 * Values of a declared SHAPE (declared-types.mjs), the most ordinary first: typed arrays, maps, sets,
 * dates and objects built as the type says, elements of their element type. `strings` and
 * `numbers` are the pools of the plain kinds (the body's literals among them).
 */
export function shapeValues(shape, pools = {}, depth = 0) {
  const strings = pools.strings ?? POOLS.string;
  const numbers = pools.numbers ?? POOLS.number;
  const limit = depth === 0 ? MAX_SHAPE_VALUES : 4;
  const inner = (s) => shapeValues(s, pools, depth + 1);
  if (depth > 3) return [];
  switch (shape?.k) {
    case 'number':
      return numbers.slice(0, limit);
    case 'string':
      // the shaped strings first, then plain ones: a pattern's samples alone would say too little
      return [...new Set([...strings.slice(0, Math.max(2, limit - 3)), 'abc', POOLS.string[POOLS.string.length - 1], ''])].slice(0, limit);
    case 'boolean':
      return [true, false];
    case 'bigint':
      return [1n, 0n, 2n, -1n, 255n, 2n ** 64n];
    case 'literal':
      return [shape.v];
    case 'null':
      return [null];
    case 'undefined':
      return [undefined];
    case 'any':
      return depth === 0 ? POOLS.any : [1, 'abc'];
    case 'union': {
      // null and undefined members last: the ordinary value is a present one
      const members = [...shape.of].sort((a, b) => Number(a.k === 'null' || a.k === 'undefined') - Number(b.k === 'null' || b.k === 'undefined'));
      // a union is no level of nesting: its members are as deep as it is
      return interleave(members.map((s) => shapeValues(s, pools, depth)), limit);
    }
    case 'array': {
      const items = inner(shape.of).filter((v) => v !== undefined);
      if (items.length === 0) return [[]];
      const [a, b = a, c = b] = items;
      return [[a, b, c], [], [a], [b, a], [a, a], [c, b, a, a], items.slice(0, 4)];
    }
    case 'tuple': {
      const each = shape.of.map(inner);
      const base = each.map((vs) => vs[0]);
      const out = [base];
      each.forEach((vs, i) => vs.slice(1, 3).forEach((v) => out.push(base.map((x, j) => (j === i ? v : x)))));
      return out.slice(0, limit);
    }
    case 'record': {
      const vs = inner(shape.of);
      const [a, b = a] = vs;
      return vs.length === 0 ? [{}] : [{ a, b }, {}, { a }, { b, a }, { key: b }];
    }
    case 'object': {
      const props = shape.props;
      // a callback property: pool callbacks of its arity (callbacksFor)
      const each = props.map((p) => (p.type.k === 'function' ? callbacksFor({ arity: p.type.params?.length ?? null, name: p.name }) : inner(p.type)));
      if (props.some((p, i) => p.type.k === 'function' && !p.optional && each[i].length === 0)) return [];
      const build = (pick, withOptional) => {
        const o = {};
        props.forEach((p, i) => {
          const v = pick(i);
          if ((p.optional && !withOptional) || each[i].length === 0) return;
          // defined, not assigned: a `__proto__` field stays an own key
          if (v !== undefined || !p.optional) Object.defineProperty(o, p.name, { value: v, writable: true, enumerable: true, configurable: true });
        });
        return o;
      };
      const out = [build((i) => each[i][0], false)];
      if (props.some((p) => p.optional)) out.push(build((i) => each[i][0], true));
      for (const [i] of props.entries()) for (const v of each[i].slice(1, 3)) out.push(build((j) => (j === i ? v : each[j][0]), true));
      if (depth === 0 && props.length === 0) out.push({ a: 1 });
      return out.slice(0, limit);
    }
    case 'builtin':
      return builtinValues(shape, inner, limit);
    case 'function':
      return callbacksFor({ arity: shape.params?.length ?? null });
    default:
      return [];
  }
}

function builtinValues(shape, inner, limit) {
  const name = shape.name;
  if (name === 'Date') return [new Date('2020-01-02T03:04:05.000Z'), new Date(0), new Date('1999-12-31T23:59:59.999Z'), new Date(Number.NaN)];
  if (name === 'RegExp') return [/a/, /^\d+$/, /[a-z]+/gi, /(?:)/];
  if (name === 'ArrayBuffer') return TYPED_ARRAY_ITEMS.slice(0, 5).map((items) => new Uint8Array(items).buffer);
  if (name === 'DataView') return [[0x12, 0x34, 0x56], [], [1], [0x12, 0x34, 0x56, 0x78, 0x90, 0xab], [255, 255]].map((items) => new DataView(new Uint8Array(items).buffer));
  if (name === 'Buffer') return TYPED_ARRAY_ITEMS.map((items) => Buffer.from(items));
  if (typeof globalThis[name] === 'function' && /Array$/.test(name)) return TYPED_ARRAY_ITEMS.map((items) => typedArrayOf(name, items));
  if (name === 'Map') {
    const keys = shape.of[0] ? inner(shape.of[0]) : ['a', 'b'];
    const values = shape.of[1] ? inner(shape.of[1]) : [1, 2];
    const [k1, k2 = k1] = keys.length > 0 ? keys : ['a'];
    const [v1, v2 = v1] = values.length > 0 ? values : [1];
    return [new Map([[k1, v1], [k2, v2]]), new Map(), new Map([[k1, v1]]), new Map([[k2, v2], [k1, v1]]), new Map([[k1, v2], [k2, v1]])].slice(0, limit);
  }
  if (name === 'Set') {
    const items = shape.of[0] ? inner(shape.of[0]) : [1, 2, 3];
    const [a, b = a, c = b] = items.length > 0 ? items : [1];
    return [new Set([a, b]), new Set(), new Set([a]), new Set([b, a]), new Set([a, b, c])].slice(0, limit);
  }
  return [];
}

const MAX_USAGE_VALUES = 16;

/** `count` members spread over a list, its first included (the shaped strings of all sorts, not the first sort only). */
export function spread(list, count) {
  if (list.length <= count) return list;
  return Array.from({ length: count }, (_, i) => list[Math.floor((i * list.length) / count)]);
}

/**
 * Values of an object SHAPE read from a body's use (usage-shapes.mjs): the ordinary one, then each
 * of its first string- or number-valued properties (`headers['content-type']`) set in turn to
 * values spread over the pools, which hold what the body checks (a media type, a parameter list).
 */
function usageValues(shape, pools) {
  const narrowed = { strings: pools.strings, numbers: pools.numbers };
  const [base, ...others] = shapeValues(shape, narrowed);
  if (base === undefined || base === null || typeof base !== 'object') return shapeValues(shape, narrowed).slice(0, MAX_USAGE_VALUES);
  const leaves = [];
  const walk = (s, at) => {
    if (s?.k !== 'object' || at.length > 3) return;
    for (const p of s.props) {
      if (p.type.k === 'string' || p.type.k === 'number') leaves.push({ at: [...at, p.name], kind: p.type.k });
      else walk(p.type, [...at, p.name]);
    }
  };
  walk(shape, []);
  const out = [base];
  const setAt = (value, at, leaf) => {
    const copy = structuredClone(value);
    let o = copy;
    for (const key of at.slice(0, -1)) {
      if (o[key] === null || typeof o[key] !== 'object') return null;
      o = o[key];
    }
    o[at[at.length - 1]] = leaf;
    return copy;
  };
  for (const leaf of leaves.slice(0, 3)) {
    const pool = leaf.kind === 'string' ? pools.strings ?? POOLS.string : pools.numbers ?? POOLS.number;
    for (const v of spread(pool, 10)) {
      const made = setAt(base, leaf.at, v);
      if (made !== null) out.push(made);
    }
  }
  // an options-like object: each field alone, where all of them together may be refused at once
  // (`encode` not a function): `{ maxAge: 1 }`, `{ secure: true }`
  const single = [];
  for (const p of shape.props ?? []) {
    for (const v of fieldValues(p.type, narrowed).slice(0, 2)) {
      const o = {};
      Object.defineProperty(o, p.name, { value: v, writable: true, enumerable: true, configurable: true });
      single.push(o);
    }
  }
  return [...out.slice(0, MAX_USAGE_VALUES), ...single.slice(0, MAX_USAGE_VALUES), ...others].slice(0, 2 * MAX_USAGE_VALUES);
}

/**
 * Values for one field of an object SHAPE: its shape's first, then the falsy value of its kind
 * (`''`, `0`: what tells `opt.x ?? d` from `opt.x || d`), then the rest; `true` and a number too
 * where the use said nothing of its kind (a flag tested for truth reads as a string).
 */
function fieldValues(type, pools) {
  const values = shapeValues(type, pools, 1);
  const falsy = takesKind(type ?? {}, 'string') ? [''] : takesKind(type ?? {}, 'number') ? [0] : [];
  const out = [...values.slice(0, 1), ...falsy, ...(type?.k === 'string' ? [true] : []), ...values.slice(1), ...(type?.k === 'string' ? [1] : [])];
  return [...new Set(out)];
}

/**
 * An encoded object with one field added that an object SHAPE names and it lacks, in every way
 * `fieldValues` gives: the options a call left out (`{ maxAge: 1 }` beside `{ path: '/' }`).
 */
export function fieldAdditions(tagged, shape, pools = {}, perField = 4) {
  if (tagged?.t !== 'object' || shape?.k !== 'object') return [];
  const present = new Set((tagged.v ?? []).map(([k]) => k));
  const out = [];
  for (const p of shape.props) {
    if (present.has(p.name)) continue;
    for (const v of fieldValues(p.type, pools).slice(0, perField)) {
      try {
        out.push({ ...tagged, v: [...tagged.v, [p.name, encode(v)]] });
      } catch {
        // not encodable
      }
    }
  }
  return out;
}

/** The encoded values tried for one parameter, the most ordinary first. */
/** Kinds a guessed parameter may hold a string of instead (`val`, `input`): not a container's. */
const SCALAR_KINDS = new Set(['number', 'string', 'any']);

export function paramValues(param, bodyText, pools = {}) {
  const declared = param.shape ?? null;
  const kind = shapeKind(declared) ?? paramKind(param);
  const values = [];
  const fallback = param.defaultValue ? evaluateArguments(param.defaultValue) : null;
  if (fallback?.length === 1) values.push(fallback[0]);
  values.push(...unionLiterals(param.annotation));
  const encodable = (v) => {
    try {
      values.push(encode(v));
    } catch {
      // not encodable (a function, a symbol)
    }
  };
  const typed = declared === null ? [] : shapeValues(declared, { strings: pools.strings, numbers: pools.numbers });
  for (const v of typed) encodable(v);
  // an optional parameter: left out too
  if (param.optional) values.splice(Math.min(values.length, 1), 0, { t: 'undefined' });
  if (typed.length > 0) {
    // a value of another kind or none at all, where the body checks what it was given
    if (KIND_CHECK.test(String(bodyText ?? ''))) for (const v of [null, kind === 'string' ? 1 : 'abc']) encodable(v);
    // a declared string (or a union holding one): every string shaped like what the source checks, not the first few
    if (pools.strings && takesKind(declared, 'string')) for (const v of pools.strings) encodable(v);
  } else {
    const pool = kind === 'function' ? callbacksFor({ name: param.name }) : kind === 'string' && pools.strings ? pools.strings : kind === 'number' && pools.numbers ? pools.numbers : POOLS[kind];
    for (const v of pool) encodable(v);
    // an export's parameter on its way to a module-internal function: the strings that function's body checks too
    if (param.reachesBody && SCALAR_KINDS.has(kind) && pool !== pools.strings) for (const v of pools.strings ?? []) encodable(v);
  }
  // option objects holding the callbacks the body calls: right after the plainest one (they reach the most code)
  if (kind === 'object') values.splice(Math.min(values.length, 1), 0, ...callbackOptions(param.name, bodyText).flatMap(encodedOrNone));
  // objects shaped as the body reads them (`req.headers['content-type']`), second: the pools are long
  if (param.usage) {
    const shaped = [];
    for (const v of usageValues(param.usage, pools)) {
      try {
        shaped.push(encode(v));
      } catch {
        // not encodable
      }
    }
    values.splice(Math.min(values.length, 1), 0, ...shaped);
  }
  // a kind guessed from the name alone may be wrong (`cents` is no list): a few values of other kinds after
  const guessed = !param.annotation && !param.defaultValue && declared === null;
  if (guessed) for (const v of GUESS_HEDGE) values.push(encode(v));
  const numeric = declared === null ? kind === 'number' || kind === 'any' || guessed : takesNumbers(declared);
  if (numeric) for (const n of neighbourNumbers(bodyText)) values.push(encode(n));
  return uniqueByJson(values);
}

/** `values` without repeats (the same JSON text), in order. */
export function uniqueByJson(values) {
  const seen = new Set();
  return values.filter((v) => {
    const key = JSON.stringify(v);
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

const MAX_EXAMPLE_BASES = 3;
const AROUND_EXAMPLE = 8;

/**
 * Argument lists generated from the parameters: each of the first `examples` (argument lists the
 * sources give) with one parameter varied at a time, the ordinary values, then each parameter varied
 * in turn, then `extra` seeded combinations.
 */
export function generatedInputs(params, bodyText, random, extra = 8, kindPools = {}, examples = []) {
  const positional = (params ?? []).filter((p) => p.kind !== 'var-positional' && p.kind !== 'var-keyword');
  if (positional.length === 0 && !(params ?? []).some((p) => p.kind === 'var-positional')) return [[]];
  const pools = positional.map((p) => paramValues(p, bodyText, kindPools));
  const base = pools.map((pool) => pool[0]);
  const out = [];
  // around the examples the sources give (a README's, a test's): one parameter varied at a time from a
  // call known to make sense, where the pools' first values may all be rejected (`satisfies('> ', '> ')`)
  for (const example of examples.filter((args) => args.length === pools.length).slice(0, MAX_EXAMPLE_BASES)) {
    for (let k = 0; k < AROUND_EXAMPLE; k++) {
      for (let i = 0; i < pools.length; i++) if (k < pools[i].length) out.push(example.map((v, j) => (j === i ? pools[i][k] : v)));
    }
  }
  out.push(base);
  const longest = Math.max(...pools.map((p) => p.length));
  for (let k = 1; k < longest; k++) {
    for (let i = 0; i < pools.length; i++) if (k < pools[i].length) out.push(base.map((v, j) => (j === i ? pools[i][k] : v)));
  }
  // a rest parameter: one value, then two (its name says nothing of one value's kind)
  const rest = (params ?? []).find((p) => p.kind === 'var-positional');
  if (rest !== undefined) {
    const one = rest.shape ? { ...rest, optional: false, defaultValue: null } : { ...rest, name: '', annotation: null, defaultValue: null };
    const values = paramValues(one, bodyText, kindPools).filter((v) => v.t !== 'undefined').slice(0, 4);
    const [a, b = a] = values;
    if (a !== undefined) out.push(...values.map((v) => [...base, v]), [...base, a, b], [...base, b, a]);
  }
  for (let n = 0; n < extra * positional.length; n++) out.push(pools.map((pool) => pool[Math.floor(random() * pool.length)]));
  return out;
}

const SKIP_DIRS = new Set(['node_modules', '.git', 'dist', 'build', 'coverage', '.next', 'out']);

/** Source files under `root` (node_modules, .git and build output left out), at most `limit`. */
export function sourceFiles(root, limit = 3000) {
  const out = [];
  const walk = (dir) => {
    let names;
    try {
      names = fs.readdirSync(dir, { withFileTypes: true });
    } catch {
      return;
    }
    for (const entry of names.sort((a, b) => (a.name < b.name ? -1 : 1))) {
      if (out.length >= limit) return;
      if (entry.isDirectory()) {
        if (!SKIP_DIRS.has(entry.name) && !entry.name.startsWith('.')) walk(path.join(dir, entry.name));
      } else if (/\.(?:[mc]?[jt]s|[jt]sx)$/.test(entry.name) && !entry.name.endsWith('.d.ts')) out.push(path.join(dir, entry.name));
    }
  };
  walk(root);
  return out;
}

/** Constructor argument lists of `new ClassName(...)` with literal arguments anywhere in the repository. */
export function constructorInputs(files, className) {
  const out = [];
  for (const file of files) {
    let text;
    try {
      text = fs.readFileSync(file, 'utf8');
    } catch {
      continue;
    }
    if (!text.includes(className)) continue;
    for (const args of callArgumentTexts(text, className, { isNew: true })) {
      const values = evaluateArguments(args);
      if (values !== null) out.push(values);
    }
  }
  return out;
}

/** The longest typed array the search builds from a boundary of the body (in elements). */
const MAX_TYPED_LENGTH = 70_000;

/** The string with its last digit counted up (`1.2.3-4` → `1.2.3-5`), or null when it has none. */
function nextDigit(s) {
  const m = /(\d)(?!.*\d)/s.exec(s);
  if (m === null) return null;
  return s.slice(0, m.index) + String((Number(m[1]) + 1) % 10) + s.slice(m.index + 1);
}

/** Variations of a list of items (tagged): shorter, longer, reordered, one item varied. */
function itemVariations(items, boundaries, strings, width = 6) {
  const lists = [[], items.slice(0, -1), items.slice(1), [...items].reverse()];
  if (items.length > 0) lists.push([...items, items[0]], [items[items.length - 1], ...items]);
  for (const [i, item] of items.entries()) {
    if (i >= 3) break;
    for (const v of variationsOf(item, boundaries, strings, width).slice(0, width)) lists.push(items.map((x, j) => (j === i ? v : x)));
  }
  return lists;
}

/**
 * Variations of one encoded value: neighbours of numbers, cut and grown strings (and `strings`, the
 * ones shaped like what the code checks), arrays, typed arrays, maps, sets and objects, flipped booleans.
 * `width`: how many variations of each member a container's variations take (more where an input
 * already came near what the search looks for).
 */
export function variationsOf(tagged, boundaries = [], strings = [], width = 4) {
  const out = [];
  const add = (v) => {
    try {
      out.push(encode(v));
    } catch {
      // not encodable
    }
  };
  switch (tagged?.t) {
    case 'number': {
      const n = Number(tagged.v);
      if (!Number.isFinite(n)) break;
      for (const v of [n + 1, n - 1, 0, -n, n * 2, n + 10, Math.floor(n / 2), ...boundaries]) add(v);
      break;
    }
    case 'str': {
      const s = tagged.v;
      // two words of it too, and it after a word (word splitters treat the first word apart)
      const plain = ['', s.slice(1), s.slice(0, -1), `${s}a`, s.toUpperCase(), s.toLowerCase(), ` ${s} `, s + s, 'a', `${s} ${s}`, `a ${s}`];
      // the shaped strings take turns with the plain changes: a field varied in a few ways (an object's,
      // an array item's) gets a string the code checks too (`modifier: '*'`)
      for (const [i, v] of plain.entries()) {
        add(v);
        if (i < strings.length && i < 6) add(strings[i]);
      }
      const digit = nextDigit(s);
      if (digit !== null) add(digit);
      // quoted and escaped forms: what parsers of values check first
      for (const v of [`"${s}"`, `'${s}'`, `${s}\\`]) add(v);
      for (const v of strings.slice(6)) add(v);
      break;
    }
    case 'bool':
      add(!tagged.v);
      break;
    case 'array':
      for (const v of itemVariations(tagged.v ?? [], boundaries, strings, width + 2)) out.push({ t: 'array', v });
      break;
    case 'set':
      for (const v of itemVariations(tagged.v ?? [], boundaries, strings, width + 2)) out.push({ t: 'set', v });
      break;
    case 'map': {
      const entries = tagged.v ?? [];
      for (const v of itemVariations(entries, [], [])) out.push({ t: 'map', v });
      // a value varied, keys kept
      for (const [i, [k, x]] of entries.entries()) {
        if (i >= 2) break;
        for (const y of variationsOf(x, boundaries, strings, width).slice(0, width)) out.push({ t: 'map', v: entries.map((e, j) => (j === i ? [k, y] : e)) });
      }
      break;
    }
    case 'object': {
      for (const { variants } of fieldVariations(tagged, boundaries, strings, width).slice(0, 6)) out.push(...variants);
      const withProto = (v) => (tagged.proto === undefined ? { t: 'object', v } : { t: 'object', v, proto: tagged.proto });
      out.push(withProto([...(tagged.v ?? [])].reverse()), withProto([]));
      break;
    }
    case 'typedarray': {
      const bytes = Buffer.from(tagged.v.b64, 'base64');
      const width = { Int16Array: 2, Uint16Array: 2, Int32Array: 4, Uint32Array: 4, Float32Array: 4, Float64Array: 8, BigInt64Array: 8, BigUint64Array: 8 }[tagged.v.type] ?? 1;
      const cut = (b) => ({ t: 'typedarray', v: { type: tagged.v.type, b64: Buffer.from(b).toString('base64') } });
      const last = bytes.length - width;
      const bump = (at) => {
        const b = Buffer.from(bytes);
        if (at >= 0 && at < b.length) b[at] = (b[at] + 1) % 256;
        return cut(b);
      };
      out.push(cut([]), cut(bytes.subarray(0, Math.max(0, last))), cut(bytes.subarray(width)), cut(Buffer.concat([bytes, bytes.subarray(0, width)])), bump(last), bump(0));
      if (width === 1) out.push(cut(Buffer.from(bytes).reverse()));
      // as long as a boundary of the body says (`array.length < MAX_BLOCK_SIZE`): bytes are cheap to carry
      for (const n of boundaries) {
        if (Number.isInteger(n) && n > 0 && n <= MAX_TYPED_LENGTH && n * width !== bytes.length) out.push(cut(Buffer.from(Array.from({ length: n * width }, (_, i) => (i * 7 + 1) % 256))));
      }
      break;
    }
    case 'null':
    case 'undefined':
      for (const v of [0, '', [], 1]) add(v);
      break;
    case 'fn':
      // another callback of the same arity, the one's role first
      for (const src of otherCallbacks(String(tagged.v?.src ?? ''))) out.push({ t: 'fn', v: { src } });
      break;
    default:
      break;
  }
  return out;
}

/**
 * Per field of an encoded object, in order: the object without it, then with it varied in `width`
 * ways (variationsOf): `[{field, variants}]`.
 */
export function fieldVariations(tagged, boundaries = [], strings = [], width = 4) {
  const entries = tagged.v ?? [];
  const withProto = (v) => (tagged.proto === undefined ? { t: 'object', v } : { t: 'object', v, proto: tagged.proto });
  return entries.map(([k, x], i) => ({
    field: k,
    variants: [withProto(entries.filter((_, j) => j !== i)), ...variationsOf(x, boundaries, strings, width).slice(0, width).map((y) => withProto(entries.map((e, j) => (j === i ? [k, y] : e))))],
  }));
}

/** Pool callbacks to swap for `src`: those of its role, then of its arity. */
function otherCallbacks(src) {
  const roles = Object.values(CALLBACKS).filter((sources) => sources.includes(src));
  const arity = sourceArity(src);
  const same = Object.values(CALLBACKS).flat().filter((other) => sourceArity(other) === arity);
  return [...new Set([...roles.flat(), ...same])].filter((other) => other !== src).slice(0, MAX_CALLBACKS);
}
