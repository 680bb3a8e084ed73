/** createLimiter: at most `concurrency` functions in flight, the others started in the order given, a slot freed when one throws. */
import { describe, expect, it } from 'vitest';
import { createLimiter } from '../../src/shared/limiter.js';

const tick = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

describe('createLimiter', () => {
  it('runs at most `concurrency` at once, starting the waiting ones in order, and frees the slot of one that throws', async () => {
    const limiter = createLimiter(2);
    const started: number[] = [];
    let inFlight = 0;
    let most = 0;
    const job = (k: number) =>
      limiter.run(async () => {
        started.push(k);
        most = Math.max(most, ++inFlight);
        await tick(k === 0 ? 30 : 5);
        inFlight--;
        if (k === 1) throw new Error('job 1 failed');
        return k;
      });
    const results = await Promise.allSettled([0, 1, 2, 3, 4].map(job));
    expect(most).toBe(2);
    expect(started).toEqual([0, 1, 2, 3, 4]);
    expect(results.map((r) => (r.status === 'fulfilled' ? r.value : (r.reason as Error).message))).toEqual([0, 'job 1 failed', 2, 3, 4]);
  });
});
