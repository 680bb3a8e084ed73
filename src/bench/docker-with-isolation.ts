import type Docker from 'dockerode';

/**
 * An engine client whose containers all get `runtime` and a disk cap of `diskBytes`, as the
 * server's sandboxes do, so the raw figures of a bench run stand beside the server's under the same
 * isolation. Everything else is `docker`'s own (the returned client inherits from it).
 */
export function dockerWithIsolation(docker: Docker, isolation: { runtime?: string; diskBytes?: number }): Docker {
  const { runtime, diskBytes } = isolation;
  if (!runtime && !diskBytes) return docker;
  const wrapped = Object.create(docker) as Docker;
  const create = docker.createContainer.bind(docker) as (options: Docker.ContainerCreateOptions) => Promise<Docker.Container>;
  (wrapped as { createContainer: (options: Docker.ContainerCreateOptions) => Promise<Docker.Container> }).createContainer = (options) =>
    create({
      ...options,
      HostConfig: {
        ...options.HostConfig,
        ...(runtime ? { Runtime: runtime } : {}),
        ...(diskBytes ? { StorageOpt: { ...options.HostConfig?.StorageOpt, size: String(diskBytes) } } : {}),
      },
    });
  return wrapped;
}
