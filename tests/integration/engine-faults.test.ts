/**
 * Faults outside the agent's control (issue 16, item 6), on the real engine: a container killed or
 * removed from outside ends its episode as ABORTED and INFRA_ERROR (infrastructure, left out of
 * GRPO statistics); the engine restarting mid-run ends the episodes in flight the same way, health
 * reads NOT_SERVING while the engine is away, and the same server serves new episodes once it is
 * back. The restart test stops and starts this machine's dockerd (root only; it is restarted with
 * the command line it ran with). Every container carries `codemidas.server=<SERVER_ID>`.
 */
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, openSync, readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDockerServer, type DockerServer } from '../fixtures/docker-server.js';
import type { EnvironmentClient } from '../unit/server-client.js';

const SERVER_ID = `itest-engine-faults-${process.pid}-${Date.now()}`;
const TASK = 'sample/slugify';
const DOCKERD_PID_FILE = '/var/run/docker.pid';
const GRPC_ABORTED = 10;
const GRPC_UNAVAILABLE = 14;

function engineAnswers(): boolean {
  try {
    execFileSync('docker', ['info'], { stdio: 'ignore', timeout: 10_000 });
    return true;
  } catch {
    return false;
  }
}

async function until(what: string, check: () => boolean | Promise<boolean>, timeoutMs: number): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > end) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

/**
 * This machine's dockerd: its pid, and the command line and environment to start it again with (its
 * own, not this test's: a test run's TMPDIR goes away with the run, and runsc started by a dockerd
 * that inherited it can start no sandbox after that).
 */
function localDockerd(): { pid: number; argv: string[]; env: Record<string, string> } {
  if (process.getuid?.() !== 0) throw new Error('the engine-restart test stops and starts dockerd: run the tests as root (CI does)');
  if (!existsSync(DOCKERD_PID_FILE)) throw new Error(`no ${DOCKERD_PID_FILE}: this test needs dockerd running on this machine (bash scripts/setup-engine.sh starts one)`);
  const pid = Number(readFileSync(DOCKERD_PID_FILE, 'utf8').trim());
  const argv = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').filter(Boolean);
  if (!argv[0]?.endsWith('dockerd')) throw new Error(`pid ${pid} from ${DOCKERD_PID_FILE} is not dockerd (${argv.join(' ')})`);
  const env = Object.fromEntries(
    readFileSync(`/proc/${pid}/environ`, 'utf8')
      .split('\0')
      .filter((pair) => pair.includes('='))
      .map((pair) => [pair.slice(0, pair.indexOf('=')), pair.slice(pair.indexOf('=') + 1)]),
  );
  return { pid, argv, env };
}

function processGone(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return false;
  } catch {
    return true;
  }
}

describe('faults outside the agent are infrastructure (real engine)', () => {
  let env: DockerServer | undefined;
  let client: EnvironmentClient;

  beforeAll(async () => {
    env = await startDockerServer({ serverId: SERVER_ID, healthIntervalMs: 300 });
    client = env.client;
  });

  afterAll(async () => {
    // Whatever happened, leave an engine that answers for the tests after this file.
    if (!engineAnswers()) await until('the engine to answer again', engineAnswers, 60_000).catch(() => undefined);
    await env?.close();
  });

  async function reset(): Promise<{ id: string; container: string }> {
    const id = (await client.call('Reset', { task_id: TASK }))['episode_id'] as string;
    const host = await client.call('Step', { episode_id: id, step_index: 0, action: { shell: { command: 'hostname' } } });
    return { id, container: String(host['observation'].stdout).trim() };
  }

  it.each([
    { how: 'docker kill', argv: (c: string) => ['kill', c], detail: /killed from outside CodeMidas \(signal (9|SIGKILL)\)/ },
    { how: 'docker stop', argv: (c: string) => ['stop', '-t', '1', c], detail: /killed from outside CodeMidas \(signal/ },
    { how: 'docker rm -f', argv: (c: string) => ['rm', '-f', c], detail: /removed from outside CodeMidas/ },
  ])('$how of an episode container: the next Step is ABORTED and Reward INFRA_ERROR', async ({ argv, detail }) => {
    const { id, container } = await reset();
    try {
      execFileSync('docker', argv(container), { stdio: 'ignore' });
      const err = await client.call('Step', { episode_id: id, step_index: 1, action: { shell: { command: 'true' } } }).catch((e: unknown) => e);
      expect(err).toMatchObject({ code: GRPC_ABORTED });
      expect((err as Error).message).toMatch(detail);
      const reward = await client.call('Reward', { episode_id: id });
      expect(reward).toMatchObject({ outcome: 'INFRA_ERROR', reward: 0 });
      expect(reward['detail']).toMatch(detail);
    } finally {
      await client.call('Close', { episode_id: id });
    }
  });

  it('the engine restarted mid-run: episodes in flight end as INFRA_ERROR, health is NOT_SERVING while it is away, new episodes work after', async () => {
    const dockerd = localDockerd();
    const idle = await reset();
    const busy = await reset();
    const inFlight = client
      .call('Step', { episode_id: busy.id, step_index: 1, action: { shell: { command: 'sleep 60', timeout_ms: 90_000 } } })
      .then((r) => ({ ok: r }), (err: unknown) => ({ err }));
    await new Promise((resolve) => setTimeout(resolve, 500));

    process.kill(dockerd.pid, 'SIGTERM');
    await until('dockerd to exit', () => processGone(dockerd.pid), 60_000);
    await until('health NOT_SERVING', async () => (await client.health()) === 'NOT_SERVING', 10_000);
    const refused = await client.call('Reset', { task_id: TASK }).catch((e: unknown) => e);
    expect(refused).toMatchObject({ code: GRPC_UNAVAILABLE });

    const log = openSync('/var/log/codemidas-dockerd.log', 'a');
    spawn(dockerd.argv[0]!, dockerd.argv.slice(1), { detached: true, stdio: ['ignore', log, log], env: dockerd.env }).unref();
    await until('the engine to answer again', engineAnswers, 60_000);

    const busyStep = await inFlight;
    expect('err' in busyStep ? (busyStep.err as { code?: number }).code : 'answered').toBe(GRPC_ABORTED);
    for (const episode of [idle, busy]) {
      const reward = await client.call('Reward', { episode_id: episode.id });
      expect(reward, JSON.stringify(reward)).toMatchObject({ outcome: 'INFRA_ERROR' });
      await client.call('Close', { episode_id: episode.id });
    }

    await until('health SERVING', async () => (await client.health()) === 'SERVING', 30_000);
    const fresh = await reset();
    try {
      const echo = await client.call('Step', { episode_id: fresh.id, step_index: 1, action: { shell: { command: 'echo back' } } });
      expect(echo['observation'].stdout).toBe('back\n');
      const reward = await client.call('Reward', { episode_id: fresh.id });
      expect(reward).toMatchObject({ outcome: 'SCORED', reward: 0 });
    } finally {
      await client.call('Close', { episode_id: fresh.id });
    }
  });
});
