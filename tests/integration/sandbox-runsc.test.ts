/**
 * Sandboxes under gVisor (`--runtime runsc`) on the real engine: the relay over its Unix socket,
 * files through the relay and the archive API, the /tmp tmpfs and its size, pause before a read-out,
 * and a scoring run of the sample suite (oracle 1.0, null 0.0) with every episode and
 * scoring container under runsc. Where the engine has no runsc, the first test fails naming the fix
 * (scripts/setup-engine.sh); nothing here skips. The disk cap under runsc is tested on the quota
 * engine (sandbox-disk-quota.test.ts) and with loop disks (sandbox-loop-disk.test.ts).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import Dockerode from 'dockerode';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resolveLimits } from '../../src/config/limits.js';
import { createEpisodeManager, type EpisodeManager } from '../../src/episodes/episode-manager.js';
import { ensureImages, type ImageTags } from '../../src/images/image-builder.js';
import { createDockerImageResolver } from '../../src/images/docker-image-resolver.js';
import { createSilentLogger } from '../../src/logging.js';
import { projectRoot } from '../../src/project-root.js';
import { createDockerSandboxProvider } from '../../src/sandbox/docker/docker-sandbox-provider.js';
import type { Sandbox, SandboxProvider, SandboxSpec } from '../../src/sandbox/types.js';
import { createPythonScorer } from '../../src/languages/python/python-scorer.js';
import { listWorkspaceFiles } from '../../src/tasks/list-workspace-files.js';
import { loadCatalog } from '../../src/tasks/load-catalog.js';
import { withSandbox as withSandboxOf } from '../fixtures/with-sandbox.js';

const docker = new Dockerode();
const logger = createSilentLogger();
const serverId = `itest-runsc-${process.pid}`;
const MIB = 1024 * 1024;
const OPTS = { timeoutMs: 60_000, maxOutputBytes: 16 * 1024 };
const TASK = 'sample/wrap-text';
const root = projectRoot();

let tags: ImageTags;
let provider: SandboxProvider;

function spec(role: SandboxSpec['role']): SandboxSpec {
  return {
    image: tags.python,
    role,
    workdir: '/workspace',
    resources: { memoryBytes: 512 * MIB, cpus: 1, pids: 256 },
    labels: { 'codemidas.episode': `itest-runsc-${role}` },
    expiresAt: new Date(Date.now() + 600_000),
  };
}

function withSandbox<T>(role: SandboxSpec['role'], fn: (sandbox: Sandbox) => Promise<T>): Promise<T> {
  return withSandboxOf(provider, spec(role), fn);
}

/** The containers this file started (of one role, when given), with the runtime the engine runs each under. */
async function runtimesOfOurContainers(role?: SandboxSpec['role']): Promise<string[]> {
  const label = [`codemidas.server=${serverId}`, ...(role ? [`codemidas.role=${role}`] : [])];
  const listed = await docker.listContainers({ all: true, filters: { label } });
  const runtimes = await Promise.all(listed.map(async (c) => (await docker.getContainer(c.Id).inspect().catch(() => null))?.HostConfig.Runtime));
  return runtimes.filter((r): r is string => r !== undefined);
}

beforeAll(async () => {
  tags = (await ensureImages({ docker, logger, languages: ['python'] })).tags;
  provider = createDockerSandboxProvider({ docker, logger, serverId, images: createDockerImageResolver({ docker, logger, tags }), isolation: { runtime: 'runsc' } });
});

afterAll(async () => {
  await provider?.close();
  const left = await docker.listContainers({ all: true, filters: { label: [`codemidas.server=${serverId}`] } });
  await Promise.all(left.map((c) => docker.getContainer(c.Id).remove({ force: true }).catch(() => undefined)));
});

