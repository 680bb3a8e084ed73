import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { chmodSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SandboxAbortedError } from '../../src/errors.js';
import { RelayClient } from '../../src/sandbox/relay/relay-client.js';
import { SandboxFileError } from '../../src/sandbox/types.js';

const RELAY = join(import.meta.dirname, '../../src/sandbox/relay/relay.py');
const PYTHON = '/usr/bin/python3';

interface Running {
  client: RelayClient;
  child: ChildProcessWithoutNullStreams;
  hung: string[];
}

/** Runs relay.py directly on the host with a RelayClient attached, as a sandbox would. */
async function startRelay(workdir: string, options: { uid?: number; gid?: number } = {}): Promise<Running> {
  const child = spawn(PYTHON, ['-u', RELAY], {
    cwd: workdir,
    env: { PATH: process.env['PATH'] ?? '/usr/bin:/bin', LANG: 'C.UTF-8', CODEMIDAS_WORKDIR: workdir },
    ...(options.uid !== undefined ? { uid: options.uid, gid: options.gid ?? options.uid } : {}),
  });
  const hung: string[] = [];
  const client = new RelayClient({ sandboxId: 'host-relay', write: (line) => child.stdin.write(line), onHung: (m) => hung.push(m) });
  child.stdout.on('data', (chunk: Buffer) => client.feed(chunk));
  child.on('exit', () => client.fail(new SandboxAbortedError('host-relay', 'relay exited')));
  await client.ready;
  return { client, child, hung };
}

const OPTS = { timeoutMs: 10_000, maxOutputBytes: 64 * 1024 };

function processesWith(marker: string): number {
  let count = 0;
  for (const pid of readdirSync('/proc')) {
    if (!/^\d+$/.test(pid)) continue;
    try {
      if (readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes(marker)) count++;
    } catch {
      // gone meanwhile
    }
  }
  return count;
}

