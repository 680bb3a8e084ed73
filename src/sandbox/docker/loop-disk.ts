import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, openSync, closeSync, ftruncateSync, readdirSync, readFileSync, rmSync, chmodSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { Logger } from '../../logging.js';

const run = promisify(execFile);

/**
 * Where each sandbox's disk lives when the engine cannot cap a container's disk itself (overlay2
 * without XFS project quotas): a sparse file holding an ext4 filesystem of exactly the cap, mounted
 * through a loop device. Root's only.
 */
export const DEFAULT_LOOP_DISK_ROOT = '/var/lib/codemidas/sandbox-disks';

/**
 * Folders of the sandbox images the agent user (uid 1000) can write to besides the workdir and /tmp
 * (found with `find / -xdev -writable` as that user in the python and node images). Under a loop disk
 * each becomes a small tmpfs, so nothing the agent writes reaches the image's writable layer on the
 * host's disk; `tests/integration/sandbox-loop-disk.test.ts` checks that the list is complete.
 */
export const AGENT_WRITABLE_DIRS: readonly { path: string; owner: 'agent' | 'everyone' }[] = [
  { path: '/home/agent', owner: 'agent' },
  { path: '/var/tmp', owner: 'everyone' },
  { path: '/run/lock', owner: 'everyone' },
];

/** Size of each tmpfs that replaces an `AGENT_WRITABLE_DIRS` folder (memory, counted in the sandbox's limit). */
const SMALL_TMPFS_BYTES = 64 * 1024 * 1024;

/** One sandbox's capped filesystem: `workspaceDir` is mounted at the sandbox's workdir. */
export interface LoopDisk {
  /** The disk's folder under the root: `disk.img` and its mount point `m/`. */
  readonly dir: string;
  /** Host folder (on the loop filesystem) that becomes the sandbox's workdir. */
  readonly workspaceDir: string;
  /** Unmounts the filesystem and deletes its file; safe to call twice. */
  dispose(): Promise<void>;
}

/** Why loop disks cannot be used by this process, or null when they can. */
export function loopDisksUnavailable(): string | null {
  if (process.platform !== 'linux') return `loop disks need Linux (this is ${process.platform})`;
  if (process.getuid?.() !== 0) return 'loop disks need root (the server does not run as root)';
  for (const tool of ['mkfs.ext4', 'mount', 'umount']) {
    if (!['/usr/sbin', '/sbin', '/usr/bin', '/bin'].some((dir) => existsSync(join(dir, tool)))) return `loop disks need '${tool}' (install e2fsprogs and mount)`;
  }
  if (!existsSync('/dev/loop-control')) return 'loop disks need /dev/loop-control (the kernel has no loop devices)';
  return null;
}

/** The volume mount and tmpfs folders that put a sandbox's writable places on `disk` and in memory. */
export function loopDiskHostConfig(disk: LoopDisk, workdir: string, agent: { uid: number; gid: number }): {
  Mounts: { Type: 'volume'; Source: string; Target: string; VolumeOptions: { NoCopy: boolean; Labels: Record<string, string>; DriverConfig: { Name: string; Options: Record<string, string> } } }[];
  Tmpfs: Record<string, string>;
} {
  const tmpfs: Record<string, string> = {};
  for (const { path, owner } of AGENT_WRITABLE_DIRS) {
    if (path === workdir) continue;
    tmpfs[path] = owner === 'agent'
      ? `rw,nosuid,nodev,size=${SMALL_TMPFS_BYTES},uid=${agent.uid},gid=${agent.gid},mode=0755`
      : `rw,nosuid,nodev,size=${SMALL_TMPFS_BYTES},mode=1777`;
  }
  return {
    // An anonymous volume bound to the loop filesystem, not a plain bind mount: the engine copies the
    // image's workdir (the task's codebase) into an empty volume at create, with its owners, and
    // removes the volume with the container (`remove({ v: true })`).
    Mounts: [{ Type: 'volume', Source: '', Target: workdir, VolumeOptions: { NoCopy: false, Labels: {}, DriverConfig: { Name: 'local', Options: { type: 'none', o: 'bind', device: disk.workspaceDir } } } }],
    Tmpfs: tmpfs,
  };
}

