import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSilentLogger } from '../../src/logging.js';
import { bwrapAvailable, createLocalSandboxProvider } from '../../src/sandbox/local/local-sandbox-provider.js';
import type { Sandbox, SandboxProvider, SandboxSpec } from '../../src/sandbox/types.js';

const spec = (role: SandboxSpec['role'] = 'episode'): SandboxSpec => ({
  image: 'local/python',
  role,
  workdir: '/workspace',
  resources: { memoryBytes: 1 << 30, cpus: 1, pids: 256 },
  labels: {},
  expiresAt: new Date(Date.now() + 600_000),
});
const OPTS = { timeoutMs: 10_000, maxOutputBytes: 64 * 1024 };

describe.skipIf(!bwrapAvailable())('local (bubblewrap) sandbox', () => {
  let provider: SandboxProvider;
  let sandbox: Sandbox;

  beforeAll(async () => {
    provider = createLocalSandboxProvider({ logger: createSilentLogger(), serverId: 'test-local' });
    await provider.ping();
    sandbox = await provider.create(spec());
  });

  afterAll(async () => {
    await sandbox?.destroy();
    await provider?.close();
  });

  it('runs commands as uid 1000 in the workdir with no network and no capabilities', async () => {
    const result = await sandbox.exec({ shell: 'id -u; pwd; grep CapEff /proc/self/status' }, OPTS);
    expect(result.stdout).toBe('1000\n/workspace\nCapEff:\t0000000000000000\n');
    const net = await sandbox.exec(
      { argv: ['/usr/bin/python3', '-c', 'import socket; socket.create_connection(("1.1.1.1", 53), timeout=2)'] },
      OPTS,
    );
    expect(net.exitCode).not.toBe(0);
  });

  it('hides the project checkout (hidden tests, solutions) from agent code', async () => {
    const result = await sandbox.exec({ shell: `ls -A ${JSON.stringify(process.cwd())} | wc -l` }, OPTS);
    expect(result.stdout.trim()).toBe('0');
  });

  it('times out, truncates and round-trips files like the docker adapter', async () => {
    const slept = await sandbox.exec({ argv: ['sleep', '1000'] }, { ...OPTS, timeoutMs: 500 });
    expect(slept).toMatchObject({ timedOut: true, exitCode: 124 });
    const yes = await sandbox.exec({ argv: ['yes'] }, { ...OPTS, maxOutputBytes: 1000 });
    expect(yes.truncated).toBe(true);
    await sandbox.writeFile('pkg/mod.py', Buffer.from('X = 1\n'));
    expect((await sandbox.exec({ shell: 'cat pkg/mod.py' }, OPTS)).stdout).toBe('X = 1\n');
    await sandbox.putFiles('/workspace', [
      { path: 'lib/a.txt', type: 'file', mode: 0o640, content: Buffer.from('aaa') },
      { path: 'lib/link', type: 'symlink', mode: 0o777, linkTarget: 'a.txt' },
    ]);
    const entries = await sandbox.getFiles('/workspace/lib');
    expect(entries.find((e) => e.path === 'a.txt')).toMatchObject({ type: 'file', mode: 0o640, uid: 1000 });
    expect(entries.find((e) => e.path === 'link')).toMatchObject({ type: 'symlink', linkTarget: 'a.txt' });
    expect((await sandbox.readFile('lib/link', { offset: 0, limit: 10 })).content.toString()).toBe('aaa');
  });

  it('takes one put at / that holds the workdir and /var/lib/codemidas, each entry where it lands', async () => {
    await sandbox.putFiles('/', [
      { path: 'var', type: 'directory', mode: 0o755, uid: 0, gid: 0 },
      { path: 'var/lib/codemidas', type: 'directory', mode: 0o755, uid: 0, gid: 0 },
      { path: 'var/lib/codemidas/put-at-root', type: 'directory', mode: 0o700, uid: 0, gid: 0 },
      { path: 'var/lib/codemidas/put-at-root/h.txt', type: 'file', mode: 0o600, content: Buffer.from('hidden') },
      { path: 'workspace', type: 'directory', mode: 0o755 },
      { path: 'workspace/at-root.txt', type: 'file', mode: 0o644, content: Buffer.from('ws') },
    ]);
    expect((await sandbox.readFile('at-root.txt', { offset: 0, limit: 10 })).content.toString()).toBe('ws');
    expect((await sandbox.getFiles('/var/lib/codemidas/put-at-root')).find((e) => e.path === 'h.txt')).toMatchObject({ type: 'file', mode: 0o600 });
    await expect(sandbox.putFiles('/', [{ path: 'etc/evil', type: 'file', mode: 0o644, content: Buffer.from('x') }])).rejects.toThrow(/only move files under/);
  });

  it('refuses to move files outside the workdir and /var/lib/codemidas, and never follows planted links', async () => {
    await expect(sandbox.putFiles('/etc', [])).rejects.toThrow(/only move files under/);
    await sandbox.exec({ shell: 'ln -s /etc escape' }, OPTS);
    await expect(
      sandbox.putFiles('/workspace', [{ path: 'escape/evil', type: 'file', mode: 0o644, content: Buffer.from('x') }]),
    ).rejects.toMatchObject({ reason: 'denied' });
  });

  it('leaves scrubbed paths empty (a folder) or blank (a file), like the derived docker image', async () => {
    const scrubbed = await provider.create({ ...spec(), scrub: ['/etc/apt', '/etc/hostname'] });
    try {
      const result = await scrubbed.exec({ shell: 'ls -A /etc/apt | wc -l; wc -c < /etc/hostname; test -r /etc/passwd && echo readable' }, OPTS);
      expect(result.stdout).toBe('0\n0\nreadable\n');
      const plain = await sandbox.exec({ shell: 'ls -A /etc/apt | wc -l' }, OPTS);
      expect(Number(plain.stdout.trim())).toBeGreaterThan(0);
      await expect(provider.create({ ...spec(), scrub: ['/usr'] })).rejects.toThrow(/would remove \/usr\/bin/);
    } finally {
      await scrubbed.destroy();
    }
  });

  it('destroys idempotently', async () => {
    const other = await provider.create(spec('scoring'));
    expect((await other.exec({ argv: ['id', '-u'] }, OPTS)).stdout).toBe('0\n');
    await other.destroy();
    await other.destroy();
    await expect(other.exec({ argv: ['true'] }, OPTS)).rejects.toMatchObject({ code: 'ABORTED' });
  });
});
