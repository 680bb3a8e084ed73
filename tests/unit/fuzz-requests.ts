/**
 * Malformed and hostile requests for the server fuzz test, from a seeded generator: the same seed
 * gives the same requests in the same order, so a failure reproduces with CODEMIDAS_FUZZ_SEED.
 * Messages are encoded by hand (not through protobufjs) so that they can carry what no well-behaved
 * encoder writes: invalid UTF-8, wrong wire types, overlong varints, unknown oneof members.
 */
import { createRequire } from 'node:module';
import protobuf from 'protobufjs';

const require = createRequire(import.meta.url);

/** mulberry32: small, fast, and enough for picking test inputs. */
export function createRandom(seed: number): Random {
  let a = seed >>> 0;
  const next = (): number => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (n: number): number => Math.floor(next() * n);
  return {
    next,
    int,
    chance: (p) => next() < p,
    pick: <T>(items: readonly T[]): T => items[int(items.length)]!,
    bytes: (n) => {
      const out = Buffer.alloc(n);
      for (let i = 0; i < n; i++) out[i] = int(256);
      return out;
    },
  };
}

export interface Random {
  next(): number;
  int(n: number): number;
  chance(p: number): boolean;
  pick<T>(items: readonly T[]): T;
  bytes(n: number): Buffer;
}

export function varint(value: bigint): Buffer {
  const out: number[] = [];
  let v = BigInt.asUintN(64, value);
  do {
    let byte = Number(v & 0x7fn);
    v >>= 7n;
    if (v) byte |= 0x80;
    out.push(byte);
  } while (v);
  return Buffer.from(out);
}

const key = (field: number, wire: number): Buffer => varint(BigInt(field) * 8n + BigInt(wire));
export const lengthDelimited = (field: number, payload: Buffer): Buffer => Buffer.concat([key(field, 2), varint(BigInt(payload.length)), payload]);
const varintField = (field: number, value: bigint): Buffer => Buffer.concat([key(field, 0), varint(value)]);

/** What a hostile request may aim at: ids the server knows, so hostile values reach the episode. */
export interface FuzzTargets {
  taskId: string;
  episodeId: string | null;
  nextStepIndex: number;
  groupId: string | null;
}

/** Size of the server's receive limit; strings are made just under and just over it. */
export const RECEIVE_LIMIT_BYTES = 4 * 1024 * 1024;

const MiB = 1024 * 1024;

const HOSTILE_TEXT = [
  '',
  'a',
  '\0',
  'a\0b',
  '\0'.repeat(64),
  '../../../../../../etc/passwd',
  '/etc/shadow',
  'sample/../../../../etc/passwd',
  'sample/add/../../../hidden/cases.json',
  '..',
  '.',
  '/',
  '//',
  '\\..\\..\\windows\\system32',
  '%2e%2e%2f%2e%2e%2fetc%2fpasswd',
  'sample/add\0.json',
  'sample/add\n',
  ' sample/add',
  'SAMPLE/ADD',
  '\x1b[2J\x1b[31mred',
  'a\r\nb: injected-header',
  '\u202egnp.exe',
  '\uffff\ufffe',
  '\ud83d\ude00'.repeat(100),
  '$(rm -rf /)',
  '`reboot`; kill -9 -1',
  "'; DROP TABLE episodes; --",
  '{"__proto__":{"polluted":true}}',
  '__proto__',
  'constructor',
  'x'.repeat(1000),
  'x'.repeat(100_000),
];

/** Byte strings that are not UTF-8, sent where the proto says `string`. */
const INVALID_UTF8 = [
  Buffer.from([0xff]),
  Buffer.from([0xfe, 0xff]),
  Buffer.from([0xc0, 0x80]),
  Buffer.from([0xe2, 0x82]),
  Buffer.from([0xed, 0xa0, 0x80]),
  Buffer.from([0xf4, 0x90, 0x80, 0x80]),
  Buffer.from([0x61, 0x00, 0xff, 0x62]),
];

