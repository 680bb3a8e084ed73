/**
 * A closed episode is remembered for an hour (so a late Step says "closed"); what it keeps must not
 * include the caller of its Close. Found by `bench --soak`: a heap snapshot after 420 episodes held
 * 420 gRPC calls (BaseServerInterceptingCall, ServerHttp2Stream, ...), one per closed episode,
 * reached through Episode.lifetime's abort reason, an error whose stack had not been formatted yet
 * and so still pointed at every frame's receiver of the Close call.
 */
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { resolveLimits } from '../../src/config/limits.js';
import { createEpisodeManager } from '../../src/episodes/episode-manager.js';
import { createSilentLogger } from '../../src/logging.js';
import { FakeProvider, FakeScorer, makeCatalog, makeTask, WORKSPACE } from './episodes-fakes.js';

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

describe('a closed episode', () => {
  it('does not keep the object that called Close alive (the abort reason holds no live stack frames)', async () => {
    const task = makeTask();
    const manager = createEpisodeManager({
      provider: new FakeProvider(),
      catalog: makeCatalog([task]),
      scorer: new FakeScorer(),
      logger: createSilentLogger(),
      limits: resolveLimits({}),
      readWorkspace: async () => WORKSPACE,
    });
    await manager.start();
    try {
      const { episodeId } = await manager.reset(task.id);
      // Stands for the gRPC call object: Close runs as one of its methods, so it is a frame's receiver.
      let caller: { payload: number[]; close: () => Promise<number> } | null = {
        payload: new Array<number>(100_000).fill(1),
        close() {
          return manager.close({ episodeId });
        },
      };
      const gone = new WeakRef(caller);
      expect(await caller.close()).toBe(1);
      caller = null;
      for (let i = 0; i < 5 && gone.deref() !== undefined; i++) {
        await new Promise((resolve) => setTimeout(resolve, 10));
        gc();
      }
      expect(gone.deref(), 'the closed episode still holds the object that called Close').toBeUndefined();
      // Still remembered as closed.
      await expect(manager.step(episodeId, 0, { kind: 'shell', command: 'true', timeoutMs: 0 })).rejects.toThrow(/closed/);
    } finally {
      await manager.shutdown({ graceMs: 100 });
    }
  });
});
