import { posix } from 'node:path';
import type { Unit } from '../construction-types.js';
import type { LeakRules, Tokens } from '../language.js';
import { libraryCopyRoots } from '../library-copy-roots.js';
import { quotedOnItsLine, tokenizeCLike, type Literal } from '../tokenize-c-like.js';
import { DEFAULT_PACKAGE, isJavaSourceFile } from './parse-java-units.js';

const OPERATORS = ['>>>=', '<<=', '>>=', '>>>', '...', '->', '::', '&&', '||', '++', '--', '==', '!=', '<=', '>=', '+=', '-=', '*=', '/=', '%=', '&=', '|=', '^=', '<<', '>>'];

/** Java source cut into tokens for the leak audit: identifiers, numbers, string, text-block and char literals whole, operators; comments and whitespace dropped. Never throws. */
export function tokenizeJava(source: string): Tokens {
  return tokenizeCLike(source, { operators: OPERATORS, word: /^[\p{L}_$][\p{L}\p{N}_$]*|^\d[\w.]*/u, literal: javaLiteral });
}

/** A Java text block (`"""…"""`, lines and all), string or char literal (`"…"`, `'…'`). */
function javaLiteral(source: string, i: number): Literal | undefined {
  if (source.startsWith('"""', i)) {
    const end = source.indexOf('"""', i + 3);
    return { text: source.slice(i, end === -1 ? source.length : end + 3), countsLines: true };
  }
  const ch = source[i];
  return ch === '"' || ch === "'" ? quotedOnItsLine(source, i) : undefined;
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
  const segments = new Set(library.units.flatMap((u) => (u.module === DEFAULT_PACKAGE ? [] : u.module.split('.'))).filter((s) => !COMMON_SEGMENTS.has(s) && s.length > 2));
  const stems = imagePaths.map((path) => path.replace(/\.(?:java|class)$/, '')).filter((stem, k) => stem !== imagePaths[k]);
  const out = new Set(libraryCopyRoots(stems, [...wanted]));
  for (const path of imagePaths) {
    if (path.endsWith('.jar') && /usr\/share\/java\//.test(path)) {
      const name = posix.basename(path, '.jar').replace(/-[\d.]+$/, '');
      if (segments.has(name)) out.add(path);
    }
  }
  return [...out].sort();
}

export const javaLeakRules: LeakRules = Object.freeze({
  tokenize: tokenizeJava,
  indexesImageFile: indexesJavaImageFile,
  findLibraryCopies: findJavaLibraryCopies,
  hostLibraryFolders: () => ['usr/share/java'],
});