const INTEGERS = [0n, 1n, 127n, 128n, 2n ** 31n - 1n, 2n ** 31n, 2n ** 32n - 1n, 2n ** 32n, 2n ** 53n, 2n ** 63n, 2n ** 64n - 1n, -1n];

export interface FuzzCase {
  /** A gRPC method path, e.g. `/codemidas.v1.Environment/Reset`. */
  path: string;
  /** Which generator made it. */
  kind: string;
  /** The request message (the client frames it), or the whole HTTP/2 body when `rawBody`. */
  bytes: Buffer;
  /** Send `bytes` as the HTTP/2 request body as is, with these extra headers (frame-level cases). */
  rawBody?: { headers: Record<string, string> };
  /** Server-streaming (health Watch): the first message or a status both count as an answer. */
  streaming?: boolean;
}

export interface FuzzMethod {
  path: string;
  type: protobuf.Type;
  streaming?: boolean;
}

/** Every RPC of environment.proto, health's Check and Watch, and reflection (v1, v1alpha), with their request types. */
export function fuzzMethods(root: protobuf.Root): FuzzMethod[] {
  const service = root.lookupService('codemidas.v1.Environment');
  const methods: FuzzMethod[] = Object.values(service.methods).map((m) => ({
    path: `/codemidas.v1.Environment/${m.name}`,
    type: root.lookupType(`codemidas.v1.${m.requestType}`),
  }));
  const health = protobuf.parse('syntax = "proto3"; package grpc.health.v1; message HealthCheckRequest { string service = 1; }').root;
  const healthRequest = health.lookupType('grpc.health.v1.HealthCheckRequest');
  methods.push({ path: '/grpc.health.v1.Health/Check', type: healthRequest });
  methods.push({ path: '/grpc.health.v1.Health/Watch', type: healthRequest, streaming: true });
  // Reflection streams both ways; one request then half-close is answered with one response.
  for (const version of ['v1', 'v1alpha']) {
    const proto = require.resolve(`@grpc/reflection/build/proto/grpc/reflection/${version}/reflection.proto`);
    const reflection = new protobuf.Root().loadSync(proto, { keepCase: true });
    methods.push({ path: `/grpc.reflection.${version}.ServerReflection/ServerReflectionInfo`, type: reflection.lookupType(`grpc.reflection.${version}.ServerReflectionRequest`) });
  }
  return methods;
}

/** Generates the n-th case from the shared generator (call in order). */
export function nextFuzzCase(random: Random, methods: readonly FuzzMethod[], targets: FuzzTargets): FuzzCase {
  // Step is where hostile values reach a sandbox: it gets a share of its own.
  if (random.chance(0.08)) return { path: '/codemidas.v1.Environment/Step', kind: 'hostile-action', bytes: hostileStep(random, targets) };
  const method = random.pick(methods);
  const base = { path: method.path, ...(method.streaming ? { streaming: true } : {}) };
  const roll = random.next();
  if (roll < 0.12) return { ...base, kind: 'random-bytes', bytes: random.bytes(random.pick([1, 2, 3, 5, 8, 16, 64, 256, 4096])) };
  if (roll < 0.2) {
    const whole = hostileMessage(random, method.type, targets, 0);
    return { ...base, kind: 'truncated-message', bytes: whole.subarray(0, Math.max(0, whole.length - 1 - random.int(Math.max(1, whole.length)))) };
  }
  if (roll < 0.3) return { ...base, kind: 'wrong-wire-type', bytes: wrongWireType(random, method.type) };
  if (roll < 0.4) return { ...base, kind: 'varint-overflow', bytes: brokenEncoding(random, method.type) };
  if (roll < 0.47) return { ...base, kind: 'frame', ...brokenFrame(random, method.type, targets) };
  if (roll < 0.5) return { ...base, kind: 'size-limit', bytes: nearReceiveLimit(random, method.type) };
  if (roll < 0.57) return { ...base, kind: 'unknown-fields', bytes: Buffer.concat([hostileMessage(random, method.type, targets, 0), unknownFields(random, method.type)]) };
  if (method.path.endsWith('/Step') && roll < 0.75) return { ...base, kind: 'hostile-action', bytes: hostileStep(random, targets) };
  return { ...base, kind: 'hostile-values', bytes: hostileMessage(random, method.type, targets, 0) };
}

