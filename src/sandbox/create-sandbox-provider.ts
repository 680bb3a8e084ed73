import type Dockerode from 'dockerode';
import type { Logger } from '../logging.js';
import { UnavailableError } from '../errors.js';
import type { DockerIsolationWanted } from './docker/docker-isolation.js';
import { createDockerSandboxProvider, ENGINE_FIX } from './docker/docker-sandbox-provider.js';
import { BWRAP_FIX, bwrapAvailable, createLocalSandboxProvider } from './local/local-sandbox-provider.js';
import { createMemorySandboxProvider, type MemoryExecHandler } from './memory/memory-sandbox-provider.js';
import type { ImageResolver } from './image-resolver.js';
import type { SandboxProvider } from './types.js';

export interface CreateSandboxProviderOptions {
  /** `auto`: docker when the engine answers, else local when bwrap works, else an UnavailableError. */
  kind: 'auto' | 'docker' | 'local' | 'memory';
  logger: Logger;
  serverId: string;
  /** Engine client for `docker`/`auto`; default `new Dockerode()`. */
  docker?: Dockerode;
  /**
   * Where docker sandboxes get their images (`createDockerImageResolver` in `src/images/`); needed
   * for `docker` and `auto`, which throw without it.
   */
  images?: ImageResolver;
  /** For `memory`: the exec handler. */
  execHandler?: MemoryExecHandler;
  /**
   * Runtime and disk cap of docker sandboxes (`--runtime`, `--max-disk-bytes`). A runtime other than
   * runc needs the docker adapter: asking for one with `local` or `memory`, or with `auto` when the
   * engine does not answer, is an UnavailableError. Default: none asked for.
   */
  isolation?: DockerIsolationWanted;
  signal?: AbortSignal;
}

/** Picks and builds the sandbox provider; the one place that knows every adapter. */
export async function createSandboxProvider(options: CreateSandboxProviderOptions): Promise<SandboxProvider> {
  const { logger, serverId } = options;
  const docker = (): SandboxProvider => {
    // A programming error of the composition root, not the user's.
    if (!options.images) throw new Error(`createSandboxProvider: the docker sandbox needs options.images (kind '${options.kind}')`);
    return createDockerSandboxProvider({
      logger,
      serverId,
      images: options.images,
      ...(options.docker ? { docker: options.docker } : {}),
      ...(options.isolation ? { isolation: options.isolation } : {}),
    });
  };
  const runtime = options.isolation?.runtime;
  const notDocker = (kind: string): void => {
    if (runtime && runtime !== 'runc') {
      throw new UnavailableError(`--runtime ${runtime} needs the docker sandbox, not ${kind}: ${ENGINE_FIX}, and pass --sandbox docker`);
    }
  };
  switch (options.kind) {
    case 'memory':
      notDocker('the in-memory one');
      return createMemorySandboxProvider(options.execHandler ? { execHandler: options.execHandler } : {});
    case 'local':
      notDocker('the local bubblewrap sandbox');
      return createLocalSandboxProvider({ logger, serverId });
    case 'docker':
      return docker();
    case 'auto': {
      const provider = docker();
      try {
        await provider.ping(options.signal);
        logger.info({ sandbox: 'docker' }, 'sandbox provider: docker');
        return provider;
      } catch (error) {
        if (bwrapAvailable()) {
          notDocker(`the local bubblewrap sandbox (the container engine does not answer: ${error instanceof Error ? error.message : String(error)})`);
          logger.warn({ err: error }, 'the container engine does not answer; using the local bubblewrap sandbox');
          return createLocalSandboxProvider({ logger, serverId });
        }
        throw new UnavailableError(`no sandbox available: the container engine does not answer and bubblewrap is missing. Either ${ENGINE_FIX}; or ${BWRAP_FIX}`, {
          cause: error,
        });
      }
    }
  }
}
