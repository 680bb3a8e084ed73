import type { Unit } from '../construction-types.js';
import type { LeakRules, Tokens } from '../language.js';
import { libraryCopyRoots } from '../library-copy-roots.js';
import { tokenizeCLike, type Literal } from '../tokenize-c-like.js';
import { isRustSourceFile } from './parse-rust-units.js';

const OPERATORS = ['<<=', '>>=', '..=', '...', '::', '->', '=>', '&&', '||', '==', '!=', '<=', '>=', '+=', '-=', '*=', '/=', '%=', '&=', '|=', '^=', '<<', '>>', '..'];

/**
 * Rust source cut into tokens for the leak audit: identifiers, numbers, string, raw string and char
 * literals whole, lifetimes, operators; comments (doc comments included) and whitespace dropped.
 * Never throws.
 */
export function tokenizeRust(source: string): Tokens {
  return tokenizeCLike(source, { operators: OPERATORS, word: /^[\p{L}_][\p{L}\p{N}_]*|^\d\w*(?:\.\d\w*)?/u, literal: rustLiteral, nestedComments: true });
}

/** A Rust raw string (`r#"…"#`, `br"…"`), string (`"…"`, `b"…"`), char (`'a'`, `'\u{1F600}'`) or lifetime (`'a`); a lone `'` as itself. */
function rustLiteral(source: string, i: number): Literal | undefined {
  const ch = source[i];
  if (/^b?r#*"/.test(source.slice(i, i + 8))) {
    const open = /^b?r(#*)"/.exec(source.slice(i, i + 300))!;
    const close = `"${open[1]}`;
    const end = source.indexOf(close, i + open[0].length);
    return { text: source.slice(i, end === -1 ? source.length : end + close.length), countsLines: true };
  }
  if (ch === '"' || (ch === 'b' && source[i + 1] === '"')) {
    let j = i + (ch === 'b' ? 2 : 1);
    while (j < source.length && source[j] !== '"') j += source[j] === '\\' ? 2 : 1;
    return { text: source.slice(i, j + 1), countsLines: true };
  }
  if (ch !== "'") return undefined;
  const char = /^'(?:\\(?:u\{[0-9a-fA-F]+\}|x[0-9a-fA-F]{2}|.)|[^'\\])'/u.exec(source.slice(i, i + 16))?.[0];
  const lifetime = /^'[\p{L}_][\p{L}\p{N}_]*/u.exec(source.slice(i, i + 100))?.[0];
  return { text: char ?? lifetime ?? ch, countsLines: false };
}

/** Rust sources of an image, the toolchain's own standard library sources left out (they are the language, not a library). */
export function indexesRustImageFile(path: string): boolean {
  return path.endsWith('.rs') && !/^\/?usr\/(?:lib|share)\/(?:rustlib|rust)\//.test(path) && !/\/rustlib\//.test(path);
}

/**
 * Copies of the library in an image (Debian's `/usr/share/cargo/registry/<crate>-<version>/…`, a
 * vendored copy): the roots below which at least half of the repository's library sources sit at
 * their repository paths.
 */
export function findRustLibraryCopies(imagePaths: readonly string[], library: { units: readonly Unit[]; files: ReadonlySet<string> }): string[] {
  return libraryCopyRoots(imagePaths.filter((path) => path.endsWith('.rs')), [...library.files].filter(isRustSourceFile)).sort();
}

export const rustLeakRules: LeakRules = Object.freeze({
  tokenize: tokenizeRust,
  indexesImageFile: indexesRustImageFile,
  findLibraryCopies: findRustLibraryCopies,
  hostLibraryFolders: () => ['usr/share/cargo/registry'],
});
