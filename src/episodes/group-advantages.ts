import type { ScoreOutcome } from '../scoring/types.js';

/** Added to the standard deviation so a group whose rewards are all equal gets advantages of 0. */
export const ADVANTAGE_EPSILON = 1e-6;

export interface GroupAdvantages {
  /** (reward − mean) / (std + ε) for kept episodes; 0 where masked. */
  advantages: number[];
  /** false where the episode is left out of the statistics (INFRA_ERROR). */
  mask: boolean[];
  mean: number;
  std: number;
}

/**
 * GRPO group-relative advantages. Episodes that SCORED or hit a TIMEOUT count (a timeout is the
 * policy's doing); INFRA_ERROR episodes are masked out of the mean and standard deviation instead of
 * being counted as zero rewards, which would skew every other episode's advantage.
 * The standard deviation is the population one (divide by n), defined for groups of one.
 */
export function computeGroupAdvantages(results: ReadonlyArray<{ reward: number; outcome: ScoreOutcome }>): GroupAdvantages {
  const mask = results.map((r) => r.outcome === 'SCORED' || r.outcome === 'TIMEOUT');
  const kept = results.filter((_, i) => mask[i]).map((r) => r.reward);
  if (kept.length === 0) {
    return { advantages: results.map(() => 0), mask, mean: 0, std: 0 };
  }
  const mean = kept.reduce((a, b) => a + b, 0) / kept.length;
  const variance = kept.reduce((a, r) => a + (r - mean) ** 2, 0) / kept.length;
  const std = Math.sqrt(variance);
  const advantages = results.map((r, i) => (mask[i] ? (r.reward - mean) / (std + ADVANTAGE_EPSILON) : 0));
  return { advantages, mask, mean, std };
}
