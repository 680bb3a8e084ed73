import { posix } from 'node:path';
import { compareStrings } from '../call-sites.js';
import { isJavaScriptSource, isJavaScriptTestFile } from './javascript-files.js';
import { mapSourcePaths, parseSourceMap, sourceMappingOf } from './javascript-source-maps.js';

/**
 * Folders a build writes to. A file below one (and below no `src/` or `source/` folder) is build
 * output; whether it is a copy or the package's only code, `readJavaScriptLayout` decides.
 * `isBuildFolder` also takes their variants (`dist.es2015`, `dist-esm`, `lib.esm`, `_cjs`).
 */
export const BUILD_FOLDERS: ReadonlySet<string> = new Set([
  'dist', 'build', 'lib', 'es', 'esm', 'cjs', 'umd', 'out', 'min', 'bundle', 'bundles',
  'es5', 'es6', 'es2015', 'esm5', 'esm2015', 'esm2020', 'fesm2015', 'fesm2020', 'fesm2022',
]);
/**
 * A build folder's variants: a build name with module-format or ES-version suffixes after `.`, `-`
 * or `_` (`dist.es2015`, `dist-esm`, `dist-cjs`, `lib.esm`, `build-umd`, `esm-node`), a bare ES
 * version (`es2017`, `esnext`, `fesm2015`), and `_cjs`/`_esm` (viem). The suffixes are a closed
 * list, so `build-tools/` or `lib-utils/` stay source folders; `node/` alone is not taken (packages
 * keep Node-only sources there).
 */
const BUILD_VARIANT = /^_?(?:dist|build|lib|es|esm|cjs|umd|out|bundles?)(?:[._-](?:f?esm?(?:3|5|6|20\d\d|next)|esm|cjs|umd|amd|mjs|module|modules|commonjs|browser|node|min|legacy|modern))*$|^f?esm?(?:3|5|6|20\d\d|next)$/;

/** True for a folder name a build writes to (`dist`, `dist.es2015`, `esm2015`, `_cjs`). */
export function isBuildFolder(name: string): boolean {
  return BUILD_FOLDERS.has(name) || BUILD_VARIANT.test(name);
}
const SOURCE_FOLDERS = new Set(['src', 'source', 'sources']);
/** Files and folders of tooling, not of the library: their units do not make a package "have sources". */
const TOOLING = /(?:^|\/)(?:bin|scripts?|examples?|demos?|bench|benchmarks?|docs?|\.[^/]+)\/|(?:^|\/)(?:[^/]*\.config\.[^/]+|config\.[^/]+|\.[^/]*rc\.[^/]+|gulpfile\.[^/]+|gruntfile\.[^/]+)$/i;
/** Build suffixes between a file's stem and its extension (`x.esm.min.js`). */
const BUILD_SUFFIX = /\.(?:min|esm|cjs|umd|es|mjs|module|prod|production|development|dev)$/i;
const EXTENSION = /\.(?:[mc]?[jt]s|[jt]sx)$/;
const MINIFIED = /\.min\.[mc]?js$/;

/** Why a file is a built copy, and of which source (null when it cannot be told). */
export interface BuiltCopy {
  /** The source it was built from, the primary of its twins: what a shim in its place would load. */
  of: string | null;
  /** The rule, as report.json's `mask.scrubbed` says it. */
  rule: string;
}

/** What a published package's files are: the sources units come from, and the built copies. */
export interface JavaScriptLayout {
  /** JavaScript/TypeScript files whose units count (tests included: they give call sites), sorted. */
  sources: string[];
  /** Built copies: never units, removed from a task's workspace. */
  copies: Map<string, BuiltCopy>;
}

export interface LayoutInput {
  /** Every file of the snapshot, repository-relative. */
  files: readonly string[];
  /** A file's text, or undefined when it cannot be read. */
  read(path: string): string | undefined;
  /** The units (classes included) the plugin's parser finds in a library file. */
  unitCount(path: string): number;
}

