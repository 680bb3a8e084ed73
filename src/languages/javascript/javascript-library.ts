import { compareStrings } from '../call-sites.js';
import type { Unit } from '../construction-types.js';

/** The language as people name it, for prompts to models. */
export const javascriptDisplayName = 'JavaScript';

/** The info string of its Markdown code fences (a TypeScript unit's own prompt fences its signature `ts`). */
export const javascriptCodeFence = 'js';

/** True for a JavaScript/TypeScript source (`.js .mjs .cjs .ts .mts .cts .jsx .tsx`; a `.d.ts` declares, it is not source). */
export function isJavaScriptSourceFile(path: string): boolean {
  return /\.(?:[mc]?[jt]s|[jt]sx)$/.test(path) && !/\.d\.[mc]?ts$/.test(path);
}

/** Folders that say where code sits, not what the package is called. */
const GENERIC_FOLDERS = new Set(['src', 'lib', 'source', 'sources', 'dist', 'build', 'esm', 'cjs', 'app', 'packages', 'libs', 'modules']);

/** The package a module path names: its first folder that is not generic (`packages/textkit/src/x` → `textkit`), or null. */
function packageFolderOf(module: string): string | null {
  const folders = module.split('/').slice(0, -1);
  return folders.find((f) => !GENERIC_FOLDERS.has(f)) ?? null;
}

/**
 * The library as the prompt names it. `Unit` carries no package name (package.json is not read
 * here), so it is named by the folder its modules sit in when that folder is not a generic one
 * (``the TypeScript package `textkit` ``), else by its modules (``a JavaScript package (modules
 * `src/text`, `src/shapes`)``). TypeScript when every unit is in a TypeScript file, JavaScript when
 * none is, else JavaScript/TypeScript.
 */
export function describeJavaScriptLibrary(units: readonly Unit[]): string {
  const typescript = units.filter((u) => /\.[mc]?tsx?$/.test(u.file)).length;
  const language = typescript === units.length && units.length > 0 ? 'TypeScript' : typescript === 0 ? 'JavaScript' : 'JavaScript/TypeScript';
  const folders = [...new Set(units.map((u) => packageFolderOf(u.module)))];
  if (folders.length === 1 && folders[0] !== null && folders[0] !== undefined) return `the ${language} package \`${folders[0]}\``;
  const modules = [...new Set(units.map((u) => u.module))].sort(compareStrings);
  if (modules.length === 0) return `a ${language} package`;
  const shown = modules.slice(0, 5).map((m) => `\`${m}\``).join(', ');
  return `a ${language} package (modules ${shown}${modules.length > 5 ? ', ...' : ''})`;
}
