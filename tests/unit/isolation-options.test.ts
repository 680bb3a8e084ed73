import { describe, expect, it } from 'vitest';
import { DEFAULT_MAX_DISK_BYTES, isolationFromFlags, parseByteSize } from '../../src/cli/isolation-options.js';
import { createSilentLogger } from '../../src/logging.js';
import { createSandboxProvider } from '../../src/sandbox/create-sandbox-provider.js';

describe('--max-disk-bytes and --runtime', () => {
  const parse = parseByteSize('--max-disk-bytes');

  it('reads plain bytes and 1024-based K, M, G suffixes; 0 turns the cap off', () => {
    expect(parse('2147483648')).toBe(2 * 1024 ** 3);
    expect(parse('2G')).toBe(2 * 1024 ** 3);
    expect(parse('64M')).toBe(64 * 1024 ** 2);
    expect(parse('512KiB')).toBe(512 * 1024);
    expect(parse('0')).toBe(0);
    expect(DEFAULT_MAX_DISK_BYTES).toBe(2 * 1024 ** 3);
  });

  it('refuses what is not a byte count, naming the flag', () => {
    expect(() => parse('-1')).toThrow(/--max-disk-bytes takes a byte count/);
    expect(() => parse('2T')).toThrow(/--max-disk-bytes/);
    expect(() => parse('lots')).toThrow(/--max-disk-bytes/);
  });

  it('asks the engine to refuse a cap given that it cannot enforce rather than drop it', () => {
    expect(isolationFromFlags({ runtime: 'runsc', maxDiskBytes: 1024 })).toEqual({ runtime: 'runsc', diskBytes: 1024, ifNoDiskQuota: 'refuse' });
    expect(isolationFromFlags({ runtime: 'runc', maxDiskBytes: 0 })).toEqual({ runtime: 'runc', diskBytes: 0, ifNoDiskQuota: 'refuse' });
  });

  it('without the flag, keeps the default cap where the engine can enforce it and says it is off where it cannot', () => {
    expect(isolationFromFlags({ runtime: 'runc' })).toEqual({ runtime: 'runc', diskBytes: DEFAULT_MAX_DISK_BYTES, ifNoDiskQuota: 'warn' });
  });

  it('refuses --runtime runsc for a sandbox that is not docker, naming the fix', async () => {
    await expect(createSandboxProvider({ kind: 'memory', logger: createSilentLogger(), serverId: 't', isolation: { runtime: 'runsc' } })).rejects.toThrow(
      /--runtime runsc needs the docker sandbox/,
    );
    const runc = await createSandboxProvider({ kind: 'memory', logger: createSilentLogger(), serverId: 't', isolation: { runtime: 'runc' } });
    expect(runc.kind).toBe('memory');
  });
});
