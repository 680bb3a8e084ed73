/**
 * The gRPC server against the real docker engine, the real Python scorer and the sample suite.
 * Every container this file starts carries `codemidas.server=<SERVER_ID>`; afterAll removes any
 * that are left, even when a test failed.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { projectRoot } from '../../src/project-root.js';
import { startDockerServer, type DockerServer } from '../fixtures/docker-server.js';
import { callError, type EnvironmentClient } from '../unit/server-client.js';

const SERVER_ID = `itest-server-${process.pid}-${Date.now()}`;
const TASK = 'sample/wrap-text';
const root = projectRoot();

describe('Environment server on docker with the sample suite', () => {
  let env: DockerServer | undefined;
  let client: EnvironmentClient;
  const leftoverContainers = (): string[] => env?.leftoverContainers() ?? [];

  beforeAll(async () => {
    env = await startDockerServer({ serverId: SERVER_ID });
    client = env.client;
  });

  afterAll(async () => {
    await env?.close();
  });

  it('solves a task: reward 1, and Reward is idempotent', async () => {
    const reset = await client.call('Reset', { task_id: TASK });
    const id = reset['episode_id'];
    const solution = readFileSync(join(root, 'environments/sample/wrap-text/solution/textkit/wrap.py'), 'utf8');
    const write = await client.call('Step', { episode_id: id, step_index: 0, action: { write_file: { path: 'textkit/wrap.py', content: solution } } });
    expect(write['observation'].exit_code).toBe(0);
    await client.call('Step', { episode_id: id, step_index: 1, action: { submit: {} } });
    const reward = await client.call('Reward', { episode_id: id });
    expect(reward).toMatchObject({ outcome: 'SCORED', reward: 1 });
    expect(reward['passed']).toBe(reward['total']);
    expect(await client.call('Reward', { episode_id: id })).toEqual(reward);
    expect(await callError(client.call('Step', { episode_id: id, step_index: 2, action: { shell: { command: 'true' } } }))).toMatchObject({ code: 'FAILED_PRECONDITION' });
    await client.call('Close', { episode_id: id });
  });

  it('returns `sleep 1000` and `yes` within the limit as observations; the episode stays usable; Step latency', async () => {
    const id = (await client.call('Reset', { task_id: TASK }))['episode_id'];
    try {
      let started = Date.now();
      const slow = await client.call('Step', { episode_id: id, step_index: 0, action: { shell: { command: 'sleep 1000', timeout_ms: 1_000 } } });
      expect(slow['observation'].timed_out).toBe(true);
      expect(Date.now() - started).toBeLessThan(5_000);
      started = Date.now();
      const yes = await client.call('Step', { episode_id: id, step_index: 1, action: { shell: { command: 'yes', timeout_ms: 1_000 } } });
      expect(yes['observation'].truncated || yes['observation'].timed_out).toBe(true);
      expect(Buffer.byteLength(yes['observation'].stdout)).toBeLessThanOrEqual(4096 + 256);
      expect(Date.now() - started).toBeLessThan(5_000);
      const alive = await client.call('Step', { episode_id: id, step_index: 2, action: { shell: { command: 'echo alive; id -u' } } });
      expect(alive['observation'].stdout).toBe('alive\n1000\n');

      const samples: number[] = [];
      for (let i = 3; i < 43; i++) {
        const t0 = performance.now();
        const r = await client.call('Step', { episode_id: id, step_index: i, action: { shell: { command: 'true' } } });
        samples.push(performance.now() - t0);
        expect(r['observation'].exit_code).toBe(0);
      }
      samples.sort((a, b) => a - b);
      const p50 = samples[Math.floor(samples.length / 2)]!;
      const p90 = samples[Math.floor(samples.length * 0.9)]!;
      console.log(`Step(shell true) over gRPC on docker: p50 ${p50.toFixed(2)} ms, p90 ${p90.toFixed(2)} ms (n=${samples.length})`);
      expect(p50).toBeLessThan(500);
    } finally {
      await client.call('Close', { episode_id: id });
    }
  });

  it('runs a GRPO group: ResetGroup, RewardGroup with advantages, Close(group)', async () => {
    const group = await client.call('ResetGroup', { task_id: TASK, group_size: 2 });
    const [a, b] = group['episodes'].map((e: { episode_id: string }) => e.episode_id);
    const solution = readFileSync(join(root, 'environments/sample/wrap-text/solution/textkit/wrap.py'), 'utf8');
    await client.call('Step', { episode_id: a, step_index: 0, action: { write_file: { path: 'textkit/wrap.py', content: solution } } });
    await client.call('Step', { episode_id: b, step_index: 0, action: { shell: { command: 'true' } } });
    const result = await client.call('RewardGroup', { group_id: group['group_id'] });
    expect(result['rewards'].map((r: { outcome: string }) => r.outcome)).toEqual(['SCORED', 'SCORED']);
    expect(result['mask']).toEqual([true, true]);
    expect(result['advantages'][0]).toBeGreaterThan(0);
    expect(result['advantages'][1]).toBeLessThan(0);
    expect((await client.call('Close', { group_id: group['group_id'] }))['closed']).toBe(2);
    // The scoring sandboxes are removed after the answer: their removal gets up to 10 s.
    await expect.poll(leftoverContainers, { timeout: 10_000, interval: 100 }).toEqual([]);
  });

  it('answers bad requests and unknown ids, and keeps serving', async () => {
    expect(await callError(client.call('Reset', {}))).toEqual({ code: 'INVALID_ARGUMENT', details: 'task_id: required' });
    expect(await callError(client.call('Reset', { task_id: 'sample/nope' }))).toMatchObject({ code: 'NOT_FOUND' });
    expect(await callError(client.call('Step', { episode_id: 'ep-nope', step_index: 0, action: { submit: {} } }))).toMatchObject({ code: 'NOT_FOUND' });
    const id = (await client.call('Reset', { task_id: TASK }))['episode_id'];
    await client.call('Close', { episode_id: id });
    expect(await callError(client.call('Step', { episode_id: id, step_index: 0, action: { shell: { command: 'true' } } }))).toMatchObject({ code: 'FAILED_PRECONDITION' });
    expect((await client.call('ListTasks', {}))['tasks'].length).toBeGreaterThan(0);
    expect(await client.listServices()).toContain('codemidas.v1.Environment');
  });
});