/**
 * How a package is laid out as published, by these rules (about layouts, never about names):
 *
 * 1. Build output is a copy when the package has sources outside build folders: library files
 *    with units outside every build folder (tooling, tests and configs aside). A file below a build
 *    folder is then a copy when its source map names a source the snapshot holds, when a source
 *    with units sits at the same relative path (`lib/esm/x.js` ↔ `src/x.ts`, `dist/index.mjs` ↔
 *    `index.js`), or when the sources are TypeScript or live under `src/` (a build of them may be
 *    named anything: `dist/bundle.js`). Otherwise (a package that ships only `dist/`, or `index.js`
 *    that requires `./lib`) build output is the source.
 * 2. Anywhere, a file whose `sourceMappingURL` map names another file of the snapshot is a copy.
 * 3. Twins: files of one folder (build folders count as one) with the same stem and other module
 *    extensions or build suffixes (`index.js`, `index.mjs`, `index.cjs`, `index.min.js`,
 *    `x.esm.js`, `x.umd.js`) are one module built several times. Its primary is the file with the
 *    most units; ties go to TypeScript, then `.mjs`/`.esm.js`, then `.js`, then `.cjs`, minified
 *    last. A UMD bundle hides its functions inside a factory, gives no unit, and so is never
 *    primary where a twin gives some. The others are copies of the primary.
 *
 * `unitCount` is asked only of the files the rules need; the parser counts by parsing, the mask
 * stage by the units the parser gave (only primaries have any), and both reach the same layout.
 */
export function readJavaScriptLayout(input: LayoutInput): JavaScriptLayout {
  const fileSet = new Set(input.files);
  const candidates = input.files.filter(isJavaScriptSource).sort(compareStrings);
  const copies = new Map<string, BuiltCopy>();
  const library = (f: string): boolean => !isJavaScriptTestFile(f);
  const outside = candidates.filter((f) => !inBuildFolder(f));
  const withUnits = outside.filter((f) => library(f) && !TOOLING.test(f) && input.unitCount(f) > 0);
  const byRelativeStem = groupBy(outside.filter((f) => library(f) && !TOOLING.test(f)), relativeStem);
  const sameStemSource = (f: string): string | null => pickPrimary((byRelativeStem.get(relativeStem(f)) ?? []).filter((s) => s !== f), input);
  const mapSources = (f: string): BuiltCopy | null => {
    const sources = mappedSources(f, input, fileSet);
    if (sources.length === 0) return null;
    // a bundle of several sources stands for the one at its own path (`dist/index.js` for `src/index.ts`)
    const of = sources.length === 1 ? (sources[0] as string) : (sources.find((source) => relativeStem(source) === relativeStem(f)) ?? sameStemSource(f));
    const named = sources.length > 3 ? `${sources.slice(0, 3).join(', ')} and ${sources.length - 3} more` : sources.join(', ');
    return { of, rule: `built copy of ${named} (its source map names ${sources.length === 1 ? 'it' : 'them'})` };
  };

  if (withUnits.length > 0) {
    const sourceLayout = withUnits.some((f) => isTypeScript(f) || f.split('/').slice(0, -1).some((d) => SOURCE_FOLDERS.has(d)));
    const unitsByRelativeStem = groupBy(withUnits, relativeStem);
    for (const file of candidates.filter((f) => inBuildFolder(f) && !TOOLING.test(f))) {
      const mapped = mapSources(file);
      const twin = pickPrimary(unitsByRelativeStem.get(relativeStem(file)) ?? [], input);
      if (mapped === null && twin === null && !sourceLayout) continue;
      if (mapped !== null) {
        copies.set(file, mapped);
        continue;
      }
      const of = twin ?? sameStemSource(file);
      copies.set(file, { of, rule: `build output in ${buildFolderOf(file)}/ (the package's sources are outside build folders)${of === null ? '' : `; built from ${of}`}` });
    }
  }

  for (const file of candidates) {
    if (copies.has(file)) continue;
    const mapped = mapSources(file);
    if (mapped !== null) copies.set(file, mapped);
  }

  const families = groupBy(candidates.filter((f) => library(f) && !TOOLING.test(f) && !copies.has(f)), familyKey);
  for (const members of families.values()) {
    if (members.length < 2) continue;
    const primary = pickPrimary(members, input) as string;
    for (const member of members) {
      if (member !== primary) copies.set(member, { of: primary, rule: `twin of ${primary} (the same module built again)` });
    }
  }
  // a copy of a copy is a copy of the source
  for (const copy of copies.values()) {
    const seen = new Set<string>();
    while (copy.of !== null && copies.has(copy.of) && !seen.has(copy.of)) {
      seen.add(copy.of);
      copy.of = copies.get(copy.of)?.of ?? null;
    }
  }
  return { sources: candidates.filter((f) => !copies.has(f)), copies };
}

