import { builtinModules } from 'node:module';
import { compareStrings } from '../call-sites.js';
import type { DeclaredDependency, DependencyRules } from '../language.js';
import { isJavaScriptTestFile } from './javascript-files.js';
import { isTooling, readJavaScriptLayout } from './javascript-layout.js';
import { tokenizeJavaScript } from './javascript-leaks.js';
import { createNpmInstaller } from './javascript-npm-installer.js';

/**
 * The JavaScript plugin's dependency rules: what the root package.json declares (pinned by the
 * lockfile where it has one), installed by npm into `/node_modules` of the image.
 */
export const javascriptDependencyRules: DependencyRules = Object.freeze({
  installer: createNpmInstaller(),
  declared: declaredJavaScriptDependencies,
  packageManifests: ['package.json'],
  missingModule: missingJavaScriptModule,
  forModule: undeclaredJavaScriptDependency,
});

/**
 * The npm package the code imports as `module` (a package name, `missingModule`'s answer) though
 * package.json does not declare it: its latest version; null for the package itself or a name npm
 * could not publish.
 */
export function undeclaredJavaScriptDependency(module: string, files: ReadonlyMap<string, Buffer>): DeclaredDependency | null {
  if (!PACKAGE_NAME.test(module) || readJson(files.get('package.json'))?.name === module) return null;
  return { name: module, from: 'imported by the code; package.json does not declare it', install: `${module}@latest`, modules: [module] };
}

/** package.json sections whose packages the code always needs, strongest first (the first to name a package gives its `from`). */
const RUNTIME_SECTIONS = ['dependencies', 'optionalDependencies', 'peerDependencies'] as const;
const BUILTINS: ReadonlySet<string> = new Set(builtinModules);
/** An npm package name, scoped or not (old packages may hold capitals). */
const PACKAGE_NAME = /^(?:@[A-Za-z0-9][\w.~-]*\/)?[A-Za-z0-9_][\w.~-]*$/;
/** A version npm publishes, as a lockfile records it (`1.2.3`, `1.0.0-beta.2`). */
const EXACT_VERSION = /^v?=?\s*(\d+\.\d+\.\d+(?:-[0-9A-Za-z.-]+)?(?:\+[0-9A-Za-z.-]+)?)$/;
/** A dist-tag (`latest`, `next`, `beta`): npm installs what the registry tags so. */
const DIST_TAG = /^[A-Za-z][A-Za-z0-9._-]*$/;

/**
 * The root package.json's dependencies: every package of `dependencies`, `optionalDependencies`
 * and `peerDependencies`, and those of `devDependencies` that a source file of the package imports
 * (deepmerge lists `is-mergeable-object` only there, since its `dist/` bundles it, yet its
 * `index.js` requires it). A malformed package.json declares nothing.
 */
export function declaredJavaScriptDependencies(files: ReadonlyMap<string, Buffer>): DeclaredDependency[] {
  const manifest = readJson(files.get('package.json'));
  if (manifest === null) return [];
  const chosen = new Map<string, { section: string; spec: string }>();
  for (const section of RUNTIME_SECTIONS) {
    for (const [name, spec] of specsOf(manifest[section])) if (!chosen.has(name)) chosen.set(name, { section, spec });
  }
  const devSpecs = specsOf(manifest.devDependencies).filter(([name]) => !chosen.has(name));
  if (devSpecs.length > 0) {
    const imported = packagesImportedBySources(files);
    for (const [name, spec] of devSpecs) if (imported.has(name)) chosen.set(name, { section: 'devDependencies', spec });
  }
  const locked = lockedVersions(files);
  return [...chosen]
    .sort((a, b) => compareStrings(a[0], b[0]))
    .map(([name, { section, spec }]) => ({ name, from: `package.json ${section}`, ...installOf(name, spec, locked.get(name)), modules: [name] }));
}

/**
 * The package a Node "not found" error names: `x` of `Cannot find module 'x/lib/y'` (CommonJS) or
 * of `Cannot find package 'x' imported from …` (ES modules); null for a relative or absolute path,
 * a built-in module, or any other message.
 */
export function missingJavaScriptModule(message: string): string | null {
  const match = /Cannot find (?:module|package) ['"]([^'"]+)['"]/.exec(message);
  return match === null ? null : packageOfSpecifier(match[1] as string);
}

