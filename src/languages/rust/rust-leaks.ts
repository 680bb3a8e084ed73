import type { Unit } from '../construction-types.js';
import type { LeakRules, Tokens } from '../language.js';
import { isRustSourceFile } from './parse-rust-units.js';

const OPERATORS = ['<<=', '>>=', '..=', '...', '::', '->', '=>', '&&', '||', '==', '!=', '<=', '>=', '+=', '-=', '*=', '/=', '%=', '&=', '|=', '^=', '<<', '>>', '..'];

/**
 * Rust source cut into tokens for the leak audit: identifiers, numbers, string, raw string and char
 * literals whole, lifetimes, operators; comments (doc comments included) and whitespace dropped.
 * Never throws.
 */
export function tokenizeRust(source: string): Tokens {
  const tokens: string[] = [];
  const lines: number[] = [];
  let line = 1;
  let i = 0;
  const push = (token: string, at: number): void => {
    tokens.push(token);
    lines.push(at);
  };
  const skip = (stop: number): void => {
    line += (source.slice(i, stop).match(/\n/g) ?? []).length;
    i = stop;
  };
  while (i < source.length) {
    const ch = source[i]!;
    if (ch === '\n') {
      line += 1;
      i += 1;
    } else if (/\s/.test(ch)) i += 1;
    else if (source.startsWith('//', i)) {
      const end = source.indexOf('\n', i);
      i = end === -1 ? source.length : end;
    } else if (source.startsWith('/*', i)) {
      // block comments nest in Rust
      let depth = 0;
      let j = i;
      while (j < source.length) {
        if (source.startsWith('/*', j)) {
          depth += 1;
          j += 2;
        } else if (source.startsWith('*/', j)) {
          depth -= 1;
          j += 2;
          if (depth === 0) break;
        } else j += 1;
      }
      skip(j);
    } else if (/^b?r#*"/.test(source.slice(i, i + 8))) {
      const open = /^b?r(#*)"/.exec(source.slice(i, i + 300))!;
      const close = `"${open[1]}`;
      const end = source.indexOf(close, i + open[0].length);
      const stop = end === -1 ? source.length : end + close.length;
      const at = line;
      push(source.slice(i, stop), at);
      skip(stop);
    } else if (ch === '"' || (ch === 'b' && source[i + 1] === '"')) {
      let j = i + (ch === 'b' ? 2 : 1);
      while (j < source.length && source[j] !== '"') j += source[j] === '\\' ? 2 : 1;
      const at = line;
      push(source.slice(i, j + 1), at);
      skip(j + 1);
    } else if (ch === "'") {
      const char = /^'(?:\\(?:u\{[0-9a-fA-F]+\}|x[0-9a-fA-F]{2}|.)|[^'\\])'/u.exec(source.slice(i, i + 16))?.[0];
      const lifetime = /^'[\p{L}_][\p{L}\p{N}_]*/u.exec(source.slice(i, i + 100))?.[0];
      const token = char ?? lifetime ?? ch;
      push(token, line);
      i += token.length;
    } else {
      const word = /^[\p{L}_][\p{L}\p{N}_]*|^\d\w*(?:\.\d\w*)?/u.exec(source.slice(i, i + 200))?.[0];
      if (word !== undefined) {
        push(word, line);
        i += word.length;
        continue;
      }
      const op = OPERATORS.find((o) => source.startsWith(o, i)) ?? ch;
      push(op, line);
      i += op.length;
    }
  }
  return { tokens, lines };
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
  const sources = [...library.files].filter(isRustSourceFile);
  if (sources.length === 0) return [];
  const found = new Map<string, Set<string>>();
  for (const path of imagePaths) {
    if (!path.endsWith('.rs')) continue;
    for (const file of sources) {
      if (!path.endsWith(`/${file}`)) continue;
      const root = path.slice(0, path.length - file.length - 1);
      found.set(root, (found.get(root) ?? new Set()).add(file));
    }
  }
  return [...found].filter(([, files]) => files.size * 2 >= sources.length).map(([root]) => root).sort();
}

export const rustLeakRules: LeakRules = Object.freeze({
  tokenize: tokenizeRust,
  indexesImageFile: indexesRustImageFile,
  findLibraryCopies: findRustLibraryCopies,
  hostLibraryFolders: () => ['usr/share/cargo/registry'],
});
