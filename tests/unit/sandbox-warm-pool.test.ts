import { afterEach, describe, expect, it } from 'vitest';
import { createSilentLogger } from '../../src/logging.js';
import type { SandboxSpec } from '../../src/sandbox/types.js';
import { createWarmPoolProvider, type WarmPoolProvider } from '../../src/sandbox/warm-pool-provider.js';
import { FakeProvider } from './episodes-fakes.js';

const spec = (overrides: Partial<SandboxSpec> = {}): SandboxSpec => ({
  image: 'codemidas/workspace:abc',
  role: 'episode',
  workdir: '/workspace',
  resources: { memoryBytes: 1024 ** 3, cpus: 1, pids: 256 },
  labels: { 'codemidas.episode': 'ep-1', 'codemidas.task': 'sample/add' },
  expiresAt: new Date(Date.now() + 60_000),
  ...overrides,
});

let pools: WarmPoolProvider[] = [];
function pool(inner: FakeProvider, options: Partial<Parameters<typeof createWarmPoolProvider>[1]> = {}): WarmPoolProvider {
  const p = createWarmPoolProvider(inner, { logger: createSilentLogger(), ...options });
  pools.push(p);
  return p;
}
afterEach(async () => {
  await Promise.all(pools.map((p) => p.close()));
  pools = [];
});

describe('the warm pool', () => {
  it('hands out an already started sandbox for a spec asked for before, and starts its replacement', async () => {
    const inner = new FakeProvider();
    const warm = pool(inner, { perSpec: 2 });
    const first = await warm.create(spec());
    expect(first.spec.labels['codemidas.episode']).toBe('ep-1'); // a miss: created for this request
    await warm.settled();
    expect(warm.stats()).toMatchObject({ ready: 2, starting: 0, hits: 0, misses: 1 });
    expect(inner.sandboxes).toHaveLength(3);

    const started = [...inner.sandboxes];
    const second = await warm.create(spec({ labels: { 'codemidas.episode': 'ep-2' } }));
    expect(started).toContain(second); // started ahead, not on this call's path
    expect(second.spec.labels).toEqual({ 'codemidas.task': 'sample/add', 'codemidas.pooled': 'true' });
    // The pooled sandbox's expiry covers the pool's idle time plus the lifetime its spec asked for.
    expect(second.spec.expiresAt.getTime()).toBeGreaterThan(Date.now() + 60_000);
    await warm.settled();
    expect(warm.stats()).toMatchObject({ ready: 2, hits: 1, misses: 1 });
    expect(inner.live).toHaveLength(4);
  });

  it('keeps specs apart: another image or role is another pool', async () => {
    const inner = new FakeProvider();
    const warm = pool(inner, { perSpec: 1 });
    await warm.create(spec());
    await warm.settled();
    const scoring = await warm.create(spec({ role: 'scoring' }));
    expect(scoring.spec.role).toBe('scoring');
    expect(warm.stats().misses).toBe(2);
    const other = await warm.create(spec({ image: 'codemidas/workspace:def' }));
    expect(other.spec.image).toBe('codemidas/workspace:def');
    expect(warm.stats().misses).toBe(3);
  });

  it('raises a spec to the size of a burst (a group of G), up to maxPerSpec', async () => {
    const inner = new FakeProvider();
    const warm = pool(inner, { perSpec: 1, maxPerSpec: 4 });
    await Promise.all(Array.from({ length: 6 }, () => warm.create(spec())));
    await warm.settled();
    expect(warm.stats().ready).toBe(4);
    const group = await Promise.all(Array.from({ length: 4 }, () => warm.create(spec())));
    expect(group.every((s) => s.spec.labels['codemidas.pooled'] === 'true')).toBe(true);
  });

  it('holds no more than its capacity allows (the episode limit less the episodes running)', async () => {
    const inner = new FakeProvider();
    let running = 1; // the sandbox about to be handed out counts as running once it is
    const warm = pool(inner, { perSpec: 8, capacity: () => 3 - running });
    await warm.create(spec());
    await warm.settled();
    expect(warm.stats().ready).toBe(2);
    running = 3;
    await warm.create(spec());
    await warm.settled();
    expect(warm.stats().ready).toBe(1); // one handed out, none started: no room left
  });

  it('drains a spec nobody asked for in idleMs, and close destroys what is left', async () => {
    const inner = new FakeProvider();
    const warm = pool(inner, { perSpec: 2, idleMs: 200 });
    await warm.create(spec());
    await warm.settled();
    expect(inner.live).toHaveLength(3);
    await new Promise((r) => setTimeout(r, 450));
    expect(warm.stats().ready).toBe(0);
    expect(inner.live).toHaveLength(1); // the one handed out is its owner's to destroy

    const other = pool(new FakeProvider(), { perSpec: 2 });
    await other.create(spec());
    await other.settled();
    await other.close();
    expect(other.stats().ready).toBe(0);
  });

  it('backs off after a failed start instead of spinning, and still serves requests directly', async () => {
    const inner = new FakeProvider();
    inner.failCreateAt = 2; // the first refill fails
    const warm = pool(inner, { perSpec: 1 });
    await warm.create(spec());
    await warm.settled();
    expect(warm.stats().ready).toBe(0);
    const created = inner.sandboxes.length;
    const next = await warm.create(spec());
    expect(next.spec.labels['codemidas.episode']).toBe('ep-1');
    await new Promise((r) => setTimeout(r, 50));
    expect(inner.sandboxes.length).toBe(created + 1); // no refill within the back-off
  });

  it('is a plain pass-through with perSpec 0', async () => {
    const inner = new FakeProvider();
    const warm = pool(inner, { perSpec: 0 });
    await warm.create(spec());
    await warm.settled();
    expect(inner.sandboxes).toHaveLength(1);
  });
});
