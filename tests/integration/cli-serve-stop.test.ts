/**
 * How `codemidas serve` stops when it is run the ways the README offers, against the real docker
 * engine: through `npx codemidas serve` (npm passes SIGTERM to its `sh -c` only, which does not
 * pass it on), and under a launcher that dies without signalling it. Containers are counted by this
 * file's servers' own `codemidas.owner-pid` labels (other servers share the engine); afterAll kills
 * whatever this file started and removes those containers, even when a test failed.
 */
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { readProcFs } from '../../src/cli/watch-launcher.js';
import { projectRoot } from '../../src/project-root.js';
import { createEnvironmentClient } from '../unit/server-client.js';

const root = projectRoot();
const BIN = join(root, 'bin', 'codemidas.js');
const SERVE_ARGS = ['serve', '--listen', '127.0.0.1:0', '--environments', join(root, 'environments'), '--sandbox', 'docker'];
const children: ChildProcess[] = [];
/** Every process found under a launcher, with its start time: a pid reused by someone else's process is never signalled. */
const started = new Map<number, number>();
/** The servers among them: their containers carry their pid as `codemidas.owner-pid`. */
const serverPids = new Set<number>();

function containersOf(pid: number): string[] {
  return execFileSync('docker', ['ps', '-aq', '--filter', `label=codemidas.owner-pid=${pid}`], { encoding: 'utf8' }).split('\n').filter(Boolean);
}

/** Gone, or a zombie nobody has reaped yet (it holds nothing any more). */
function processGone(pid: number): boolean {
  const info = readProcFs(pid);
  return info === null || info.state === 'Z';
}

/** Every live descendant of `pid`, from /proc. */
function descendants(pid: number): { pid: number; command: string }[] {
  const out = execFileSync('ps', ['-eo', 'pid=,ppid='], { encoding: 'utf8' });
  const byParent = new Map<number, number[]>();
  for (const line of out.trim().split('\n')) {
    const [child, parent] = line.trim().split(/\s+/).map(Number);
    byParent.set(parent!, [...(byParent.get(parent!) ?? []), child!]);
  }
  const found: { pid: number; command: string }[] = [];
  const queue = [...(byParent.get(pid) ?? [])];
  while (queue.length) {
    const next = queue.shift()!;
    found.push({ pid: next, command: readProcFs(next)?.command ?? '' });
    queue.push(...(byParent.get(next) ?? []));
  }
  return found;
}

interface Launched {
  launcher: ChildProcess;
  address: string;
  output: () => string;
}

