import { InvalidArgumentError } from '../errors.js';

/**
 * The packages a task's runtime image gets on top of its language image (task.json
 * `runtime.dependencies`): the repository's declared dependencies, as the tool of its language
 * installs them (`apt`: Debian package names; `npm`: `name@version`). Docker runs such a task on a
 * derived image built once per set (`<repository>-deps:<hash>`); a package the tool could not install
 * is listed, one a line, in `MISSING_DEPENDENCIES_FILE` of that image.
 */
export interface RuntimeDependencies {
  /** The installer (`apt`, `npm`): a language plugin's `DependencyInstaller.tool`. */
  tool: string;
  /** What it installs, sorted, no duplicates. */
  packages: readonly string[];
}

/** Where a dependency image lists the packages its installer could not install, one a line. */
export const MISSING_DEPENDENCIES_FILE = '/opt/codemidas/dependencies/missing.txt';

/** A tool name, and a package as an installer may be given it (no shell or option syntax). */
export const DEPENDENCY_TOOL = /^[a-z][a-z0-9-]{0,31}$/;
export const DEPENDENCY_PACKAGE = /^(@[a-z0-9][a-z0-9._~-]*\/)?[a-zA-Z0-9][a-zA-Z0-9._~+-]*(@[a-zA-Z0-9][a-zA-Z0-9._+-]*)?$/;

/** What is wrong with `dependencies` as a task's runtime dependencies, or null. */
export function runtimeDependenciesProblem(dependencies: RuntimeDependencies): string | null {
  if (!DEPENDENCY_TOOL.test(dependencies.tool)) return `'${dependencies.tool}' is not an installer name (lower-case letters, digits, '-')`;
  const bad = dependencies.packages.find((p) => !DEPENDENCY_PACKAGE.test(p));
  if (bad !== undefined) return `'${bad}' is not a package an installer takes (a name, optionally '@version'; no spaces, options or paths)`;
  return null;
}

/** Throws `InvalidArgumentError` when `dependencies` is not a task's runtime dependencies. */
export function assertRuntimeDependencies(dependencies: RuntimeDependencies): void {
  const problem = runtimeDependenciesProblem(dependencies);
  if (problem) throw new InvalidArgumentError('dependencies', problem);
}

/** True when there is something to install. */
export function hasDependencies(dependencies: RuntimeDependencies | undefined | null): dependencies is RuntimeDependencies {
  return dependencies !== undefined && dependencies !== null && dependencies.packages.length > 0;
}
