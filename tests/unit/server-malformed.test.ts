/**
 * What the fuzz test found, one test each: requests whose answer used to hang the client's
 * connection, or came back INTERNAL or UNIMPLEMENTED though the request was merely malformed.
 */
import http2 from 'node:http2';
import * as grpc from '@grpc/grpc-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resolveLimits } from '../../src/config/limits.js';
import { createEpisodeManager } from '../../src/episodes/episode-manager.js';
import { createSilentLogger } from '../../src/logging.js';
import { createMemorySandboxProvider } from '../../src/sandbox/memory/memory-sandbox-provider.js';
import { boundStatusDetails } from '../../src/server/create-status-details-interceptor.js';
import { type RunningServer, startServer } from '../../src/server/start-server.js';
import { FakeScorer, makeCatalog, WORKSPACE } from './episodes-fakes.js';
import { lengthDelimited, varint } from './fuzz-requests.js';
import { sendFramed, sendRaw } from './raw-grpc.js';

const OPTIONS = { deadlineMs: 3_000 };
const ENV = '/codemidas.v1.Environment';

function frame(message: Buffer): Buffer {
  const prefix = Buffer.alloc(5);
  prefix.writeUInt32BE(message.length, 1);
  return Buffer.concat([prefix, message]);
}

describe('malformed requests the fuzz test found', () => {
  let server: RunningServer;
  let client: grpc.Client;
  let session: http2.ClientHttp2Session;

  beforeAll(async () => {
    const limits = resolveLimits({});
    const logger = createSilentLogger();
    const manager = createEpisodeManager({ provider: createMemorySandboxProvider(), catalog: makeCatalog(), scorer: new FakeScorer(), logger, limits, readWorkspace: async () => WORKSPACE });
    server = await startServer({ manager, catalog: makeCatalog(), logger, limits, listen: { host: '127.0.0.1', port: 0 } });
    client = new grpc.Client(server.address, grpc.credentials.createInsecure());
    session = http2.connect(`http://${server.address}`);
  });
  afterAll(async () => {
    session?.close();
    client?.close();
    await server?.close({ graceMs: 100 });
  });

  it('answers an id of 4 MB with NOT_FOUND and a bounded message, and the same connection answers the next call at once', async () => {
    // The whole id used to go back in grpc-message: a 4 MB trailer broke the client's connection
    // and every call on it waited for its deadline.
    const huge = lengthDelimited(1, Buffer.alloc(4_000_000, 0x61));
    const answer = await sendFramed(client, `${ENV}/Reward`, huge, OPTIONS);
    expect(answer.code).toBe('NOT_FOUND');
    expect(answer.details).toMatch(/^unknown episode 'aaaa.*… \(\d+ more characters cut\)$/);
    expect(answer.details.length).toBeLessThan(1100);
    const started = Date.now();
    const next = await sendFramed(client, `${ENV}/Reward`, lengthDelimited(1, Buffer.from('ep-x')), OPTIONS);
    expect(next.code).toBe('NOT_FOUND');
    expect(Date.now() - started).toBeLessThan(1_000);
  });

  it('answers a task id that is not UTF-8 with NOT_FOUND, its message carrying U+FFFD where the bad bytes were', async () => {
    // 0xED 0xA0 0x80 decodes to a lone surrogate; grpc-js's encodeURI of it threw while sending the status.
    const answer = await sendFramed(client, `${ENV}/Reset`, lengthDelimited(1, Buffer.from([0x61, 0xed, 0xa0, 0x80, 0x62])), OPTIONS);
    expect(answer.code).toBe('NOT_FOUND');
    expect(answer.details).toMatch(/^unknown task 'a\ufffd+b'/);
  });

  it('answers a health Check or Watch that does not decode with INVALID_ARGUMENT naming the field (grpc-js alone: INTERNAL)', async () => {
    const wrongType = Buffer.concat([varint(1n << 3n), varint(5n)]);
    expect(await sendFramed(client, '/grpc.health.v1.Health/Check', wrongType, OPTIONS)).toMatchObject({
      code: 'INVALID_ARGUMENT',
      details: expect.stringMatching(/^service: expected string/),
    });
    expect(await sendFramed(client, '/grpc.health.v1.Health/Watch', wrongType, { ...OPTIONS, streaming: true })).toMatchObject({
      code: 'INVALID_ARGUMENT',
      details: expect.stringMatching(/^service: expected string/),
    });
    expect(await sendFramed(client, '/grpc.health.v1.Health/Check', Buffer.from([0x0a, 0x05, 0x61]), OPTIONS)).toMatchObject({
      code: 'INVALID_ARGUMENT',
      details: expect.stringMatching(/^request: not a valid HealthCheckRequest message/),
    });
    // Well-formed health requests are answered as before.
    expect(await sendFramed(client, '/grpc.health.v1.Health/Check', lengthDelimited(1, Buffer.from('nope')), OPTIONS)).toMatchObject({ code: 'NOT_FOUND' });
    expect((await sendFramed(client, '/grpc.health.v1.Health/Check', Buffer.alloc(0), OPTIONS)).code).toBe('OK');
    expect((await sendFramed(client, '/grpc.health.v1.Health/Watch', Buffer.alloc(0), { ...OPTIONS, streaming: true })).code).toBe('OK');
  });

  it('answers a reflection request that does not decode with INVALID_ARGUMENT (grpc-js alone: INTERNAL), and a good one as before', async () => {
    for (const version of ['v1', 'v1alpha']) {
      const path = `/grpc.reflection.${version}.ServerReflection/ServerReflectionInfo`;
      expect(await sendFramed(client, path, Buffer.from([0xff, 0xff, 0xff]), OPTIONS)).toMatchObject({
        code: 'INVALID_ARGUMENT',
        details: expect.stringMatching(/^request: could not decode the request message/),
      });
      // list_services (field 7): answered in-band, status OK.
      const listed = await sendFramed(client, path, lengthDelimited(7, Buffer.alloc(0)), OPTIONS);
      expect(listed.code).toBe('OK');
      expect(listed.message?.toString('latin1')).toContain('codemidas.v1.Environment');
    }
  });

  it('answers a unary call with no request message, or two, with INVALID_ARGUMENT (grpc-js alone: UNIMPLEMENTED)', async () => {
    const listTasks = frame(Buffer.alloc(0));
    expect(await sendRaw(session, `${ENV}/ListTasks`, Buffer.alloc(0), {}, OPTIONS)).toEqual({
      code: 'INVALID_ARGUMENT',
      details: 'request: this method takes exactly one request message, got none',
    });
    // A frame whose length says more than the body holds ends the same way: no whole message.
    expect((await sendRaw(session, `${ENV}/ListTasks`, listTasks.subarray(0, 3), {}, OPTIONS)).code).toBe('INVALID_ARGUMENT');
    expect(await sendRaw(session, `${ENV}/ListTasks`, Buffer.concat([listTasks, listTasks]), {}, OPTIONS)).toEqual({
      code: 'INVALID_ARGUMENT',
      details: 'request: this method takes exactly one request message, got more than one',
    });
    expect((await sendRaw(session, '/grpc.health.v1.Health/Check', Buffer.alloc(0), {}, OPTIONS)).code).toBe('INVALID_ARGUMENT');
    expect((await sendRaw(session, `${ENV}/ListTasks`, listTasks, {}, OPTIONS)).code).toBe('OK');
  });

  it('boundStatusDetails keeps short messages, cuts long ones saying by how much, and replaces only lone surrogates', () => {
    expect(boundStatusDetails('unknown task \u{1F600}')).toBe('unknown task \u{1F600}');
    expect(boundStatusDetails('x'.repeat(10), 4)).toBe('xxxx… (6 more characters cut)');
    expect(boundStatusDetails('a\ud800b\udc00c\ud83d\ude00')).toBe('a\ufffdb\ufffdc\u{1F600}');
  });
});
