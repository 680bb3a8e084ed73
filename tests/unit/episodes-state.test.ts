import { describe, expect, it } from 'vitest';
import { canTransition, transition } from '../../src/episodes/episode-state.js';
import { FailedPreconditionError } from '../../src/errors.js';
import { createSilentLogger } from '../../src/logging.js';

describe('episode state machine', () => {
  const logger = createSilentLogger();

  it('walks the happy path', () => {
    const ep = { id: 'e', state: 'starting' as const } as { id: string; state: Parameters<typeof canTransition>[0] };
    for (const to of ['ready', 'stepping', 'ready', 'stepping', 'submitted', 'scoring', 'scored', 'closed'] as const) {
      transition(ep, to, logger);
      expect(ep.state).toBe(to);
    }
  });

  it('refuses an illegal move with FailedPreconditionError and leaves the state alone', () => {
    const ep = { id: 'e', state: 'submitted' as Parameters<typeof canTransition>[0] };
    expect(() => transition(ep, 'stepping', logger)).toThrow(FailedPreconditionError);
    expect(ep.state).toBe('submitted');
  });

  it('lets every state but closed move to closed, and nothing leave closed', () => {
    for (const from of ['starting', 'ready', 'stepping', 'submitted', 'ended', 'scoring', 'scored', 'failed'] as const) {
      expect(canTransition(from, 'closed')).toBe(true);
    }
    for (const to of ['starting', 'ready', 'stepping', 'submitted', 'scoring', 'scored', 'failed', 'closed'] as const) {
      expect(canTransition('closed', to)).toBe(false);
    }
  });

  it('ends from a step (the agent stopped its own sandbox): only scoring or closing follow', () => {
    expect(canTransition('stepping', 'ended')).toBe(true);
    expect(canTransition('ended', 'scoring')).toBe(true);
    for (const to of ['ready', 'stepping', 'submitted', 'failed'] as const) expect(canTransition('ended', to)).toBe(false);
    // A failed episode (stopped from outside) is never scored.
    expect(canTransition('failed', 'scoring')).toBe(false);
  });

  it('allows scoring from ready (agent stopped without submit) but not from stepping', () => {
    expect(canTransition('ready', 'scoring')).toBe(true);
    expect(canTransition('stepping', 'scoring')).toBe(false);
  });
});
