/** Summary of a latency sample, in milliseconds. */
export interface LatencySummary {
  samples: number;
  p50Ms: number;
  p90Ms: number;
  p99Ms: number;
  meanMs: number;
  minMs: number;
  maxMs: number;
}

/** Nearest-rank percentile (`q` in [0, 1]) of an ascending array. */
export function percentile(sortedMs: readonly number[], q: number): number {
  if (sortedMs.length === 0) return Number.NaN;
  const rank = Math.min(sortedMs.length, Math.max(1, Math.ceil(q * sortedMs.length)));
  return sortedMs[rank - 1] ?? Number.NaN;
}

export function summarizeLatencies(samplesMs: readonly number[]): LatencySummary {
  const sorted = [...samplesMs].sort((a, b) => a - b);
  const sum = sorted.reduce((acc, x) => acc + x, 0);
  return {
    samples: sorted.length,
    p50Ms: percentile(sorted, 0.5),
    p90Ms: percentile(sorted, 0.9),
    p99Ms: percentile(sorted, 0.99),
    meanMs: sorted.length ? sum / sorted.length : Number.NaN,
    minMs: sorted[0] ?? Number.NaN,
    maxMs: sorted[sorted.length - 1] ?? Number.NaN,
  };
}

/** Milliseconds since `start` (from `process.hrtime.bigint()`), with microsecond resolution. */
export function elapsedMs(start: bigint): number {
  return Number(process.hrtime.bigint() - start) / 1e6;
}
