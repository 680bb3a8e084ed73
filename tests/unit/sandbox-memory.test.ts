import { describe, expect, it } from 'vitest';
import { SandboxAbortedError } from '../../src/errors.js';
import { createSandboxProvider } from '../../src/sandbox/create-sandbox-provider.js';
import { createMemorySandboxProvider } from '../../src/sandbox/memory/memory-sandbox-provider.js';
import { SandboxFileError, type SandboxSpec } from '../../src/sandbox/types.js';
import { createSilentLogger } from '../../src/logging.js';

const spec = (overrides: Partial<SandboxSpec> = {}): SandboxSpec => ({
  image: 'memory/python',
  role: 'episode',
  workdir: '/workspace',
  resources: { memoryBytes: 1 << 30, cpus: 1, pids: 256 },
  labels: {},
  expiresAt: new Date(Date.now() + 60_000),
  ...overrides,
});
const OPTS = { timeoutMs: 1000, maxOutputBytes: 1024 };

describe('memory sandbox provider', () => {
  it('answers `true` with 0 and anything else with 127 by default', async () => {
    const provider = createMemorySandboxProvider();
    await using sandbox = await provider.create(spec());
    expect((await sandbox.exec({ argv: ['true'] }, OPTS)).exitCode).toBe(0);
    const missing = await sandbox.exec({ shell: 'pytest -q' }, OPTS);
    expect(missing.exitCode).toBe(127);
    expect(missing.stderr).toContain('command not found');
  });

  it('uses an injected exec handler and caps its output like the relay', async () => {
    const provider = createMemorySandboxProvider({
      execHandler: (_sandbox, command) => ({ exitCode: 1, stdout: 'x'.repeat(100), stderr: JSON.stringify(command) }),
    });
    const sandbox = await provider.create(spec());
    const result = await sandbox.exec({ argv: ['pytest'] }, { timeoutMs: 1000, maxOutputBytes: 10 });
    expect(result).toMatchObject({ exitCode: 1, truncated: true, timedOut: false });
    expect(result.stdout).toBe('xxxxx\n[... 90 bytes truncated ...]\nxxxxx');
  });

  it('stores files: write/read relative to the workdir, put/get, errors as SandboxFileError', async () => {
    const provider = createMemorySandboxProvider();
    const sandbox = await provider.create(spec());
    await sandbox.writeFile('src/a.py', Buffer.from('print(1)\n'));
    expect((await sandbox.readFile('/workspace/src/a.py', { offset: 0, limit: 5 })).content.toString()).toBe('print');
    await expect(sandbox.readFile('nope', { offset: 0, limit: 5 })).rejects.toBeInstanceOf(SandboxFileError);
    await expect(sandbox.readFile('src', { offset: 0, limit: 5 })).rejects.toMatchObject({ reason: 'is-directory' });
    await sandbox.putFiles('/workspace', [
      { path: 'lib/b.py', type: 'file', mode: 0o644, content: Buffer.from('b') },
      { path: 'link', type: 'symlink', mode: 0o777, linkTarget: 'lib/b.py' },
    ]);
    const entries = await sandbox.getFiles('/workspace');
    expect(entries.map((e) => [e.path, e.type])).toEqual([
      ['lib', 'directory'],
      ['lib/b.py', 'file'],
      ['link', 'symlink'],
      ['src', 'directory'],
      ['src/a.py', 'file'],
    ]);
    // Over the caps a file comes back without its bytes, with its size: a huge file never fails a read-out.
    const capped = await sandbox.getFiles('/workspace', { maxFileBytes: 5 });
    expect(capped.find((e) => e.path === 'src/a.py')).toMatchObject({ type: 'file', size: 9 });
    expect(capped.find((e) => e.path === 'src/a.py')?.content).toBeUndefined();
    expect(capped.find((e) => e.path === 'lib/b.py')?.content?.toString()).toBe('b');
    const total = await sandbox.getFiles('/workspace', { maxTotalBytes: 3 });
    expect(total.filter((e) => e.type === 'file').map((e) => [e.path, e.content?.toString(), e.size])).toEqual([
      ['lib/b.py', 'b', undefined],
      ['src/a.py', undefined, 9],
    ]);
  });

  it('injects failures and counts created and destroyed sandboxes', async () => {
    const provider = createMemorySandboxProvider();
    provider.failNextCreate();
    await expect(provider.create(spec())).rejects.toBeInstanceOf(SandboxAbortedError);
    const a = await provider.create(spec());
    const b = await provider.create(spec());
    (b as unknown as { kill: () => void }).kill();
    await expect(b.exec({ argv: ['true'] }, OPTS)).rejects.toBeInstanceOf(SandboxAbortedError);
    await a.destroy();
    await a.destroy();
    await expect(a.exec({ argv: ['true'] }, OPTS)).rejects.toBeInstanceOf(SandboxAbortedError);
    await provider.close();
    expect({ created: provider.created, destroyed: provider.destroyed, live: provider.live.length }).toEqual({ created: 2, destroyed: 2, live: 0 });
  });

  it('reaps expired sandboxes only', async () => {
    const provider = createMemorySandboxProvider();
    await provider.create(spec({ expiresAt: new Date(Date.now() - 1) }));
    await provider.create(spec());
    expect(await provider.reap()).toBe(1);
    expect(provider.live).toHaveLength(1);
  });

  it('is what createSandboxProvider returns for kind memory', async () => {
    const provider = await createSandboxProvider({ kind: 'memory', logger: createSilentLogger(), serverId: 't' });
    expect(provider.kind).toBe('memory');
  });
});
