import type Dockerode from 'dockerode';
import type { Logger } from '../logging.js';
import { UnavailableError } from '../errors.js';
import type { ImageTags } from '../images/image-builder.js';
import { createDockerSandboxProvider, ENGINE_FIX } from './docker/docker-sandbox-provider.js';
import { BWRAP_FIX, bwrapAvailable, createLocalSandboxProvider } from './local/local-sandbox-provider.js';
import { createMemorySandboxProvider, type MemoryExecHandler } from './memory/memory-sandbox-provider.js';
import type { SandboxProvider } from './types.js';

export interface CreateSandboxProviderOptions {
  /** `auto`: docker when the engine answers, else local when bwrap works, else an UnavailableError. */
  kind: 'auto' | 'docker' | 'local' | 'memory';
  logger: Logger;
  serverId: string;
  /** Engine client for `docker`/`auto`; default `new Dockerode()`. */
  docker?: Dockerode;
  /** Image tags for `docker`; default the content-hash tags of this checkout. */
  images?: ImageTags;
  /** For `memory`: the exec handler. */
  execHandler?: MemoryExecHandler;
  signal?: AbortSignal;
}

/** Picks and builds the sandbox provider; the one place that knows every adapter. */
export async function createSandboxProvider(options: CreateSandboxProviderOptions): Promise<SandboxProvider> {
  const { logger, serverId } = options;
  const docker = (): SandboxProvider =>
    createDockerSandboxProvider({
      logger,
      serverId,
      ...(options.docker ? { docker: options.docker } : {}),
      ...(options.images ? { images: options.images } : {}),
    });
  switch (options.kind) {
    case 'memory':
      return createMemorySandboxProvider(options.execHandler ? { execHandler: options.execHandler } : {});
    case 'local':
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
