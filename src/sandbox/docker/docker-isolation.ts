import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type Dockerode from 'dockerode';
import type { Logger } from '../../logging.js';
import { UnavailableError } from '../../errors.js';
import type { SandboxIsolation } from '../types.js';
import { AGENT_WRITABLE_DIRS, createLoopDisk, DEFAULT_LOOP_DISK_ROOT, loopDisksUnavailable } from './loop-disk.js';

/** Default cap on what one sandbox writes to disk (`--max-disk-bytes`): 2 GiB. */
export const DEFAULT_MAX_DISK_BYTES = 2 * 1024 ** 3;

/** What the user asks of the engine beyond a sandbox's spec. */
export interface DockerIsolationWanted {
  /**
   * OCI runtime of every sandbox (`HostConfig.Runtime`), e.g. `runsc` for gVisor. Default: the
   * engine's default runtime (runc).
   */
  runtime?: string;
  /**
   * Cap on what one sandbox writes to disk, in bytes (`HostConfig.StorageOpt.size`); past it writes
   * fail inside the sandbox. Default: no cap.
   */
  diskBytes?: number;
  /**
   * When the engine cannot cap a sandbox's disk: `refuse` (every create throws an UnavailableError
   * naming the fix) or `warn` (logged once; sandboxes run without a cap). Default `refuse`.
   */
  ifNoDiskQuota?: 'refuse' | 'warn';
  /**
   * Where per-sandbox loop disks go when the engine itself cannot cap a container's disk (see
   * `loop-disk.ts`); null: never use loop disks. Default `DEFAULT_LOOP_DISK_ROOT`.
   */
  loopDiskRoot?: string | null;
}

/** What the engine was found to enforce: read once per provider, before its first sandbox. */
export interface DockerIsolation extends SandboxIsolation {
  /** `HostConfig.Runtime` to set; undefined: the engine's default. */
  runtime: string | undefined;
  /** The engine's storage driver (`overlay2`, `btrfs`, ...). */
  storageDriver: string;
  /**
   * How `diskBytes` is enforced: `engine` (`StorageOpt.size`: a btrfs qgroup or an XFS project
   * quota; writes past it fail with EDQUOT), `loop` (an ext4 loop filesystem of that size at the
   * workdir, the other writable folders in memory; writes past it fail with ENOSPC), or null (no cap).
   */
  diskEnforcement: 'engine' | 'loop' | null;
  /** Root of the loop disks when `diskEnforcement` is `loop`. */
  loopDiskRoot: string | null;
}

/** What to tell a user whose engine cannot cap a sandbox's disk. */
export const DISK_QUOTA_FIX =
  "run the server as root on the engine's host (each sandbox then gets an ext4 loop filesystem of the cap), or run 'bash scripts/setup-quota-engine.sh' as root and point DOCKER_HOST at the engine it starts (btrfs qgroups; or give the engine an XFS data root mounted with pquota), or pass --max-disk-bytes 0 to run without a disk limit";

/** What to tell a user whose engine lacks the runtime asked for. */
export function runtimeFix(runtime: string): string {
  return runtime === 'runsc'
    ? "run 'bash scripts/setup-engine.sh' as root (it installs Debian's runsc and registers it in /etc/docker/daemon.json), or pass --runtime runc"
    : `register '${runtime}' under "runtimes" in /etc/docker/daemon.json and send dockerd SIGHUP, or pass --runtime runc`;
}

/** Label of the short-lived probe container, so the reaper's label filter finds a leftover one. */
const PROBE_LABELS = { 'codemidas.managed': 'true', 'codemidas.role': 'probe' };

/**
 * Reads what the engine can enforce, once: its runtimes (`docker info`), and whether a disk cap holds,
 * by creating (not starting) a container of `image` with `StorageOpt.size` and removing it: overlay2
 * caps only on XFS mounted with pquota (and this kernel may lack XFS quotas altogether), btrfs caps with
 * qgroups; a driver that cannot refuses the create, which is the one test that covers every case.
 * Throws `UnavailableError` naming the fix for a missing runtime, or a missing cap under `refuse`.
 */
