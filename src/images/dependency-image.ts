import type Dockerode from 'dockerode';
import type { Logger } from '../logging.js';
import { packEntries } from '../sandbox/tar-entries.js';
import type { FileEntry } from '../sandbox/types.js';
import { assertRuntimeDependencies, type RuntimeDependencies } from '../sandbox/runtime-dependencies.js';
import { UnavailableError } from '../errors.js';
import { buildFromContext, imageExists, shortHash } from './image-builder.js';

/**
 * How one tool installs a language's dependencies into an image (a language plugin's, keyed by
 * `tool`). The layer is built on the language image as root; a package the tool cannot install does
 * not fail the layer: it is listed, one a line, in `MISSING_DEPENDENCIES_FILE`, which the layer
 * always creates.
 */
export interface DependencyInstaller {
  /** `apt`, `npm`: task.json `runtime.dependencies.tool`. */
  readonly tool: string;
  /**
   * Changes whenever `layer` writes something else for the same packages, so that an image built by
   * an older recipe is not taken for this one's (part of the image's tag). Absent: the first recipe.
   */
  readonly recipe?: string;
  /**
   * The exact packages for `requested` (ranges resolved against the registry: `ms@^2` -> `ms@2.1.3`),
   * sorted; a package that does not resolve is left as requested, and the layer lists it as missing.
   */
  pin(requested: readonly string[], options: { signal?: AbortSignal }): Promise<string[]>;
  /**
   * The layer installing `packages`: Dockerfile lines run after `FROM <language image>` and `USER
   * root`, and the build-context files they copy.
   */
  layer(packages: readonly string[], options: { signal?: AbortSignal; onLine?: (line: string) => void }): Promise<{ dockerfile: string; files: FileEntry[] }>;
}

/** `<repository of image>-deps:<hash of image, tool, the installer's recipe and packages>`. */
export function dependencyImageTag(image: string, dependencies: RuntimeDependencies, recipe?: string): string {
  const colon = image.lastIndexOf(':');
  const repository = colon > image.lastIndexOf('/') ? image.slice(0, colon) : image;
  const tool = recipe === undefined ? dependencies.tool : `${dependencies.tool}@${recipe}`;
  return `${repository}-deps:${shortHash([image, tool, ...dependencies.packages])}`;
}

const inFlight = new Map<string, Promise<string>>();

/**
 * Builds (when missing) `image` with `dependencies` installed by their tool's installer and returns
 * its tag. Concurrent calls in one process share the build.
 */
export async function ensureDependencyImage(options: {
  docker: Dockerode;
  image: string;
  dependencies: RuntimeDependencies;
  installers: ReadonlyMap<string, DependencyInstaller>;
  logger: Logger;
  onLine?: (line: string) => void;
}): Promise<string> {
  const { dependencies } = options;
  assertRuntimeDependencies(dependencies);
  const installer = options.installers.get(dependencies.tool);
  if (!installer) {
    throw new UnavailableError(`a task needs dependencies installed by '${dependencies.tool}', which no language plugin here provides (installers: ${[...options.installers.keys()].sort().join(', ') || 'none'})`);
  }
  const tag = dependencyImageTag(options.image, dependencies, installer.recipe);
  if (await imageExists(options.docker, tag)) return tag;
  let running = inFlight.get(tag);
  if (!running) {
    running = (async () => {
      const started = performance.now();
      const onLine = options.onLine ?? (() => undefined);
      const layer = await installer.layer(dependencies.packages, { onLine });
      const dockerfile = `FROM ${options.image}\nUSER root\n${layer.dockerfile.replace(/\n*$/, '\n')}`;
      const context = await packEntries([{ path: 'Dockerfile', type: 'file', mode: 0o644, content: Buffer.from(dockerfile) }, ...layer.files], { uid: 0, gid: 0 });
      await buildFromContext(options.docker, context, { t: tag, labels: { 'codemidas.image': 'dependencies', 'codemidas.dependencies-of': options.image } }, onLine);
      options.logger.info({ image: tag, from: options.image, tool: dependencies.tool, packages: dependencies.packages, elapsedMs: Math.round(performance.now() - started) }, 'built the dependency image');
      return tag;
    })().finally(() => inFlight.delete(tag));
    inFlight.set(tag, running);
  }
  return running;
}
