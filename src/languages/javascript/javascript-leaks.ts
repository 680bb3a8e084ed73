import { normaliseScrubPaths, scrubPathProblem } from '../../sandbox/scrub-paths.js';
import { foldersNamed } from '../host-folders.js';
import type { Unit } from '../construction-types.js';
import type { LeakRules, Tokens } from '../language.js';
import { isJavaScriptSource, isJavaScriptTestFile } from './javascript-files.js';
import { inBuildFolder } from './javascript-layout.js';
import { parseSourceMap, sourceMappingOf } from './javascript-source-maps.js';

/**
 * The leak audit's view of JavaScript and TypeScript: a tokenizer, the image files it indexes and
 * the copies of the library an image may carry (an npm global install, a Debian node-* package, a
 * tool's bundled node_modules).
 */

const OPERATORS = [
  '>>>=', '...', '===', '!==', '**=', '<<=', '>>=', '>>>', '&&=', '||=', '??=',
  '=>', '==', '!=', '<=', '>=', '&&', '||', '??', '?.', '++', '--', '+=', '-=', '*=', '/=', '%=', '&=', '|=', '^=', '**', '<<', '>>',
];
/** Keywords after which a `/` starts a regular expression, not a division. */
const BEFORE_REGEX = new Set(['return', 'typeof', 'instanceof', 'in', 'of', 'new', 'delete', 'void', 'throw', 'case', 'do', 'else', 'yield', 'await']);
const IDENTIFIER_START = /[\p{ID_Start}$_\\#@]/u;
const IDENTIFIER_PART = /[\p{ID_Continue}$\u200c\u200d\\]/u;
const NUMBER = /(?:0[xXoObB][0-9a-fA-F_]+n?|(?:\d[\d_]*\.?[\d_]*|\.\d[\d_]*)(?:[eE][+-]?\d[\d_]*)?n?)/y;
const REGEX_BODY = /\/(?:[^/\\[\n\r]|\\[^\n\r]|\[(?:[^\]\\\n\r]|\\[^\n\r])*\])+\/[\p{ID_Continue}$]*/uy;

type Kind = 'name' | 'number' | 'string' | 'template' | 'regex' | 'operator' | 'open' | 'close';

/**
 * Cuts JavaScript or TypeScript source into tokens, comments (`//`, `/* *\/`, a `#!` line) and
 * whitespace dropped; identifiers, keywords, numbers, strings, regular expression literals and
 * operators kept as written. A template literal is cut at its substitutions (`` `a${ ``, the
 * tokens of the expression, `` }b` ``), so code inside it is searched like other code. A `/`
 * starts a regular expression where an expression may start (after an operator, an opening
 * bracket, `return`...), else it divides. Not a full lexer: an unterminated string or comment runs
 * to the end of its line or of the text, and anything unknown is a one-character token, so it never
 * throws on odd input (other languages' files, broken code). Lines are 1-based, of each token's start.
 */
export function tokenizeJavaScript(source: string): Tokens {
  const tokens: string[] = [];
  const lines: number[] = [];
  let line = 1;
  let i = 0;
  let previous: { kind: Kind; text: string } | null = null;
  /** Open `{` counts of the template substitutions we are inside, innermost last. */
  const templates: number[] = [];
  const push = (kind: Kind, start: number, end: number): void => {
    const text = source.slice(start, end);
    tokens.push(text);
    lines.push(line);
    previous = { kind, text };
    line += countNewlines(text);
    i = end;
  };
  if (source.startsWith('#!')) i = lineEnd(source, 0);
  while (i < source.length) {
    const ch = source[i] as string;
    const next = source[i + 1];
    if (ch === '\n') {
      line += 1;
      i += 1;
    } else if (/\s/u.test(ch)) {
      i += 1;
    } else if (ch === '/' && next === '/') {
      i = lineEnd(source, i);
    } else if (ch === '/' && next === '*') {
      const close = source.indexOf('*/', i + 2);
      const end = close === -1 ? source.length : close + 2;
      line += countNewlines(source.slice(i, end));
      i = end;
    } else if (ch === '"' || ch === "'") {
      push('string', i, stringEnd(source, i));
    } else if (ch === '`') {
      const end = templateEnd(source, i + 1);
      if (source.startsWith('${', end - 2) && source[end - 1] === '{') templates.push(0);
      push('template', i, end);
    } else if (ch === '}' && templates.length > 0 && templates[templates.length - 1] === 0) {
      templates.pop();
      const end = templateEnd(source, i + 1);
      if (source.startsWith('${', end - 2) && source[end - 1] === '{') templates.push(0);
      push('template', i, end);
    } else if (/\d/.test(ch) || (ch === '.' && next !== undefined && /\d/.test(next))) {
      NUMBER.lastIndex = i;
      const match = NUMBER.exec(source);
      push('number', i, match !== null && match[0].length > 0 ? i + match[0].length : i + 1);
    } else if (IDENTIFIER_START.test(ch)) {
      let end = i + 1;
      while (end < source.length && IDENTIFIER_PART.test(source[end] as string)) end += 1;
      push('name', i, end);
    } else if (ch === '/' && regexAllowed(previous)) {
      REGEX_BODY.lastIndex = i;
      const match = REGEX_BODY.exec(source);
      if (match !== null) push('regex', i, i + match[0].length);
      else push('operator', i, source.startsWith('/=', i) ? i + 2 : i + 1);
    } else {
      const op = OPERATORS.find((o) => source.startsWith(o, i) && !(o === '?.' && /\d/.test(source[i + 2] ?? '')));
      const text = op ?? ch;
      if (templates.length > 0 && text === '{') templates[templates.length - 1] = (templates[templates.length - 1] ?? 0) + 1;
      if (templates.length > 0 && text === '}') templates[templates.length - 1] = (templates[templates.length - 1] ?? 1) - 1;
      const kind: Kind = text === ')' || text === ']' || text === '}' ? 'close' : text === '(' || text === '[' || text === '{' ? 'open' : 'operator';
      push(kind, i, i + text.length);
    }
  }
  return { tokens, lines };
}

/**
 * The leak audit's tokenizer: `tokenizeJavaScript`, except that a source map is read by content. A
 * map file (JSON with `mappings` and `sources`) gives the tokens of each of its `sourcesContent`
 * texts, as the sources they are, with their own lines; a file with an inline map
 * (`//# sourceMappingURL=data:application/json;base64,…`, a comment the tokenizer drops) gives its
 * own tokens and then those of the map's sources. Read as text, a map holds each source as one JSON
 * string, one token, and a copy of the body in it would never be found.
 */
export function tokenizeJavaScriptForAudit(source: string): Tokens {
  const map = parseSourceMap(source);
  if (map !== null) return concatTokens(map.sourcesContent.filter((c): c is string => c !== null).map(tokenizeJavaScript));
  const own = tokenizeJavaScript(source);
  if (!source.includes('sourceMappingURL=data:')) return own;
  const mapping = sourceMappingOf('', source);
  if (mapping === null || !('inline' in mapping)) return own;
  return concatTokens([own, ...mapping.inline.sourcesContent.filter((c): c is string => c !== null).map(tokenizeJavaScript)]);
}

function concatTokens(parts: readonly Tokens[]): Tokens {
  return { tokens: parts.flatMap((p) => p.tokens), lines: parts.flatMap((p) => p.lines) };
}

function countNewlines(text: string): number {
  let n = 0;
  for (let at = text.indexOf('\n'); at !== -1; at = text.indexOf('\n', at + 1)) n += 1;
  return n;
}

function lineEnd(source: string, from: number): number {
  const end = source.indexOf('\n', from);
  return end === -1 ? source.length : end;
}

/** The end of a quoted string starting at `start` (escapes and line continuations kept); an unterminated one ends at its line's end. */
function stringEnd(source: string, start: number): number {
  const quote = source[start];
  for (let i = start + 1; i < source.length; i++) {
    const ch = source[i];
    if (ch === '\\') i += 1;
    else if (ch === quote) return i + 1;
    else if (ch === '\n') return i;
  }
  return source.length;
}

/** The end of a template literal part: after its closing backtick, or after a `${`; the text's end when unterminated. */
function templateEnd(source: string, from: number): number {
  for (let i = from; i < source.length; i++) {
    const ch = source[i];
    if (ch === '\\') i += 1;
    else if (ch === '`') return i + 1;
    else if (ch === '$' && source[i + 1] === '{') return i + 2;
  }
  return source.length;
}

function regexAllowed(previous: { kind: Kind; text: string } | null): boolean {
  if (previous === null) return true;
  if (previous.kind === 'name') return BEFORE_REGEX.has(previous.text);
  if (previous.kind === 'template') return previous.text.endsWith('${');
  if (previous.kind === 'open') return true;
  if (previous.kind === 'operator') return previous.text !== '++' && previous.text !== '--';
  return false;
}

/** Image files the audit indexes: JavaScript/TypeScript sources, and source maps (their `sourcesContent` holds whole sources, which `tokenizeJavaScriptForAudit` reads). */
export function indexesJavaScriptImageFile(path: string): boolean {
  return /\.(?:[mc]?[jt]s|[jt]sx)$/.test(path) || path.endsWith('.map');
}

/** Folders a build writes a package's `src/` (or `lib/`) to, as published copies hold them. */
const BUILD_FOLDERS = ['dist', 'lib', 'build', 'out', 'esm', 'cjs', 'dist/esm', 'dist/cjs', 'dist/src'];

/** A path without its source map suffix and its JavaScript/TypeScript extension (`.d.ts` included). */
function stemOf(path: string): string {
  return path.replace(/\.map$/, '').replace(/\.d(?=\.[mc]?ts$)/, '').replace(/\.(?:[mc]?[jt]s|[jt]sx)$/, '');
}

/** The stems at which a published copy may hold a repository file: as is, and with a leading `src/` or `lib/` moved to a build folder. */
function publishedStems(file: string): string[] {
  const stem = stemOf(file);
  const [first, ...rest] = stem.split('/');
  if (rest.length === 0 || !['src', 'lib', 'source'].includes(first ?? '')) return [stem];
  return [stem, ...BUILD_FOLDERS.map((folder) => `${folder}/${rest.join('/')}`)];
}

/**
 * Copies of the library under construction among the image's indexed files: the roots to scrub,
 * sorted. The contract gives the repository's file list, not its package name, so a copy is
 * recognised by its layout: a folder below which sit, at the same relative paths (extension aside;
 * a `src/` or `lib/` prefix may be a build folder such as `dist/`; `.d.ts` and `.map` twins
 * count), files of at least two of the repository's own sources, among them more than half of the
 * files that hold units (a build publishes those; an unrelated package that only shares
 * `index.js` and `utils.js` with a larger library stays).
 * This finds `/usr/lib/node_modules/<name>`, Debian's `/usr/share/nodejs/<name>`, npm's bundled
 * `/usr/share/nodejs/npm/node_modules/<name>`, any `node_modules/<name>`. A one-file library is
 * not recognised (its name would be needed). Paths that no sandbox may lose are never returned.
 */
export function findJavaScriptLibraryCopies(imagePaths: readonly string[], library: { units: readonly Unit[]; files: ReadonlySet<string> }): string[] {
  const holdsUnits = new Set(library.units.map((u) => u.file));
  // build output counts where it is the package's source (it holds units), not where it is a copy
  const sources = [...library.files].filter((file) => isJavaScriptSource(file) && !isJavaScriptTestFile(file) && (!inBuildFolder(file) || holdsUnits.has(file)));
  const unitFiles = new Set([...holdsUnits].filter((file) => sources.includes(file)));
  /** stem variant → the repository files published under it */
  const byStem = new Map<string, string[]>();
  for (const file of sources) {
    for (const stem of publishedStems(file)) byStem.set(stem, [...(byStem.get(stem) ?? []), file]);
  }
  /** candidate root → the repository files found below it */
  const found = new Map<string, Set<string>>();
  for (const path of imagePaths) {
    if (!indexesJavaScriptImageFile(path)) continue;
    const parts = stemOf(path).split('/');
    // every split of the image path into <root>/<relative stem>
    for (let cut = parts.length - 1; cut >= 2; cut--) {
      const files = byStem.get(parts.slice(cut).join('/'));
      if (files === undefined) continue;
      const root = parts.slice(0, cut).join('/');
      const set = found.get(root) ?? new Set<string>();
      for (const file of files) set.add(file);
      found.set(root, set);
    }
  }
  const copies: string[] = [];
  for (const [root, files] of found) {
    const withUnits = [...files].filter((file) => unitFiles.has(file)).length;
    if (files.size < 2 || withUnits === 0 || withUnits * 2 <= unitFiles.size) continue;
    if (scrubPathProblem(root) === null) copies.push(root);
  }
  return normaliseScrubPaths(copies);
}

/** The JavaScript plugin's `LeakRules`. */
export const javascriptLeakRules: LeakRules = Object.freeze({
  tokenize: tokenizeJavaScriptForAudit,
  indexesImageFile: indexesJavaScriptImageFile,
  findLibraryCopies: findJavaScriptLibraryCopies,
  hostLibraryFolders: () => foldersNamed(['usr/lib', 'usr/local/lib', 'usr/share'], (name) => name === 'node_modules' || name === 'nodejs'),
});
