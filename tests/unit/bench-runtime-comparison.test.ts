import { describe, expect, it } from 'vitest';
import type { LatencySummary } from '../../src/bench/latency-stats.js';
import { formatRuntimeComparisonTable } from '../../src/bench/runtime-comparison.js';
import type { ServerBenchResult } from '../../src/bench/server-bench.js';

const MB = 1024 * 1024;

function latency(p50Ms: number): LatencySummary {
  return { samples: 10, p50Ms, p90Ms: p50Ms * 1.5, p99Ms: p50Ms * 2, meanMs: p50Ms, minMs: p50Ms / 2, maxMs: p50Ms * 3 };
}

/** A bench result whose every latency is `scale` times a base figure. */
function result(runtime: 'runc' | 'runsc', scale: number): ServerBenchResult {
  const l = (ms: number): LatencySummary => latency(ms * scale);
  return {
    startedAt: '2026-12-02T00:00:00Z',
    runtime,
    maxDiskBytes: 2 * 1024 ** 3,
    taskId: 'sample/wrap-text',
    taskImage: 'codemidas/workspace:x',
    raw: { createStart: l(200), dockerExecTrue: l(100), shellRoundTrip: l(0.4), testRun: l(1000), groupStart8: l(1300), idleContainerBytes: 3 * MB * scale },
    server: {
      resetCold: l(210),
      resetWarm: l(4),
      resetWarmAfterIdle: l(5),
      idleCallFloor: l(4),
      stepTrue: l(3),
      callFloor: l(1.3),
      pythonClientStep: { ...l(2), address: '127.0.0.1:1' } as unknown as ServerBenchResult['server']['pythonClientStep'],
      readFile64k: l(6),
      writeFile64k: l(6),
      reward: l(1300),
      resetGroup8: l(9),
      concurrent: { episodes: 64, stepsEach: 20, errors: 0, firstError: null, wallMs: 20_000, step: l(80) },
      idleEpisodeBytes: 6 * MB * scale,
      grpo: { groups: 7, groupSize: 8, episodes: 56, wallMs: 100_000, groupsPerMinute: 4 / scale, episodesPerMinute: 32 / scale, solved: 56 },
    },
    targetStepClient: 'python',
    ratios: { stepSpeedup: 50, stepSpeedupNode: 33, resetColdOverCreateStart: 1.05, rewardOverRaw: 1, resetGroupOverRaw: 0.01, stepOverShell: 7 },
    targets: [{ name: 'Step p50 (ms), python client', value: 2 * scale, limit: '<= 3', met: 2 * scale <= 3 }],
  };
}

describe('bench: runtimes side by side', () => {
  it('puts every figure of both runtimes on one row with runsc over runc', () => {
    const table = formatRuntimeComparisonTable([result('runc', 1), result('runsc', 2)]);
    const header = table.split('\n')[0]!;
    expect(header).toMatch(/runc p50\s+runc p99\s+runsc p50\s+runsc p99\s+runsc \/ runc/);
    const reward = table.split('\n').find((line) => line.startsWith('Reward '))!;
    expect(reward.trim().split(/\s+/).slice(-5)).toEqual(['1300', '2600', '2600', '5200', '2.00']);
    const grpo = table.split('\n').find((line) => line.startsWith('GRPO groups'))!;
    expect(grpo.trim().split(/\s+/).pop()).toBe('0.50');
    expect(table).toMatch(/targets, runc:\n {2}met {6}Step p50/);
    expect(table).toMatch(/targets, runsc:\n {2}NOT met {2}Step p50/);
    // Every figure the bench measures has its row.
    expect(table.split('\n').filter((line) => / ms | MB | per min | count /.test(line))).toHaveLength(22);
  });
});
