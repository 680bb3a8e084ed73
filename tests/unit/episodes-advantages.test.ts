import { describe, expect, it } from 'vitest';
import { ADVANTAGE_EPSILON, computeGroupAdvantages } from '../../src/episodes/group-advantages.js';

describe('computeGroupAdvantages', () => {
  it('matches a hand computation, with an infra error masked out of mean and std', () => {
    // Kept rewards: 1, 0, 0.5, 0.5 (a TIMEOUT counts). mean = 2/4 = 0.5.
    // Deviations: 0.5, -0.5, 0, 0 → variance = (0.25 + 0.25 + 0 + 0) / 4 = 0.125 → std = 0.353553390...
    const result = computeGroupAdvantages([
      { reward: 1, outcome: 'SCORED' },
      { reward: 0, outcome: 'SCORED' },
      { reward: 0, outcome: 'INFRA_ERROR' },
      { reward: 0.5, outcome: 'SCORED' },
      { reward: 0.5, outcome: 'TIMEOUT' },
    ]);
    const std = Math.sqrt(0.125);
    expect(result.mean).toBe(0.5);
    expect(result.std).toBeCloseTo(0.3535533906, 9);
    expect(result.mask).toEqual([true, true, false, true, true]);
    expect(result.advantages[0]).toBeCloseTo(0.5 / (std + ADVANTAGE_EPSILON), 12);
    expect(result.advantages[0]).toBeCloseTo(1.41421, 4);
    expect(result.advantages[1]).toBeCloseTo(-1.41421, 4);
    expect(result.advantages[2]).toBe(0);
    expect(result.advantages[3]).toBe(0);
    expect(result.advantages[4]).toBe(0);
  });

  it('counting the infra error as a zero would have moved every advantage', () => {
    const masked = computeGroupAdvantages([
      { reward: 1, outcome: 'SCORED' },
      { reward: 0, outcome: 'INFRA_ERROR' },
    ]);
    expect(masked.advantages).toEqual([0, 0]);
    expect(masked.mean).toBe(1);
  });

  it('gives 0 to everyone when every reward is equal, and when nothing scored', () => {
    expect(computeGroupAdvantages([{ reward: 1, outcome: 'SCORED' }, { reward: 1, outcome: 'SCORED' }]).advantages).toEqual([0, 0]);
    const none = computeGroupAdvantages([{ reward: 0, outcome: 'INFRA_ERROR' }]);
    expect(none).toEqual({ advantages: [0], mask: [false], mean: 0, std: 0 });
  });
});
