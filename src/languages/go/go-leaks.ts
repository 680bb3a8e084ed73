import type { Unit } from '../construction-types.js';
import type { LeakRules, Tokens } from '../language.js';
import { libraryCopyRoots } from '../library-copy-roots.js';
import { quotedOnItsLine, tokenizeCLike, type Literal } from '../tokenize-c-like.js';
import { isGoSourceFile } from './parse-go-units.js';

const OPERATORS = ['<<=', '>>=', '&^=', '...', '&&', '||', '<-', '++', '--', '==', '!=', '<=', '>=', ':=', '+=', '-=', '*=', '/=', '%=', '&=', '|=', '^=', '<<', '>>', '&^'];

/** Go source cut into tokens for the leak audit: identifiers, numbers, string and rune literals whole, operators; comments and whitespace dropped. Never throws. */
export function tokenizeGo(source: string): Tokens {
  return tokenizeCLike(source, { operators: OPERATORS, word: /^[\p{L}_][\p{L}\p{N}_]*|^\d[\w.]*/u, literal: goLiteral });
}

/** A Go string or rune literal (`"…"`, `'…'`), or a raw string (`` `…` ``, lines and all). */
function goLiteral(source: string, i: number): Literal | undefined {
  const ch = source[i];
  if (ch === '"' || ch === "'") return quotedOnItsLine(source, i);
  if (ch !== '`') return undefined;
  const end = source.indexOf('`', i + 1);
  return { text: source.slice(i, end === -1 ? source.length : end + 1), countsLines: true };
}

/** Go sources of an image, the toolchain's own standard library left out (it is the language, not a library). */
export function indexesGoImageFile(path: string): boolean {
  return path.endsWith('.go') && !/^\/?usr\/(?:lib|share)\/go(?:-[\d.]+)?\//.test(path);
}

/**
 * Copies of the library in an image (Debian's `/usr/share/gocode/src/<module path>/…`, a module
 * cache): the roots below which at least half of the repository's package sources sit at their
 * repository paths.
 */
export function findGoLibraryCopies(imagePaths: readonly string[], library: { units: readonly Unit[]; files: ReadonlySet<string> }): string[] {
  return libraryCopyRoots(imagePaths.filter((path) => path.endsWith('.go')), [...library.files].filter(isGoSourceFile)).sort();
}

export const goLeakRules: LeakRules = Object.freeze({
  tokenize: tokenizeGo,
  indexesImageFile: indexesGoImageFile,
  findLibraryCopies: findGoLibraryCopies,
  hostLibraryFolders: () => ['usr/share/gocode'],
});
