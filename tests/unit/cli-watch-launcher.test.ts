import { afterEach, describe, expect, it } from 'vitest';
import { type LauncherWatch, type ProcessInfo, readProcFs, watchLauncher } from '../../src/cli/watch-launcher.js';

/** A process table the test edits: pid -> /proc entry. */
function table(entries: Record<number, Partial<ProcessInfo> & { ppid: number }>): Map<number, ProcessInfo> {
  return new Map(Object.entries(entries).map(([pid, e]) => [Number(pid), { state: 'S', startTicks: 1, command: '', ...e }]));
}

const NPM_TREE = {
  100: { ppid: 50, command: "sh -c 'codemidas' serve" },
  50: { ppid: 10, command: 'npm exec codemidas serve', startTicks: 7 },
  10: { ppid: 1, command: '-bash' },
};

describe('watchLauncher', () => {
  let watch: LauncherWatch | undefined;
  afterEach(() => watch?.stop());

  function start(procs: Map<number, ProcessInfo>, ppid: { value: number }, env: NodeJS.ProcessEnv = {}): string[] {
    const reasons: string[] = [];
    watch = watchLauncher({
      onGone: (reason) => reasons.push(reason),
      intervalMs: 5,
      env,
      readPpid: () => ppid.value,
      readProcess: (pid) => procs.get(pid) ?? null,
    });
    return reasons;
  }

  it('calls onGone once, naming the parent, when this process is reparented', async () => {
    const ppid = { value: 100 };
    const reasons = start(table(NPM_TREE), ppid);
    expect(watch!.watched).toEqual([{ pid: 100, command: "sh -c 'codemidas' serve" }]);
    await new Promise((r) => setTimeout(r, 30));
    expect(reasons).toEqual([]);
    ppid.value = 1;
    await expect.poll(() => reasons).toHaveLength(1);
    expect(reasons[0]).toBe("the process that started this server, pid 100 (sh -c 'codemidas' serve), has exited");
    await new Promise((r) => setTimeout(r, 30));
    expect(reasons).toHaveLength(1);
  });

  it('under npm, also watches the npm process above its sh -c, and calls onGone when npm alone dies (SIGKILL)', async () => {
    const procs = table(NPM_TREE);
    const reasons = start(procs, { value: 100 }, { npm_execpath: '/usr/lib/node_modules/npm/bin/npm-cli.js' });
    expect(watch!.watched.map((w) => w.pid)).toEqual([100, 50]);
    await new Promise((r) => setTimeout(r, 30));
    expect(reasons).toEqual([]);
    // The sh stays (its child, us, still runs); only npm is gone.
    procs.delete(50);
    await expect.poll(() => reasons).toEqual(['the process that started this server, pid 50 (npm exec codemidas serve), has exited']);
  });

  it('counts an npm process that is a zombie, or whose pid now belongs to another process, as gone', async () => {
    const zombie = table(NPM_TREE);
    const reasonsZ = start(zombie, { value: 100 }, { npm_execpath: 'npm-cli.js' });
    zombie.get(50)!.state = 'Z';
    await expect.poll(() => reasonsZ).toHaveLength(1);
    watch!.stop();

    const reused = table(NPM_TREE);
    const reasonsR = start(reused, { value: 100 }, { npm_execpath: 'npm-cli.js' });
    reused.set(50, { ppid: 1, state: 'S', startTicks: 999, command: 'sleep 100' });
    await expect.poll(() => reasonsR).toHaveLength(1);
    expect(reasonsR[0]).toContain('pid 50 (npm exec');
  });

  it('without npm, or when no npm process is found above, watches only the parent (an unrelated shell may exit)', async () => {
    const procs = table(NPM_TREE);
    const reasons = start(procs, { value: 100 });
    expect(watch!.watched.map((w) => w.pid)).toEqual([100]);
    procs.delete(50);
    watch!.stop();

    const noNpm = table({ 100: { ppid: 10, command: 'bash run.sh' }, 10: { ppid: 1, command: '-bash' } });
    const reasons2 = start(noNpm, { value: 100 }, { npm_execpath: 'npm-cli.js' });
    expect(watch!.watched.map((w) => w.pid)).toEqual([100]);
    noNpm.delete(10);
    await new Promise((r) => setTimeout(r, 40));
    expect([...reasons, ...reasons2]).toEqual([]);
  });

  it('watches nothing when started by init or already orphaned', async () => {
    const reasons = start(table(NPM_TREE), { value: 1 }, { npm_execpath: 'npm-cli.js' });
    expect(watch!.watched).toEqual([]);
    await new Promise((r) => setTimeout(r, 30));
    expect(reasons).toEqual([]);
  });

  it('reads this very process out of /proc', () => {
    const me = readProcFs(process.pid);
    expect(me).not.toBeNull();
    expect(me!.ppid).toBe(process.ppid);
    expect(me!.state).toMatch(/^[RS]$/);
    expect(me!.startTicks).toBeGreaterThan(0);
    expect(me!.command).toContain('node');
    expect(readProcFs(2 ** 22 + 12_345)).toBeNull();
  });
});
