import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { inspect } from 'node:util';
import { beforeAll, describe, expect, it } from 'vitest';
import { inspectTagged, javascriptString, taggedToJavaScript } from '../../src/languages/javascript/javascript-values.js';
import { javascriptRuntimeDir } from '../../src/languages/javascript/record-javascript-cases.js';

interface Codec {
  encode(value: unknown): unknown;
  same(a: unknown, b: unknown): boolean;
}

let codec: Codec;
beforeAll(async () => {
  codec = (await import(pathToFileURL(join(javascriptRuntimeDir(), 'codec.mjs')).href)) as Codec;
});

class Point {
  constructor(
    readonly x: number,
    readonly y: number,
  ) {}
}

class ValidationError extends Error {
  code = 'E_BAD';
}

function sparse(): unknown[] {
  const out = [1, 2, 3, 4];
  delete out[1];
  delete out[3];
  return out;
}

/** Values of every tag the codec writes, with the awkward cases of each. */
function values(): [string, unknown][] {
  const withProps = Object.assign([1, 2], { extra: 'yes' });
  const nullProto = Object.assign(Object.create(null) as object, { a: 1 });
  const re = /a\/b+/gi;
  re.lastIndex = 2;
  const protoKey = JSON.parse('{"__proto__": 1, "b c": 2, "3": 4}') as unknown;
  return [
    ['undefined', undefined],
    ['null', null],
    ['booleans', [true, false]],
    ['numbers', [0, -0, 1.5, NaN, Infinity, -Infinity, 1e21, -2, 5e-7]],
    ['bigints', [10n, -3n, 0n]],
    ['strings', ["it's", 'line\nbreak\ttab', '\\', '\u0000\u007f', 'é😀', '\u2028']],
    ['a lone surrogate', '\ud800x'],
    ['holes', sparse()],
    ['a trailing hole', [1, , ]], // eslint-disable-line no-sparse-arrays
    ['an array with props', withProps],
    ['objects', { a: 1, 'b-c': { d: [] }, $e: null, _f: undefined }],
    ['keys that need quotes or a computed key', protoKey],
    ['a null-prototype object', nullProto],
    ['a class instance', new Point(1, 2)],
    ['maps and sets', new Map<unknown, unknown>([['a', 1], [{ k: 1 }, new Set([1, 'x'])]])],
    ['dates', [new Date(0), new Date(NaN)]],
    ['regexps', [/x/, re, /(?:)/u]],
    ['typed arrays', [new Uint8Array([1, 255]), new Int16Array([-2, 300]), new Float64Array([1.5, -0, NaN]), new BigInt64Array([-1n, 2n])]],
    ['a Buffer, a DataView and an ArrayBuffer', [Buffer.from('hi'), new DataView(new Uint8Array([7, 8]).buffer), new Uint8Array([9]).buffer]],
    ['errors', [new RangeError('bad'), Object.assign(new TypeError('t'), { code: 42 })]],
  ];
}

describe('taggedToJavaScript', () => {
  it.each(values())('writes %s as an expression that evaluates to the same encoding', (_, value) => {
    const tagged = codec.encode(value);
    const source = taggedToJavaScript(tagged);
    const evaluated = new Function('Point', 'Buffer', `return (${source});`)(Point, Buffer) as unknown;
    expect(codec.same(codec.encode(evaluated), tagged), source).toBe(true);
  });

  it('writes the literal forms people expect', () => {
    const js = (v: unknown): string => taggedToJavaScript(codec.encode(v));
    expect(js(sparse())).toBe('[1, , 3, ,]');
    expect(js(-0)).toBe('-0');
    expect(js(10n)).toBe('10n');
    expect(js(new Map([['a', 1]]))).toBe("new Map([['a', 1]])");
    expect(js(new Point(1, 2))).toBe('Object.assign(Object.create(Point.prototype), { x: 1, y: 2 })');
    expect(js(JSON.parse('{"__proto__": 1, "b c": 2}'))).toBe("{ ['__proto__']: 1, 'b c': 2 }");
    expect(js(new Date(0))).toBe("new Date('1970-01-01T00:00:00.000Z')");
    expect(js(/a+/gi)).toBe('/a+/gi');
    expect(js(new Uint8Array([1, 2]))).toBe('new Uint8Array([1, 2])');
    expect(taggedToJavaScript(codec.encode(new Point(1, 2)), (name) => `classes.${name}`)).toBe('Object.assign(Object.create(classes.Point.prototype), { x: 1, y: 2 })');
  });

  it('escapes strings into single-quoted literals that evaluate back', () => {
    for (const text of ["'", '\\', '\n\r\t', '\u0001', '\ud800', '\udc00a', '😀', '\u2029']) {
      expect(new Function(`return ${javascriptString(text)};`)()).toBe(text);
    }
  });
});

describe('inspectTagged', () => {
  it.each(values().filter(([name]) => name !== 'errors'))('prints %s as util.inspect prints the live value', (_, value) => {
    expect(inspectTagged(codec.encode(value))).toBe(inspect(value));
  });

  it('prints a class instance by its class name and an error without its stack', () => {
    expect(inspectTagged(codec.encode(new Point(1, 2)))).toBe('Point { x: 1, y: 2 }');
    expect(inspectTagged(codec.encode(new ValidationError('no')))).toBe("[ValidationError: no] { code: 'E_BAD' }");
    expect(inspectTagged(codec.encode(new RangeError('bad')))).toBe('[RangeError: bad]');
  });
});
