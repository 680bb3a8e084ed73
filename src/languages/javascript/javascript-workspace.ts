import { posix } from 'node:path';
import { compareStrings } from '../call-sites.js';
import type { Unit } from '../construction-types.js';
import type { WorkspaceRules, WorkspaceScrub } from '../language.js';
import { moduleFormatOf } from './javascript-files.js';
import { inBuildFolder, isTooling, isTypeScript, readJavaScriptLayout } from './javascript-layout.js';

const MINIFIED = /\.min\.[mc]?js$/;
/** package.json fields that name files Node (or a bundler, or npm for `bin`) loads. */
const ENTRY_FIELDS = ['main', 'module', 'browser', 'bin', 'exports'] as const;

/**
 * The JavaScript plugin's workspace scrub: built copies (`readJavaScriptLayout`: build output of
 * sources the package holds, twins of the primary file) and minified files without units are
 * removed, so that the masked body cannot be read back from them. A removed file that a
 * package.json names as an entry point (`main`, `module`, `exports` under any condition, `browser`,
 * `bin`) is replaced by a shim that loads the primary, so `require`/`import` of the package still
 * resolve: over an ES module primary, `module.exports = require(primary)` (Node 20.19+ loads ES
 * modules with require), a lone `default` unwrapped; over CommonJS or ES, `export * from` plus
 * `export { default } from` where the primary has a default. A TypeScript primary cannot be loaded
 * by a shim (Node does not run TypeScript); the file is removed and its rule says so. Files of build
 * folders that are the package's only code are kept from the generic scrub (`dist/`).
 */
export function scrubJavaScriptWorkspace(snapshot: { files: ReadonlyMap<string, Buffer>; units: readonly Unit[] }): WorkspaceScrub {
  const { files } = snapshot;
  const text = (path: string): string | undefined => files.get(path)?.toString('utf8');
  const unitCounts = new Map<string, number>();
  for (const unit of snapshot.units) unitCounts.set(unit.file, (unitCounts.get(unit.file) ?? 0) + 1);
  const paths = [...files.keys()].sort(compareStrings);
  const layout = readJavaScriptLayout({ files: paths, read: text, unitCount: (path) => unitCounts.get(path) ?? 0 });

  const removals = new Map<string, { of: string | null; rule: string }>(layout.copies);
  for (const path of paths) {
    if (MINIFIED.test(path) && !isTooling(path) && !unitCounts.has(path) && !removals.has(path)) removals.set(path, { of: null, rule: 'minified file' });
  }
  const packageTypes = packageTypesOf(paths, text);
  const entries = entryPointsOf(paths, text);
  const remove: WorkspaceScrub['remove'] = [];
  for (const [path, { of, rule }] of [...removals].sort((a, b) => compareStrings(a[0], b[0]))) {
    const field = entries.get(path);
    if (field === undefined) {
      remove.push({ path, rule, replacement: null });
    } else if (of === null) {
      remove.push({ path, rule: `${rule}; entry point (${field}) removed without a shim: its source is not known`, replacement: null });
    } else if (isTypeScript(of)) {
      remove.push({ path, rule: `${rule}; entry point (${field}) removed without a shim: its source ${of} is TypeScript, which no shim can load`, replacement: null });
    } else {
      const shim = shimFor(path, of, { packageTypes, original: text(path) ?? '', primary: text(of) ?? '' });
      remove.push({ path, rule: `${rule}; entry point (${field}) replaced by a shim that loads ${of}`, replacement: Buffer.from(shim, 'utf8') });
    }
  }
  // a package that ships only build output: its sources, and the data files beside them, stay
  const sourceFolders = new Set(layout.sources.filter((f) => inBuildFolder(f) && unitCounts.has(f)).map((f) => posix.dirname(f)));
  const keep = paths.filter((p) => !removals.has(p) && sourceFolders.has(posix.dirname(p)) && (layout.sources.includes(p) || p.endsWith('.json')));
  return { remove, keep };
}

/** Each package.json's folder (`''` for the root) and its `type`. */
function packageTypesOf(paths: readonly string[], text: (path: string) => string | undefined): Map<string, string | undefined> {
  const types = new Map<string, string | undefined>();
  for (const [folder, json] of packageJsons(paths, text)) types.set(folder, typeof json.type === 'string' ? json.type : undefined);
  return types;
}

