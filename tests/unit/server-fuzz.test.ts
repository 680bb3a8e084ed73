/**
 * Fuzz at the server edge: over a thousand malformed or hostile requests, spread over every RPC of
 * environment.proto, the health service and reflection, sent as raw bytes to a real server on a real port (the
 * in-memory sandbox behind it). Each must be answered with a gRPC status inside its deadline, never
 * INTERNAL or UNKNOWN for input that is merely malformed, and never log an unexpected error; after
 * them the server is SERVING and runs a normal episode.
 *
 * Reproduce a failure with CODEMIDAS_FUZZ_SEED=<the printed seed> (CODEMIDAS_FUZZ_COUNT sets how many;
 * CODEMIDAS_FUZZ_TRACE=1 prints every request's answer and time).
 */
import http2 from 'node:http2';
import * as grpc from '@grpc/grpc-js';
import { pino } from 'pino';
import protobuf from 'protobufjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resolveLimits } from '../../src/config/limits.js';
import { createEpisodeManager } from '../../src/episodes/episode-manager.js';
import { createMemorySandboxProvider } from '../../src/sandbox/memory/memory-sandbox-provider.js';
import { ENVIRONMENT_PROTO_PATH } from '../../src/server/load-environment-proto.js';
import { type RunningServer, startServer } from '../../src/server/start-server.js';
import { FakeScorer, makeCatalog, WORKSPACE } from './episodes-fakes.js';
import { createRandom, type FuzzCase, type FuzzTargets, fuzzMethods, nextFuzzCase } from './fuzz-requests.js';
import { type Answer, sendFramed, sendRaw } from './raw-grpc.js';
import { createEnvironmentClient, type EnvironmentClient } from './server-client.js';

const SEED = Number(process.env['CODEMIDAS_FUZZ_SEED'] ?? 0x5eed_2026);
const COUNT = Number(process.env['CODEMIDAS_FUZZ_COUNT'] ?? 1200);
const TASK = 'sample/add';
/** Each call's deadline; an answer later than this (plus slack) is a hang. */
const DEADLINE_MS = 5_000;
const HANG_MS = DEADLINE_MS + 2_000;

/**
 * The two INTERNAL answers grpc-js itself gives, before any application code runs, for broken
 * transport (a gzip body that does not inflate, an unparsable grpc-timeout header). They are sent
 * by grpc-js's base call directly, past interceptors and deserializers, so the server cannot
 * choose another code for them.
 */
const GRPC_JS_OWN_INTERNAL = [/^Failed to decompress message$/, /^Invalid grpc-timeout value /];

/** Codes that mean the server failed rather than refused. */
const NEVER = new Set(['UNKNOWN', 'DEADLINE_EXCEEDED', 'CANCELLED', 'UNAVAILABLE', 'DATA_LOSS']);

const root = new protobuf.Root().loadSync(ENVIRONMENT_PROTO_PATH, { keepCase: true });
const StepResponse = root.lookupType('codemidas.v1.StepResponse');
const ResetResponse = root.lookupType('codemidas.v1.ResetResponse');
const ResetGroupResponse = root.lookupType('codemidas.v1.ResetGroupResponse');

function describeCase(index: number, fuzz: FuzzCase): string {
  const hex = fuzz.bytes.subarray(0, 200).toString('hex');
  const more = fuzz.bytes.length > 200 ? `… (${fuzz.bytes.length} bytes in all)` : '';
  const headers = fuzz.rawBody ? ` raw HTTP/2 body, headers ${JSON.stringify(fuzz.rawBody.headers)}` : '';
  return `seed ${SEED} case #${index} ${fuzz.kind} ${fuzz.path}${headers}: ${hex}${more}`;
}

