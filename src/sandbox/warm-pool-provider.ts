import type { Logger } from '../logging.js';
import type { FileEntry, Sandbox, SandboxProvider, SandboxSpec } from './types.js';

export interface WarmPoolOptions {
  /** Started sandboxes kept ready per hot spec (image, role, workdir, resources, scrub, dependencies). Default 2; 0 turns the pool off. */
  perSpec?: number;
  /** A burst of requests (a ResetGroup of G) raises that spec's target to the burst, up to this. Default 16. */
  maxPerSpec?: number;
  /** A spec not asked for in this long is drained (its sandboxes destroyed). Default 120000. */
  idleMs?: number;
  /**
   * How many sandboxes of a role the pool may hold (ready or starting) right now. For `episode` the
   * composition root passes "episode limit − episodes running", so pooled plus running never
   * exceeds the limit. Default: no bound beyond `maxPerSpec`.
   */
  capacity?: (role: SandboxSpec['role']) => number;
  logger: Logger;
  /** Clock, for tests. Default `Date.now`. */
  now?: () => number;
}

/** What the pool holds now, for the bench and the log. */
export interface WarmPoolStats {
  ready: number;
  starting: number;
  hits: number;
  misses: number;
}

export interface WarmPoolProvider extends SandboxProvider {
  stats(): WarmPoolStats;
  /** Resolves once every hot spec holds its target (or can hold no more); for the bench and tests. */
  settled(): Promise<void>;
}

/** How long after handing a sandbox out its replacement starts: the answer goes out first. */
const REFILL_DELAY_MS = 20;

/** Requests closer together than this count as one burst. */
const BURST_WINDOW_MS = 1_000;

interface SpecPool {
  spec: SandboxSpec;
  ready: Sandbox[];
  starting: number;
  target: number;
  lastDemandMs: number;
  demands: number[];
  /** The longest lifetime (expiresAt − request time) asked for: pooled sandboxes get it plus the idle time. */
  lifetimeMs: number;
  /** After a failed start, no refill before this time. */
  backoffUntilMs: number;
  failures: number;
}

/**
 * A warm pool in front of a sandbox provider: for every spec that has been asked for, a few
 * sandboxes are started ahead, so `create` hands out one that is already running (Reset becomes
 * bookkeeping) and a replacement starts in the background. A burst of requests for one spec (a
 * group) raises its target to the burst; a spec idle for `idleMs` is drained; `capacity` bounds
 * what the pool may hold per role. Pooled sandboxes carry the label `codemidas.pooled` and an expiry
 * that covers their idle time plus the lifetime their spec asks for, so the reaper's rules hold.
 */
