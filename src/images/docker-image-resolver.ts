import type Dockerode from 'dockerode';
import { InvalidArgumentError } from '../errors.js';
import type { Logger } from '../logging.js';
import type { ImageResolver } from '../sandbox/image-resolver.js';
import { ensureDependencyImage, type DependencyInstaller } from './dependency-image.js';
import { ensureScrubbedImage, imageTags } from './image-builder.js';
import { ensureWorkspaceImage } from './workspace-image.js';

export interface DockerImageResolverOptions {
  docker: Dockerode;
  logger: Logger;
  /**
   * Tag per image name (`base` is the root the others build on, never run itself). Default:
   * `imageTags()`, the content-hash tags of this checkout, read on first use.
   */
  tags?: Readonly<Record<string, string>>;
  /** The language plugins' dependency installers by tool (`apt`, `npm`): `dependencyInstallers()` of the registry. */
  installers?: ReadonlyMap<string, DependencyInstaller>;
}

/** The images docker sandboxes run on: built from this checkout's `sandbox-images/`, and derived from them. */
export function createDockerImageResolver(options: DockerImageResolverOptions): ImageResolver {
  const { docker } = options;
  const logger = options.logger.child({ component: 'images' });
  let tags = options.tags;
  return {
    imageFor(name) {
      tags ??= imageTags();
      return tagOf(tags, name);
    },
    prepareScrubbedImage: (image, scrub) => ensureScrubbedImage({ docker, image, scrub, logger }),
    prepareDependencyImage: (image, dependencies) => ensureDependencyImage({ docker, image, dependencies, installers: options.installers ?? new Map(), logger }),
    prepareWorkspaceImage: (image, workdir, files) => ensureWorkspaceImage({ docker, image, workdir, entries: files, logger }),
  };
}

/** The tag of the runtime image named `name` in `tags`; `base` is no runtime image. */
function tagOf(tags: Readonly<Record<string, string>>, name: string): string {
  // task.json may name the image as its repository (`codemidas/python`) or with a tag: the folder's name is what counts
  const key = /^codemidas\/([a-z0-9][a-z0-9._-]*)(?::[\w.-]+)?$/.exec(name)?.[1] ?? name;
  const tag = key === 'base' ? undefined : tags[key];
  if (tag === undefined) {
    const known = Object.keys(tags).filter((k) => k !== 'base');
    throw new InvalidArgumentError('language', `no sandbox image '${name}' (known: ${known.join(', ')}; an image is a folder sandbox-images/<name>/ with a Dockerfile)`);
  }
  return tag;
}