describe('fuzz: malformed requests at the server edge', () => {
  let server: RunningServer;
  let client: EnvironmentClient;
  let raw: grpc.Client;
  let session: http2.ClientHttp2Session;
  const logged: { level: number; msg: string; line: string }[] = [];

  beforeAll(async () => {
    const provider = createMemorySandboxProvider({
      execHandler: (_sandbox, command) => ({ stdout: 'shell' in command ? `${command.shell}\n` : `${command.argv.join(' ')}\n` }),
    });
    const logger = pino(
      { level: 'warn' },
      {
        write: (line: string) => {
          const parsed = JSON.parse(line) as { level: number; msg: string };
          logged.push({ level: parsed.level, msg: parsed.msg, line });
        },
      },
    );
    const limits = resolveLimits({});
    const manager = createEpisodeManager({ provider, catalog: makeCatalog(), scorer: new FakeScorer(), logger, limits, readWorkspace: async () => WORKSPACE });
    server = await startServer({ manager, catalog: makeCatalog(), logger, limits, listen: { host: '127.0.0.1', port: 0 } });
    client = createEnvironmentClient(server.address, { deadlineMs: DEADLINE_MS });
    raw = new grpc.Client(server.address, grpc.credentials.createInsecure(), { 'grpc.max_receive_message_length': -1 });
    session = http2.connect(`http://${server.address}`);
    session.on('error', () => {});
  });
  afterAll(async () => {
    session?.close();
    raw?.close();
    client?.close();
    await server?.close({ graceMs: 100 });
  });

  it(`answers ${COUNT} malformed requests across every RPC (health and reflection too) with a status in time, and stays healthy`, { timeout: 120_000 }, async () => {
    // eslint-disable-next-line no-console
    console.log(`fuzz seed ${SEED} (CODEMIDAS_FUZZ_SEED=${SEED} reproduces), ${COUNT} requests`);
    const random = createRandom(SEED);
    const methods = fuzzMethods(root);
    const targets: FuzzTargets = { taskId: TASK, episodeId: null, nextStepIndex: 0, groupId: null };
    const renew = async (): Promise<void> => {
      if (targets.episodeId) await client.call('Close', { episode_id: targets.episodeId }).catch(() => {});
      targets.episodeId = (await client.call('Reset', { task_id: TASK }))['episode_id'];
      targets.nextStepIndex = 0;
    };
    await renew();
    targets.groupId = (await client.call('ResetGroup', { task_id: TASK, group_size: 2 }))['group_id'];

    const tally = new Map<string, number>();
    const kinds = new Map<string, number>();
    const byMethod = new Map<string, Set<string>>();
    const failures: string[] = [];
    const started = Date.now();
    for (let i = 0; i < COUNT; i++) {
      const fuzz = nextFuzzCase(random, methods, targets);
      const sent = Date.now();
      let timer: NodeJS.Timeout | undefined;
      const hang = new Promise<Answer>((resolve) => {
        timer = setTimeout(() => resolve({ code: 'HANG', details: `no answer in ${HANG_MS} ms` }), HANG_MS);
      });
      const answer = await Promise.race([fuzz.rawBody ? sendRaw(session, fuzz.path, fuzz.bytes, fuzz.rawBody.headers, { deadlineMs: DEADLINE_MS, streaming: fuzz.streaming ?? false }) : sendFramed(raw, fuzz.path, fuzz.bytes, { deadlineMs: DEADLINE_MS, streaming: fuzz.streaming ?? false }), hang]);
      clearTimeout(timer);
      const ms = Date.now() - sent;
      kinds.set(fuzz.kind, (kinds.get(fuzz.kind) ?? 0) + 1);
      // eslint-disable-next-line no-console
      if (process.env['CODEMIDAS_FUZZ_TRACE']) console.log(`#${i} ${fuzz.kind} ${fuzz.path} ${fuzz.bytes.length}B -> ${answer.code} ${ms}ms ${answer.details.slice(0, 120)}`);
      tally.set(`${fuzz.kind} ${answer.code}`, (tally.get(`${fuzz.kind} ${answer.code}`) ?? 0) + 1);
      const method = fuzz.path.slice(fuzz.path.lastIndexOf('/') + 1);
      byMethod.set(method, (byMethod.get(method) ?? new Set()).add(answer.code));

      const internalAllowed = answer.code === 'INTERNAL' && fuzz.rawBody && GRPC_JS_OWN_INTERNAL.some((re) => re.test(answer.details));
      if (answer.code === 'HANG' || answer.code === 'NO_STATUS' || NEVER.has(answer.code) || (answer.code === 'INTERNAL' && !internalAllowed)) {
        failures.push(`${answer.code} (${answer.details}) after ${ms} ms for ${describeCase(i, fuzz)}`);
      }
      await keepTargets(fuzz, answer, targets, client, renew);
    }
    const elapsedMs = Date.now() - started;

    const table = [...tally].sort(([a], [b]) => a.localeCompare(b)).map(([k, n]) => `  ${k}: ${n}`);
    const methodsSeen = [...byMethod].map(([m, codes]) => `  ${m}: ${[...codes].sort().join(', ')}`);
    // eslint-disable-next-line no-console
    console.log(`fuzz: ${COUNT} requests in ${elapsedMs} ms\n${table.join('\n')}\nby method:\n${methodsSeen.join('\n')}`);

    expect(failures, failures.slice(0, 10).join('\n')).toEqual([]);
    // Every kind of malformation was sent, each many times.
    const kindCounts = Object.fromEntries([...kinds].sort());
    for (const kind of ['frame', 'hostile-action', 'hostile-values', 'random-bytes', 'size-limit', 'truncated-message', 'unknown-fields', 'varint-overflow', 'wrong-wire-type']) {
      expect(kinds.get(kind) ?? 0, `${kind} in ${JSON.stringify(kindCounts)}`).toBeGreaterThanOrEqual(Math.floor(COUNT / 100));
    }
    // Every RPC of the proto and both health methods were reached.
    expect([...byMethod.keys()].sort()).toEqual(['Check', 'Close', 'GetTask', 'ListTasks', 'Reset', 'ResetGroup', 'Reward', 'RewardGroup', 'ServerReflectionInfo', 'Step', 'Watch']);
    const errors = logged.filter((l) => l.level >= 50);
    expect(errors.map((l) => l.line).slice(0, 5), `seed ${SEED}: the server logged unexpected errors`).toEqual([]);

    // Healthy after: SERVING, and a normal episode runs from Reset to Close.
    expect(await client.health()).toBe('SERVING');
    expect(await client.health('codemidas.v1.Environment')).toBe('SERVING');
    if (targets.episodeId) await client.call('Close', { episode_id: targets.episodeId });
    if (targets.groupId) await client.call('Close', { group_id: targets.groupId });
    const id = (await client.call('Reset', { task_id: TASK, seed: '7' }))['episode_id'];
    const step = await client.call('Step', { episode_id: id, step_index: 0, action: { shell: { command: 'echo alive' } } });
    expect(step['observation']).toMatchObject({ stdout: 'echo alive\n', exit_code: 0 });
    await client.call('Step', { episode_id: id, step_index: 1, action: { write_file: { path: 'pkg/add.py', content: 'return a + b' } } });
    await client.call('Step', { episode_id: id, step_index: 2, action: { submit: {} } });
    expect(await client.call('Reward', { episode_id: id })).toMatchObject({ reward: 1, outcome: 'SCORED' });
    expect((await client.call('Close', { episode_id: id }))['closed']).toBe(1);
  });
});

