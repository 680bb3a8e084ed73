import { afterEach, describe, expect, it, vi } from 'vitest';
import { installGcSignal } from '../../src/cli/gc-signal.js';

describe('installGcSignal (serve under bench --soak)', () => {
  const g = globalThis as { gc?: () => void };
  const saved = g.gc;
  afterEach(() => {
    process.removeAllListeners('SIGWINCH');
    if (saved) g.gc = saved;
    else delete g.gc;
  });

  it('runs a full collection on the signal when node exposes gc', () => {
    const gc = vi.fn();
    g.gc = gc;
    const said: string[] = [];
    installGcSignal('SIGWINCH', (line) => said.push(line));
    process.emit('SIGWINCH', 'SIGWINCH');
    expect(gc).toHaveBeenCalledTimes(1);
    expect(said).toEqual([]);
  });

  it('does nothing unless asked, and says so when asked without --expose-gc', () => {
    delete g.gc;
    const said: string[] = [];
    installGcSignal(undefined, (line) => said.push(line));
    expect(process.listenerCount('SIGWINCH')).toBe(0);
    installGcSignal('SIGWINCH', (line) => said.push(line));
    expect(process.listenerCount('SIGWINCH')).toBe(0);
    expect(said).toEqual([expect.stringMatching(/needs node's --expose-gc/)]);
  });
});