function hostileText(random: Random): Buffer {
  return random.chance(0.15) ? random.pick(INVALID_UTF8) : Buffer.from(random.pick(HOSTILE_TEXT), 'utf8');
}

/** A value for a named field: often an id the server knows (so the request reaches deeper), else hostile. */
function valueFor(random: Random, field: protobuf.Field, targets: FuzzTargets): Buffer {
  const known: Record<string, () => string | null> = {
    task_id: () => targets.taskId,
    episode_id: () => targets.episodeId,
    group_id: () => targets.groupId,
    service: () => random.pick(['', 'codemidas.v1.Environment']),
    suite: () => 'sample',
    language: () => 'python',
  };
  const wanted = known[field.name]?.();
  if (wanted != null && random.chance(0.5)) return Buffer.from(wanted, 'utf8');
  return hostileText(random);
}

function integerFor(random: Random, field: protobuf.Field, targets: FuzzTargets): bigint {
  if (field.name === 'step_index' && random.chance(0.6)) return BigInt(targets.nextStepIndex);
  if (field.name === 'group_size' && random.chance(0.4)) return BigInt(random.pick([1, 2, 3]));
  return random.pick(INTEGERS);
}

/** A message of `type` with every field well typed on the wire but carrying hostile values. */
function hostileMessage(random: Random, type: protobuf.Type, targets: FuzzTargets, depth: number): Buffer {
  const parts: Buffer[] = [];
  const oneofMembers = new Set(type.oneofsArray.flatMap((o) => o.fieldsArray.map((f) => f.name)));
  // Often exactly one oneof member, sometimes none (an empty action) or two (the last one wins).
  const chosen = new Set<string>();
  for (const oneof of type.oneofsArray) {
    const n = random.pick([0, 1, 1, 1, 2]);
    for (let i = 0; i < n; i++) chosen.add(random.pick(oneof.fieldsArray).name);
  }
  for (const field of type.fieldsArray) {
    if (oneofMembers.has(field.name) ? !chosen.has(field.name) : random.chance(0.2)) continue;
    const repeats = field.repeated ? random.int(3) + 1 : random.chance(0.05) ? 2 : 1;
    for (let i = 0; i < repeats; i++) parts.push(encodeField(random, field, targets, depth));
  }
  return Buffer.concat(random.chance(0.1) ? parts.reverse() : parts);
}

function encodeField(random: Random, field: protobuf.Field, targets: FuzzTargets, depth: number): Buffer {
  const nested = field.resolvedType instanceof protobuf.Type ? field.resolvedType : null;
  if (nested) return lengthDelimited(field.id, depth > 3 ? Buffer.alloc(0) : hostileMessage(random, nested, targets, depth + 1));
  switch (field.type) {
    case 'string':
    case 'bytes':
      return lengthDelimited(field.id, valueFor(random, field, targets));
    case 'double':
      return Buffer.concat([key(field.id, 1), random.bytes(8)]);
    case 'float':
      return Buffer.concat([key(field.id, 5), random.bytes(4)]);
    default:
      return varintField(field.id, integerFor(random, field, targets));
  }
}

/** One field sent with a wire type other than its own (including the invalid 6 and 7). */
function wrongWireType(random: Random, type: protobuf.Type): Buffer {
  const fields = allFields(type);
  const { field, path } = random.pick(fields);
  const expected = field.resolvedType instanceof protobuf.Type || field.type === 'string' ? 2 : field.type === 'double' ? 1 : 0;
  const wire = random.pick([0, 1, 2, 3, 4, 5, 6, 7].filter((w) => w !== expected));
  const payload =
    wire === 0 ? varint(random.pick(INTEGERS)) : wire === 1 ? random.bytes(8) : wire === 5 ? random.bytes(4) : wire === 2 ? Buffer.concat([varint(3n), Buffer.from('abc')]) : Buffer.alloc(0);
  let bytes: Buffer = Buffer.concat([key(field.id, wire), payload]);
  // Wrap it in its parent messages, so nested fields are reached.
  for (const parent of [...path].reverse()) bytes = lengthDelimited(parent.id, bytes);
  return bytes;
}

