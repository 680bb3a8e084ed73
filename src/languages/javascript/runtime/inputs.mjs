// Where record-driver.mjs and mutate-driver.mjs get inputs from: JSDoc examples and call sites
// (literal argument texts, evaluated here: the sandbox runs the repository's own code anyway),
// values generated from the parameters (names, defaults, TypeScript annotations, the numbers in the
// body), constructor calls found in the repository, and variations of recorded inputs (the search).
// Every input is codec-encoded: {args: [TAGGED...], init: {args: [TAGGED...]} | null}.
import fs from 'node:fs';
import path from 'node:path';
import { encode } from './codec.mjs';

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

/** Inputs from a JSDoc comment's examples (`@example` blocks, or any `name(...)` in the comment). */
export function docExampleInputs(docstring, name) {
  if (!docstring) return [];
  const lines = String(docstring).split('\n').map((l) => l.replace(/^\s*\*\s?/, ''));
  const out = [];
  for (const text of callArgumentTexts(lines.join('\n'), name)) {
    const args = evaluateArguments(text);
    if (args !== null) out.push(args);
  }
  return out;
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

const POOLS = {
  number: [0, 1, 2, -1, 3, 10, 0.5, 100, -7],
  string: ['', 'a', 'abc', 'Hello World', '  padded  ', 'a-b_c d', '42', 'ÄÖü'],
  boolean: [true, false],
  array: [[], [1], [1, 2, 3], [3, 1, 2, 2], ['b', 'a'], [0, -1, 5]],
  object: [{}, { a: 1 }, { a: 1, b: 'x' }],
  any: [1, 'abc', [1, 2], 0, '', null, true, -1, { a: 1 }, undefined],
};

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

/** The encoded values tried for one parameter, the most ordinary first. */
export function paramValues(param, bodyText) {
  const kind = paramKind(param);
  const values = [];
  const fallback = param.defaultValue ? evaluateArguments(param.defaultValue) : null;
  if (fallback?.length === 1) values.push(fallback[0]);
  values.push(...unionLiterals(param.annotation));
  for (const v of POOLS[kind]) values.push(encode(v));
  // a kind guessed from the name alone may be wrong (`cents` is no list): a few values of other kinds after
  const guessed = !param.annotation && !param.defaultValue;
  if (guessed) for (const v of GUESS_HEDGE) values.push(encode(v));
  if (kind === 'number' || kind === 'any' || guessed) for (const n of neighbourNumbers(bodyText)) values.push(encode(n));
  const seen = new Set();
  return values.filter((v) => {
    const key = JSON.stringify(v);
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/**
 * Argument lists generated from the parameters: the ordinary values, then each parameter varied in
 * turn, then `extra` seeded combinations.
 */
export function generatedInputs(params, bodyText, random, extra = 8) {
  const positional = (params ?? []).filter((p) => p.kind !== 'var-positional' && p.kind !== 'var-keyword');
  if (positional.length === 0) return [[]];
  const pools = positional.map((p) => paramValues(p, bodyText));
  const base = pools.map((pool) => pool[0]);
  const out = [base];
  const longest = Math.max(...pools.map((p) => p.length));
  for (let k = 1; k < longest; k++) {
    for (let i = 0; i < pools.length; i++) if (k < pools[i].length) out.push(base.map((v, j) => (j === i ? pools[i][k] : v)));
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

/** Variations of one encoded value: neighbours of numbers, cut and grown strings and arrays, flipped booleans. */
export function variationsOf(tagged, boundaries = []) {
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
      for (const v of ['', s.slice(1), s.slice(0, -1), `${s}a`, s.toUpperCase(), s.toLowerCase(), ` ${s} `, s + s, 'a']) add(v);
      break;
    }
    case 'bool':
      add(!tagged.v);
      break;
    case 'array': {
      const items = tagged.v ?? [];
      out.push({ t: 'array', v: [] }, { t: 'array', v: items.slice(0, -1) }, { t: 'array', v: items.slice(1) }, { t: 'array', v: [...items].reverse() });
      if (items.length > 0) out.push({ t: 'array', v: [...items, items[0]] }, { t: 'array', v: [items[items.length - 1], ...items] });
      for (const [i, item] of items.entries()) {
        if (i >= 3) break;
        for (const v of variationsOf(item, boundaries)) out.push({ t: 'array', v: items.map((x, j) => (j === i ? v : x)) });
      }
      break;
    }
    case 'null':
    case 'undefined':
      for (const v of [0, '', [], 1]) add(v);
      break;
    default:
      break;
  }
  return out;
}
