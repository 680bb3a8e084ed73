/** Runs the functions given to it with at most `concurrency` in flight, the others waiting in the order given. */
export interface Limiter {
  run<T>(fn: () => Promise<T>): Promise<T>;
}

export function createLimiter(concurrency: number): Limiter {
  const limit = Math.max(1, concurrency);
  const waiting: (() => void)[] = [];
  let active = 0;
  const release = (): void => {
    active -= 1;
    const next = waiting.shift();
    if (next) {
      active += 1;
      next();
    }
  };
  return {
    async run<T>(fn: () => Promise<T>): Promise<T> {
      if (active < limit) active += 1;
      else await new Promise<void>((resolve) => waiting.push(resolve));
      try {
        return await fn();
      } finally {
        release();
      }
    },
  };
}