export function createWarmPoolProvider(inner: SandboxProvider, options: WarmPoolOptions): WarmPoolProvider {
  const perSpec = options.perSpec ?? 2;
  const maxPerSpec = Math.max(perSpec, options.maxPerSpec ?? 16);
  const idleMs = options.idleMs ?? 120_000;
  const now = options.now ?? Date.now;
  const logger = options.logger.child({ component: 'warm-pool' });
  const pools = new Map<string, SpecPool>();
  const waiters: Array<() => void> = [];
  const inFlight = new Set<Promise<unknown>>();
  let hits = 0;
  let misses = 0;
  let closed = false;

  const held = (role: SandboxSpec['role']): number => {
    let n = 0;
    for (const p of pools.values()) if (p.spec.role === role) n += p.ready.length + p.starting;
    return n;
  };

  /** Refills scheduled but not run yet. */
  let scheduled = 0;
  const isSettled = (): boolean => scheduled === 0 && [...pools.values()].every((p) => p.starting === 0);
  const wake = (): void => {
    if (!isSettled()) return;
    for (const resolve of waiters.splice(0)) resolve();
  };

  function refill(pool: SpecPool): void {
    if (closed) return;
    while (pool.ready.length + pool.starting < pool.target && now() >= pool.backoffUntilMs) {
      const room = options.capacity ? options.capacity(pool.spec.role) - held(pool.spec.role) : Number.POSITIVE_INFINITY;
      if (room <= 0) break;
      pool.starting++;
      const spec: SandboxSpec = {
        ...pool.spec,
        labels: { ...pickLabels(pool.spec.labels), 'codemidas.pooled': 'true' },
        expiresAt: new Date(now() + idleMs + pool.lifetimeMs),
      };
      const starting = inner.create(spec).then(
        (sandbox) => {
          pool.starting--;
          pool.failures = 0;
          if (closed || pool.target === 0) {
            // Not wanted any more: destroyed before this start counts as settled.
            return sandbox.destroy().then(wake, wake);
          }
          pool.ready.push(sandbox);
          wake();
          return undefined;
        },
        (err: unknown) => {
          pool.starting--;
          pool.failures++;
          // Back off (1 s doubling to a minute) so a broken image does not spin the engine.
          pool.backoffUntilMs = now() + Math.min(60_000, 1_000 * 2 ** (pool.failures - 1));
          logger.warn({ err, image: pool.spec.image, role: pool.spec.role }, 'starting a pooled sandbox failed');
          wake();
        },
      );
      inFlight.add(starting);
      void starting.finally(() => inFlight.delete(starting));
    }
    wake();
  }

  function drainIdle(): void {
    const t = now();
    for (const [key, pool] of pools) {
      if (t - pool.lastDemandMs < idleMs) {
        refill(pool);
        continue;
      }
      pool.target = 0;
      const idle = pool.ready.splice(0);
      for (const sandbox of idle) void sandbox.destroy().catch(() => undefined);
      if (idle.length > 0) logger.info({ image: pool.spec.image, role: pool.spec.role, destroyed: idle.length }, 'pool drained: spec idle');
      if (pool.starting === 0) pools.delete(key);
    }
  }

  const timer = setInterval(drainIdle, Math.max(50, Math.min(15_000, Math.floor(idleMs / 4))));
  timer.unref();

  return {
    kind: inner.kind,
    ping: (signal) => inner.ping(signal),
    reap: () => inner.reap(),
    imageFor: (language) => inner.imageFor(language),
    prepareImage: (image, scrub, opts) => inner.prepareImage(image, scrub, opts),
    prepareWorkspaceImage: (image: string, workdir: string, files: readonly FileEntry[], opts?: { signal?: AbortSignal }) =>
      inner.prepareWorkspaceImage(image, workdir, files, opts),

    async create(spec, createOptions = {}) {
      if (perSpec === 0 || closed) return inner.create(spec, createOptions);
      const key = specKey(spec);
      const t = now();
      let pool = pools.get(key);
      if (!pool) {
        pool = { spec, ready: [], starting: 0, target: perSpec, lastDemandMs: t, demands: [], lifetimeMs: 0, backoffUntilMs: 0, failures: 0 };
        pools.set(key, pool);
      }
      pool.lastDemandMs = t;
      pool.demands = [...pool.demands.filter((d) => t - d < BURST_WINDOW_MS), t];
      pool.target = Math.min(maxPerSpec, Math.max(perSpec, pool.target, pool.demands.length));
      pool.lifetimeMs = Math.max(pool.lifetimeMs, spec.expiresAt.getTime() - t);
      let sandbox = pool.ready.shift();
      while (sandbox && sandbox.ended() !== null) {
        // It stopped while it waited (the engine restarted, say): never hand out a dead sandbox.
        logger.warn({ image: pool.spec.image, sandboxId: sandbox.id }, 'a pooled sandbox had stopped; destroying it');
        void sandbox.destroy().catch(() => undefined);
        sandbox = pool.ready.shift();
      }
      if (sandbox) hits++;
      else misses++;
      // Hand out first and refill a moment later: the replacement's start (sync set-up here, then
      // the engine's create and start on the same two cores) would otherwise run before the answer
      // has left the server (measured: warm Reset p50 5.3-6.2 ms with an immediate refill, 3.5-4.1 ms
      // with this delay).
      scheduled++;
      setTimeout(() => {
        scheduled--;
        refill(pool);
      }, REFILL_DELAY_MS);
      return sandbox ?? inner.create(spec, createOptions);
    },

    stats() {
      let ready = 0;
      let starting = 0;
      for (const p of pools.values()) {
        ready += p.ready.length;
        starting += p.starting;
      }
      return { ready, starting, hits, misses };
    },

    settled() {
      return isSettled() ? Promise.resolve() : new Promise<void>((resolve) => waiters.push(resolve));
    },

    async close() {
      closed = true;
      clearInterval(timer);
      // Starts in flight destroy their sandbox when they land (closed): wait for them, so none outlives close.
      await Promise.allSettled([...inFlight]);
      const idle = [...pools.values()].flatMap((p) => p.ready.splice(0));
      pools.clear();
      await Promise.all(idle.map((s) => s.destroy().catch(() => undefined)));
      await inner.close();
    },
  };
}

/** What makes two sandboxes interchangeable: everything but labels and expiry. */
function specKey(spec: SandboxSpec): string {
  return JSON.stringify([spec.image, spec.role, spec.workdir, spec.resources, spec.scrub ?? [], spec.dependencies ?? null]);
}

/** Labels that describe the spec, not one episode (the task); the episode's own id is not copied. */
function pickLabels(labels: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const key of ['codemidas.task', 'codemidas.purpose']) if (labels[key] !== undefined) out[key] = labels[key];
  return out;
}
