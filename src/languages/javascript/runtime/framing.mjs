// Length-prefixed frames on the channel between the judge and a subject (the JavaScript twin of
// src/languages/python/judge/framing.py): MAGIC "CMF1" (4 bytes) + payload length (4 bytes, big-endian) +
// UTF-8 JSON payload. Anything else on the channel (a wrong magic, an oversized length, bytes that
// are not JSON) is garbage: the reader throws FrameError and the judge fails the case.
import { Buffer } from 'node:buffer';

export const MAGIC = 'CMF1';
export const MAX_FRAME_BYTES = 32 * 1024 * 1024;

/** The peer sent something that is not a well-formed frame. */
export class FrameError extends Error {
  constructor(message) {
    super(message);
    this.name = 'FrameError';
  }
}

// Captured when this file is first evaluated, before any workspace code runs in a subject.
const jsonStringify = JSON.stringify;
const isArray = Array.isArray;
const objectKeys = Object.keys;
const bufferFrom = Buffer.from;
const bufferConcat = Buffer.concat;
const bufferAlloc = Buffer.alloc;

/**
 * JSON text of plain data (objects, arrays, strings, finite numbers, booleans, null) that never
 * calls a `toJSON` (a subject's code may have put one on Object.prototype or Array.prototype):
 * primitives go through JSON.stringify, which looks up no toJSON for them.
 */
export function plainStringify(value) {
  if (value === null || typeof value === 'boolean' || typeof value === 'string') return jsonStringify(value);
  if (typeof value === 'number') return Number.isFinite(value) ? jsonStringify(value) : 'null';
  if (typeof value !== 'object') return 'null';
  if (isArray(value)) {
    let out = '[';
    for (let i = 0; i < value.length; i++) out += (i === 0 ? '' : ',') + plainStringify(value[i]);
    return `${out}]`;
  }
  let out = '{';
  let first = true;
  for (const key of objectKeys(value)) {
    if (value[key] === undefined) continue;
    out += `${first ? '' : ','}${jsonStringify(key)}:${plainStringify(value[key])}`;
    first = false;
  }
  return `${out}}`;
}

/** One frame for `value` (plain data). */
export function encodeFrame(value) {
  const payload = bufferFrom(plainStringify(value), 'utf8');
  if (payload.length > MAX_FRAME_BYTES) throw new FrameError(`frame of ${payload.length} bytes exceeds the cap`);
  const header = bufferAlloc(8);
  header.write(MAGIC, 0, 'latin1');
  header.writeUInt32BE(payload.length, 4);
  return bufferConcat([header, payload]);
}

/** Collects bytes and hands out whole frames; `parse` is JSON.parse as captured before untrusted code ran. */
export class FrameReader {
  constructor(parse = JSON.parse) {
    this.parse = parse;
    this.buffer = Buffer.alloc(0);
  }

  push(chunk) {
    this.buffer = this.buffer.length === 0 ? chunk : Buffer.concat([this.buffer, chunk]);
  }

  /** The next whole frame's value, or undefined when more bytes are needed; throws FrameError on garbage. */
  next() {
    if (this.buffer.length < 8) {
      if (this.buffer.length > 0 && !MAGIC.startsWith(this.buffer.toString('latin1', 0, Math.min(4, this.buffer.length)))) throw new FrameError('bad frame magic');
      return undefined;
    }
    if (this.buffer.toString('latin1', 0, 4) !== MAGIC) throw new FrameError('bad frame magic');
    const length = this.buffer.readUInt32BE(4);
    if (length > MAX_FRAME_BYTES) throw new FrameError(`frame of ${length} bytes exceeds the cap`);
    if (this.buffer.length < 8 + length) return undefined;
    const payload = this.buffer.subarray(8, 8 + length);
    this.buffer = this.buffer.subarray(8 + length);
    try {
      return this.parse(payload.toString('utf8'));
    } catch (error) {
      throw new FrameError(`frame payload is not JSON: ${error?.message ?? error}`);
    }
  }
}