describe('relay.py on the host', () => {
  let dir: string;
  let relay: Running;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'relay-test-'));
    chmodSync(dir, 0o777);
    relay = await startRelay(dir);
  });

  afterAll(() => {
    relay?.child.kill('SIGKILL');
    rmSync(dir, { recursive: true, force: true });
  });

  it('runs argv and shell commands with separate stdout, stderr and the exit code', async () => {
    const argv = await relay.client.exec({ argv: ['printf', '%s', 'a b'] }, OPTS);
    expect(argv).toMatchObject({ exitCode: 0, stdout: 'a b', stderr: '', timedOut: false, truncated: false });
    const shell = await relay.client.exec({ shell: 'echo out; echo err >&2; exit 3' }, OPTS);
    expect(shell).toMatchObject({ exitCode: 3, stdout: 'out\n', stderr: 'err\n' });
    expect(shell.durationMs).toBeGreaterThan(0);
  });

  it('reports 127 for a missing program and 128+N for a signal', async () => {
    expect((await relay.client.exec({ argv: ['no-such-program-xyz'] }, OPTS)).exitCode).toBe(127);
    expect((await relay.client.exec({ shell: 'kill -TERM $$' }, OPTS)).exitCode).toBe(143);
  });

  it('passes cwd, env and stdin', async () => {
    writeFileSync(join(dir, 'here.txt'), '');
    const result = await relay.client.exec(
      { shell: 'ls; echo "$GREETING"; cat' },
      { ...OPTS, cwd: '.', env: { GREETING: 'hi' }, stdin: Buffer.from('from stdin') },
    );
    expect(result.stdout).toBe('here.txt\nhi\nfrom stdin');
  });

  it('kills the whole process group on timeout and stays usable', async () => {
    const marker = `sleep ${1000 + Math.floor(Math.random() * 1000)}.25`;
    const started = performance.now();
    const result = await relay.client.exec({ shell: `${marker} & ${marker}; echo never` }, { ...OPTS, timeoutMs: 1000 });
    const elapsed = performance.now() - started;
    expect(result).toMatchObject({ timedOut: true, exitCode: 124, stdout: '' });
    expect(elapsed).toBeLessThan(2500);
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(processesWith(marker)).toBe(0);
    expect((await relay.client.exec({ argv: ['true'] }, OPTS)).exitCode).toBe(0);
  });

  it('stops an endless printer (yes) with truncated output within the limit', async () => {
    const cap = 1000;
    const started = performance.now();
    const result = await relay.client.exec({ argv: ['yes'] }, { timeoutMs: 10_000, maxOutputBytes: cap });
    expect(performance.now() - started).toBeLessThan(5000);
    expect(result.truncated).toBe(true);
    expect(result.timedOut).toBe(false);
    expect(result.exitCode).toBe(137);
    const marker = /\n\[\.\.\. \d+ bytes truncated \.\.\.\]\n/;
    expect(result.stdout).toMatch(marker);
    expect(Buffer.byteLength(result.stdout.replace(marker, ''))).toBeLessThanOrEqual(cap);
    expect(result.stdout.startsWith('y\ny\n')).toBe(true);
  });

  it('caps head and tail without splitting multibyte characters', async () => {
    const result = await relay.client.exec(
      { argv: [PYTHON, '-c', 'import sys; sys.stdout.write("é€😀" * 500)'] },
      { timeoutMs: 10_000, maxOutputBytes: 101 },
    );
    expect(result.truncated).toBe(true);
    expect(result.stdout).not.toContain('\uFFFD');
    const [head, tail] = result.stdout.split(/\n\[\.\.\. \d+ bytes truncated \.\.\.\]\n/);
    expect('é€😀'.repeat(500).startsWith(head ?? 'x')).toBe(true);
    expect('é€😀'.repeat(500).endsWith(tail ?? 'x')).toBe(true);
    expect(Buffer.byteLength(head ?? '')).toBeGreaterThan(40);
  });

  it('decodes invalid UTF-8 with replacement characters instead of failing', async () => {
    const result = await relay.client.exec({ shell: "printf 'a\\377b'" }, OPTS);
    expect(result.stdout).toBe('a\uFFFDb');
  });

  it('handles requests concurrently and answers out of order', async () => {
    const order: string[] = [];
    const started = performance.now();
    const slow = relay.client.exec({ shell: 'sleep 0.6; echo slow' }, OPTS).then((r) => order.push(r.stdout.trim()));
    const many = Array.from({ length: 6 }, (_, i) =>
      relay.client.exec({ shell: `sleep 0.3; echo ${i}` }, OPTS).then((r) => {
        order.push(r.stdout.trim());
        return r.stdout.trim();
      }),
    );
    expect(await Promise.all(many)).toEqual(['0', '1', '2', '3', '4', '5']);
    await slow;
    expect(order.at(-1)).toBe('slow');
    expect(performance.now() - started).toBeLessThan(1500);
  });

  it('returns when the main process exits even if it left a process in the background', async () => {
    const started = performance.now();
    const result = await relay.client.exec({ shell: 'sleep 3 & echo started' }, OPTS);
    expect(result).toMatchObject({ exitCode: 0, stdout: 'started\n', timedOut: false });
    expect(performance.now() - started).toBeLessThan(1000);
  });

  it('writes files (creating parents) and reads them back with offset and limit', async () => {
    await relay.client.writeFile('a/b/c.txt', Buffer.from('hello world'));
    expect(readFileSync(join(dir, 'a/b/c.txt'), 'utf8')).toBe('hello world');
    const part = await relay.client.readFile('a/b/c.txt', { offset: 6, limit: 3 });
    expect(part).toEqual({ content: Buffer.from('wor'), size: 11, truncated: true });
    const rest = await relay.client.readFile(join(dir, 'a/b/c.txt'), { offset: 6, limit: 100 });
    expect(rest).toEqual({ content: Buffer.from('world'), size: 11, truncated: false });
  });

  it('reports not-found and is-directory as SandboxFileError', async () => {
    await expect(relay.client.readFile('missing.txt', { offset: 0, limit: 10 })).rejects.toMatchObject({
      name: 'SandboxFileError',
      reason: 'not-found',
    });
    await relay.client.writeFile('d/x', Buffer.from('1'));
    const error = await relay.client.readFile('d', { offset: 0, limit: 10 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SandboxFileError);
    expect((error as SandboxFileError).reason).toBe('is-directory');
    await expect(relay.client.writeFile('d', Buffer.from('1'))).rejects.toMatchObject({ reason: 'is-directory' });
  });

  it('reports denied for files the relay user may not touch', async () => {
    // Root reads everything, so run a second relay as nobody for this one.
    const asNobody = process.getuid?.() === 0;
    const other = asNobody ? await startRelay(dir, { uid: 65534, gid: 65534 }) : relay;
    try {
      writeFileSync(join(dir, 'secret.txt'), 'x');
      chmodSync(join(dir, 'secret.txt'), 0o000);
      await expect(other.client.readFile('secret.txt', { offset: 0, limit: 10 })).rejects.toMatchObject({ reason: 'denied' });
      await expect(other.client.writeFile('/proc/no-way/x', Buffer.from('1'))).rejects.toBeInstanceOf(SandboxFileError);
    } finally {
      if (asNobody) other.child.kill('SIGKILL');
    }
  });

  it('cancels a running command when the call is aborted', async () => {
    const marker = `sleep ${2000 + Math.floor(Math.random() * 1000)}.5`;
    const started = performance.now();
    await expect(relay.client.exec({ shell: marker }, { ...OPTS, signal: AbortSignal.timeout(200) })).rejects.toThrow();
    expect(performance.now() - started).toBeLessThan(1000);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(processesWith(marker)).toBe(0);
    expect((await relay.client.ping()).pid).toBe(relay.child.pid);
  });
});

describe('RelayClient watchdog', () => {
  it('rejects with SandboxAbortedError and reports the sandbox hung when no answer comes', async () => {
    const hung: string[] = [];
    const client = new RelayClient({ sandboxId: 'silent', write: () => undefined, onHung: (m) => hung.push(m), graceMs: 50 });
    const started = performance.now();
    await expect(client.exec({ argv: ['true'] }, { timeoutMs: 50, maxOutputBytes: 10 })).rejects.toBeInstanceOf(SandboxAbortedError);
    expect(performance.now() - started).toBeLessThan(1000);
    expect(hung).toHaveLength(1);
  });

  it('rejects every pending call when the sandbox dies', async () => {
    const client = new RelayClient({ sandboxId: 'dies', write: () => undefined, onHung: () => undefined });
    const pending = client.exec({ argv: ['true'] }, { timeoutMs: 60_000, maxOutputBytes: 10 });
    client.fail(new SandboxAbortedError('dies', 'container exited'));
    await expect(pending).rejects.toBeInstanceOf(SandboxAbortedError);
    await expect(client.ping()).rejects.toBeInstanceOf(SandboxAbortedError);
  });

  it('matches answers split across chunks to their requests', async () => {
    const sent: string[] = [];
    const client = new RelayClient({ sandboxId: 'chunks', write: (line) => sent.push(line), onHung: () => undefined });
    const call = client.ping();
    const id = (JSON.parse(sent[0] ?? '{}') as { id: number }).id;
    const answer = Buffer.from(`${JSON.stringify({ id, ok: true, result: { pid: 7, uid: 0, gid: 0, workdir: '/w' } })}\n`);
    client.feed(answer.subarray(0, 5));
    client.feed(answer.subarray(5));
    expect((await call).pid).toBe(7);
  });
});
