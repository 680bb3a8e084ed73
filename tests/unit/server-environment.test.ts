import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import protobuf from 'protobufjs';
import { resolveLimits } from '../../src/config/limits.js';
import { createEpisodeManager, type EpisodeManager } from '../../src/episodes/episode-manager.js';
import { createSilentLogger } from '../../src/logging.js';
import { type RunningServer, startServer } from '../../src/server/start-server.js';
import { FakeProvider, FakeScorer, makeCatalog, WORKSPACE } from './episodes-fakes.js';
import { callError, createEnvironmentClient, type EnvironmentClient } from './server-client.js';

const TASK = 'sample/add';

function makeManager(provider = new FakeProvider()): EpisodeManager {
  return createEpisodeManager({
    provider,
    catalog: makeCatalog(),
    scorer: new FakeScorer(),
    logger: createSilentLogger(),
    limits: resolveLimits({ maxCommandMs: 2_000, defaultCommandMs: 1_000, maxOutputBytes: 1024 }),
    readWorkspace: async () => WORKSPACE,
  });
}

describe('Environment over a real channel (memory sandboxes)', () => {
  let server: RunningServer;
  let client: EnvironmentClient;
  let provider: FakeProvider;

  beforeAll(async () => {
    provider = new FakeProvider();
    const manager = makeManager(provider);
    server = await startServer({ manager, catalog: makeCatalog(), logger: createSilentLogger(), listen: { host: '127.0.0.1', port: 0 } });
    client = createEnvironmentClient(server.address);
  });
  afterAll(async () => {
    client?.close();
    await server?.close({ graceMs: 100 });
  });
  afterEach(async () => {
    // Every test leaves the server able to answer.
    const tasks = await client.call('ListTasks', {});
    expect(tasks['tasks']).toHaveLength(1);
  });

  it('binds a real port when asked for port 0 and reports SERVING', async () => {
    expect(server.port).toBeGreaterThan(0);
    expect(await client.health()).toBe('SERVING');
    expect(await client.health('codemidas.v1.Environment')).toBe('SERVING');
  });

  it('runs a whole episode: Reset, Step, Submit, Reward, Close', async () => {
    const reset = await client.call('Reset', { task_id: TASK });
    expect(reset['tools'].map((t: { name: string }) => t.name)).toEqual(['shell', 'read_file', 'write_file', 'edit', 'submit']);
    expect(JSON.parse(reset['tools'][0].parameters_json).required).toEqual(['command']);
    expect(reset['limits'].max_command_ms).toBe(2_000);
    const id = reset['episode_id'];
    const step = await client.call('Step', { episode_id: id, step_index: 0, action: { shell: { command: 'echo hi' } } });
    expect(step).toMatchObject({ observation: { stdout: 'hi\n', exit_code: 0 }, terminated: false, step_index: 0 });
    await client.call('Step', { episode_id: id, step_index: 1, action: { write_file: { path: 'pkg/add.py', content: 'return a + b' } } });
    const done = await client.call('Step', { episode_id: id, step_index: 2, action: { submit: {} } });
    expect(done['terminated']).toBe(true);
    const reward = await client.call('Reward', { episode_id: id });
    expect(reward).toMatchObject({ episode_id: id, reward: 1, outcome: 'SCORED', passed: 2, total: 2 });
    expect(await client.call('Reward', { episode_id: id })).toEqual(reward);
    expect((await client.call('Close', { episode_id: id }))['closed']).toBe(1);
    expect((await client.call('Close', { episode_id: id }))['closed']).toBe(0);
  });

  it('answers a missing field with INVALID_ARGUMENT naming it in snake_case', async () => {
    expect(await callError(client.call('Reset', {}))).toEqual({ code: 'INVALID_ARGUMENT', details: 'task_id: required' });
    expect(await callError(client.call('Step', { episode_id: 'x', step_index: 0 }))).toEqual({
      code: 'INVALID_ARGUMENT',
      details: 'action: one of shell, read_file, write_file, edit, submit is required',
    });
    expect(await callError(client.call('Step', { episode_id: 'x', step_index: 0, action: { shell: {} } }))).toEqual({
      code: 'INVALID_ARGUMENT',
      details: 'action.shell.command: required',
    });
    expect(await callError(client.call('Close', {}))).toMatchObject({ code: 'INVALID_ARGUMENT', details: expect.stringMatching(/^episode_id: required/) });
    expect(await callError(client.call('ResetGroup', { task_id: TASK }))).toMatchObject({ code: 'INVALID_ARGUMENT', details: expect.stringMatching(/^group_size/) });
  });

  it('answers a wrong-typed field on the wire with INVALID_ARGUMENT naming it', async () => {
    // ResetRequest with task_id (field 1, a string) sent as a varint.
    const bytes = Buffer.from(protobuf.Writer.create().uint32((1 << 3) | 0).uint32(42).finish());
    const err = await callError(client.callRaw('Reset', bytes));
    expect(err.code).toBe('INVALID_ARGUMENT');
    expect(err.details).toMatch(/^task_id: expected string/);
    // StepRequest whose action.shell.timeout_ms (a uint32) arrives length-delimited.
    const shell = protobuf.Writer.create().uint32((2 << 3) | 2).string('oops').finish();
    const action = protobuf.Writer.create().uint32((1 << 3) | 2).bytes(shell).finish();
    const step = protobuf.Writer.create().uint32((1 << 3) | 2).string('ep').uint32((3 << 3) | 2).bytes(action).finish();
    expect(await callError(client.callRaw('Step', Buffer.from(step)))).toMatchObject({
      code: 'INVALID_ARGUMENT',
      details: expect.stringMatching(/^action\.shell\.timeout_ms: expected uint32/),
    });
  });

  it('answers unknown tasks and episodes with NOT_FOUND', async () => {
    expect(await callError(client.call('Reset', { task_id: 'sample/nope' }))).toMatchObject({ code: 'NOT_FOUND', details: expect.stringContaining("unknown task 'sample/nope'") });
    expect(await callError(client.call('GetTask', { task_id: 'sample/nope' }))).toMatchObject({ code: 'NOT_FOUND' });
    expect(await callError(client.call('Step', { episode_id: 'ep-nope', step_index: 0, action: { submit: {} } }))).toMatchObject({ code: 'NOT_FOUND' });
    expect(await callError(client.call('Reward', { episode_id: 'ep-nope' }))).toMatchObject({ code: 'NOT_FOUND' });
    expect(await callError(client.call('RewardGroup', { group_id: 'grp-nope' }))).toMatchObject({ code: 'NOT_FOUND' });
  });

  it('answers Step after Close or after submit with FAILED_PRECONDITION', async () => {
    const a = (await client.call('Reset', { task_id: TASK }))['episode_id'];
    await client.call('Close', { episode_id: a });
    expect(await callError(client.call('Step', { episode_id: a, step_index: 0, action: { shell: { command: 'true' } } }))).toMatchObject({ code: 'FAILED_PRECONDITION' });
    const b = (await client.call('Reset', { task_id: TASK }))['episode_id'];
    await client.call('Step', { episode_id: b, step_index: 0, action: { submit: {} } });
    expect(await callError(client.call('Step', { episode_id: b, step_index: 1, action: { shell: { command: 'true' } } }))).toMatchObject({ code: 'FAILED_PRECONDITION' });
    expect(await callError(client.call('Step', { episode_id: b, step_index: 7, action: { submit: {} } }))).toMatchObject({ code: 'FAILED_PRECONDITION' });
    await client.call('Close', { episode_id: b });
  });

  it('returns a timed-out command and capped output as observations within the limit; the episode stays usable', async () => {
    const id = (await client.call('Reset', { task_id: TASK }))['episode_id'];
    let started = Date.now();
    const slow = await client.call('Step', { episode_id: id, step_index: 0, action: { shell: { command: 'sleep 1000', timeout_ms: 300 } } });
    expect(Date.now() - started).toBeLessThan(1_500);
    expect(slow['observation'].timed_out).toBe(true);
    const yes = await client.call('Step', { episode_id: id, step_index: 1, action: { shell: { command: 'yes', timeout_ms: 300 } } });
    expect(yes['observation'].truncated).toBe(true);
    expect(yes['observation'].stdout.length).toBeLessThanOrEqual(1024);
    // A client deadline shorter than the default command limit: the answer still comes in time.
    started = Date.now();
    const underDeadline = await client.call('Step', { episode_id: id, step_index: 2, action: { shell: { command: 'sleep 1000' } } }, { deadlineMs: 800 });
    expect(underDeadline['observation'].timed_out).toBe(true);
    expect(Date.now() - started).toBeLessThan(800);
    const ok = await client.call('Step', { episode_id: id, step_index: 3, action: { shell: { command: 'echo alive' } } });
    expect(ok['observation'].stdout).toBe('alive\n');
    await client.call('Close', { episode_id: id });
  });

  it('answers a dead sandbox with ABORTED and the group reward masks it', async () => {
    const group = await client.call('ResetGroup', { task_id: TASK, group_size: 2 });
    const [a, b] = group['episodes'].map((e: { episode_id: string }) => e.episode_id);
    expect(await callError(client.call('Step', { episode_id: b, step_index: 0, action: { shell: { command: 'die' } } }))).toMatchObject({ code: 'ABORTED' });
    await client.call('Step', { episode_id: a, step_index: 0, action: { submit: {} } });
    const rewards = await client.call('RewardGroup', { group_id: group['group_id'] });
    expect(rewards['mask']).toEqual([true, false]);
    expect(rewards['rewards'].map((r: { outcome: string }) => r.outcome)).toEqual(['SCORED', 'INFRA_ERROR']);
    expect(rewards['advantages']).toEqual([0, 0]);
    expect((await client.call('Close', { group_id: group['group_id'] }))['closed']).toBe(2);
  });

  it('lists codemidas.v1.Environment through reflection', async () => {
    expect(await client.listServices()).toContain('codemidas.v1.Environment');
  });
});

