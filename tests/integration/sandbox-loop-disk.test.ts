import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import Dockerode from 'dockerode';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureImages, type ImageTags } from '../../src/images/image-builder.js';
import { createDockerImageResolver } from '../../src/images/docker-image-resolver.js';
import { createSilentLogger } from '../../src/logging.js';
import { createDockerSandboxProvider } from '../../src/sandbox/docker/docker-sandbox-provider.js';
import { AGENT_WRITABLE_DIRS, createLoopDisk } from '../../src/sandbox/docker/loop-disk.js';
import type { Sandbox, SandboxProvider, SandboxSpec } from '../../src/sandbox/types.js';
import { diskTestSpec, fillDisk } from '../fixtures/disk-fill.js';
import { withSandbox as withSandboxOf } from '../fixtures/with-sandbox.js';

// The disk cap on the main engine (overlay2, which cannot cap a container itself): each sandbox's
// workdir is an ext4 loop filesystem of the cap, the other folders the agent user can write are in
// memory. A write past the cap fails with ENOSPC inside; the host holds at most the cap. Real engine,
// real loop devices; the server runs as root here (scripts/test.sh).

const docker = new Dockerode();
const logger = createSilentLogger();
const serverId = `itest-loop-${process.pid}`;
const MIB = 1024 * 1024;
const CAP_BYTES = 256 * MIB;
const PAST_CAP_MIB = 400;
const OPTS = { timeoutMs: 60_000, maxOutputBytes: 64 * 1024 };

let tags: ImageTags;
let root: string;
let provider: SandboxProvider;
let runscProvider: SandboxProvider;

function spec(role: SandboxSpec['role'], image = tags.python): SandboxSpec {
  return diskTestSpec(image, role, 'itest-loop');
}

function withSandbox<T>(role: SandboxSpec['role'], fn: (sandbox: Sandbox) => Promise<T>, on: SandboxProvider = provider): Promise<T> {
  return withSandboxOf(on, spec(role), fn);
}

const fill = fillDisk;

/** Bytes the disks under `root` take on the host's disk (their sparse files' allocated blocks). */
function hostBytesUnder(dir: string): number {
  let total = 0;
  for (const name of readdirSync(dir)) {
    const image = join(dir, name, 'disk.img');
    if (existsSync(image)) total += statSync(image).blocks * 512;
  }
  return total;
}

function mountsUnder(dir: string): string[] {
  return readFileSync('/proc/self/mountinfo', 'utf8').split('\n').map((line) => line.split(' ')[4] ?? '').filter((point) => point.startsWith(`${dir}/`));
}

beforeAll(async () => {
  tags = (await ensureImages({ docker, logger, languages: ['python', 'node'] })).tags;
  mkdirSync('/var/lib/codemidas', { recursive: true });
  root = mkdtempSync('/var/lib/codemidas/itest-disks-');
  const isolation = { diskBytes: CAP_BYTES, ifNoDiskQuota: 'refuse' as const, loopDiskRoot: root };
  provider = createDockerSandboxProvider({ docker, logger, serverId, images: createDockerImageResolver({ docker, logger, tags }), isolation });
  runscProvider = createDockerSandboxProvider({ docker, logger, serverId, images: createDockerImageResolver({ docker, logger, tags }), isolation: { ...isolation, runtime: 'runsc' } });
}, 300_000);

afterAll(async () => {
  await provider?.close();
  await runscProvider?.close();
  if (root) rmSync(root, { recursive: true, force: true });
});

