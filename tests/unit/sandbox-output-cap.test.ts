import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { capOutput, truncationMarker, utf8Head, utf8Tail } from '../../src/sandbox/output-cap.js';

const RELAY = join(import.meta.dirname, '../../src/sandbox/relay/relay.py');
const MIXED = 'a' + 'é' + '€' + '𝄞' + 'b' + 'ü' + '😀' + 'z' + '中文' + '🎉x';

/** Splits a capped text back into head and tail around the marker. */
function parts(text: string): { head: string; tail: string; dropped: number } {
  const match = /\n\[\.\.\. (\d+) bytes truncated \.\.\.\]\n/.exec(text);
  if (!match) throw new Error(`no marker in ${JSON.stringify(text)}`);
  return { head: text.slice(0, match.index), tail: text.slice(match.index + match[0].length), dropped: Number(match[1]) };
}

describe('capOutput (head+tail, UTF-8 safe)', () => {
  it('returns short output unchanged and not truncated', () => {
    expect(capOutput(Buffer.from('hello'), 5)).toEqual({ text: 'hello', truncated: false });
  });

  it('keeps the first and last half of long output with a marker naming the dropped bytes', () => {
    const input = Buffer.from('0123456789'.repeat(10));
    const capped = capOutput(input, 10);
    expect(capped.truncated).toBe(true);
    expect(capped.text).toBe(`01234${truncationMarker(90)}56789`);
  });

  it('never splits a multibyte character, at every cap size', () => {
    const input = Buffer.from(MIXED.repeat(3));
    const full = MIXED.repeat(3);
    for (let cap = 0; cap < input.length; cap++) {
      const { text, truncated } = capOutput(input, cap);
      expect(truncated).toBe(true);
      expect(text).not.toContain('\uFFFD');
      const { head, tail, dropped } = parts(text);
      expect(full.startsWith(head)).toBe(true);
      expect(full.endsWith(tail)).toBe(true);
      expect(Buffer.byteLength(head) + Buffer.byteLength(tail)).toBeLessThanOrEqual(cap);
      expect(Buffer.byteLength(head) + Buffer.byteLength(tail) + dropped).toBe(input.length);
    }
  });

  it('utf8Head drops an incomplete trailing character and utf8Tail a partial leading one', () => {
    const euro = Buffer.from('€'); // e2 82 ac
    expect(utf8Head(Buffer.concat([Buffer.from('a'), euro.subarray(0, 2)])).toString()).toBe('a');
    expect(utf8Head(Buffer.concat([Buffer.from('a'), euro])).toString()).toBe('a€');
    expect(utf8Tail(Buffer.concat([euro.subarray(1), Buffer.from('b')])).toString()).toBe('b');
    expect(utf8Tail(Buffer.from('€b')).toString()).toBe('€b');
  });

  it('matches the relay (relay.py CappedOutput) byte for byte', () => {
    const script = [
      'import sys, json, importlib.util',
      `spec = importlib.util.spec_from_file_location("relay", ${JSON.stringify(RELAY)})`,
      'relay = importlib.util.module_from_spec(spec); spec.loader.exec_module(relay)',
      'data = sys.stdin.buffer.read()',
      'out = []',
      'for cap in range(0, len(data) + 2):',
      '    c = relay.CappedOutput(cap); c.feed(data[:7]); c.feed(data[7:])',
      '    out.append([c.text(), c.truncated])',
      'print(json.dumps(out))',
    ].join('\n');
    const input = Buffer.from(MIXED.repeat(2));
    const fromPython = JSON.parse(execFileSync('/usr/bin/python3', ['-c', script], { input }).toString()) as [string, boolean][];
    fromPython.forEach(([text, truncated], cap) => {
      expect({ cap, ...capOutput(input, cap) }).toEqual({ cap, text, truncated });
    });
  });
});