function allFields(type: protobuf.Type, path: protobuf.Field[] = [], depth = 0): { field: protobuf.Field; path: protobuf.Field[] }[] {
  const out: { field: protobuf.Field; path: protobuf.Field[] }[] = [];
  for (const field of type.fieldsArray) {
    out.push({ field, path });
    if (field.resolvedType instanceof protobuf.Type && depth < 3) out.push(...allFields(field.resolvedType, [...path, field], depth + 1));
  }
  return out;
}

/** Overlong varints, lengths past the end or past 2^32, field number 0, unmatched groups. */
function brokenEncoding(random: Random, type: protobuf.Type): Buffer {
  const field = random.pick(type.fieldsArray.length ? type.fieldsArray : [new protobuf.Field('x', 1, 'string')]);
  switch (random.int(9)) {
    case 0:
      // An 11-byte varint: past the 10 a uint64 can take.
      return Buffer.concat([key(field.id, 0), Buffer.alloc(10, 0xff), Buffer.from([0x01])]);
    case 1:
      // A varint that never ends.
      return Buffer.concat([key(field.id, 0), Buffer.alloc(random.int(20) + 1, 0x80)]);
    case 2:
      // A tag that never ends.
      return Buffer.alloc(random.int(12) + 1, 0xff);
    case 3:
      // A length far past the end of the message.
      return Buffer.concat([key(field.id, 2), varint(BigInt(random.pick([10, 1_000_000, 2 ** 31 - 1, 2 ** 32 + 5]))), Buffer.from('short')]);
    case 4:
      // A length over 2^63.
      return Buffer.concat([key(field.id, 2), varint(2n ** 63n + 7n), Buffer.from('x')]);
    case 5:
      // Field number 0 is not a field.
      return Buffer.concat([varint(BigInt(random.pick([0, 2, 5]))), varint(1n)]);
    case 6:
      // The largest field number (2^29-1) and one past it.
      return Buffer.concat([key(random.pick([2 ** 29 - 1, 2 ** 29, 2 ** 32 - 1]), 0), varint(1n)]);
    case 7:
      // A group that starts and never ends, or ends without starting.
      return random.chance(0.5) ? key(field.id, 3) : key(field.id, 4);
    default:
      // Groups nested thousands deep (recursive decoders run out of stack).
      return Buffer.concat([Buffer.concat(Array.from({ length: 5000 }, () => key(99, 3))), Buffer.concat(Array.from({ length: 5000 }, () => key(99, 4)))]);
  }
}

/** Fields the proto does not define, with every wire type, including new members of the action oneof. */
function unknownFields(random: Random, type: protobuf.Type): Buffer {
  const parts: Buffer[] = [];
  for (let i = random.int(4) + 1; i > 0; i--) {
    const id = random.pick([6, 7, 9, 15, 16, 100, 1000, 2 ** 29 - 1]);
    if (type.fieldsById[id]) continue;
    const wire = random.pick([0, 1, 2, 5]);
    const payload = wire === 0 ? varint(random.pick(INTEGERS)) : wire === 1 ? random.bytes(8) : wire === 5 ? random.bytes(4) : lengthDelimited(1, random.bytes(random.int(32)));
    parts.push(Buffer.concat([key(id, wire), payload]));
  }
  if (type.name === 'StepRequest') {
    // An Action whose oneof case is one no server version defines.
    parts.push(lengthDelimited(3, lengthDelimited(random.pick([6, 7, 8, 31]), lengthDelimited(1, Buffer.from('ls')))));
  }
  return Buffer.concat(parts);
}