describe('server edge cases', () => {
  it('refuses to listen on a non-loopback address without --auth-token', async () => {
    await expect(
      startServer({ manager: makeManager(), catalog: makeCatalog(), logger: createSilentLogger(), listen: { host: '0.0.0.0', port: 0 } }),
    ).rejects.toThrow(/--auth-token: required to listen on 0\.0\.0\.0:0/);
  });

  it('on 0.0.0.0 with a token, answers calls without it UNAUTHENTICATED (reflection too) and serves calls with it', async () => {
    const server = await startServer({
      manager: makeManager(),
      catalog: makeCatalog(),
      logger: createSilentLogger(),
      listen: { host: '0.0.0.0', port: 0 },
      authToken: 's3cret',
    });
    const client = createEnvironmentClient(`127.0.0.1:${server.port}`);
    try {
      expect(await callError(client.call('ListTasks', {}))).toMatchObject({ code: 'UNAUTHENTICATED', details: expect.stringContaining('Bearer') });
      expect(await callError(client.call('ListTasks', {}, { token: 'wrong' }))).toMatchObject({ code: 'UNAUTHENTICATED' });
      await expect(client.listServices()).rejects.toMatchObject({ code: 16 });
      expect((await client.call('ListTasks', {}, { token: 's3cret' }))['tasks']).toHaveLength(1);
      expect(await client.listServices({ token: 's3cret' })).toContain('codemidas.v1.Environment');
      expect(await client.health()).toBe('SERVING');
    } finally {
      client.close();
      await server.close({ graceMs: 100 });
    }
  });

  it('answers an unexpected error with a generic INTERNAL, never its message', async () => {
    const manager = makeManager();
    manager.reset = async () => {
      throw new Error('secret database password in a stack');
    };
    const server = await startServer({ manager, catalog: makeCatalog(), logger: createSilentLogger(), listen: { host: '127.0.0.1', port: 0 } });
    const client = createEnvironmentClient(server.address);
    try {
      const err = await callError(client.call('Reset', { task_id: TASK }));
      expect(err.code).toBe('INTERNAL');
      expect(err.details).not.toMatch(/secret/);
      expect(err.details).toMatch(/internal error \(incident [0-9a-f]{8}\)/);
    } finally {
      client.close();
      await server.close({ graceMs: 100 });
    }
  });

  it('stays NOT_SERVING while the engine does not answer', async () => {
    const provider = new FakeProvider();
    provider.pingError = new Error('engine down');
    const server = await startServer({ manager: makeManager(provider), catalog: makeCatalog(), logger: createSilentLogger(), listen: { host: '127.0.0.1', port: 0 }, healthIntervalMs: 50 });
    const client = createEnvironmentClient(server.address);
    try {
      expect(await client.health()).toBe('NOT_SERVING');
      provider.pingError = null;
      await expect.poll(() => client.health(), { timeout: 2_000 }).toBe('SERVING');
    } finally {
      client.close();
      await server.close({ graceMs: 100 });
    }
  });

  it('on close: NOT_SERVING, new Resets refused with UNAVAILABLE, the step in flight answered, sandboxes destroyed', async () => {
    const provider = new FakeProvider();
    const server = await startServer({ manager: makeManager(provider), catalog: makeCatalog(), logger: createSilentLogger(), listen: { host: '127.0.0.1', port: 0 } });
    const client = createEnvironmentClient(server.address);
    try {
      const id = (await client.call('Reset', { task_id: TASK }))['episode_id'];
      const inFlight = client.call('Step', { episode_id: id, step_index: 0, action: { shell: { command: 'sleep 0.3' } } });
      await new Promise((r) => setTimeout(r, 50));
      const closing = server.close({ graceMs: 3_000 });
      expect(await client.health()).toBe('NOT_SERVING');
      expect(await callError(client.call('Reset', { task_id: TASK }))).toMatchObject({ code: 'UNAVAILABLE' });
      expect((await inFlight)['observation'].exit_code).toBe(0);
      await closing;
      expect(provider.live).toEqual([]);
    } finally {
      client.close();
      await server.close();
    }
  });
});
