import type { RuntimeDependencies } from './runtime-dependencies.js';
import type { FileEntry } from './types.js';

/**
 * Where a sandbox adapter that runs images (docker) gets them: the tag of each runtime image by
 * name, and the images derived from one. The sandbox layer owns this contract so that it imports no
 * image-building code: `src/images/` implements it (`createDockerImageResolver`) and the composition
 * root passes it to the provider.
 */
export interface ImageResolver {
  /**
   * The tag of the runtime image named `name`, the name a language plugin gives its image ('python',
   * 'node'). Throws `InvalidArgumentError` for a name that has no image.
   */
  imageFor(name: string): string;
  /**
   * Builds (when missing) the image that is `image` with the `scrub` paths deleted and returns its
   * tag. The paths are absolute and already checked (`assertScrubPaths`, `normaliseScrubPaths`).
   */
  prepareScrubbedImage(image: string, scrub: readonly string[]): Promise<string>;
  /**
   * Builds (when missing) the image that is `image` with `dependencies` installed by their tool, and
   * returns its tag. The dependencies are already checked (`assertRuntimeDependencies`).
   */
  prepareDependencyImage(image: string, dependencies: RuntimeDependencies): Promise<string>;
  /**
   * Builds (when missing) the image that is `image` with `files` at `workdir`, owned by the agent
   * user, and returns its tag.
   */
  prepareWorkspaceImage(image: string, workdir: string, files: readonly FileEntry[]): Promise<string>;
}