/** A Step for the live episode at its next index, with an action built to hurt. */
function hostileStep(random: Random, targets: FuzzTargets): Buffer {
  const text = (): Buffer => hostileText(random);
  const action = random.pick([
    () => lengthDelimited(1, Buffer.concat([lengthDelimited(1, text()), varintField(2, random.pick(INTEGERS))])),
    () => lengthDelimited(1, lengthDelimited(1, Buffer.from('echo a\0b'))),
    () => lengthDelimited(2, Buffer.concat([lengthDelimited(1, text()), varintField(2, random.pick(INTEGERS)), varintField(3, random.pick(INTEGERS))])),
    () => lengthDelimited(3, Buffer.concat([lengthDelimited(1, text()), lengthDelimited(2, random.chance(0.2) ? Buffer.alloc(2 * MiB, 0x61) : text())])),
    () => lengthDelimited(4, Buffer.concat([lengthDelimited(1, text()), lengthDelimited(2, text()), lengthDelimited(3, text())])),
    () => lengthDelimited(5, Buffer.alloc(0)),
    // An empty Action: no member of the oneof.
    () => Buffer.alloc(0),
    // Shell and submit both set: proto3 keeps the last.
    () => Buffer.concat([lengthDelimited(5, Buffer.alloc(0)), lengthDelimited(1, lengthDelimited(1, Buffer.from('true')))]),
  ])();
  return Buffer.concat([
    lengthDelimited(1, Buffer.from(targets.episodeId ?? 'ep-none')),
    varintField(2, BigInt(targets.nextStepIndex)),
    lengthDelimited(3, action),
  ]);
}

/** A string field as large as the receive limit allows, or just past it. */
function nearReceiveLimit(random: Random, type: protobuf.Type): Buffer {
  const field = type.fieldsArray.find((f) => f.type === 'string') ?? new protobuf.Field('x', 1, 'string');
  const over = random.chance(0.5);
  const size = over ? RECEIVE_LIMIT_BYTES + random.int(4096) + 1 : RECEIVE_LIMIT_BYTES - 16 - random.int(4096);
  return lengthDelimited(field.id, Buffer.alloc(size, random.pick([0x00, 0x61, 0xff])));
}

/** gRPC's own framing broken: the 5-byte prefix, compression flags, several messages in a unary call. */
function brokenFrame(random: Random, type: protobuf.Type, targets: FuzzTargets): { bytes: Buffer; rawBody: { headers: Record<string, string> } } {
  const message = hostileMessage(random, type, targets, 0);
  const frame = (body: Buffer, compressed = 0, length = body.length): Buffer => {
    const prefix = Buffer.alloc(5);
    prefix[0] = compressed;
    prefix.writeUInt32BE(length >>> 0, 1);
    return Buffer.concat([prefix, body]);
  };
  switch (random.int(9)) {
    case 0:
      return { bytes: Buffer.alloc(0), rawBody: { headers: {} } };
    case 1:
      return { bytes: frame(message).subarray(0, random.int(5)), rawBody: { headers: {} } };
    case 2:
      return { bytes: frame(message, 0, message.length + 1 + random.int(100)), rawBody: { headers: {} } };
    case 3:
      return { bytes: frame(message, 0, 0xffffffff), rawBody: { headers: {} } };
    case 4:
      return { bytes: Buffer.concat([frame(message), frame(message)]), rawBody: { headers: {} } };
    case 5:
      return { bytes: frame(message, random.pick([1, 2, 0x80, 0xff])), rawBody: { headers: {} } };
    case 6:
      return { bytes: frame(random.bytes(random.int(64) + 1), 1), rawBody: { headers: { 'grpc-encoding': 'gzip' } } };
    case 7:
      return { bytes: frame(message, 1), rawBody: { headers: { 'grpc-encoding': random.pick(['br', 'snappy', 'x'.repeat(200)]) } } };
    default:
      return { bytes: frame(message), rawBody: { headers: { 'grpc-timeout': random.pick(['-1S', '99999999999H', 'soon', '1X']) } } };
  }
}
