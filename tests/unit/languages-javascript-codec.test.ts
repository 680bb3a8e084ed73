import { describe, expect, it } from 'vitest';
// @ts-expect-error: a plain .mjs runtime file without type declarations
import * as codecModule from '../../src/languages/javascript/runtime/codec.mjs';
import { MASKED_BODY } from '../../src/languages/javascript/mask-javascript-body.js';

interface Codec {
  encode(value: unknown): Tagged;
  decode(tagged: Tagged, options?: { classes?: Record<string, unknown> }): unknown;
  same(a: Tagged, b: Tagged): boolean;
  describe(tagged: Tagged): string;
  thrownClassName(value: unknown): string;
  throwMeets(expected: string, type: string, message: string): boolean;
  UnrecordableValueError: new (...args: unknown[]) => Error & { reason: string };
}
type Tagged = { t: string; v?: unknown; [key: string]: unknown };
const codec = codecModule as Codec;

/** Encode, through JSON text (as a frame carries it), decode, encode again. */
function roundTrip(value: unknown, classes: Record<string, unknown> = {}): { first: Tagged; second: Tagged; back: unknown } {
  const first = codec.encode(value);
  const wire = JSON.parse(JSON.stringify(first)) as Tagged;
  const back = codec.decode(wire, { classes });
  return { first, second: codec.encode(back), back };
}

class Point {
  constructor(
    public x: number,
    public y: number,
  ) {}
}
class ValidationError extends Error {
  code = 'E_BAD';
}

