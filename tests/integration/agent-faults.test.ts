/**
 * Agent-caused faults (issue 16, item 1): whatever an agent does to its own sandbox — killing every
 * process in it, stopping them, exhausting its memory, processes or disk, bytes its relay cannot
 * run — the episode is still scored as its workspace stands: SCORED, 1.0 when the reference was
 * written first, 0.0 when it was not. Never INFRA_ERROR, which GRPO statistics leave out.
 * Real engine, real scorer, the sample suite, over a real gRPC server. Every container carries
 * `codemidas.server=<SERVER_ID>`; afterAll removes any left, even when a test failed.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { projectRoot } from '../../src/project-root.js';
import { startDockerServer, type DockerServer } from '../fixtures/docker-server.js';
import type { EnvironmentClient } from '../unit/server-client.js';

const SERVER_ID = `itest-faults-${process.pid}-${Date.now()}`;
const TASK = 'sample/slugify';
const root = projectRoot();
const SOLUTION = readFileSync(join(root, 'environments/sample/slugify/solution/textkit/slug.py'), 'utf8');

/** The disk cap of every sandbox here: `serve`'s default is 2 GiB; smaller, so filling it is quick. */
const DISK_CAP_BYTES = 512 * 1024 * 1024;

interface Fault {
  name: string;
  /** Shell steps the agent runs after (or without) writing the solution. */
  commands: Array<{ command: string; timeoutMs?: number }>;
  /** True when the fault ends the sandbox: its step says so and is terminal. */
  endsSandbox: boolean;
}

const FAULTS: Fault[] = [
  { name: 'a NUL byte in a command', commands: [{ command: 'echo a\u0000b' }], endsSandbox: false },
  { name: 'kill -9 -1 (every process of the agent user, the relay included)', commands: [{ command: 'kill -9 -1' }], endsSandbox: true },
  { name: 'pkill -9 python3 (the relay by name)', commands: [{ command: 'pkill -9 python3' }], endsSandbox: true },
  { name: 'kill -9 $PPID (the relay, from the shell it runs)', commands: [{ command: 'kill -9 $PPID' }], endsSandbox: true },
  {
    name: 'kill -STOP -1 (every process frozen: the relay stops answering)',
    // The relay may still send this step's answer before the stop lands; the next step then finds it frozen.
    commands: [{ command: 'kill -STOP -1', timeoutMs: 1_000 }, { command: 'true', timeoutMs: 1_000 }],
    endsSandbox: true,
  },
  {
    name: 'a background process that kills everything after the step answered',
    commands: [{ command: '(sleep 1; kill -9 -1) >/dev/null 2>&1 &' }, { command: 'sleep 3', timeoutMs: 10_000 }],
    endsSandbox: true,
  },
  { name: 'memory exhausted (5 GiB asked of a 1 GiB sandbox)', commands: [{ command: 'python3 -c "x = [bytearray(2**28) for _ in range(20)]"', timeoutMs: 20_000 }], endsSandbox: false },
  { name: 'a fork bomb', commands: [{ command: ':(){ :|:& };:', timeoutMs: 3_000 }], endsSandbox: false },
  { name: 'the shell closes its stdin, stdout and stderr', commands: [{ command: 'exec 0<&- 1>&- 2>&-' }], endsSandbox: false },
  { name: '3 MB of random bytes printed', commands: [{ command: 'head -c 3000000 /dev/urandom' }], endsSandbox: false },
  { name: 'a 300 MB file in the workspace', commands: [{ command: 'head -c 300000000 /dev/zero > fill.bin' }], endsSandbox: false },
  { name: 'the workspace filled past the disk cap (600 MB into 512 MiB)', commands: [{ command: 'head -c 600000000 /dev/zero > fill.bin; echo "exit $?"', timeoutMs: 60_000 }], endsSandbox: false },
  { name: '/tmp filled to its limit', commands: [{ command: 'head -c 400000000 /dev/zero > /tmp/fill.bin; echo $?' }], endsSandbox: false },
];