describe('sandboxes under gVisor (runsc, real engine)', () => {
  it('the engine runs runsc (else this fails naming scripts/setup-engine.sh)', async () => {
    const isolation = await provider.checkIsolation!(tags.python);
    expect(isolation.runtimeName).toBe('runsc');
    console.log(`[runsc] ${isolation.summary}`);
  });

  it('runs commands in the gVisor kernel, the relay on its Unix socket', async () => {
    await withSandbox('episode', async (sandbox) => {
      // gVisor's Sentry answers uname itself; the host kernel is 6.x.
      const uname = await sandbox.exec({ argv: ['uname', '-r'] }, OPTS);
      expect(uname.stdout.trim()).toBe('4.4.0');
      expect((sandbox as unknown as { relayChannel?: string }).relayChannel).toBe('socket');
      const who = await sandbox.exec({ shell: 'id -u; pwd; echo $((6 * 7))' }, { ...OPTS, session: true });
      expect(who.stdout).toBe('1000\n/workspace\n42\n');
      const timedOut = await sandbox.exec({ argv: ['sleep', '30'] }, { ...OPTS, timeoutMs: 500 });
      expect(timedOut.timedOut).toBe(true);
    });
  });

  it('moves files through the relay and the archive API, and /tmp is a tmpfs of its size', async () => {
    await withSandbox('episode', async (sandbox) => {
      await sandbox.writeFile('notes/a.txt', Buffer.from('through the relay'));
      expect((await sandbox.readFile('notes/a.txt', { offset: 0, limit: 100 })).content.toString()).toBe('through the relay');
      await sandbox.putFiles('/workspace/put', [{ path: 'b.txt', type: 'file', mode: 0o644, content: Buffer.from('through the archive API') }]);
      expect((await sandbox.exec({ argv: ['cat', '/workspace/put/b.txt'] }, OPTS)).stdout).toBe('through the archive API');
      const tmp = await sandbox.exec({ shell: 'grep " /tmp " /proc/mounts; head -c 300M /dev/zero > /tmp/fill' }, OPTS);
      expect(tmp.stdout).toMatch(/^\S+ \/tmp tmpfs .*size=268435456/);
      expect(tmp.exitCode).not.toBe(0);
      expect(tmp.stderr).toMatch(/No space left on device/);
    });
  });

  it('pauses (the freezer) for a read-out, then is removed', async () => {
    const sandbox = await provider.create(spec('episode'));
    try {
      await sandbox.writeFile('solution.py', Buffer.from('x = 1\n'));
      await sandbox.pause();
      const files = await sandbox.getFiles('/workspace');
      expect(files.find((f) => f.path === 'solution.py')?.content?.toString()).toBe('x = 1\n');
    } finally {
      await sandbox.destroy();
    }
    // A frozen gVisor sandbox is thawed before removal, or the engine cannot remove it.
    await expect.poll(async () => (await docker.listContainers({ all: true, filters: { id: [sandbox.id] } })).length, { timeout: 20_000 }).toBe(0);
  });

  describe('scoring the sample suite with every sandbox under runsc', () => {
    let manager: EpisodeManager;

    beforeAll(async () => {
      const catalog = await loadCatalog(join(root, 'environments'));
      manager = createEpisodeManager({
        provider,
        catalog,
        scorer: createPythonScorer({ provider, logger }),
        logger,
        limits: resolveLimits({ maxOutputBytes: 4096 }),
        readWorkspace: (task) => listWorkspaceFiles(task),
      });
      await manager.start();
    });

    afterAll(async () => {
      await manager?.shutdown({ graceMs: 1_000 });
    });

    it('the oracle scores 1.0 and the null episode 0.0, both SCORED', async () => {
      const solution = readFileSync(join(root, 'environments/sample/wrap-text/solution/textkit/wrap.py'));
      const solved = await manager.reset(TASK);
      const unsolved = await manager.reset(TASK);
      // Both episodes' sandboxes and, below, the scoring ones: all under runsc.
      expect(await runtimesOfOurContainers()).toEqual(expect.arrayContaining(['runsc']));
      expect((await runtimesOfOurContainers()).filter((r) => r !== 'runsc')).toEqual([]);
      await manager.step(solved.episodeId, 0, { kind: 'write_file', path: 'textkit/wrap.py', content: solution.toString('utf8') });
      await manager.step(solved.episodeId, 1, { kind: 'submit' });
      await manager.step(unsolved.episodeId, 0, { kind: 'submit' });
      // The scoring sandboxes live only while Reward runs: watch for them meanwhile.
      const scoringRuntimes: string[] = [];
      let scoring = true;
      const watcher = (async () => {
        while (scoring) {
          scoringRuntimes.push(...(await runtimesOfOurContainers('scoring')));
          await new Promise((resolve) => setTimeout(resolve, 50));
        }
      })();
      const [good, bad] = await Promise.all([manager.reward(solved.episodeId), manager.reward(unsolved.episodeId)]).finally(() => {
        scoring = false;
      });
      await watcher;
      expect(scoringRuntimes.length).toBeGreaterThan(0);
      expect(new Set(scoringRuntimes)).toEqual(new Set(['runsc']));
      expect(good).toMatchObject({ outcome: 'SCORED', reward: 1 });
      expect(bad).toMatchObject({ outcome: 'SCORED', reward: 0 });
      console.log(`[runsc] oracle ${good.reward} (${good.passed}/${good.total}), null ${bad.reward} (${bad.passed}/${bad.total})`);
      await manager.close({ episodeId: solved.episodeId });
      await manager.close({ episodeId: unsolved.episodeId });
    });
  });
});
