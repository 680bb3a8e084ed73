import { describe, expect, it } from 'vitest';
import { linkSignals } from '../../src/abort.js';

describe('linkSignals', () => {
  it('aborts when any source aborts, with that reason', () => {
    const a = new AbortController();
    const b = new AbortController();
    const linked = linkSignals([a.signal, undefined, b.signal]);
    expect(linked.signal.aborted).toBe(false);
    b.abort(new Error('b went'));
    expect(linked.signal.aborted).toBe(true);
    expect((linked.signal.reason as Error).message).toBe('b went');
  });

  it('starts aborted when a source already is', () => {
    const a = new AbortController();
    a.abort('early');
    expect(linkSignals([a.signal]).signal.reason).toBe('early');
  });

  it('stops following its sources once disposed', () => {
    const a = new AbortController();
    const linked = linkSignals([a.signal]);
    linked.dispose();
    a.abort();
    expect(linked.signal.aborted).toBe(false);
  });
});
