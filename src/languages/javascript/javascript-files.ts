import type { DetectResult } from '../language-adapter.js';
import type { RepoSnapshot } from '../construction-types.js';

/** Extensions of the JavaScript and TypeScript sources the plugin reads. */
export const SOURCE_EXTENSIONS: readonly string[] = ['.js', '.mjs', '.cjs', '.ts', '.mts', '.cts', '.jsx', '.tsx'];

const SOURCE = /\.(?:[mc]?[jt]s|[jt]sx)$/;
const DECLARATION = /\.d\.[mc]?ts$/;
/** Folders whose files are neither units nor call sites: installed packages and coverage reports. */
const NEVER_READ = /(?:^|\/)(?:node_modules|coverage)\//;
/** Folders detection does not count: a build's output says little about what the repository is written in. */
const NOT_COUNTED = /(?:^|\/)(?:dist|build)\//;
/**
 * Test files: read for call sites, never units. Folders `__tests__/`, `test/`, `tests/`; `*.test.*`,
 * `*.spec.*`; and the files ava and mocha run by default, `test.js`, `tests.js`, `test-*.js`
 * (runtime/trace-tests.mjs keeps the same rule).
 */
const TEST_FILE = /(?:^|\/)(?:__tests__|tests?)\/|\.(?:test|spec)\.[^/]+$|(?:^|\/)(?:tests?\.[^/]+|test-[^/]+)$/;

/**
 * True for a JavaScript/TypeScript file the plugin may read (not a `.d.ts`, not under node_modules/
 * or coverage/). Whether build output is source or a built copy, `readJavaScriptLayout` decides.
 */
export function isJavaScriptSource(file: string): boolean {
  return SOURCE.test(file) && !DECLARATION.test(file) && !NEVER_READ.test(file);
}

/** True for a test file (`*.test.*`, `*.spec.*`, `__tests__/`, `test/`, `tests/`, `test.js`, `tests.js`, `test-*.js`): its definitions are not units. */
export function isJavaScriptTestFile(file: string): boolean {
  return TEST_FILE.test(file);
}

/**
 * The unit's module name: the repository-relative path without its extension (`src/text` for
 * `src/text.ts`). Unlike Python, JavaScript imports files by path, so the path is the name; the
 * record harness and the subject find the file again by trying SOURCE_EXTENSIONS in order. When
 * that order would find another file of `files` first (`index.mjs` next to its twin `index.js`),
 * the name is the path itself, extension included, which they take as is.
 */
export function javascriptModuleName(file: string, files?: ReadonlySet<string>): string {
  const stem = file.replace(/\.(?:[mc]?[jt]s|[jt]sx)$/, '');
  const first = files === undefined ? file : SOURCE_EXTENSIONS.map((e) => stem + e).find((c) => files.has(c));
  return first === undefined || first === file ? stem : file;
}

/** Looks at the snapshot's file list only: `package.json` or JavaScript/TypeScript sources. */
export function detectJavaScript(snapshot: RepoSnapshot): DetectResult {
  const files = snapshot.files.filter((f) => isJavaScriptSource(f) && !NOT_COUNTED.test(f)).sort();
  const hasPackageJson = snapshot.files.some((f) => f === 'package.json' || (f.endsWith('/package.json') && !NEVER_READ.test(f) && !NOT_COUNTED.test(f)));
  const outsideTests = files.filter((f) => !isJavaScriptTestFile(f)).length;
  const detected = files.length > 0 || hasPackageJson;
  const reason = files.length > 0
    ? `${files.length} JavaScript/TypeScript files (${outsideTests} outside tests)${hasPackageJson ? ', package.json' : ''}`
    : hasPackageJson ? 'package.json but no JavaScript/TypeScript sources' : 'no .js/.ts files and no package.json';
  return { language: 'javascript', detected, files, reason };
}

/** How Node loads a file: as an ES module or as CommonJS. */
export type ModuleFormat = 'esm' | 'cjs';

/**
 * Node's own rule: `.mjs`/`.mts` are ES modules, `.cjs`/`.cts` CommonJS, anything else follows the
 * `type` of the nearest package.json above it (`module` → ESM, else CommonJS). `packageTypes` maps
 * each package.json's folder (`''` for the root) to its `type` field (undefined when absent).
 */
export function moduleFormatOf(file: string, packageTypes: ReadonlyMap<string, string | undefined>): ModuleFormat {
  if (/\.m[jt]s$/.test(file)) return 'esm';
  if (/\.c[jt]s$/.test(file)) return 'cjs';
  const parts = file.split('/');
  for (let cut = parts.length - 1; cut >= 0; cut--) {
    const folder = parts.slice(0, cut).join('/');
    if (packageTypes.has(folder)) return packageTypes.get(folder) === 'module' ? 'esm' : 'cjs';
  }
  return 'cjs';
}