/**
 * The npm package a module specifier loads from node_modules (`x/sub` → `x`, `@s/x/sub` → `@s/x`),
 * or null: a relative or absolute path, a URL or `node:` scheme, a package `imports` alias (`#x`),
 * a Node built-in module (`fs`, `fs/promises`; `punycode/` with its slash is the npm package, as
 * Node reads it).
 */
export function packageOfSpecifier(specifier: string): string | null {
  if (/^[./#]/.test(specifier) || /^[A-Za-z][A-Za-z0-9+.-]*:/.test(specifier) || BUILTINS.has(specifier)) return null;
  const parts = specifier.split('/');
  const name = specifier.startsWith('@') ? parts.slice(0, 2).join('/') : (parts[0] as string);
  return PACKAGE_NAME.test(name) ? name : null;
}

/**
 * The packages imported by the package's own code: the sources `readJavaScriptLayout` keeps (not
 * built copies, not node_modules), without tests and tooling (configs, scripts, examples, whose
 * imports are development tools). Declared synchronously, the scan does not parse: it counts every
 * library file as giving units, which keeps the layout's rules on build output and twins.
 */
function packagesImportedBySources(files: ReadonlyMap<string, Buffer>): Set<string> {
  const text = (path: string): string | undefined => files.get(path)?.toString('utf8');
  const layout = readJavaScriptLayout({ files: [...files.keys()].sort(compareStrings), read: text, unitCount: () => 1 });
  const packages = new Set<string>();
  for (const file of layout.sources) {
    if (isJavaScriptTestFile(file) || isTooling(file)) continue;
    for (const specifier of importedSpecifiers(text(file) ?? '')) {
      const name = packageOfSpecifier(specifier);
      if (name !== null) packages.add(name);
    }
  }
  return packages;
}

/**
 * The module specifiers a source loads at run time: `require('x')`, `import('x')`, `import 'x'`,
 * and `from 'x'` of an `import` or `export` statement that is not type-only (TypeScript erases
 * `import type`). Read from the plugin's tokenizer, so comments never count; never throws.
 */
export function importedSpecifiers(source: string): string[] {
  const { tokens } = tokenizeJavaScript(source);
  const out: string[] = [];
  tokens.forEach((token, i) => {
    const next = tokens[i + 1] ?? '';
    const after = tokens[i + 2] ?? '';
    if (tokens[i - 1] === '.') return;
    let specifier: string | null = null;
    if ((token === 'require' || token === 'import') && next === '(') specifier = stringValue(after);
    else if (token === 'import') specifier = stringValue(next);
    // the statement is looked for only behind a string, so a `from` of other code costs nothing
    else if (token === 'from') specifier = stringValue(next) !== null && !typeOnlyStatement(tokens, i) ? stringValue(next) : null;
    if (specifier !== null) out.push(specifier);
  });
  return out;
}

/** True when the `from` at `at` ends a type-only statement (`import type {…} from`), or none: no `import`/`export` begins its statement. */
function typeOnlyStatement(tokens: readonly string[], at: number): boolean {
  for (let i = at - 1; i >= 0 && tokens[i] !== ';'; i--) {
    if (tokens[i] !== 'import' && tokens[i] !== 'export') continue;
    // `import type from 'x'` imports a default export named `type`
    return tokens[i + 1] === 'type' && tokens[i + 2] !== 'from' && tokens[i + 2] !== ',';
  }
  return true;
}

/** The text of a string token, or of a template without substitutions; null for any other token. */
function stringValue(token: string): string | null {
  const quote = token[0];
  if (token.length < 2 || (quote !== '"' && quote !== "'" && quote !== '`') || token[token.length - 1] !== quote) return null;
  const value = token.slice(1, -1);
  return quote === '`' && value.includes('${') ? null : value;
}

/** What the installer is asked for, from a package.json spec and the lockfile's version. */
function installOf(name: string, spec: string, locked: string | undefined): Pick<DeclaredDependency, 'install' | 'why'> {
  const notRegistry = notARegistrySpec(spec.trim());
  if (notRegistry !== null) return { install: null, why: `package.json asks for ${JSON.stringify(spec)}, ${notRegistry}` };
  if (locked !== undefined) return { install: `${name}@${locked}` };
  return { install: `${name}@${compactRange(spec)}` };
}

/** Why a spec is not one npm resolves against the registry (and what to do), or null when it is. */
function notARegistrySpec(spec: string): string | null {
  if (/^(?:file|link|portal):|^(?:\.{0,2}\/|~\/)/.test(spec)) return 'a local path: vendor the package into the repository or publish it to the npm registry';
  if (/^workspace:/.test(spec)) return 'a package of the same workspace: build the task from that package, or publish it to the npm registry';
  if (/^npm:/.test(spec)) return 'an npm alias: code imports it by a name the registry does not give it; depend on the package by its own name';
  if (/^(?:git(?:\+[a-z]+)?:|git@|github:|gitlab:|bitbucket:|gist:)/.test(spec) || /\.git(?:#.*)?$/.test(spec)) return 'a git repository: depend on a version published to the npm registry';
  if (/^[A-Za-z][A-Za-z0-9+.-]*:/.test(spec)) return 'a tarball URL: depend on a version published to the npm registry';
  if (/^[^@\s/][^\s/]*\/[^\s/]+$/.test(spec)) return 'a GitHub repository (`user/repo`): depend on a version published to the npm registry';
  return null;
}

/**
 * A registry range as one word (a package spec holds no space): exact versions lose `=`/`v`,
 * `*`, `x` and empty become `latest`, operators lose the spaces after them, `||` the spaces around
 * it. A comparator set still needs a space (`>=1.2 <2`); since the installer pins the highest
 * version in range, its upper bound alone pins the same version wherever the set is satisfiable, so
 * a set of lower bounds and one upper bound keeps that bound (a hyphen range `1 - 2.3` is `<=2.3`).
 * Any other set becomes `latest`, and the pinned version may then lie outside the declared range.
 */
export function compactRange(spec: string): string {
  const trimmed = spec.trim();
  const exact = EXACT_VERSION.exec(trimmed);
  if (exact !== null) return exact[1] as string;
  if (DIST_TAG.test(trimmed) && !/^[xX]$/.test(trimmed)) return trimmed;
  const alternatives = trimmed.split(/\s*\|\|\s*/).map(compactComparatorSet);
  if (alternatives.some((a) => a === null || a === '' || a === '*' || /^[xX]$/.test(a))) return 'latest';
  return alternatives.join('||');
}

/** One comparator set of a range as one word, or null when it cannot be. */
function compactComparatorSet(set: string): string | null {
  const hyphen = /^(\S+)\s+-\s+(\S+)$/.exec(set);
  if (hyphen !== null) return `<=${hyphen[2] as string}`;
  const comparators = set.replace(/(<=|>=|<|>|=|~>|~|\^)\s+/g, '$1').split(/\s+/).filter((c) => c !== '');
  if (comparators.length <= 1) return comparators[0] ?? '';
  const upper = comparators.filter((c) => c.startsWith('<'));
  const lower = comparators.filter((c) => c.startsWith('>'));
  return upper.length === 1 && lower.length === comparators.length - 1 ? (upper[0] as string) : null;
}

/** Package name → exact version, from `npm-shrinkwrap.json` (npm prefers it) or `package-lock.json`: v2/v3 `packages`, v1 `dependencies`. */
function lockedVersions(files: ReadonlyMap<string, Buffer>): Map<string, string> {
  const lock = readJson(files.get('npm-shrinkwrap.json')) ?? readJson(files.get('package-lock.json'));
  const versions = new Map<string, string>();
  if (lock === null) return versions;
  const add = (name: string, entry: unknown): void => {
    const version = isRecord(entry) && typeof entry.version === 'string' ? EXACT_VERSION.exec(entry.version) : null;
    if (version !== null && !versions.has(name)) versions.set(name, version[1] as string);
  };
  if (isRecord(lock.packages)) {
    for (const [path, entry] of Object.entries(lock.packages)) {
      const name = /^node_modules\/((?:@[^/]+\/)?[^/]+)$/.exec(path)?.[1];
      if (name !== undefined) add(name, entry);
    }
  }
  if (isRecord(lock.dependencies)) for (const [name, entry] of Object.entries(lock.dependencies)) add(name, entry);
  return versions;
}

/** A section's `[name, spec]` pairs with string specs; none when it is not an object. */
function specsOf(section: unknown): [string, string][] {
  if (!isRecord(section)) return [];
  return Object.entries(section).filter((e): e is [string, string] => typeof e[1] === 'string' && PACKAGE_NAME.test(e[0]));
}

/** A JSON object from a file's bytes, or null (absent, malformed, not an object). */
function readJson(content: Buffer | undefined): Record<string, unknown> | null {
  if (content === undefined) return null;
  try {
    const value = JSON.parse(content.toString('utf8')) as unknown;
    return isRecord(value) ? value : null;
  } catch {
    return null;
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}
