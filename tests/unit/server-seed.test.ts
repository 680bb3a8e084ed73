import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import protobuf from 'protobufjs';
import { resolveLimits } from '../../src/config/limits.js';
import { createEpisodeManager, type EpisodeManager } from '../../src/episodes/episode-manager.js';
import { createSilentLogger } from '../../src/logging.js';
import { ENVIRONMENT_PROTO_PATH } from '../../src/server/load-environment-proto.js';
import { type RunningServer, startServer } from '../../src/server/start-server.js';
import { FakeProvider, FakeScorer, makeCatalog, WORKSPACE } from './episodes-fakes.js';
import { callError, createEnvironmentClient, type EnvironmentClient } from './server-client.js';

const TASK = 'sample/add';

/** Every uint64 boundary a client can send: 0, where doubles stop being exact, int64's top, uint64's top. */
const BOUNDARIES = [0n, 2n ** 53n, 2n ** 53n + 1n, 2n ** 63n, 2n ** 64n - 1n];

const root = new protobuf.Root().loadSync(ENVIRONMENT_PROTO_PATH, { keepCase: true });
const ResetRequest = root.lookupType('codemidas.v1.ResetRequest');
const ResetResponse = root.lookupType('codemidas.v1.ResetResponse');

describe('seed: every uint64 reaches the episode manager exactly', () => {
  let server: RunningServer;
  let client: EnvironmentClient;
  let manager: EpisodeManager;
  const seeds: unknown[] = [];

  beforeAll(async () => {
    manager = createEpisodeManager({
      provider: new FakeProvider(),
      catalog: makeCatalog(),
      scorer: new FakeScorer(),
      logger: createSilentLogger(),
      limits: resolveLimits({}),
      readWorkspace: async () => WORKSPACE,
    });
    const reset = manager.reset.bind(manager);
    const resetGroup = manager.resetGroup.bind(manager);
    manager.reset = (taskId, options) => {
      seeds.push(options?.seed);
      return reset(taskId, options);
    };
    manager.resetGroup = (taskId, size, options) => {
      seeds.push(options?.seed);
      return resetGroup(taskId, size, options);
    };
    server = await startServer({ manager, catalog: makeCatalog(), logger: createSilentLogger(), listen: { host: '127.0.0.1', port: 0 } });
    client = createEnvironmentClient(server.address);
  });
  afterAll(async () => {
    client?.close();
    await server?.close({ graceMs: 100 });
  });

  it.each(BOUNDARIES.map((seed) => [seed.toString(), seed] as const))('Reset and ResetGroup accept seed %s', async (_, seed) => {
    seeds.length = 0;
    const reset = await client.call('Reset', { task_id: TASK, seed: seed.toString() });
    const group = await client.call('ResetGroup', { task_id: TASK, group_size: 2, seed: seed.toString() });
    expect(seeds).toEqual([seed, seed]);
    await client.call('Close', { episode_id: reset['episode_id'] });
    await client.call('Close', { group_id: group['group_id'] });
  });

  it('reads an unset seed as 0n', async () => {
    seeds.length = 0;
    const reset = await client.call('Reset', { task_id: TASK });
    expect(seeds).toEqual([0n]);
    await client.call('Close', { episode_id: reset['episode_id'] });
  });

  it('accepts 2^64-1 sent as the raw ten-byte varint (no client-side conversion involved)', async () => {
    seeds.length = 0;
    const bytes = Buffer.from(ResetRequest.encode(ResetRequest.fromObject({ task_id: TASK, seed: '18446744073709551615' })).finish());
    // Field 2, varint: 0xff × 9 then 0x01.
    expect(bytes.subarray(-11).toString('hex')).toBe('10ffffffffffffffffff01');
    const answer = ResetResponse.toObject(ResetResponse.decode(await client.callRaw('Reset', bytes))) as { episode_id: string };
    expect(answer.episode_id).toMatch(/^ep-/);
    expect(seeds).toEqual([2n ** 64n - 1n]);
    await client.call('Close', { episode_id: answer.episode_id });
  });

  it('answers a read_file offset or limit of 2^64-1 with an observation, not an error', async () => {
    const id = (await client.call('Reset', { task_id: TASK }))['episode_id'];
    const step = await client.call('Step', {
      episode_id: id,
      step_index: 0,
      action: { read_file: { path: 'pkg/add.py', offset: '18446744073709551615', limit: '18446744073709551615' } },
    });
    expect(step['observation']).toMatchObject({ stdout: '', exit_code: 0 });
    await client.call('Close', { episode_id: id });
  });

  it('still refuses a request whose other fields are bad, naming the field', async () => {
    expect(await callError(client.call('ResetGroup', { task_id: TASK, group_size: 0, seed: '18446744073709551615' }))).toMatchObject({
      code: 'INVALID_ARGUMENT',
      details: expect.stringMatching(/^group_size: /),
    });
  });
});