/** True for a file of the package's tooling (a config, a `bin/` or `scripts/` file, an example), not of the library. */
export function isTooling(file: string): boolean {
  return TOOLING.test(file);
}

/** True for a file below a build folder that is not itself below a source folder (`dist/x.js`, not `src/lib/x.js`). TypeScript is never build output. */
export function inBuildFolder(file: string): boolean {
  return buildFolderOf(file) !== null && !isTypeScript(file);
}

/** The first build folder of a path (`lib` of `lib/esm/x.js`), or null. */
function buildFolderOf(file: string): string | null {
  for (const dir of file.split('/').slice(0, -1)) {
    if (SOURCE_FOLDERS.has(dir) || dir === 'node_modules') return null;
    if (isBuildFolder(dir)) return dir;
  }
  return null;
}

export function isTypeScript(file: string): boolean {
  return /\.(?:[mc]?ts|tsx)$/.test(file);
}

/** A file name without its module extension and build suffixes (`x.esm.min.js` → `x`). */
function bareStem(file: string): string {
  let stem = posix.basename(file).replace(EXTENSION, '');
  while (BUILD_SUFFIX.test(stem) && stem.replace(BUILD_SUFFIX, '') !== '') stem = stem.replace(BUILD_SUFFIX, '');
  return stem;
}

/** The folders of a path without its build folders and a leading source folder, and its bare stem: where a build puts a source's copy. */
function relativeStem(file: string): string {
  const dirs = file.split('/').slice(0, -1).filter((d) => !isBuildFolder(d));
  if (dirs[0] !== undefined && SOURCE_FOLDERS.has(dirs[0])) dirs.shift();
  return [...dirs, bareStem(file)].join('/');
}

/** Twins share this: their folder (build output counted as one folder) and their bare stem. */
function familyKey(file: string): string {
  if (inBuildFolder(file)) return `\0build/${relativeStem(file)}`;
  return `${posix.dirname(file)}/${bareStem(file)}`;
}

/** The tie-break between twins with as many units: TypeScript, ES module, plain, CommonJS, minified. */
function rankOf(file: string): number {
  if (MINIFIED.test(file)) return 4;
  if (isTypeScript(file)) return 0;
  if (/\.mjs$/.test(file) || /\.(?:esm|es|module)\.js$/.test(file)) return 1;
  if (/\.cjs$/.test(file) || /\.(?:cjs|umd)\.js$/.test(file)) return 3;
  return 2;
}

/** The member with the most units, ties by `rankOf`, then by path; null for none. */
function pickPrimary(members: readonly string[], input: LayoutInput): string | null {
  let best: { file: string; units: number; rank: number } | null = null;
  for (const file of [...members].sort(compareStrings)) {
    const units = input.unitCount(file);
    const rank = rankOf(file);
    if (best === null || units > best.units || (units === best.units && rank < best.rank)) best = { file, units, rank };
  }
  return best?.file ?? null;
}

/** The sources of the file's source map that the snapshot holds (other files than itself), in the map's order. */
function mappedSources(file: string, input: LayoutInput, fileSet: ReadonlySet<string>): string[] {
  const text = input.read(file);
  if (text === undefined || !text.includes('sourceMappingURL')) return [];
  const mapping = sourceMappingOf(file, text);
  if (mapping === null) return [];
  let map;
  let mapFile = file;
  if ('inline' in mapping) map = mapping.inline;
  else {
    const mapText = fileSet.has(mapping.path) ? input.read(mapping.path) : undefined;
    map = mapText === undefined ? null : parseSourceMap(mapText);
    mapFile = mapping.path;
  }
  if (map === null) return [];
  return mapSourcePaths(mapFile, map).filter((source) => source !== file && fileSet.has(source));
}

function groupBy(files: readonly string[], key: (file: string) => string): Map<string, string[]> {
  const groups = new Map<string, string[]>();
  for (const file of files) groups.set(key(file), [...(groups.get(key(file)) ?? []), file]);
  return groups;
}