/**
 * Makes a sparse file of `sizeBytes`, an ext4 filesystem on it (no journal, no reserved blocks) and
 * mounts it nosuid,nodev through a loop device; ~20 ms here. The disk's folder is named
 * `<pid>-<owner tag>-<random>`, so a reaper can tell whose it is.
 */
export async function createLoopDisk(root: string, ownerTag: string, sizeBytes: number, signal?: AbortSignal): Promise<LoopDisk> {
  signal?.throwIfAborted();
  const dir = join(root, `${process.pid}-${ownerTag}-${Math.random().toString(16).slice(2, 10)}`);
  const image = join(dir, 'disk.img');
  const mountPoint = join(dir, 'm');
  mkdirSync(mountPoint, { recursive: true, mode: 0o700 });
  let mounted = false;
  const dispose = async (): Promise<void> => {
    if (mounted) {
      mounted = false;
      await unmount(mountPoint);
    }
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    const fd = openSync(image, 'w', 0o600);
    try {
      ftruncateSync(fd, sizeBytes);
    } finally {
      closeSync(fd);
    }
    await run('mkfs.ext4', ['-q', '-F', '-m', '0', '-O', '^has_journal', '-E', 'lazy_itable_init=1,nodiscard', image], { timeout: 30_000, ...(signal ? { signal } : {}) });
    await run('mount', ['-o', 'loop,nosuid,nodev', image, mountPoint], { timeout: 30_000, ...(signal ? { signal } : {}) });
    mounted = true;
    const workspaceDir = join(mountPoint, 'w');
    // A subfolder, not the filesystem's root: the engine copies the image's workdir only into an
    // empty folder, and the root holds lost+found.
    mkdirSync(workspaceDir, { mode: 0o755 });
    chmodSync(mountPoint, 0o755);
    return { dir, workspaceDir, dispose };
  } catch (error) {
    await dispose().catch(() => undefined);
    throw new Error(`could not make a ${sizeBytes}-byte loop disk under ${root}: ${describe(error)}`, { cause: error });
  }
}

/** Unmounts `mountPoint`; a mount still busy (a container not yet gone) is detached lazily. */
async function unmount(mountPoint: string): Promise<void> {
  try {
    await run('umount', [mountPoint], { timeout: 30_000 });
  } catch {
    await run('umount', ['-l', mountPoint], { timeout: 30_000 }).catch(() => undefined);
  }
}

/**
 * Removes the disks under `root` that `isLeftover` picks by folder name (`<pid>-<tag>-<random>`):
 * unmounts any still mounted and deletes their files. Returns how many were removed.
 */
export async function removeLoopDisks(root: string, isLeftover: (pid: number, tag: string) => boolean, logger: Logger): Promise<number> {
  let entries: string[];
  try {
    entries = readdirSync(root);
  } catch {
    return 0;
  }
  const mounted = mountedUnder(root);
  let removed = 0;
  for (const name of entries) {
    const match = /^(\d+)-([0-9a-z]+)-[0-9a-f]+$/.exec(name);
    if (!match || !isLeftover(Number(match[1]), match[2]!)) continue;
    const dir = join(root, name);
    try {
      if (mounted.has(join(dir, 'm'))) await unmount(join(dir, 'm'));
      rmSync(dir, { recursive: true, force: true });
      removed++;
    } catch (error) {
      logger.warn({ err: error, dir }, 'could not remove a leftover loop disk');
    }
  }
  return removed;
}

/** Mount points under `root`, read from /proc/self/mountinfo. */
function mountedUnder(root: string): Set<string> {
  const found = new Set<string>();
  try {
    for (const line of readFileSync('/proc/self/mountinfo', 'utf8').split('\n')) {
      const point = line.split(' ')[4];
      if (point && point.startsWith(`${root}/`)) found.add(point.replace(/\\040/g, ' '));
    }
  } catch {
    // no mountinfo: nothing is known to be mounted
  }
  return found;
}

function describe(error: unknown): string {
  const stderr = (error as { stderr?: unknown }).stderr;
  if (typeof stderr === 'string' && stderr.trim()) return stderr.trim();
  return error instanceof Error ? error.message : String(error);
}
