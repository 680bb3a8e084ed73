// Strings shaped like what a function expects, from its module's source: samples of the regular
// expressions the body and its module use (and those of the modules it imports by a relative
// path: a helper's `semver` pattern), strings joined by the separators the body splits on, the
// body's own string literals, then the module's. Read with the `typescript` parser.
import path from 'node:path';
import { regexSamples } from './regex-samples.mjs';

const MAX_LITERAL_LENGTH = 40;

/** Regular expressions, `.split(SEP)` separators and string literals of a parsed file, each with its offset. */
function literalsOf(ts, sf) {
  const regexes = [];
  const separators = [];
  const strings = [];
  const imports = [];
  const visit = (node) => {
    if (node.kind === ts.SyntaxKind.RegularExpressionLiteral) {
      const m = /^\/(.*)\/([a-z]*)$/s.exec(node.text);
      // a module constant (`var TYPE_REGEXP = /.../`) keeps its name: a body that names it checks it
      const named = ts.isVariableDeclaration(node.parent) && ts.isIdentifier(node.parent.name) ? node.parent.name.text : null;
      if (m !== null) regexes.push({ at: node.pos, source: m[1], flags: m[2], name: named });
    } else if ((ts.isNewExpression(node) || ts.isCallExpression(node)) && ts.isIdentifier(node.expression) && node.expression.text === 'RegExp') {
      const first = node.arguments?.[0];
      if (first !== undefined && ts.isStringLiteralLike(first)) regexes.push({ at: node.pos, source: first.text, flags: '' });
    } else if (ts.isCallExpression(node) && ts.isPropertyAccessExpression(node.expression) && node.expression.name.text === 'split') {
      const first = node.arguments[0];
      if (first !== undefined && ts.isStringLiteralLike(first) && first.text !== '') separators.push({ at: node.pos, text: first.text });
      // `.split(/[\r\n]+/)`: what the pattern accepts is the separator
      const pattern = first !== undefined && first.kind === ts.SyntaxKind.RegularExpressionLiteral ? /^\/(.*)\/([a-z]*)$/s.exec(first.text) : null;
      if (pattern !== null) {
        try {
          const sample = regexSamples(new RegExp(pattern[1], pattern[2]))[0];
          if (sample) separators.push({ at: node.pos, text: sample, source: pattern[1] });
        } catch {
          // not a pattern this Node reads
        }
      }
    } else if (ts.isStringLiteralLike(node) && node.text.length <= MAX_LITERAL_LENGTH) {
      const parent = node.parent;
      const skipped = ts.isImportDeclaration(parent) || ts.isExportDeclaration(parent) || ts.isExternalModuleReference(parent) || (ts.isCallExpression(parent) && ts.isIdentifier(parent.expression) && parent.expression.text === 'require') || ts.isExpressionStatement(parent);
      if (!skipped) strings.push({ at: node.getStart(sf), text: node.text });
    }
    if ((ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) && node.moduleSpecifier && ts.isStringLiteral(node.moduleSpecifier)) imports.push(node.moduleSpecifier.text);
    if (ts.isCallExpression(node) && ts.isIdentifier(node.expression) && node.expression.text === 'require' && node.arguments[0] && ts.isStringLiteral(node.arguments[0])) imports.push(node.arguments[0].text);
    ts.forEachChild(node, visit);
  };
  visit(sf);
  return { regexes, separators, strings, imports };
}

/** Samples of each regular expression; those of one anchored at its start only (`/^[<>=]+/`) are prefixes, put before `wholes`. */
function samplesOf(regexes, wholes = []) {
  const out = [];
  for (const r of regexes) {
    let regex;
    try {
      regex = new RegExp(r.source, r.flags);
    } catch {
      continue;
    }
    const samples = regexSamples(regex);
    if (/^\^/.test(r.source) && !/(?<!\\)\$$/.test(r.source) && wholes.length > 0) {
      for (const prefix of samples.slice(0, 6)) for (const whole of wholes.slice(0, 3)) out.push(prefix + whole);
    }
    out.push(...samples);
  }
  return out;
}

/** The identifiers a range of the file names. */
function namesIn(ts, sf, range) {
  const out = new Set();
  const visit = (node) => {
    if (node.end <= range.start || node.pos >= range.end) return;
    if (ts.isIdentifier(node)) out.add(node.text);
    ts.forEachChild(node, visit);
  };
  visit(sf);
  return out;
}

/**
 * What one of the body's patterns accepts followed by what another accepts (`text/html` then
 * `; charset=utf-8`): a body that checks a string's parts by several patterns reads the whole.
 */
function followed(regexes) {
  const samples = regexes.slice(0, 4).map((r) => samplesOf([r]));
  const pairs = [];
  for (const [i, a] of samples.entries()) {
    for (const [j, b] of samples.entries()) if (i !== j) pairs.push(a.slice(0, 2).flatMap((x) => b.slice(0, 3).map((y) => x + y)));
  }
  // each pair's first join, then each pair's second, ...
  const out = [];
  for (let k = 0; k < 6; k++) for (const joins of pairs) if (k < joins.length) out.push(joins[k]);
  return out.slice(0, 20);
}

