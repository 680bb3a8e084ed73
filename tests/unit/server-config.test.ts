import { describe, expect, it } from 'vitest';
import { DEFAULT_LIMITS, LIMIT_FLAGS, limitsForTask, parseLimitFlagValue, resolveLimits } from '../../src/config/limits.js';
import { assertListenAllowed, isLoopbackHost, parseListenAddress } from '../../src/config/listen-address.js';

describe('limits', () => {
  it('resolves to the documented defaults, frozen', () => {
    const limits = resolveLimits();
    expect(limits).toEqual({
      maxSteps: 100,
      maxWallMs: 30 * 60_000,
      defaultCommandMs: 30_000,
      maxCommandMs: 10 * 60_000,
      maxOutputBytes: 65_536,
      maxFileBytes: 1_048_576,
      maxEpisodes: 64,
      idleExpiryMs: 10 * 60_000,
    });
    expect(Object.isFrozen(limits)).toBe(true);
  });

  it('applies what the user passed and ignores undefined', () => {
    expect(resolveLimits({ maxSteps: 5, maxEpisodes: undefined })).toMatchObject({ maxSteps: 5, maxEpisodes: 64 });
  });

  it('refuses out-of-range values naming the flag', () => {
    expect(() => resolveLimits({ maxCommandMs: 11 * 60_000 })).toThrow(/--max-command-ms/);
    expect(() => resolveLimits({ maxSteps: 0 })).toThrow(/--max-steps/);
    expect(() => resolveLimits({ defaultCommandMs: 5_000, maxCommandMs: 1_000 })).toThrow(/--command-timeout-ms/);
    expect(() => parseLimitFlagValue('--max-steps', 'ten')).toThrow(/--max-steps: expected a positive whole number/);
    expect(parseLimitFlagValue('--max-output-bytes', '65_536')).toBe(65_536);
  });

  it('has a flag for every limit', () => {
    expect(LIMIT_FLAGS.map((f) => f.key).sort()).toEqual(Object.keys(DEFAULT_LIMITS).sort());
  });

  it('narrows limits by a task, never widens them', () => {
    const narrowed = limitsForTask(DEFAULT_LIMITS, { maxSteps: 10, maxCommandMs: 20_000, maxWallMs: 99 * 60 * 60_000 });
    expect(narrowed).toMatchObject({ maxSteps: 10, maxCommandMs: 20_000, defaultCommandMs: 20_000, maxWallMs: 30 * 60_000 });
  });
});

describe('listen address', () => {
  it('parses host:port, [v6]:port and :port', () => {
    expect(parseListenAddress('127.0.0.1:50051')).toEqual({ host: '127.0.0.1', port: 50051 });
    expect(parseListenAddress('[::1]:0')).toEqual({ host: '::1', port: 0 });
    expect(parseListenAddress(':7000')).toEqual({ host: '127.0.0.1', port: 7000 });
    expect(() => parseListenAddress('localhost')).toThrow(/--listen/);
    expect(() => parseListenAddress('1.2.3.4:99999')).toThrow(/port/);
  });

  it('requires a token off loopback only', () => {
    expect(isLoopbackHost('127.0.0.1')).toBe(true);
    expect(isLoopbackHost('0.0.0.0')).toBe(false);
    expect(() => assertListenAllowed({ host: '0.0.0.0', port: 1 }, undefined)).toThrow(/--auth-token: required/);
    expect(() => assertListenAllowed({ host: '0.0.0.0', port: 1 }, 't')).not.toThrow();
    expect(() => assertListenAllowed({ host: 'localhost', port: 1 }, undefined)).not.toThrow();
  });
});
