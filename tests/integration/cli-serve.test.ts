/**
 * `codemidas serve` and `codemidas episode` as child processes against the real docker engine.
 * Containers are found by their `codemidas.owner-pid` label; afterAll kills every child this file
 * started and removes their containers, even when a test failed.
 */
import { type ChildProcess, execFileSync, spawn, spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { projectRoot } from '../../src/project-root.js';
import { createEnvironmentClient } from '../unit/server-client.js';

const root = projectRoot();
const BIN = join(root, 'bin', 'codemidas.js');
const children: ChildProcess[] = [];
const ownerPids = new Set<number>();

function containersOf(pid: number): string[] {
  return execFileSync('docker', ['ps', '-aq', '--filter', `label=codemidas.owner-pid=${pid}`], { encoding: 'utf8' }).split('\n').filter(Boolean);
}

interface Served {
  child: ChildProcess;
  address: string;
  output: () => string;
}

function serve(extra: string[] = []): Promise<Served> {
  const child = spawn(process.execPath, [BIN, 'serve', '--listen', '127.0.0.1:0', '--environments', join(root, 'environments'), '--sandbox', 'docker', ...extra], {
    cwd: root,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  if (child.pid) ownerPids.add(child.pid);
  let out = '';
  child.stdout!.on('data', (c: Buffer) => (out += c.toString()));
  child.stderr!.on('data', (c: Buffer) => (out += c.toString()));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no listening line in 180 s:\n${out.slice(-3000)}`)), 180_000);
    child.stdout!.on('data', () => {
      const m = /codemidas listening on (\S+)\n/.exec(out);
      if (m) {
        clearTimeout(timer);
        resolve({ child, address: m[1]!, output: () => out });
      }
    });
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      reject(new Error(`serve exited (${signal ?? code}) before listening:\n${out.slice(-3000)}`));
    });
  });
}

function exited(child: ChildProcess): Promise<{ code: number | null; signal: NodeJS.Signals | null }> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve({ code: child.exitCode, signal: child.signalCode });
  return new Promise((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
}

afterAll(async () => {
  for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  await Promise.all(children.map(exited));
  for (const pid of ownerPids) {
    const left = containersOf(pid);
    if (left.length) execFileSync('docker', ['rm', '-f', ...left]);
  }
});

describe('codemidas serve (child process, docker)', () => {
  it('prints exactly one stdout line with the real port, and a SIGKILLed server leaves no container after a restart', async () => {
    // No warm pool here: the count below is of the episodes' own containers.
    const first = await serve(['--warm-pool', '0']);
    expect(first.address).toMatch(/^127\.0\.0\.1:[1-9]\d*$/);
    const client = createEnvironmentClient(first.address, { deadlineMs: 60_000 });
    try {
      const group = await client.call('ResetGroup', { task_id: 'sample/slugify', group_size: 2 });
      expect(group['episodes']).toHaveLength(2);
    } finally {
      client.close();
    }
    const oldPid = first.child.pid!;
    expect(containersOf(oldPid)).toHaveLength(2);
    first.child.kill('SIGKILL');
    await exited(first.child);
    // The dead server's containers are still there until someone reaps them.
    expect(containersOf(oldPid)).toHaveLength(2);

    const second = await serve();
    try {
      expect(containersOf(oldPid)).toEqual([]);
    } finally {
      second.child.kill('SIGTERM');
    }
    const { code } = await exited(second.child);
    expect(code).toBe(0);
    const stdoutLines = second.output().split('\n').filter((l) => l.startsWith('codemidas listening on'));
    expect(stdoutLines).toHaveLength(1);
  });

  it('on SIGTERM, answers the step in flight, destroys its sandboxes and exits 0', async () => {
    const served = await serve();
    const client = createEnvironmentClient(served.address, { deadlineMs: 60_000 });
    try {
      const id = (await client.call('Reset', { task_id: 'sample/slugify' }))['episode_id'];
      // The episode's container, and the warm pool's (started after this Reset) on top.
      expect(containersOf(served.child.pid!).length).toBeGreaterThanOrEqual(1);
      const step = client.call('Step', { episode_id: id, step_index: 0, action: { shell: { command: 'sleep 1; echo done' } } });
      await new Promise((r) => setTimeout(r, 300));
      served.child.kill('SIGTERM');
      expect((await step)['observation'].stdout).toBe('done\n');
    } finally {
      client.close();
    }
    expect((await exited(served.child)).code).toBe(0);
    // Pooled sandboxes included: nothing of the server outlives it.
    expect(containersOf(served.child.pid!)).toEqual([]);
  });

  it('refuses 0.0.0.0 without --auth-token, saying so, before starting anything', () => {
    const r = spawnSync(process.execPath, [BIN, 'serve', '--listen', '0.0.0.0:0', '--sandbox', 'docker'], { cwd: root, encoding: 'utf8', timeout: 30_000 });
    expect(r.status).not.toBe(0);
    expect(r.stderr).toMatch(/--auth-token/);
    expect(r.stderr).not.toMatch(/\n\s+at /);
    expect(r.stdout).toBe('');
  });
});

describe('codemidas episode (scripted stdin, docker)', () => {
  it('runs shell commands, writes a file, submits and prints the reward', () => {
    const solution = readFileSync(join(root, 'environments/sample/slugify/solution/textkit/slug.py'), 'utf8');
    expect(solution).not.toMatch(/^\.$/m);
    const script = ['echo hello', ':read textkit/slug.py', ':write textkit/slug.py', solution.replace(/\n$/, ''), '.', ':submit', ':reward', ':quit', ''].join('\n');
    const r = spawnSync(process.execPath, [BIN, 'episode', 'sample/slugify', '--environments', join(root, 'environments'), '--sandbox', 'docker'], {
      cwd: root,
      input: script,
      encoding: 'utf8',
      timeout: 240_000,
    });
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toContain('hello\n');
    expect(r.stdout).toMatch(/reward 1 \(SCORED\), passed (\d+)\/\1/);
    expect(r.stdout).toMatch(/episode ep-\S+ closed/);
  });

  it('fails with a message and a non-zero exit for an unknown task', () => {
    const r = spawnSync(process.execPath, [BIN, 'episode', 'sample/nope', '--environments', join(root, 'environments'), '--sandbox', 'docker'], {
      cwd: root,
      input: '',
      encoding: 'utf8',
      timeout: 120_000,
    });
    expect(r.status).not.toBe(0);
    expect(r.stderr).toMatch(/unknown task 'sample\/nope'/);
    expect(r.stderr).not.toMatch(/\n\s+at /);
  });
});