describe('agent-caused faults are scored as the workspace stands (real engine)', () => {
  let env: DockerServer | undefined;
  let client: EnvironmentClient;

  beforeAll(async () => {
    // A short grace past a command's limit, so a frozen relay is noticed in about a second.
    // Every sandbox capped, as `serve` does by default (a loop disk per sandbox on this engine).
    env = await startDockerServer({ serverId: SERVER_ID, provider: { watchdogGraceMs: 1_000, isolation: { diskBytes: DISK_CAP_BYTES, ifNoDiskQuota: 'refuse' } } });
    client = env.client;
  });

  afterAll(async () => {
    await env?.close();
  });

  /** Runs the fault in one episode, after writing the reference solution when `solved`. */
  async function runEpisode(fault: Fault, solved: boolean): Promise<{ reward: Record<string, any>; steps: Array<Record<string, any>> }> {
    const id = (await client.call('Reset', { task_id: TASK }))['episode_id'] as string;
    let index = 0;
    try {
      if (solved) await client.call('Step', { episode_id: id, step_index: index++, action: { write_file: { path: 'textkit/slug.py', content: SOLUTION } } });
      const steps: Array<Record<string, any>> = [];
      for (const { command, timeoutMs } of fault.commands) {
        const step = await client.call('Step', { episode_id: id, step_index: index++, action: { shell: { command, timeout_ms: timeoutMs ?? 0 } } });
        steps.push(step);
        if (step['terminated']) break;
      }
      if (!fault.endsSandbox) {
        // The sandbox survived: it still answers.
        const alive = await client.call('Step', { episode_id: id, step_index: index++, action: { shell: { command: 'echo alive' } } });
        expect(alive['observation'].stdout).toContain('alive');
      }
      const reward = await client.call('Reward', { episode_id: id });
      return { reward, steps };
    } finally {
      await client.call('Close', { episode_id: id });
    }
  }

  it.each(FAULTS)('$name: the solved episode scores 1.0 and the unsolved 0.0, both SCORED', async (fault) => {
    const [solved, unsolved] = await Promise.all([runEpisode(fault, true), runEpisode(fault, false)]);
    expect(solved.reward, JSON.stringify(solved.reward)).toMatchObject({ outcome: 'SCORED', reward: 1 });
    expect(unsolved.reward, JSON.stringify(unsolved.reward)).toMatchObject({ outcome: 'SCORED', reward: 0 });
    for (const run of [solved, unsolved]) {
      const last = run.steps.at(-1)!;
      if (fault.endsSandbox) {
        // The step that ended it says so and ends the episode; the reward's detail names the cause.
        expect(last['terminated'], JSON.stringify(run.steps)).toBe(true);
        expect(last['observation'].stderr).toMatch(/the sandbox stopped during this step: .*call Reward/);
        expect(run.reward['detail']).toMatch(/the sandbox had stopped before scoring/);
      } else {
        expect(last['terminated']).toBe(false);
      }
    }
    if (fault.name.startsWith('a NUL')) expect(solved.steps[0]!['observation'].stderr).toMatch(/NUL byte/);
    if (fault.name.startsWith('a 300 MB')) expect(solved.reward['detail']).toMatch(/fill\.bin \(> \d+ bytes\)/);
    if (fault.name.startsWith('the workspace filled')) {
      for (const run of [solved, unsolved]) {
        const filled = run.steps[0]!['observation'];
        expect(filled.stderr).toMatch(/No space left on device/);
        expect(filled.stdout).toBe('exit 1\n');
      }
      expect(solved.reward['detail']).toMatch(/fill\.bin \(> \d+ bytes\)/);
    }
  });

  it('answers invalid UTF-8 and control bytes in commands, paths and contents without losing the sandbox', async () => {
    const id = (await client.call('Reset', { task_id: TASK }))['episode_id'] as string;
    try {
      await client.call('Step', { episode_id: id, step_index: 0, action: { write_file: { path: 'textkit/slug.py', content: SOLUTION } } });
      const bad = Buffer.from([0x65, 0xff, 0xfe, 0xc3, 0x28, 0x00, 0x1b, 0x07, 0x0d]); // 'e', invalid UTF-8, NUL, ESC, BEL, CR
      const actions = [
        field(1, Buffer.concat([field(1, Buffer.concat([Buffer.from('echo '), bad]))])), // shell.command
        field(3, Buffer.concat([field(1, bad), field(2, Buffer.from('x'))])), // write_file.path
        field(3, Buffer.concat([field(1, Buffer.from('bytes.txt')), field(2, bad)])), // write_file.content
        field(2, field(1, bad)), // read_file.path
        field(4, Buffer.concat([field(1, Buffer.from('bytes.txt')), field(2, bad), field(3, bad)])), // edit
      ];
      let index = 1;
      for (const action of actions) {
        const request = Buffer.concat([field(1, Buffer.from(id)), varintField(2, index), field(3, action)]);
        // An observation (the agent's bytes are its own business), never a dead relay or an RPC error.
        await client.callRaw('Step', request);
        index++;
      }
      const alive = await client.call('Step', { episode_id: id, step_index: index, action: { shell: { command: 'echo alive' } } });
      expect(alive['observation'].stdout).toBe('alive\n');
      expect(await client.call('Reward', { episode_id: id })).toMatchObject({ outcome: 'SCORED', reward: 1 });
    } finally {
      await client.call('Close', { episode_id: id });
    }
  });

  it('refuses a step after the sandbox ended, naming the cause', async () => {
    const id = (await client.call('Reset', { task_id: TASK }))['episode_id'] as string;
    try {
      const ended = await client.call('Step', { episode_id: id, step_index: 0, action: { shell: { command: 'kill -9 -1' } } });
      expect(ended['terminated']).toBe(true);
      const err = await client.call('Step', { episode_id: id, step_index: 1, action: { shell: { command: 'true' } } }).catch((e: unknown) => e);
      expect(err).toMatchObject({ code: 9 }); // FAILED_PRECONDITION
      expect((err as Error).message).toMatch(/has ended: its sandbox stopped because of what ran in it \(its processes ended \(exit code \d+\)/);
    } finally {
      await client.call('Close', { episode_id: id });
    }
  });
});

/** A length-delimited protobuf field: tag, length, bytes. */
function field(number: number, bytes: Buffer): Buffer {
  return Buffer.concat([varint((number << 3) | 2), varint(bytes.length), bytes]);
}

function varintField(number: number, value: number): Buffer {
  return Buffer.concat([varint(number << 3), varint(value)]);
}

function varint(value: number): Buffer {
  const out: number[] = [];
  let v = value;
  while (v >= 0x80) {
    out.push((v & 0x7f) | 0x80);
    v = Math.floor(v / 128);
  }
  out.push(v);
  return Buffer.from(out);
}