const PUNCTUATED = 16;

/** Texts of several of `parts` joined by `separator`: neighbours, then spread ones (other branches of the patterns). */
function linesOf(parts, separator) {
  if (parts.length < 2) return [];
  const out = [];
  for (let k = 0; k + 1 < parts.length && out.length < 4; k += 2) out.push(parts.slice(k, k + 3).join(separator));
  const step = Math.max(1, Math.floor(parts.length / 3));
  out.push([parts[0], parts[step], parts[2 * step] ?? parts[parts.length - 1], parts[parts.length - 1]].join(separator));
  return out;
}

function alternate(a, b) {
  const out = [];
  for (let i = 0; i < Math.max(a.length, b.length); i++) {
    if (i < a.length) out.push(a[i]);
    if (i < b.length) out.push(b[i]);
  }
  return out;
}

/**
 * Text made of the single punctuation characters the module compares with (`char === "*"`, `":"`,
 * `"{"`: a character-by-character lexer's syntax) between short words: `:a*`, `{a}?`, `/(a)`.
 * Deterministic: the same module gives the same strings.
 */
function punctuated(literals) {
  const marks = [...new Set(literals.filter((t) => t.length === 1 && /[^\p{L}\p{N}\s]/u.test(t)))];
  if (marks.length < 2) return [];
  const out = [];
  let state = marks.join('').split('').reduce((h, c) => (h * 31 + c.charCodeAt(0)) >>> 0, 7);
  const next = (n) => {
    state = (Math.imul(state, 1103515245) + 12345) >>> 0;
    return state % n;
  };
  // each mark before and after a word first, then runs of two or three marks and words
  for (const m of marks.slice(0, 8)) out.push(`${m}a`, `a${m}`);
  while (out.length < 2 * Math.min(marks.length, 8) + PUNCTUATED) {
    let text = '';
    const parts = 2 + next(3);
    for (let k = 0; k < parts; k++) text += marks[next(marks.length)] + (next(2) === 0 ? 'a' : 'ab');
    out.push(next(2) === 0 ? text : text + marks[next(marks.length)]);
  }
  return out;
}

/**
 * Strings for a target's string parameters, the likeliest to get through its checks first (at most
 * `limit`; `basics` after the body's own), or null when its file cannot be parsed. `range`: the
 * body's offsets in the file ({start, end}).
 */
export function sourceStrings(reader, file, range, basics, limit = 64) {
  const sf = reader.parse(file);
  if (sf === null) return null;
  const { ts } = reader;
  const own = literalsOf(ts, sf);
  const named = range === null ? new Set() : namesIn(ts, sf, range);
  const inBody = (x) => range !== null && ((x.at >= range.start && x.at < range.end) || (x.name != null && named.has(x.name)));
  const imported = [];
  for (const spec of own.imports) {
    if (!spec.startsWith('.')) continue;
    const base = path.resolve(path.dirname(file), spec).replace(/\.[mc]?[jt]s$/, '');
    for (const ext of ['.ts', '.js', '.mjs', '.cjs', '.mts', '.tsx', '/index.ts', '/index.js']) {
      const other = reader.parse(base + ext);
      if (other !== null) {
        imported.push(...literalsOf(ts, other).regexes);
        break;
      }
    }
  }
  const splitters = new Set(own.separators.map((s) => s.source).filter(Boolean));
  // lines of a text the body splits and then reads by its patterns (an INI file: `[a]`, `a=b`, ...)
  const parts = samplesOf(own.regexes.filter((r) => inBody(r) && !splitters.has(r.source)));
  const joined = own.separators.filter(inBody).flatMap((s) => [['1', '2', '3'].join(s.text), ['a', 'b'].join(s.text), ...linesOf(parts, s.text)]);
  // what a whole-string pattern accepts, to follow what a prefix pattern accepts
  const wholes = samplesOf([...own.regexes, ...imported].filter((r) => /^\^/.test(r.source) && /(?<!\\)\$$/.test(r.source))).filter((w) => /\d/.test(w)).slice(2);
  // patterns of the whole string first (`^...$`), then of its start, then the rest (what `.replace` cleans):
  // a whole-string pattern says what a valid input is
  const anchoring = (r) => (/^\^/.test(r.source) ? (/(?<!\\)\$$/.test(r.source) ? 0 : 1) : 2);
  const bodyRegexes = own.regexes.filter(inBody).map((r, i) => ({ r, i })).sort((a, b) => anchoring(a.r) - anchoring(b.r) || a.i - b.i).map((x) => x.r);
  const out = [
    ...samplesOf(bodyRegexes, wholes),
    ...joined,
    ...followed(bodyRegexes),
    ...samplesOf(own.regexes.filter((r) => !inBody(r)), wholes),
    ...samplesOf(imported, wholes),
    // the body's literals and the module's punctuation in text, taking turns
    ...alternate(own.strings.filter((s) => inBody(s) && s.text !== '').map((s) => s.text), punctuated(own.strings.map((s) => s.text))),
    ...basics,
    ...own.strings.filter((s) => !inBody(s)).map((s) => s.text),
  ];
  return [...new Set(out)].slice(0, limit);
}
