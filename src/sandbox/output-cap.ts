/**
 * Head+tail output capping, the TypeScript twin of `CappedOutput` in relay.py (the in-memory fake
 * uses it; the relay does the same inside real sandboxes). Beyond `maxBytes`, the first half and the
 * last half are kept, joined by a marker naming how many bytes were dropped, cut only at UTF-8
 * character boundaries.
 */
export interface CappedText {
  text: string;
  truncated: boolean;
}

export function truncationMarker(droppedBytes: number): string {
  return `\n[... ${droppedBytes} bytes truncated ...]\n`;
}

/** Drops an incomplete multibyte character at the end of `bytes`. */
export function utf8Head(bytes: Buffer): Buffer {
  const n = bytes.length;
  let i = n - 1;
  while (i >= 0 && n - i <= 4 && ((bytes[i] ?? 0) & 0xc0) === 0x80) i--;
  if (i < 0) return n > 0 && ((bytes[0] ?? 0) & 0xc0) === 0x80 ? bytes.subarray(0, 0) : bytes;
  const lead = bytes[i] ?? 0;
  const need = lead < 0x80 ? 1 : lead >= 0xf0 ? 4 : lead >= 0xe0 ? 3 : lead >= 0xc0 ? 2 : 1;
  return i + need <= n ? bytes : bytes.subarray(0, i);
}

/** Drops continuation bytes at the start of `bytes` (the rest of a character cut off in front). */
export function utf8Tail(bytes: Buffer): Buffer {
  let i = 0;
  while (i < bytes.length && i < 3 && ((bytes[i] ?? 0) & 0xc0) === 0x80) i++;
  return bytes.subarray(i);
}

export function capOutput(bytes: Buffer, maxBytes: number): CappedText {
  const max = Math.max(0, Math.floor(maxBytes));
  if (bytes.length <= max) return { text: bytes.toString('utf8'), truncated: false };
  const tailCap = Math.floor(max / 2);
  const headCap = max - tailCap;
  const head = utf8Head(bytes.subarray(0, headCap));
  const tail = tailCap > 0 ? utf8Tail(bytes.subarray(bytes.length - tailCap)) : bytes.subarray(0, 0);
  const dropped = bytes.length - head.length - tail.length;
  return { text: head.toString('utf8') + truncationMarker(dropped) + tail.toString('utf8'), truncated: true };
}
