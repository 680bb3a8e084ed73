import type { DeclaredDependency, DependencyRules } from '../../languages/language.js';
import { DEPENDENCY_PACKAGE, type RuntimeDependencies } from '../../sandbox/runtime-dependencies.js';
import type { Drop } from '../types.js';
import { compareStrings } from '../write/stable-json.js';
import type { BuildRun } from './build-run.js';
import type { Explored } from './build-types.js';
import { packageFiles } from './package-folder.js';

/** A repository's declared dependencies and what its tasks' image installs of them. */
export interface Dependencies {
  /** Every dependency the repository declares (the language plugin's reading), sorted by name. */
  declared: DeclaredDependency[];
  /** What the language's installer puts on the image (pinned), or undefined when nothing. */
  runtime: RuntimeDependencies | undefined;
  /** Requested packages the installer could not pin (the registry did not answer or has no such version): missing. */
  unpinned?: string[];
}

/** A dependency the build could not install, with why: the funnel's `dependencies.missing`. */
export interface MissingDependency {
  name: string;
  from: string;
  reason: string;
}

/**
 * The repository's declared dependencies as its language plugin reads them, and the installable ones
 * pinned by the language's installer (`ms@^2` -> `ms@2.1.3`): installed on the record image and on
 * every task's image (task.json `runtime.dependencies`).
 */
export async function declaredDependencies(run: Pick<BuildRun, 'options' | 'packageFolder' | 'progress' | 'timed' | 'signalOption'>, explored: Pick<Explored, 'files'>): Promise<Dependencies> {
  const rules = run.options.language.dependencies;
  const declared = declaredOf(rules, explored.files, run.packageFolder);
  const requested = declared.flatMap((d) => (d.install === null ? [] : [d.install]));
  if (requested.length === 0) return { declared, runtime: undefined };
  const { tool } = rules.installer;
  run.progress({ stage: 'record', done: 0, total: 1, message: `${declared.length} declared dependencies; pinning ${requested.length} for ${tool}` });
  const pinned = await run.timed('dependencies', () => rules.installer.pin(requested, run.signalOption));
  return { declared, ...installable(tool, pinned) };
}

/**
 * What the repository declares; with `--package`, what the package's own manifests declare (their
 * `from` under its folder) first, then what the root's add.
 */
function declaredOf(rules: Pick<DependencyRules, 'declared'>, files: ReadonlyMap<string, Buffer>, packageFolder: string | null): DeclaredDependency[] {
  const root = rules.declared(files);
  if (packageFolder === null) return root;
  const own = rules.declared(packageFiles(files, packageFolder)).map((d) => ({ ...d, from: `${packageFolder}/${d.from}` }));
  const names = new Set(own.map((d) => d.name));
  return [...own, ...root.filter((d) => !names.has(d.name))].sort((a, b) => compareStrings(a.name, b.name));
}

/** The pinned packages an image can be given (`DEPENDENCY_PACKAGE`), and the rest, which stay requested ranges. */
function installable(tool: string, pinned: readonly string[], before: Dependencies = { declared: [], runtime: undefined }): Pick<Dependencies, 'runtime' | 'unpinned'> {
  const packages = [...new Set([...(before.runtime?.packages ?? []), ...pinned.filter((p) => DEPENDENCY_PACKAGE.test(p))])].sort(compareStrings);
  const unpinned = [...new Set([...(before.unpinned ?? []), ...pinned.filter((p) => !DEPENDENCY_PACKAGE.test(p))])].sort(compareStrings);
  return { runtime: packages.length > 0 ? { tool, packages } : undefined, ...(unpinned.length > 0 ? { unpinned } : {}) };
}

/**
 * Dependencies the code imports without declaring them, as the record drops show: each module a
 * record error says is missing, that no declared dependency provides and for which the plugin names
 * a package (`forModule`); with the units whose record failed on one of them.
 */
