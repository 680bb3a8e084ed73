import { posix } from 'node:path';
import type { Unit } from '../construction-types.js';
import type { LeakRules, Tokens } from '../language.js';
import { DEFAULT_PACKAGE, isJavaSourceFile } from './parse-java-units.js';

const OPERATORS = ['>>>=', '<<=', '>>=', '>>>', '...', '->', '::', '&&', '||', '++', '--', '==', '!=', '<=', '>=', '+=', '-=', '*=', '/=', '%=', '&=', '|=', '^=', '<<', '>>'];

/** Java source cut into tokens for the leak audit: identifiers, numbers, string, text-block and char literals whole, operators; comments and whitespace dropped. Never throws. */
export function tokenizeJava(source: string): Tokens {
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
    } else if (source.startsWith('"""', i)) {
      const end = source.indexOf('"""', i + 3);
      const stop = end === -1 ? source.length : end + 3;
      push(source.slice(i, stop), line);
      line += (source.slice(i, stop).match(/\n/g) ?? []).length;
      i = stop;
    } else if (ch === '"' || ch === "'") {
      let j = i + 1;
      while (j < source.length && source[j] !== ch && source[j] !== '\n') j += source[j] === '\\' ? 2 : 1;
      push(source.slice(i, j + 1), line);
      i = j + 1;
    } else {
      const word = /^[\p{L}_$][\p{L}\p{N}_$]*|^\d[\w.]*/u.exec(source.slice(i, i + 200))?.[0];
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

/** Java sources of an image, and the jars and class files of `/usr/share/java` (the JDK's own files left out: they are the language, not a library). */
export function indexesJavaImageFile(path: string): boolean {
  if (/^\/?usr\/lib\/jvm\//.test(path)) return false;
  if (path.endsWith('.java')) return true;
  return /^\/?usr\/share\/java\//.test(path) && (path.endsWith('.jar') || path.endsWith('.class'));
}

/** Package segments too common to name a library by (a jar `commons.jar` is not `org.x.commons`'s copy because of them). */
const COMMON_SEGMENTS = new Set(['org', 'com', 'net', 'io', 'java', 'javax', 'util', 'utils', 'common', 'core', 'api', 'impl', 'internal', 'main', 'lang', 'text', 'num', 'math', 'test']);

/**
 * Copies of the library in an image: roots below which at least half of the library's sources sit
 * by their package paths, as `.java` or compiled `.class` files (`/usr/share/java/x/org/a/B.class`),
 * and jars of `/usr/share/java` named after a distinctive segment of its packages (`javakit.jar`,
 * `javakit-0.1.jar` for `org.javakit.text`).
 */
export function findJavaLibraryCopies(imagePaths: readonly string[], library: { units: readonly Unit[]; files: ReadonlySet<string> }): string[] {
  const classFiles = new Set<string>();
  for (const u of library.units) if (u.kind === 'class') classFiles.add(`${u.module === DEFAULT_PACKAGE ? '' : `${u.module.replace(/\./g, '/')}/`}${u.qualname}`);
  const sources = [...library.files].filter(isJavaSourceFile);
  const wanted = classFiles.size > 0 ? classFiles : new Set(sources.map((f) => f.replace(/\.java$/, '')));
  if (wanted.size === 0) return [];
  const found = new Map<string, Set<string>>();
  const segments = new Set(library.units.flatMap((u) => (u.module === DEFAULT_PACKAGE ? [] : u.module.split('.'))).filter((s) => !COMMON_SEGMENTS.has(s) && s.length > 2));
  const out = new Set<string>();
  for (const path of imagePaths) {
    const stem = path.replace(/\.(?:java|class)$/, '');
    if (stem !== path) {
      for (const w of wanted) {
        if (!stem.endsWith(`/${w}`)) continue;
        const root = stem.slice(0, stem.length - w.length - 1);
        found.set(root, (found.get(root) ?? new Set()).add(w));
      }
    }
    if (path.endsWith('.jar') && /usr\/share\/java\//.test(path)) {
      const name = posix.basename(path, '.jar').replace(/-[\d.]+$/, '');
      if (segments.has(name)) out.add(path);
    }
  }
  for (const [root, files] of found) if (files.size * 2 >= wanted.size) out.add(root);
  return [...out].sort();
}

export const javaLeakRules: LeakRules = Object.freeze({
  tokenize: tokenizeJava,
  indexesImageFile: indexesJavaImageFile,
  findLibraryCopies: findJavaLibraryCopies,
  hostLibraryFolders: () => ['usr/share/java'],
});