function packageJsons(paths: readonly string[], text: (path: string) => string | undefined): [string, Record<string, unknown>][] {
  const out: [string, Record<string, unknown>][] = [];
  for (const path of paths) {
    if (posix.basename(path) !== 'package.json' || /(?:^|\/)node_modules\//.test(path)) continue;
    try {
      const json = JSON.parse(text(path) ?? '') as unknown;
      if (json !== null && typeof json === 'object' && !Array.isArray(json)) out.push([posix.dirname(path) === '.' ? '' : posix.dirname(path), json as Record<string, unknown>]);
    } catch {
      // an unreadable package.json names no entry point
    }
  }
  return out;
}

/** The snapshot files package.json entry fields name, each with the first field naming it (`package.json main`). */
function entryPointsOf(paths: readonly string[], text: (path: string) => string | undefined): Map<string, string> {
  const fileSet = new Set(paths);
  const entries = new Map<string, string>();
  for (const [folder, json] of packageJsons(paths, text)) {
    const where = folder === '' ? 'package.json' : `${folder}/package.json`;
    for (const field of ENTRY_FIELDS) {
      for (const value of stringsIn(json[field], field === 'browser')) {
        const file = resolveEntry(folder, value, fileSet);
        if (file !== null && !entries.has(file)) entries.set(file, `${where} ${field}`);
      }
    }
  }
  return entries;
}

/** Every string of a field's value: itself, an object's values (and keys, for `browser`'s replacement map), an array's items, nested. */
function stringsIn(value: unknown, withKeys: boolean): string[] {
  if (typeof value === 'string') return [value];
  if (Array.isArray(value)) return value.flatMap((v) => stringsIn(v, withKeys));
  if (value !== null && typeof value === 'object') {
    return Object.entries(value).flatMap(([key, v]) => [...(withKeys ? [key] : []), ...stringsIn(v, withKeys)]);
  }
  return [];
}

/** A field's path as Node resolves it: as written, with `.js`, or its folder's `index.js`; null when not a snapshot file. */
function resolveEntry(folder: string, value: string, fileSet: ReadonlySet<string>): string | null {
  if (value.includes('*') || /^[a-z][a-z0-9+.-]*:/i.test(value)) return null;
  const base = posix.normalize(posix.join(folder, value));
  if (base.startsWith('../')) return null;
  return [base, `${base}.js`, `${base}/index.js`].find((c) => fileSet.has(c)) ?? null;
}

/**
 * A file that loads `primary` in place of `path`, in `path`'s own module format, holding none of
 * the original's code (its `#!` line aside, which `bin` needs).
 */
export function shimFor(path: string, primary: string, context: { packageTypes: ReadonlyMap<string, string | undefined>; original: string; primary: string }): string {
  let specifier = posix.relative(posix.dirname(path), primary);
  if (!specifier.startsWith('.')) specifier = `./${specifier}`;
  const quoted = JSON.stringify(specifier);
  const shebang = context.original.startsWith('#!') ? `${context.original.slice(0, context.original.indexOf('\n') + 1 || undefined)}` : '';
  const header = `// ${posix.basename(path)} was a built copy of ${primary}, removed from this workspace; it loads ${primary} instead.\n`;
  const primaryIsEsm = moduleFormatOf(primary, context.packageTypes) === 'esm';
  if (moduleFormatOf(path, context.packageTypes) === 'esm') {
    // a CommonJS module always has a default (module.exports); an ES module only when it says so
    const hasDefault = !primaryIsEsm || /\bexport\s+default\b|\bas\s+default\b/.test(context.primary);
    return `${shebang}${header}export * from ${quoted};\n${hasDefault ? `export { default } from ${quoted};\n` : ''}`;
  }
  if (!primaryIsEsm) return `${shebang}${header}module.exports = require(${quoted});\n`;
  return (
    `${shebang}${header}const loaded = require(${quoted});\n` +
    // require() of an ES module gives its namespace, marked `__esModule` where it has a default
    "const names = Object.keys(loaded).filter((name) => name !== '__esModule');\n" +
    "module.exports = names.length === 1 && names[0] === 'default' ? loaded.default : loaded;\n"
  );
}

/** The JavaScript plugin's `WorkspaceRules`. */
export const javascriptWorkspaceRules: WorkspaceRules = Object.freeze({ scrub: scrubJavaScriptWorkspace });