/** Spawns `command`, which must start a server that prints the listening line to our pipes. */
function launch(command: string, args: string[], env: NodeJS.ProcessEnv = {}): Promise<Launched> {
  const launcher = spawn(command, args, { cwd: root, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, ...env } });
  children.push(launcher);
  let out = '';
  launcher.stdout!.on('data', (c: Buffer) => (out += c.toString()));
  launcher.stderr!.on('data', (c: Buffer) => (out += c.toString()));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no listening line in 180 s:\n${out.slice(-3000)}`)), 180_000);
    launcher.stdout!.on('data', () => {
      const m = /codemidas listening on (\S+)\n/.exec(out);
      if (m) {
        clearTimeout(timer);
        resolve({ launcher, address: m[1]!, output: () => out });
      }
    });
    launcher.once('exit', (code, signal) => {
      clearTimeout(timer);
      reject(new Error(`${command} exited (${signal ?? code}) before the server listened:\n${out.slice(-3000)}`));
    });
  });
}

/** The server under `launcher`: the node process running `codemidas … serve`. */
function serverUnder(launcher: ChildProcess): number {
  const all = descendants(launcher.pid!);
  // Every descendant is cleaned up in afterAll, even when the assertion below fails.
  for (const p of all) started.set(p.pid, readProcFs(p.pid)?.startTicks ?? -1);
  const candidates = all.filter((p) => /^(\S*\/)?node\s.*codemidas(\.js)?\s+serve\b/.test(p.command));
  for (const p of candidates) serverPids.add(p.pid);
  expect(candidates, JSON.stringify(all)).toHaveLength(1);
  return candidates[0]!.pid;
}

/** Starts an episode, so the server holds its container and a warm pool. */
async function holdContainers(address: string, serverPid: number): Promise<void> {
  const client = createEnvironmentClient(address, { deadlineMs: 60_000 });
  try {
    await client.call('Reset', { task_id: 'sample/slugify' });
  } finally {
    client.close();
  }
  expect(containersOf(serverPid).length).toBeGreaterThanOrEqual(1);
}

afterAll(async () => {
  for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  for (const [pid, startTicks] of started) {
    const info = readProcFs(pid);
    if (info && info.state !== 'Z' && info.startTicks === startTicks) process.kill(pid, 'SIGKILL');
  }
  await new Promise((r) => setTimeout(r, 500));
  for (const pid of serverPids) {
    const left = containersOf(pid);
    if (left.length) execFileSync('docker', ['rm', '-f', ...left]);
  }
});

describe('codemidas serve stops with whatever started it (docker)', () => {
  it('`npx codemidas serve` sent SIGTERM (as a supervisor signals npm): the server exits and removes its containers', async () => {
    // npm_config_yes: npx may ask before linking the project's own bin; a supervisor has no terminal.
    const { launcher, address, output } = await launch('npx', ['codemidas', ...SERVE_ARGS], { npm_config_yes: 'true' });
    const serverPid = serverUnder(launcher);
    expect(serverPid).not.toBe(launcher.pid);
    await holdContainers(address, serverPid);

    launcher.kill('SIGTERM');
    await expect.poll(() => processGone(serverPid), { timeout: 30_000, interval: 200 }).toBe(true);
    expect(output()).toMatch(/the process that started this server, pid \d+ \(sh -c .*\), has exited: shutting down/);
    expect(containersOf(serverPid)).toEqual([]);
  });

  it('`npx codemidas serve` whose npm is SIGKILLed (its sh -c stays): the server exits and removes its containers', async () => {
    const { launcher, address, output } = await launch('npx', ['codemidas', ...SERVE_ARGS], { npm_config_yes: 'true' });
    const serverPid = serverUnder(launcher);
    await holdContainers(address, serverPid);

    launcher.kill('SIGKILL');
    await expect.poll(() => processGone(serverPid), { timeout: 30_000, interval: 200 }).toBe(true);
    expect(output()).toMatch(/the process that started this server, pid \d+ \(npm exec codemidas serve.*\), has exited: shutting down/);
    expect(containersOf(serverPid)).toEqual([]);
  });

  it('a launcher SIGKILLed with its pipes closed: the server, reparented, drains through EPIPE and removes its containers', async () => {
    // The launcher holds the server's stdio pipes (inherited) and dies without a word.
    const script = `require('node:child_process').spawn(process.execPath, ${JSON.stringify([BIN, ...SERVE_ARGS])}, { stdio: 'inherit' })`;
    const { launcher, address } = await launch(process.execPath, ['-e', script]);
    const serverPid = serverUnder(launcher);
    await holdContainers(address, serverPid);

    launcher.kill('SIGKILL');
    // Nobody reads the server's stdout and stderr any more: its shutdown lines hit EPIPE.
    launcher.stdout!.destroy();
    launcher.stderr!.destroy();
    await expect.poll(() => processGone(serverPid), { timeout: 30_000, interval: 200 }).toBe(true);
    expect(containersOf(serverPid)).toEqual([]);
  });

  it('with --no-exit-with-parent, a server whose launcher died keeps serving until it is sent SIGTERM', async () => {
    const script = `require('node:child_process').spawn(process.execPath, ${JSON.stringify([BIN, ...SERVE_ARGS, '--warm-pool', '0', '--no-exit-with-parent'])}, { stdio: 'inherit' })`;
    const { launcher, address } = await launch(process.execPath, ['-e', script]);
    const serverPid = serverUnder(launcher);
    launcher.kill('SIGKILL');
    await new Promise((r) => setTimeout(r, 3_000));
    expect(processGone(serverPid)).toBe(false);
    const client = createEnvironmentClient(address);
    try {
      expect(await client.health()).toBe('SERVING');
    } finally {
      client.close();
    }
    process.kill(serverPid, 'SIGTERM');
    await expect.poll(() => processGone(serverPid), { timeout: 30_000, interval: 200 }).toBe(true);
  });
});
