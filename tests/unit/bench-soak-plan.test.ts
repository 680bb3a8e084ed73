import { describe, expect, it } from 'vitest';
import { evaluateSoakTargets, expectedSoakReward, planSoakEpisode, readRssBytes } from '../../src/bench/soak-bench.js';

const SEVEN = ['s/a', 's/b', 's/c', 's/d', 's/e', 's/f', 's/g'];

describe('planSoakEpisode', () => {
  it('cycles through the tasks and runs each one both solved and unsolved, with an odd or even task count', () => {
    for (const tasks of [SEVEN, SEVEN.slice(0, 4), SEVEN.slice(0, 1)]) {
      const plans = Array.from({ length: tasks.length * 4 }, (_, i) => planSoakEpisode(i, tasks));
      expect(plans.map((p) => p.taskId)).toEqual([...tasks, ...tasks, ...tasks, ...tasks]);
      for (const task of tasks) {
        const mine = plans.filter((p) => p.taskId === task);
        expect(mine.map((p) => p.oracle)).toEqual([true, false, true, false]);
      }
      expect(plans.filter((p) => p.oracle)).toHaveLength(tasks.length * 2);
    }
  });

  it('expects 1.0 from an oracle episode and 0.0 from the others', () => {
    expect(expectedSoakReward({ episode: 0, taskId: 's/a', oracle: true })).toBe(1);
    expect(expectedSoakReward({ episode: 7, taskId: 's/a', oracle: false })).toBe(0);
  });

  it('refuses an empty task list instead of dividing by zero', () => {
    expect(() => planSoakEpisode(0, [])).toThrow(/at least one task/);
  });
});

describe('evaluateSoakTargets', () => {
  const good = {
    episodes: 20,
    completed: 20,
    outcomes: { SCORED: 20 },
    rewards: { oracleEpisodes: 10, otherEpisodes: 10, ones: 10, zeros: 10, matched: 20, mismatched: 0, firstMismatches: [] },
    rss: { baselineEpisode: 2, baselineBytes: 100, finalEpisode: 20, finalBytes: 109, growthPercent: 9, series: [] },
    containers: { afterRun: 6, afterDrain: 0, drainWaitMs: 130_000, afterShutdown: 0 },
  };
  const missed = (r: typeof good): string[] => evaluateSoakTargets(r).filter((t) => !t.met).map((t) => t.name);

  it('meets every target on a clean run', () => {
    expect(missed(good)).toEqual([]);
  });

  it('fails each target on its own fault', () => {
    expect(missed({ ...good, containers: { ...good.containers, afterShutdown: 1 } })).toEqual(["the server's containers left after it stopped"]);
    expect(missed({ ...good, containers: { ...good.containers, afterDrain: 3 } })).toEqual(["the server's containers once its warm pool drained (still running)"]);
    expect(missed({ ...good, rss: { ...good.rss, growthPercent: 10 } })).toEqual(['server RSS growth, episode 2 to 20 (%)']);
    expect(missed({ ...good, rss: { ...good.rss, growthPercent: Number.NaN } })).toEqual(['server RSS growth, episode 2 to 20 (%)']);
    expect(missed({ ...good, outcomes: { SCORED: 19, INFRA_ERROR: 1 }, rewards: { ...good.rewards, matched: 19, zeros: 11 } })).toEqual([
      'INFRA_ERROR rewards',
      'rewards as expected (oracle 1.0, others 0.0)',
    ]);
    expect(missed({ ...good, completed: 19, rewards: { ...good.rewards, matched: 19 } })).toEqual([
      'episodes that failed (an RPC error or a failed step)',
      'rewards as expected (oracle 1.0, others 0.0)',
    ]);
  });

  it('does not count rewards as expected when only one of 1.0 and 0.0 occurred', () => {
    expect(missed({ ...good, rewards: { ...good.rewards, ones: 0, zeros: 20 } })).toEqual(['rewards as expected (oracle 1.0, others 0.0)']);
  });
});

describe('readRssBytes', () => {
  it("reads this process's resident set within a few percent of Node's own figure", () => {
    const rss = readRssBytes(process.pid);
    expect(rss).toBeGreaterThan(10 * 1024 * 1024);
    expect(Math.abs(rss - process.memoryUsage.rss()) / rss).toBeLessThan(0.1);
  });

  it('names the pid when the process does not exist', () => {
    expect(() => readRssBytes(2 ** 22 + 1)).toThrow(/4194305/);
  });
});