/**
 * Keeps the live episode usable for the next hostile Step (its next index, a fresh one once it is
 * finished or closed) and closes whatever episodes the fuzz Resets opened, so capacity holds.
 */
async function keepTargets(fuzz: FuzzCase, answer: Answer, targets: FuzzTargets, client: EnvironmentClient, renew: () => Promise<void>): Promise<void> {
  const method = fuzz.path.slice(fuzz.path.lastIndexOf('/') + 1);
  if (answer.code === 'OK' && answer.message && !fuzz.rawBody) {
    if (method === 'Reset') {
      const r = ResetResponse.toObject(ResetResponse.decode(answer.message)) as { episode_id?: string };
      if (r.episode_id) await client.call('Close', { episode_id: r.episode_id });
    } else if (method === 'ResetGroup') {
      const r = ResetGroupResponse.toObject(ResetGroupResponse.decode(answer.message)) as { group_id?: string };
      if (r.group_id) await client.call('Close', { group_id: r.group_id });
    } else if (method === 'Step' && fuzz.bytes.includes(Buffer.from(targets.episodeId ?? '\0\0'))) {
      const r = StepResponse.toObject(StepResponse.decode(answer.message), { defaults: true }) as { step_index: number; terminated: boolean; truncated: boolean };
      if (r.terminated || r.truncated) await renew();
      else targets.nextStepIndex = Math.max(targets.nextStepIndex, r.step_index + 1);
    }
  }
  // The live episode was closed, scored or finished by some case: take a fresh one.
  if ((method === 'Step' || method === 'Reward' || method === 'Close') && answer.code !== 'OK' && answer.code !== 'INVALID_ARGUMENT') {
    await renew();
  } else if (method === 'Reward' || method === 'Close') {
    await renew();
  }
}