export function undeclaredDependencies(
  drops: readonly Drop[],
  rules: Pick<DependencyRules, 'missingModule' | 'forModule'>,
  dependencies: Dependencies,
  files: ReadonlyMap<string, Buffer>,
): { found: DeclaredDependency[]; unitIds: Set<string> } {
  const declaredModules = new Set(dependencies.declared.flatMap((d) => d.modules));
  const found = new Map<string, DeclaredDependency>();
  const unitIds = new Set<string>();
  for (const drop of drops) {
    if (drop.stage !== 'record') continue;
    const module = rules.missingModule(drop.reason);
    if (module === null || declaredModules.has(module)) continue;
    const dependency = found.get(module) ?? rules.forModule(module, files);
    if (dependency === null) continue;
    found.set(module, dependency);
    unitIds.add(drop.unitId);
  }
  return { found: [...found.values()].sort((a, b) => compareStrings(a.name, b.name)), unitIds };
}

/** `dependencies` with `found` added to the declared ones, and their packages pinned and added to the image's. */
export async function withUndeclared(run: BuildRun, dependencies: Dependencies, found: readonly DeclaredDependency[]): Promise<Dependencies> {
  const { installer } = run.options.language.dependencies;
  const requested = found.flatMap((d) => (d.install === null ? [] : [d.install]));
  const pinned = requested.length > 0 ? await run.timed('dependencies', () => installer.pin(requested, run.signalOption)) : [];
  return { declared: [...dependencies.declared, ...found].sort((a, b) => compareStrings(a.name, b.name)), ...installable(installer.tool, pinned, dependencies) };
}

/** `name` of `name@version` (npm, scoped names kept whole); an apt name unchanged. */
function packageName(installed: string): string {
  const at = installed.lastIndexOf('@');
  return at > 0 ? installed.slice(0, at) : installed;
}

/**
 * The declared dependencies the build could not install: those nothing maps to (the plugin's `why`)
 * and those the installer listed as missing (`missing`: the dependency image's list).
 */
export function missingDependencies(dependencies: Dependencies, missing: readonly string[]): MissingDependency[] {
  const missingNames = new Set([...missing, ...(dependencies.unpinned ?? [])].map(packageName));
  const tool = dependencies.runtime?.tool;
  return dependencies.declared.flatMap((d) => {
    if (d.install === null) return [{ name: d.name, from: d.from, reason: d.why ?? 'nothing installs it' }];
    if (!missingNames.has(packageName(d.install))) return [];
    const reason = d.forTests
      ? `${tool} could not install ${d.install}, which only the repository's tests import: they are traced with a stand-in for it (a test that uses it fails); install it where the build runs for the inputs those tests give`
      : `${tool} could not install ${d.install}: install it where the build runs, or vendor it into the repository`;
    return [{ name: d.name, from: d.from, reason }];
  });
}

/**
 * Record drops caused by a missing dependency, relabelled `dependency-missing` with the package, where
 * it is declared and what to do (the units that do not import it are unaffected). Other drops as given.
 */
export function blameMissingDependencies(
  drops: readonly Drop[],
  rules: Pick<DependencyRules, 'missingModule'>,
  dependencies: Dependencies,
  missing: readonly MissingDependency[],
): Drop[] {
  if (missing.length === 0) return [...drops];
  const byModule = new Map<string, MissingDependency>();
  for (const m of missing) {
    const declared = dependencies.declared.find((d) => d.name === m.name);
    for (const module of declared?.modules ?? [m.name]) byModule.set(module, m);
  }
  return drops.map((drop) => {
    if (drop.stage !== 'record') return drop;
    const module = rules.missingModule(drop.reason);
    const blamed = module === null ? undefined : byModule.get(module);
    if (!blamed) return drop;
    return { ...drop, code: 'dependency-missing', reason: `imports ${module} from ${blamed.name} (declared in ${blamed.from}), which the build could not install: ${blamed.reason}` };
  });
}