describe('JavaScript value codec', () => {
  const cases: [string, unknown, Tagged][] = [
    ['undefined', undefined, { t: 'undefined' }],
    ['null', null, { t: 'null' }],
    ['boolean', true, { t: 'bool', v: true }],
    ['number', 1.5, { t: 'number', v: '1.5' }],
    ['NaN', NaN, { t: 'number', v: 'NaN' }],
    ['Infinity', Infinity, { t: 'number', v: 'Infinity' }],
    ['-Infinity', -Infinity, { t: 'number', v: '-Infinity' }],
    ['-0', -0, { t: 'number', v: '-0' }],
    ['+0', 0, { t: 'number', v: '0' }],
    ['BigInt', 12345678901234567890n, { t: 'bigint', v: '12345678901234567890' }],
    ['string', 'héllo', { t: 'str', v: 'héllo' }],
    ['string with a lone surrogate', 'a\uD800', { t: 'str16', v: [97, 0xd800] }],
    ['surrogate pair stays a str', '😀', { t: 'str', v: '😀' }],
    ['date', new Date(Date.UTC(2020, 0, 2)), { t: 'date', v: '2020-01-02T00:00:00.000Z' }],
    ['invalid date', new Date(NaN), { t: 'date', v: null }],
    ['regexp with flags', /a+b/gi, { t: 'regexp', v: { source: 'a+b', flags: 'gi', lastIndex: { t: 'number', v: '0' } } }],
    ['map', new Map<unknown, unknown>([['a', 1], [2, 'b']]), { t: 'map', v: [[{ t: 'str', v: 'a' }, { t: 'number', v: '1' }], [{ t: 'number', v: '2' }, { t: 'str', v: 'b' }]] }],
    ['set in insertion order', new Set([3, 1]), { t: 'set', v: [{ t: 'number', v: '3' }, { t: 'number', v: '1' }] }],
    ['Uint8Array', new Uint8Array([1, 2, 255]), { t: 'typedarray', v: { type: 'Uint8Array', b64: 'AQL/' } }],
    ['Buffer', Buffer.from('hi'), { t: 'typedarray', v: { type: 'Buffer', b64: 'aGk=' } }],
    ['ArrayBuffer', new Uint8Array([7]).buffer, { t: 'arraybuffer', v: 'Bw==' }],
    // eslint-disable-next-line no-sparse-arrays
    ['sparse array: hole vs undefined', [1, , undefined], { t: 'array', v: [{ t: 'number', v: '1' }, { t: 'hole' }, { t: 'undefined' }] }],
    ['plain object in key order', { b: 1, a: 2 }, { t: 'object', v: [['b', { t: 'number', v: '1' }], ['a', { t: 'number', v: '2' }]] }],
    ['class instance', new Point(1, 2), { t: 'instance', v: { class: 'Point', props: [['x', { t: 'number', v: '1' }], ['y', { t: 'number', v: '2' }]] } }],
  ];
  for (const [name, value, tagged] of cases) {
    it(`encodes and round-trips ${name}`, () => {
      const { first, second, back } = roundTrip(value, { Point });
      expect(first).toEqual(tagged);
      expect(second).toEqual(first);
      expect(codec.same(first, second)).toBe(true);
      if (typeof value !== 'object' || value === null) expect(Object.is(back, value)).toBe(true);
    });
  }

  it('keeps a hole distinct from undefined and -0 distinct from 0', () => {
    // eslint-disable-next-line no-sparse-arrays
    expect(codec.same(codec.encode([, 1]), codec.encode([undefined, 1]))).toBe(false);
    expect(codec.same(codec.encode(-0), codec.encode(0))).toBe(false);
    expect(codec.same(codec.encode(1n), codec.encode(1))).toBe(false);
    expect(codec.same(codec.encode(new Set([1, 2])), codec.encode(new Set([2, 1])))).toBe(false);
    expect(codec.same(codec.encode({ a: 1, b: 2 }), codec.encode({ b: 2, a: 1 }))).toBe(false);
    expect(codec.same(codec.encode(/a/g), codec.encode(/a/))).toBe(false);
    expect(codec.same(codec.encode(new Uint8Array([1])), codec.encode(new Int8Array([1])))).toBe(false);
  });

  it('compares errors by class and properties, never by message', () => {
    const a = codec.encode(new RangeError('one'));
    const b = codec.encode(new RangeError('two'));
    expect(a).toMatchObject({ t: 'error', v: { class: 'RangeError', props: [] }, message: 'one' });
    expect(codec.same(a, b)).toBe(true);
    expect(codec.same(a, codec.encode(new TypeError('one')))).toBe(false);
    const custom = codec.encode(new ValidationError('bad'));
    expect(custom).toMatchObject({ v: { class: 'ValidationError', props: [['code', { t: 'str', v: 'E_BAD' }]] } });
    const { second, back } = roundTrip(new TypeError('kept'));
    expect(back).toBeInstanceOf(TypeError);
    expect((back as Error).message).toBe('kept');
    expect(codec.same(second, a)).toBe(false);
  });

  it('keeps null-prototype objects and __proto__ keys as own data', () => {
    const bare = Object.assign(Object.create(null) as object, { k: 1 });
    const { first, second } = roundTrip(bare);
    expect(first).toMatchObject({ t: 'object', proto: null });
    expect(second).toEqual(first);
    const tricky = JSON.parse('{"__proto__": 5}') as object;
    const trip = roundTrip(tricky);
    expect(trip.second).toEqual(trip.first);
    expect(trip.first.v).toEqual([['__proto__', { t: 'number', v: '5' }]]);
  });

  it('round-trips every typed array kind and a DataView', () => {
    for (const value of [new Int16Array([-1, 2]), new Float64Array([0.5]), new BigInt64Array([-3n]), new Uint8ClampedArray([9]), new DataView(new ArrayBuffer(2))]) {
      const { first, second, back } = roundTrip(value);
      expect(second).toEqual(first);
      expect(Object.prototype.toString.call(back)).toBe(Object.prototype.toString.call(value));
    }
  });

  const unrecordable: [string, () => unknown, string][] = [
    ['a function', () => () => 1, 'function'],
    ['a symbol', () => Symbol('s'), 'symbol'],
    ['a function nested in an object', () => ({ f: Math.max }), 'function'],
    ['a symbol-keyed property', () => ({ [Symbol('k')]: 1 }), 'symbol'],
    ['a cycle', () => { const a: unknown[] = []; a.push(a); return a; }, 'cycle'],
    ['a promise', () => Promise.resolve(1), 'unsupported'],
    ['a WeakMap', () => new WeakMap(), 'unsupported'],
    ['a boxed number', () => Object(1) as unknown, 'unsupported'],
    ['deep nesting', () => { let v: unknown = 1; for (let i = 0; i < 100; i++) v = [v]; return v; }, 'depth'],
  ];
  for (const [name, make, reason] of unrecordable) {
    it(`refuses ${name} with reason ${reason}`, () => {
      let caught: unknown;
      try {
        codec.encode(make());
      } catch (error) {
        caught = error;
      }
      expect(caught).toBeInstanceOf(codec.UnrecordableValueError);
      expect((caught as { reason: string }).reason).toBe(reason);
    });
  }

  it('round-trips a long string with lone surrogates', () => {
    const long = `${'x'.repeat(200_000)}\uDC00`;
    const { first, back } = roundTrip(long);
    expect(first.t).toBe('str16');
    expect(back).toBe(long);
  });

  it('encodes a shared (acyclic) reference twice', () => {
    const shared = { a: 1 };
    expect(() => codec.encode([shared, shared])).not.toThrow();
  });

  it('names thrown values by class, and thrown primitives by type', () => {
    expect(codec.thrownClassName(new ValidationError('x'))).toBe('ValidationError');
    expect(codec.thrownClassName('oops')).toBe('typeof:string');
    expect(codec.thrownClassName(42)).toBe('typeof:number');
    expect(codec.thrownClassName(undefined)).toBe('typeof:undefined');
    expect(codec.thrownClassName(null)).toBe('null');
    expect(codec.thrownClassName({})).toBe('Object');
    expect(codec.thrownClassName(Object.create(null))).toBe('Object');
  });

  it('describes values for failure messages', () => {
    expect(codec.describe(codec.encode({ a: [1, 'x', 2n] }))).toBe('{a: [1, "x", 2n]}');
  });
});

