import { describe, expect, it } from 'vitest';
import { evaluateSoakTargets, expectedSoakReward, planSoakEpisode, readRssBytes, summarizeSoakRss, withGcWindows } from '../../src/bench/soak-bench.js';

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
    rss: summarizeSoakRss([100, 100, 101, 102, 104, 103, 105, 106, 107, 108, 109], 2, 3, []),
    containers: { afterRun: 6, afterDrain: 0, drainWaitMs: 130_000, afterShutdown: 0 },
  };
  const missed = (r: typeof good): string[] => evaluateSoakTargets(r).filter((t) => !t.met).map((t) => t.name);

  it('meets every target on a clean run', () => {
    expect(missed(good)).toEqual([]);
  });

  it('fails each target on its own fault', () => {
    expect(missed({ ...good, containers: { ...good.containers, afterShutdown: 1 } })).toEqual(["the server's containers left after it stopped"]);
    expect(missed({ ...good, containers: { ...good.containers, afterDrain: 3 } })).toEqual(["the server's containers once its warm pool drained (still running)"]);
    const rssTarget = 'server RSS growth, episode 2 to 11, medians of 3-episode windows (%)';
    expect(missed({ ...good, rss: { ...good.rss, windowGrowthPercent: 10 } })).toEqual([rssTarget]);
    expect(missed({ ...good, rss: { ...good.rss, windowGrowthPercent: Number.NaN } })).toEqual([rssTarget]);
    expect(missed({ ...good, outcomes: { SCORED: 19, INFRA_ERROR: 1 }, rewards: { ...good.rewards, matched: 19, zeros: 11 } })).toEqual([
      'INFRA_ERROR rewards',
      'rewards as expected (SCORED, oracle 1.0, others 0.0)',
    ]);
    expect(missed({ ...good, completed: 19, rewards: { ...good.rewards, matched: 19 } })).toEqual([
      'episodes that failed (an RPC error or a failed step)',
      'rewards as expected (SCORED, oracle 1.0, others 0.0)',
    ]);
  });

  it('does not count rewards as expected when only one of 1.0 and 0.0 occurred', () => {
    expect(missed({ ...good, rewards: { ...good.rewards, ones: 0, zeros: 20 } })).toEqual(['rewards as expected (SCORED, oracle 1.0, others 0.0)']);
  });
});

describe('summarizeSoakRss', () => {
  it('gives the single readings at the baseline and last episode, and the medians of the two windows', () => {
    // Episodes 1..10; baseline 3, windows of 3: episodes 3-5 (130, 100, 110) and 8-10 (105, 140, 120).
    const r = summarizeSoakRss([90, 95, 130, 100, 110, 115, 90, 105, 140, 120], 3, 3, [[10, 120]]);
    expect(r).toMatchObject({ baselineEpisode: 3, baselineBytes: 130, finalEpisode: 10, finalBytes: 120, windowEpisodes: 3 });
    expect(r.growthPercent).toBeCloseTo((-10 / 130) * 100, 9);
    expect(r.baselineWindowMedianBytes).toBe(110);
    expect(r.finalWindowMedianBytes).toBe(120);
    expect(r.windowGrowthPercent).toBeCloseTo((10 / 110) * 100, 9);
    expect(r.maxBytes).toBe(140);
    expect(r.series).toEqual([[10, 120]]);
  });

  it('a steady climb shows in the medians while a collection right before the last reading hides it from the point figure', () => {
    const leak = Array.from({ length: 100 }, (_, i) => 100 + i * 0.2); // +19.8% over the run
    leak[99] = 95; // a GC just before the last reading
    const r = summarizeSoakRss(leak, 10, 10, []);
    expect(r.growthPercent).toBeLessThan(0);
    expect(r.windowGrowthPercent).toBeGreaterThan(10);
    expect(evaluateSoakTargets({ ...{ episodes: 1, completed: 1, outcomes: {}, rewards: { oracleEpisodes: 0, otherEpisodes: 0, ones: 1, zeros: 1, matched: 1, mismatched: 0, firstMismatches: [] }, containers: { afterRun: 0, afterDrain: 0, drainWaitMs: 0, afterShutdown: 0 } }, rss: r }).find((t) => t.name.startsWith('server RSS'))?.met).toBe(false);
  });

  it('clamps a baseline past the readings and a window wider than them', () => {
    const r = summarizeSoakRss([100, 110], 100, 50, []);
    expect(r).toMatchObject({ baselineEpisode: 2, baselineBytes: 110, finalEpisode: 2, baselineWindowMedianBytes: 110, finalWindowMedianBytes: 105 });
  });
});

describe('withGcWindows', () => {
  // Raw readings caught mid-sawtooth grow 30%; read after a full collection, live memory grows 4%.
  const raw = summarizeSoakRss([90, 80, 85, 80, 90, 100, 110, 105, 104, 106], 2, 3, []);
  const gc = [Number.NaN, 70, 71, 69, Number.NaN, Number.NaN, Number.NaN, 73, 72, 74];

  it('adds the medians of the readings after a GC, in the same windows, and the target judges them', () => {
    const r = withGcWindows(raw, gc);
    expect(r.windowGrowthPercent).toBeCloseTo(((105 - 80) / 80) * 100);
    expect(r.afterGc).toEqual({ baselineWindowMedianBytes: 70, finalWindowMedianBytes: 73, windowGrowthPercent: ((73 - 70) / 70) * 100, readings: 6 });
    const target = evaluateSoakTargets({ ...soakOf(r) }).find((t) => t.name.startsWith('server RSS'))!;
    expect(target).toMatchObject({ met: true, value: ((73 - 70) / 70) * 100 });
    expect(target.name).toMatch(/after a full GC/);
  });

  it('leaves the raw figures to the target when no reading after a GC was taken, and a leak fails it either way', () => {
    expect(withGcWindows(raw, raw.series.map(() => Number.NaN)).afterGc).toBeUndefined();
    const raw2 = withGcWindows(raw, [Number.NaN, 70, 71, 69, Number.NaN, Number.NaN, Number.NaN, 80, 82, 81]);
    expect(evaluateSoakTargets(soakOf(raw2)).find((t) => t.name.startsWith('server RSS'))!.met).toBe(false);
  });
});

function soakOf(rss: ReturnType<typeof summarizeSoakRss>): Parameters<typeof evaluateSoakTargets>[0] {
  return {
    episodes: 10,
    completed: 10,
    outcomes: { SCORED: 10 },
    rewards: { oracleEpisodes: 5, otherEpisodes: 5, ones: 5, zeros: 5, matched: 10, mismatched: 0, firstMismatches: [] },
    rss,
    containers: { afterRun: 2, afterDrain: 0, drainWaitMs: 1, afterShutdown: 0 },
  };
}

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