export async function resolveDockerIsolation(
  docker: Dockerode,
  image: string,
  wanted: DockerIsolationWanted,
  logger: Logger,
  signal?: AbortSignal,
): Promise<DockerIsolation> {
  const timeout = AbortSignal.timeout(30_000);
  const abortSignal = signal ? AbortSignal.any([signal, timeout]) : timeout;
  // @types/dockerode lags dockerode 5: info takes options with an abortSignal.
  const info = (await (docker.info as unknown as (options: { abortSignal: AbortSignal }) => Promise<unknown>)({ abortSignal })) as {
    Driver?: string;
    DriverStatus?: [string, string][];
    Runtimes?: Record<string, unknown>;
    DefaultRuntime?: string;
    DockerRootDir?: string;
  };
  const runtimes = Object.keys(info.Runtimes ?? {});
  const runtime = wanted.runtime && wanted.runtime !== (info.DefaultRuntime ?? 'runc') ? wanted.runtime : undefined;
  if (runtime && !runtimes.includes(runtime)) {
    throw new UnavailableError(`the container engine has no '${runtime}' runtime (it has: ${runtimes.join(', ') || 'none'}): ${runtimeFix(runtime)}`);
  }
  const runtimeName = runtime ?? info.DefaultRuntime ?? 'runc';
  const storageDriver = info.Driver ?? 'unknown';
  const backing = info.DriverStatus?.find(([key]) => key === 'Backing Filesystem')?.[1];
  const where = `storage driver ${storageDriver}${backing ? ` on ${backing}` : ''}, data root ${info.DockerRootDir ?? '?'}`;
  const base = { runtime, runtimeName, storageDriver, loopDiskRoot: null };

  if (wanted.diskBytes === undefined || wanted.diskBytes <= 0) {
    return { ...base, diskBytes: null, diskEnforcement: null, summary: `runtime ${runtimeName}; disk: not limited (no cap asked for; ${where})` };
  }
  const refusal = await probeDiskQuota(docker, image, runtime, wanted.diskBytes, abortSignal);
  if (refusal === null) {
    const how = storageDriver === 'btrfs' ? 'a btrfs quota per container' : 'an XFS project quota per container';
    return { ...base, diskBytes: wanted.diskBytes, diskEnforcement: 'engine', summary: `runtime ${runtimeName}; disk: ${formatBytes(wanted.diskBytes)} per sandbox (${how}; ${where})` };
  }
  const loopDiskRoot = wanted.loopDiskRoot === undefined ? DEFAULT_LOOP_DISK_ROOT : wanted.loopDiskRoot;
  const loopRefusal = loopDiskRoot === null ? 'loop disks are turned off' : await probeLoopDisk(docker, image, runtime, loopDiskRoot, abortSignal);
  if (loopRefusal === null) {
    const memory = ['/tmp', ...AGENT_WRITABLE_DIRS.map((dir) => dir.path)].join(', ');
    return {
      ...base,
      diskBytes: wanted.diskBytes,
      diskEnforcement: 'loop',
      loopDiskRoot,
      summary: `runtime ${runtimeName}; disk: ${formatBytes(wanted.diskBytes)} per sandbox (an ext4 loop filesystem of that size at the workdir, under ${loopDiskRoot}; ${memory} in memory; the engine cannot cap it itself: ${where})`,
    };
  }
  const message = `the container engine cannot cap a sandbox's disk (${where}; it answered: ${refusal}; and ${loopRefusal})`;
  if ((wanted.ifNoDiskQuota ?? 'refuse') === 'refuse') throw new UnavailableError(`${message}: ${DISK_QUOTA_FIX}`);
  logger.warn({ storageDriver, refusal }, `${message}; sandboxes run WITHOUT a disk limit`);
  return { ...base, diskBytes: null, diskEnforcement: null, summary: `runtime ${runtimeName}; disk: NOT limited, the engine cannot (${where}): ${DISK_QUOTA_FIX}` };
}

/** Null when a container with a disk cap can be created; else the engine's refusal. */
async function probeDiskQuota(docker: Dockerode, image: string, runtime: string | undefined, sizeBytes: number, abortSignal: AbortSignal): Promise<string | null> {
  let container: Dockerode.Container;
  try {
    container = await docker.createContainer({
      Image: image,
      Cmd: ['true'],
      Labels: { ...PROBE_LABELS, 'codemidas.expires-at': new Date(Date.now() + 60_000).toISOString() },
      NetworkDisabled: true,
      HostConfig: { NetworkMode: 'none', StorageOpt: { size: String(sizeBytes) }, ...(runtime ? { Runtime: runtime } : {}) },
      abortSignal,
    });
  } catch (error) {
    const status = (error as { statusCode?: unknown }).statusCode;
    // A missing image or a dead engine is not an answer about quotas: let the caller's error say so.
    if (status === 404 || status === undefined) throw error;
    return (error instanceof Error ? error.message : String(error)).replace(/^\(HTTP code \d+\)[^-]*-\s*/, '').trim();
  }
  await container.remove({ force: true }).catch(() => undefined);
  return null;
}

/**
 * Null when a loop disk can be made here and the engine sees it: a container of `image` bind-mounted
 * on a fresh one finds the file just written into it (an engine on another host or in another mount
 * namespace would not). Else why not.
 */
async function probeLoopDisk(docker: Dockerode, image: string, runtime: string | undefined, root: string, abortSignal: AbortSignal): Promise<string | null> {
  const unavailable = loopDisksUnavailable();
  if (unavailable) return unavailable;
  let disk;
  try {
    disk = await createLoopDisk(root, 'probe', 16 * 1024 * 1024, abortSignal);
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
  let container: Dockerode.Container | undefined;
  try {
    const marker = `probe-${process.pid}-${Date.now()}`;
    writeFileSync(join(disk.workspaceDir, marker), '');
    container = await docker.createContainer({
      Image: image,
      Entrypoint: ['/bin/sh'],
      Cmd: ['-c', `test -f /codemidas-probe/${marker}`],
      Labels: { ...PROBE_LABELS, 'codemidas.expires-at': new Date(Date.now() + 60_000).toISOString() },
      NetworkDisabled: true,
      HostConfig: { NetworkMode: 'none', Binds: [`${disk.workspaceDir}:/codemidas-probe:ro`], ...(runtime ? { Runtime: runtime } : {}) },
      abortSignal,
    });
    await container.start();
    const exited = (await container.wait()) as { StatusCode?: number };
    return exited.StatusCode === 0 ? null : `the container engine does not see this host's ${root} (an engine on another host or in another mount namespace)`;
  } catch (error) {
    return `the container engine could not mount a loop disk (${error instanceof Error ? error.message : String(error)})`;
  } finally {
    await container?.remove({ force: true, v: true }).catch(() => undefined);
    await disk.dispose().catch(() => undefined);
  }
}

export function formatBytes(bytes: number): string {
  const units = ['B', 'KiB', 'MiB', 'GiB', 'TiB'];
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1 && value % 1024 === 0) {
    value /= 1024;
    unit++;
  }
  return `${value} ${units[unit]}`;
}