describe('disk cap by loop filesystem on the main engine (real engine)', () => {
  it('the main engine (overlay2) caps through loop disks, and says so', async () => {
    const isolation = await provider.checkIsolation!(tags.python);
    console.log(`[loop-disk] ${isolation.summary}`);
    expect(isolation.diskBytes).toBe(CAP_BYTES);
    expect(isolation.summary).toMatch(/ext4 loop filesystem/);
  });

  it('an episode writing past the cap gets ENOSPC inside, keeps answering, and the host holds no more than the cap', async () => {
    await withSandbox('episode', async (sandbox) => {
      const codebase = await sandbox.exec({ shell: 'ls -A /workspace; stat -c %U /workspace' }, OPTS);
      expect(codebase.stdout.trim().split('\n').pop()).toBe('agent');
      const big = await fill(sandbox, '/workspace/fill.bin', PAST_CAP_MIB);
      console.log(`[loop-disk] episode: ${(big.bytes / MIB).toFixed(1)} MiB landed of ${PAST_CAP_MIB} MiB asked; error: ${big.stderr.split('\n')[0]}`);
      expect(big.exitCode).not.toBe(0);
      expect(big.stderr).toMatch(/No space left on device/);
      expect(big.bytes).toBeGreaterThan(CAP_BYTES / 2);
      expect(big.bytes).toBeLessThanOrEqual(CAP_BYTES);
      expect(hostBytesUnder(root)).toBeLessThanOrEqual(CAP_BYTES + 8 * MIB);

      expect((await sandbox.exec({ argv: ['echo', 'still here'] }, OPTS)).stdout).toBe('still here\n');
      const files = await sandbox.getFiles('/workspace', { maxTotalBytes: 512 * MIB });
      expect(files.some((f) => f.path === 'fill.bin')).toBe(true);

      const freed = await sandbox.exec({ shell: 'rm /workspace/fill.bin && head -c 8M /dev/zero > /workspace/small.bin && stat -c %s /workspace/small.bin' }, OPTS);
      expect(freed.stderr).toBe('');
      expect(freed.stdout.trim()).toBe(String(8 * MIB));
    });
  });

  it('the agent user can write nowhere else on the disk: every writable folder is the loop disk or memory', async () => {
    for (const image of [tags.python, tags.node]) {
      await withSandboxOf(provider, spec('episode', image), async (sandbox) => {
        // -xdev: the image's own filesystem (overlay2, the host's disk), not the mounts on it.
        const found = await sandbox.exec({ shell: "find / -xdev \\( -path /proc -o -path /sys \\) -prune -o -writable ! -type l -print 2>/dev/null; echo; awk '{print $5}' /proc/self/mountinfo" }, OPTS);
        const [writable, mounts] = found.stdout.split('\n\n');
        const mountPoints = new Set((mounts ?? '').split('\n').filter(Boolean));
        const onImageLayer = (writable ?? '').split('\n').filter(Boolean).filter((path) => ![...mountPoints].some((m) => m !== '/' && (path === m || path.startsWith(`${m}/`))));
        expect(onImageLayer, `${image}: folders the agent can write on the image's layer`).toEqual([]);
        for (const dir of ['/workspace', '/tmp', ...AGENT_WRITABLE_DIRS.map((d) => d.path)]) expect(mountPoints.has(dir), `${dir} is a mount`).toBe(true);
        expect((await sandbox.exec({ shell: 'touch ~/.x /var/tmp/x /run/lock/x /tmp/x && echo ok' }, OPTS)).stdout).toBe('ok\n');
      });
    }
  });

  it('a second sandbox is unaffected by a full one; a scoring sandbox is capped too', async () => {
    const full = await provider.create(spec('episode'));
    try {
      expect((await fill(full, '/workspace/fill.bin', PAST_CAP_MIB)).stderr).toMatch(/No space left on device/);
      await withSandbox('episode', async (other) => {
        const ok = await fill(other, '/workspace/half.bin', 32);
        expect(ok.exitCode).toBe(0);
        expect(ok.bytes).toBe(32 * MIB);
      });
      await withSandbox('scoring', async (scoring) => {
        const capped = await fill(scoring, '/workspace/fill.bin', PAST_CAP_MIB, 'setpriv --reuid=1000 --regid=1000 --clear-groups ');
        expect(capped.exitCode).not.toBe(0);
        expect(capped.stderr).toMatch(/No space left on device/);
        expect(capped.bytes).toBeLessThanOrEqual(CAP_BYTES);
      });
    } finally {
      await full.destroy();
    }
  });

  it('caps under runsc (gVisor) too', async () => {
    await withSandbox(
      'episode',
      async (sandbox) => {
        const big = await fill(sandbox, '/workspace/fill.bin', PAST_CAP_MIB);
        console.log(`[loop-disk] runsc episode: ${(big.bytes / MIB).toFixed(1)} MiB landed of ${PAST_CAP_MIB} MiB asked; exit ${big.exitCode}`);
        expect(big.exitCode).not.toBe(0);
        expect(big.stderr).toMatch(/No space left on device/);
        expect(big.bytes).toBeLessThanOrEqual(CAP_BYTES);
        expect((await sandbox.exec({ argv: ['echo', 'alive'] }, OPTS)).stdout).toBe('alive\n');
      },
      runscProvider,
    );
  });

  it("a dead sandbox's workspace is still read out, and a destroyed sandbox leaves no mount, file or volume", async () => {
    const sandbox = await provider.create(spec('episode'));
    await sandbox.exec({ shell: 'echo kept > /workspace/kept.txt' }, OPTS);
    const [info] = await docker.listContainers({ filters: { label: [`codemidas.server=${serverId}`], id: [sandbox.id] } });
    expect(info, 'the sandbox container is listed').toBeDefined();
    const volume = (await docker.getContainer(info!.Id).inspect()).Mounts.find((m) => m.Destination === '/workspace')?.Name;
    expect(volume, 'the workspace is a volume').toBeTruthy();
    await docker.getContainer(info!.Id).kill();
    await expect.poll(() => sandbox.ended() !== null, { timeout: 10_000 }).toBe(true);
    const files = await sandbox.getFiles('/workspace', { maxTotalBytes: 16 * MIB });
    expect(files.find((f) => f.path === 'kept.txt')?.content?.toString()).toBe('kept\n');
    expect(mountsUnder(root).length).toBeGreaterThan(0);
    await sandbox.destroy();
    await expect.poll(() => mountsUnder(root).length, { timeout: 10_000 }).toBe(0);
    await expect.poll(() => readdirSync(root).length, { timeout: 10_000 }).toBe(0);
    expect(((await docker.listVolumes()).Volumes ?? []).map((v) => v.Name)).not.toContain(volume);
  });

  it('the reaper removes the disks of a server that is gone, and leaves a live one alone', async () => {
    // What a server killed with SIGKILL leaves: a disk named for its pid (now gone), still mounted.
    const gone = execFileSync('sh', ['-c', 'echo $$']).toString().trim();
    const deadDir = join(root, `${gone}-deadbeef-00000000`);
    execFileSync('sh', ['-c', `mkdir -p ${deadDir}/m && truncate -s 16M ${deadDir}/disk.img && mkfs.ext4 -q -F ${deadDir}/disk.img && mount -o loop ${deadDir}/disk.img ${deadDir}/m`]);
    const live = await createLoopDisk(root, 'feedf00d', 16 * MIB);
    try {
      expect(mountsUnder(root).sort()).toEqual([`${deadDir}/m`, `${live.dir}/m`].sort());
      await provider.reap();
      expect(readdirSync(root)).toEqual([live.dir.slice(root.length + 1)]);
      expect(mountsUnder(root)).toEqual([`${live.dir}/m`]);
    } finally {
      await live.dispose();
    }
  });

  it('with loop disks turned off, an explicit cap is refused naming the fix, and none asked for runs uncapped', async () => {
    const refusing = createDockerSandboxProvider({ docker, logger, serverId, images: createDockerImageResolver({ docker, logger, tags }), isolation: { diskBytes: CAP_BYTES, ifNoDiskQuota: 'refuse', loopDiskRoot: null } });
    const warning = createDockerSandboxProvider({ docker, logger, serverId, images: createDockerImageResolver({ docker, logger, tags }), isolation: { diskBytes: CAP_BYTES, ifNoDiskQuota: 'warn', loopDiskRoot: null } });
    try {
      await expect(refusing.checkIsolation!(tags.python)).rejects.toThrow(/cannot cap a sandbox's disk.*as root.*setup-quota-engine\.sh/s);
      const uncapped = await warning.checkIsolation!(tags.python);
      expect(uncapped.diskBytes).toBeNull();
      expect(uncapped.summary).toMatch(/NOT limited/);
    } finally {
      await refusing.close();
      await warning.close();
    }
  });
});

