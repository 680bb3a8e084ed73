import type { Unit } from '../construction-types.js';
import type { LeakRules, Tokens } from '../language.js';
import { isGoSourceFile } from './parse-go-units.js';

const OPERATORS = ['<<=', '>>=', '&^=', '...', '&&', '||', '<-', '++', '--', '==', '!=', '<=', '>=', ':=', '+=', '-=', '*=', '/=', '%=', '&=', '|=', '^=', '<<', '>>', '&^'];

/** Go source cut into tokens for the leak audit: identifiers, numbers, string and rune literals whole, operators; comments and whitespace dropped. Never throws. */
export function tokenizeGo(source: string): Tokens {
  const tokens: string[] = [];
  const lines: number[] = [];
  let line = 1;
  let i = 0;
  const push = (token: string, at: number): void => {
    tokens.push(token);
    lines.push(at);
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
      const end = source.indexOf('*/', i + 2);
      const stop = end === -1 ? source.length : end + 2;
      line += (source.slice(i, stop).match(/\n/g) ?? []).length;
      i = stop;
    } else if (ch === '"' || ch === "'") {
      let j = i + 1;
      while (j < source.length && source[j] !== ch && source[j] !== '\n') j += source[j] === '\\' ? 2 : 1;
      push(source.slice(i, j + 1), line);
      i = j + 1;
    } else if (ch === '`') {
      const end = source.indexOf('`', i + 1);
      const stop = end === -1 ? source.length : end + 1;
      push(source.slice(i, stop), line);
      line += (source.slice(i, stop).match(/\n/g) ?? []).length;
      i = stop;
    } else {
      const word = /^[\p{L}_][\p{L}\p{N}_]*|^\d[\w.]*/u.exec(source.slice(i, i + 200))?.[0];
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
  const sources = [...library.files].filter(isGoSourceFile);
  if (sources.length === 0) return [];
  const found = new Map<string, Set<string>>();
  for (const path of imagePaths) {
    if (!path.endsWith('.go')) continue;
    for (const file of sources) {
      if (!path.endsWith(`/${file}`)) continue;
      const root = path.slice(0, path.length - file.length - 1);
      found.set(root, (found.get(root) ?? new Set()).add(file));
    }
  }
  return [...found].filter(([, files]) => files.size * 2 >= sources.length).map(([root]) => root).sort();
}

export const goLeakRules: LeakRules = Object.freeze({
  tokenize: tokenizeGo,
  indexesImageFile: indexesGoImageFile,
  findLibraryCopies: findGoLibraryCopies,
  hostLibraryFolders: () => ['usr/share/gocode'],
});
