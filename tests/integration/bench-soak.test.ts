/**
 * The soak driver (`codemidas bench --soak`) on the real engine, small: 20 episodes at
 * concurrency 4 over the sample suite, against a `codemidas serve` it starts. afterAll kills that
 * server if it is still up and removes the containers its pid owns, even when the test failed.
 */
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runSoakBench } from '../../src/bench/soak-bench.js';
import { processAlive } from '../../src/sandbox/docker/docker-sandbox-provider.js';
import { projectRoot } from '../../src/project-root.js';

const servers: number[] = [];

function containersOf(pid: number): string[] {
  return execFileSync('docker', ['ps', '-aq', '--filter', `label=codemidas.owner-pid=${pid}`], { encoding: 'utf8' }).split('\n').filter(Boolean);
}

afterAll(() => {
  for (const pid of servers) {
    if (processAlive(pid)) process.kill(pid, 'SIGKILL');
    const left = containersOf(pid);
    if (left.length) execFileSync('docker', ['rm', '-f', ...left]);
  }
});

describe('codemidas bench --soak (driver, real engine)', () => {
  it('runs 20 episodes at concurrency 4: every reward as expected, no INFRA_ERROR, no container left, RSS read at episode 2 and 20', async () => {
    const lines: string[] = [];
    const r = await runSoakBench({
      environmentsDir: join(projectRoot(), 'environments'),
      suite: 'sample',
      episodes: 20,
      concurrency: 4,
      progressEvery: 5,
      log: (line) => lines.push(line),
      onServerStarted: ({ pid }) => servers.push(pid),
    });
    const context = `${lines.join('\n')}\n${JSON.stringify({ failures: r.failures, mismatches: r.rewards.firstMismatches, containers: r.containers }, null, 2)}`;

    expect(r.tasks.length, context).toBe(7);
    expect(r.completed, context).toBe(20);
    expect(r.outcomes, context).toEqual({ SCORED: 20 });
    // Episodes 0-6 and 14-19 are oracles (every other pass over the 7 tasks), 7-13 are not.
    expect(r.rewards.oracleEpisodes).toBe(13);
    expect(r.rewards.ones, context).toBe(13);
    expect(r.rewards.zeros, context).toBe(7);
    expect(r.rewards.matched, context).toBe(20);

    // Every episode: Reset, shell, read_file, at least one write_file, submit, Reward, Close.
    expect(r.latency.reset.samples).toBe(20);
    expect(r.latency.stepShell.samples).toBe(20);
    expect(r.latency.stepReadFile.samples).toBe(20);
    expect(r.latency.stepWriteFile.samples).toBeGreaterThanOrEqual(20);
    expect(r.latency.stepSubmit.samples).toBe(20);
    expect(r.latency.reward.samples).toBe(20);
    expect(r.latency.close.samples).toBe(20);
    expect(r.episodesPerMinute).toBeGreaterThan(0);

    expect(r.rss.baselineEpisode).toBe(2);
    expect(r.rss.finalEpisode).toBe(20);
    expect(r.rss.baselineBytes).toBeGreaterThan(20 * 1024 * 1024);
    expect(r.rss.finalBytes).toBeGreaterThan(20 * 1024 * 1024);
    expect(r.rss.growthPercent).toBeCloseTo(((r.rss.finalBytes - r.rss.baselineBytes) / r.rss.baselineBytes) * 100, 9);
    expect(r.rss.series.map(([n]) => n)).toEqual([5, 10, 15, 20]);
    expect(lines.filter((l) => /^soak: \d+\/20 episodes/.test(l))).toHaveLength(4);

    // The warm pool held sandboxes after the run; they drained with the server up, none outlived it.
    expect(r.containers.afterRun, context).toBeGreaterThan(0);
    expect(r.containers.afterDrain, context).toBe(0);
    expect(r.containers.afterShutdown, context).toBe(0);
    expect(containersOf(r.serverPid)).toEqual([]);
    expect(processAlive(r.serverPid)).toBe(false);

    // The RSS target is not asserted met: 20 episodes are too few to judge growth. It is judged right.
    const rss = r.targets.find((t) => t.name.startsWith('server RSS growth'));
    expect(r.rss.windowEpisodes).toBe(1);
    // The windows were also read after a full GC in the server (it runs with --expose-gc), and those judge.
    expect(r.rss.afterGc?.readings, context).toBe(2);
    expect(r.rss.afterGc!.baselineWindowMedianBytes).toBeGreaterThan(0);
    expect(rss?.name).toMatch(/after a full GC/);
    expect(rss?.value).toBe(r.rss.afterGc!.windowGrowthPercent);
    expect(rss?.met).toBe(r.rss.afterGc!.windowGrowthPercent < 10);
    expect(r.targets.filter((t) => t !== rss && !t.met), context).toEqual([]);
  }, 600_000);
});