describe('JavaScript codec comparisons (issue 19)', () => {
  const same = (a: unknown, b: unknown): boolean => codec.same(codec.encode(a), codec.encode(b));

  it('compares numbers with a fraction within a relative 1e-9, integers, -0, NaN and infinities exactly', () => {
    expect(same(0.1 + 0.2, 0.3)).toBe(true);
    expect(same({ a: [1.0000000001e-3] }, { a: [1e-3] })).toBe(true);
    expect(same(0.3, 0.3001)).toBe(false);
    expect(same(3, 4)).toBe(false);
    expect(same(-0, 0)).toBe(false);
    expect(same(Number.NaN, Number.NaN)).toBe(true);
    expect(same(Number.POSITIVE_INFINITY, 1e308)).toBe(false);
    // the type still counts: a number is not a bigint, nor a string
    expect(same(1.5, '1.5')).toBe(false);
    expect(same([0.1 + 0.2, 'x'], [0.3, 'y'])).toBe(false);
  });

  it("meets an expectation of any throw with anything but a masked body's Error('not implemented')", () => {
    expect(codec.throwMeets('*', 'TypeError', 'x')).toBe(true);
    expect(codec.throwMeets('*', 'Error', 'other')).toBe(true);
    expect(codec.throwMeets('*', 'Error', 'not implemented')).toBe(false);
    expect(codec.throwMeets('*', 'Error', 'Error: not implemented')).toBe(false);
    expect(codec.throwMeets('RangeError', 'TypeError', 'x')).toBe(false);
    expect(codec.throwMeets('RangeError', 'RangeError', 'x')).toBe(true);
    // the mask writes the error the judge tells apart
    expect(MASKED_BODY).toBe(`throw new Error('${(codecModule as { MASKED_MESSAGE: string }).MASKED_MESSAGE}');`);
  });
});
