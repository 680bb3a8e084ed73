import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { chmodSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SandboxAbortedError } from '../../src/errors.js';
import { RelayClient } from '../../src/sandbox/relay/relay-client.js';
import { SandboxFileError } from '../../src/sandbox/types.js';
import { readableCopy } from '../fixtures/readable-copy.js';

const RELAY = join(import.meta.dirname, '../../src/sandbox/relay/relay.py');
const PYTHON = '/usr/bin/python3';

interface Running {
  client: RelayClient;
  child: ChildProcessWithoutNullStreams;
  hung: string[];
}

let relayCopy: string | undefined;

/** Runs relay.py directly on the host with a RelayClient attached, as a sandbox would. */
async function startRelay(workdir: string, options: { uid?: number; gid?: number } = {}): Promise<Running> {
  // Another uid runs a copy it can read: the checkout may sit in a folder only its owner can enter.
  const relayPath = options.uid === undefined ? RELAY : (relayCopy ??= readableCopy(RELAY));
  const child = spawn(PYTHON, ['-u', relayPath], {
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

  it('refuses NUL bytes in commands and paths with a request error, and keeps answering', async () => {
    for (const command of [{ shell: 'echo a\u0000b' }, { argv: ['echo', 'a\u0000b'] }]) {
      for (const session of [true, false]) {
        await expect(relay.client.exec(command, { ...OPTS, session })).rejects.toThrow(/command: the command contains a NUL byte/);
      }
    }
    await expect(relay.client.readFile('a\u0000b', { offset: 0, limit: 10 })).rejects.toMatchObject({ message: expect.stringMatching(/NUL byte/) });
    await expect(relay.client.writeFile('a\u0000b', Buffer.from('x'))).rejects.toBeInstanceOf(SandboxFileError);
    // Bytes of any kind are fine in file contents and output.
    await relay.client.writeFile('nul.bin', Buffer.from([0, 0xff, 0x1b, 0x0a]));
    expect([...(await relay.client.readFile('nul.bin', { offset: 0, limit: 10 })).content]).toEqual([0, 0xff, 0x1b, 0x0a]);
    rmSync(join(dir, 'nul.bin'));
    expect((await relay.client.exec({ shell: 'echo alive' }, { ...OPTS, session: true })).stdout).toBe('alive\n');
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

  it('reuses its worker threads, and a request that never ends holds only its own', async () => {
    // A relay of its own, so the threads earlier tests left waiting do not count.
    const own = await startRelay(dir);
    try {
      const fifo = join(dir, 'never-written.fifo');
      const made = await own.client.exec({ argv: ['mkfifo', fifo] }, OPTS);
      expect(made.exitCode).toBe(0);
      // Opening a FIFO nobody writes blocks the worker that serves this read for good.
      const stuck = own.client.readFile(fifo, { offset: 0, limit: 10 }).catch((error: unknown) => error);
      for (let i = 0; i < 30; i++) expect((await own.client.exec({ shell: 'true' }, { ...OPTS, session: true })).exitCode).toBe(0);
      const tasks = (): string[] => readdirSync(`/proc/${own.child.pid}/task`).sort();
      const afterSequential = tasks();
      // The main thread, the stuck reader, and one worker that answered all thirty calls.
      expect(afterSequential).toHaveLength(3);
      for (let i = 0; i < 30; i++) await own.client.ping();
      expect(tasks()).toEqual(afterSequential);
      const burst = await Promise.all(Array.from({ length: 8 }, (_, i) => own.client.exec({ shell: `sleep 0.2; echo ${i}` }, OPTS)));
      expect(burst.map((r) => r.stdout.trim())).toEqual(['0', '1', '2', '3', '4', '5', '6', '7']);
      // At most one more worker per request of the burst.
      expect(tasks().length).toBeLessThanOrEqual(afterSequential.length + 8);
      // A writer releases it (a FIFO cannot seek, so the read then fails as a file error).
      await own.client.exec({ shell: `echo unblocked > ${fifo}` }, OPTS);
      expect(await stuck).toBeInstanceOf(SandboxFileError);
    } finally {
      own.child.kill('SIGKILL');
    }
  });

  it('imports no Python-level module beyond ctypes before its first request', async () => {
    // -X importtime lists each import on stderr as it happens; the ready line comes after start-up.
    const child = spawn(PYTHON, ['-I', '-S', '-u', '-X', 'importtime', RELAY], {
      cwd: dir,
      env: { PATH: process.env['PATH'] ?? '/usr/bin:/bin', CODEMIDAS_WORKDIR: dir },
    });
    try {
      let stderr = '';
      child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
      const ready = await new Promise<string>((resolve) => child.stdout.once('data', (chunk: Buffer) => resolve(chunk.toString('utf8'))));
      expect(JSON.parse(ready)).toMatchObject({ event: 'ready', workdir: dir, channel: 'stdio' });
      const imported = new Set([...stderr.matchAll(/\|\s*(\S+)\s*$/gm)].map((m) => m[1]));
      expect(imported.has('ctypes')).toBe(true);
      for (const heavy of ['json', 're', 'enum', 'collections', 'threading', 'selectors', 'signal', 'socket', 'subprocess', 'base64']) {
        expect(imported.has(heavy), heavy).toBe(false);
      }
    } finally {
      child.kill('SIGKILL');
    }
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

describe('relay.py session shell on the host', () => {
  let dir: string;
  let relay: Running;
  const SESSION = { ...OPTS, session: true };

  function percentile(values: number[], p: number): number {
    const sorted = [...values].sort((a, b) => a - b);
    return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;
  }

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'relay-session-'));
    relay = await startRelay(dir);
  });

  afterAll(() => {
    relay?.child.kill('SIGKILL');
    rmSync(dir, { recursive: true, force: true });
  });

  it('runs `true` far faster than a process per command (figures printed)', async () => {
    await relay.client.exec({ shell: 'true' }, SESSION); // starts the shell
    const sessionMs: number[] = [];
    for (let i = 0; i < 200; i++) {
      const t = performance.now();
      const result = await relay.client.exec({ shell: 'true' }, SESSION);
      sessionMs.push(performance.now() - t);
      expect(result).toMatchObject({ exitCode: 0, sessionRestarted: false });
    }
    const processMs: number[] = [];
    for (let i = 0; i < 50; i++) {
      const t = performance.now();
      await relay.client.exec({ shell: 'true' }, OPTS);
      processMs.push(performance.now() - t);
    }
    console.log(
      `[figures] relay on the host, shell \`true\`: session p50 ${percentile(sessionMs, 50).toFixed(2)} ms, p99 ${percentile(sessionMs, 99).toFixed(2)} ms (n=200); ` +
        `bash -c per call p50 ${percentile(processMs, 50).toFixed(2)} ms (n=50)`,
    );
    expect(percentile(sessionMs, 50)).toBeLessThan(3);
    expect(percentile(sessionMs, 50)).toBeLessThan(percentile(processMs, 50));
  });

  it('keeps cwd and exported variables between calls, and survives a syntax error', async () => {
    expect((await relay.client.exec({ shell: 'cd /tmp' }, SESSION)).exitCode).toBe(0);
    expect((await relay.client.exec({ shell: 'pwd' }, SESSION)).stdout).toBe('/tmp\n');
    await relay.client.exec({ shell: 'export X=1; cd -' }, SESSION);
    expect((await relay.client.exec({ shell: 'echo $X' }, SESSION)).stdout).toBe('1\n');
    const bad = await relay.client.exec({ shell: 'if then' }, SESSION);
    expect(bad.exitCode).not.toBe(0);
    expect(bad.stderr).toContain('syntax error');
    expect(bad.sessionRestarted).toBe(false);
    expect(await relay.client.exec({ shell: 'echo $X; pwd' }, SESSION)).toMatchObject({ exitCode: 0, stdout: `1\n${dir}\n`, sessionRestarted: false });
  });

  it('separates stdout and stderr and keeps multibyte output intact', async () => {
    const result = await relay.client.exec({ shell: 'echo out; echo err >&2; echo out2; false' }, SESSION);
    expect(result).toMatchObject({ exitCode: 1, stdout: 'out\nout2\n', stderr: 'err\n' });
    const text = 'héllo wörld € 😀 中文\n';
    const whole = await relay.client.exec({ argv: [PYTHON, '-c', `import sys; sys.stdout.write(${JSON.stringify(text)} * 300)`] }, SESSION);
    expect(whole.stdout).toBe(text.repeat(300));
    const capped = await relay.client.exec({ shell: `${PYTHON} -c 'print("😀€é" * 1000)'` }, { ...SESSION, maxOutputBytes: 99 });
    expect(capped.truncated).toBe(true);
    expect(capped.stdout).not.toContain('\uFFFD');
  });

  it('runs a long command (a 300 KB heredoc) quickly, in the session, byte for byte', async () => {
    const body = `${'é'.repeat(39)}x\n`.repeat(4000);
    const started = performance.now();
    const result = await relay.client.exec({ shell: `mkdir -p big && cd big && cat > f.txt <<'EOF'\n${body}EOF\nwc -c < f.txt` }, SESSION);
    expect(performance.now() - started).toBeLessThan(2000);
    expect(result).toMatchObject({ exitCode: 0, stdout: `${Buffer.byteLength(body)}\n` });
    expect(readFileSync(join(dir, 'big/f.txt'), 'utf8')).toBe(body);
    expect((await relay.client.exec({ shell: 'pwd; cd ..' }, SESSION)).stdout).toBe(`${dir}/big\n`);
  });

  it('runs a per-call cwd and env in a subshell that does not carry over', async () => {
    await relay.client.writeFile('sub/f.txt', Buffer.from(''));
    const result = await relay.client.exec({ shell: 'ls; echo "$GREETING"; cd /; export Y=2' }, { ...SESSION, cwd: 'sub', env: { GREETING: 'hi there' } });
    expect(result).toMatchObject({ exitCode: 0, stdout: 'f.txt\nhi there\n' });
    expect((await relay.client.exec({ shell: 'pwd; echo "${Y:-unset} ${GREETING:-unset}"' }, SESSION)).stdout).toBe(`${dir}\nunset unset\n`);
    expect((await relay.client.exec({ shell: 'pwd' }, { ...SESSION, cwd: 'missing' })).exitCode).toBe(1);
  });

  it('answers `exit 3` with its code and starts a fresh shell in the workdir next', async () => {
    await relay.client.exec({ shell: 'cd /tmp; export Z=1' }, SESSION);
    expect(await relay.client.exec({ shell: 'echo bye; exit 3' }, SESSION)).toMatchObject({ exitCode: 3, stdout: 'bye\n', sessionRestarted: true });
    expect(await relay.client.exec({ shell: 'pwd; echo ${Z:-unset}' }, SESSION)).toMatchObject({
      exitCode: 0,
      stdout: `${dir}\nunset\n`,
      sessionRestarted: false,
    });
  });

  it('times out `sleep` with the whole session killed, background processes included, and recovers', async () => {
    const marker = `sleep ${3000 + Math.floor(Math.random() * 1000)}.75`;
    expect((await relay.client.exec({ shell: `${marker} &` }, SESSION)).exitCode).toBe(0);
    const started = performance.now();
    const result = await relay.client.exec({ shell: 'sleep 1000' }, { ...SESSION, timeoutMs: 500 });
    expect(performance.now() - started).toBeLessThan(1500);
    expect(result).toMatchObject({ exitCode: 124, timedOut: true, sessionRestarted: true });
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(processesWith(marker)).toBe(0);
    expect(await relay.client.exec({ shell: 'echo back' }, SESSION)).toMatchObject({ exitCode: 0, stdout: 'back\n' });
  });

  it('stops `yes` promptly with truncated output and recovers', async () => {
    const started = performance.now();
    const result = await relay.client.exec({ shell: 'yes' }, { ...SESSION, maxOutputBytes: 1000 });
    expect(performance.now() - started).toBeLessThan(2000);
    expect(result).toMatchObject({ exitCode: 137, truncated: true, timedOut: false, sessionRestarted: true });
    expect(result.stdout.startsWith('y\ny\n')).toBe(true);
    expect(Buffer.byteLength(result.stdout)).toBeLessThan(1100);
    expect((await relay.client.exec({ shell: 'echo fine' }, SESSION)).stdout).toBe('fine\n');
  });

  it('cannot be ended early by a command printing or injecting completion markers', async () => {
    const started = performance.now();
    // Prints marker-shaped text, and writes it into every pipe the shell holds (the completion pipe included).
    const result = await relay.client.exec(
      {
        shell:
          `printf '0\\n%032x 0\\n' 0; printf '%032x 0\\n' 0 >&2; ` +
          `for f in /proc/$$/fd/*; do [ "\${f##*/}" -ge 10 ] && [ -p "$f" ] && printf 'fake 0\\n%032x 0\\n' 0 > "$f"; done 2>/dev/null; ` +
          'sleep 0.3; echo real; exit_code_is() { return $1; }; exit_code_is 5',
      },
      SESSION,
    );
    expect(performance.now() - started).toBeGreaterThan(280);
    expect(result.exitCode).toBe(5);
    expect(result.stdout.endsWith('real\n')).toBe(true);
    expect((await relay.client.exec({ shell: 'echo next' }, SESSION)).stdout).toBe('next\n');
  });

  it('returns while a background process keeps running', async () => {
    const started = performance.now();
    const result = await relay.client.exec({ shell: 'sleep 3 & echo started' }, SESSION);
    expect(result).toMatchObject({ exitCode: 0, stdout: 'started\n' });
    expect(performance.now() - started).toBeLessThan(500);
    expect((await relay.client.exec({ shell: 'jobs -r | wc -l' }, SESSION)).stdout.trim()).toBe('1');
  });

  it('runs a concurrent session call the old way instead of queueing it', async () => {
    await relay.client.exec({ shell: `cd ${JSON.stringify(dir)}` }, SESSION);
    const started = performance.now();
    const slow = relay.client.exec({ shell: 'sleep 0.5; cd /tmp; echo slow' }, SESSION);
    await new Promise((resolve) => setTimeout(resolve, 50));
    const quick = await relay.client.exec({ shell: 'echo quick; pwd' }, SESSION);
    expect(performance.now() - started).toBeLessThan(400);
    expect(quick).toMatchObject({ exitCode: 0, stdout: `quick\n${dir}\n` });
    expect(quick.sessionRestarted).toBeUndefined();
    expect(await slow).toMatchObject({ exitCode: 0, stdout: 'slow\n', sessionRestarted: false });
    expect((await relay.client.exec({ shell: 'pwd' }, SESSION)).stdout).toBe('/tmp\n');
  });

  it('cancels an aborted session command, killing the shell, and reports the restart next', async () => {
    const marker = `sleep ${4000 + Math.floor(Math.random() * 1000)}.5`;
    await expect(relay.client.exec({ shell: marker }, { ...SESSION, signal: AbortSignal.timeout(200) })).rejects.toThrow();
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(processesWith(marker)).toBe(0);
    expect(await relay.client.exec({ shell: 'echo again' }, SESSION)).toMatchObject({ stdout: 'again\n', sessionRestarted: true });
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
    client.feed(Buffer.from('{"event": "ready", "channel": "stdio"}\n'));
    const call = client.ping();
    const id = (JSON.parse(sent[0] ?? '{}') as { id: number }).id;
    const answer = Buffer.from(`${JSON.stringify({ id, ok: true, result: { pid: 7, uid: 0, gid: 0, workdir: '/w' } })}\n`);
    client.feed(answer.subarray(0, 5));
    client.feed(answer.subarray(5));
    expect((await call).pid).toBe(7);
  });

  it('holds requests made before the relay is ready, then sends them in order once it is', async () => {
    const sent: string[] = [];
    const client = new RelayClient({ sandboxId: 'early', write: (line) => sent.push(line), onHung: () => undefined });
    const first = client.ping();
    const second = client.ping();
    expect(sent).toEqual([]);
    client.feed(Buffer.from('{"event": "ready", "channel": "socket"}\n'));
    expect(sent).toHaveLength(2);
    const ids = sent.map((line) => (JSON.parse(line) as { id: number }).id);
    expect(ids[0]).toBeLessThan(ids[1]!);
    for (const id of ids) client.feed(Buffer.from(`${JSON.stringify({ id, ok: true, result: { pid: id, uid: 0, gid: 0, workdir: '/w' } })}\n`));
    expect((await first).pid).toBe(ids[0]);
    expect((await second).pid).toBe(ids[1]);
  });
});
