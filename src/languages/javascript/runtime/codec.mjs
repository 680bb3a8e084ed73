// Tagged, exact-type serialisation of JavaScript values: the JavaScript twin of
// src/languages/python/judge/codec.py. Shared by the record harness, the judge and the subject.
// Runs on Node 18 and later; imports nothing but node:util and node:buffer.
//
// Every value becomes a JSON object `{"t": TAG, "v": VALUE}` (some tags carry no `v`):
//
//   {"t":"undefined"}                       undefined
//   {"t":"null"}                            null
//   {"t":"bool","v":true}                   booleans
//   {"t":"number","v":"1.5"}                numbers as text: String(x), with "NaN", "Infinity",
//                                           "-Infinity" and "-0" (String(-0) would say "0")
//   {"t":"bigint","v":"123"}                BigInt as decimal text
//   {"t":"str","v":"abc"}                   well-formed strings
//   {"t":"str16","v":[97,55296]}            strings holding a lone surrogate, as UTF-16 code units
//                                           (JSON text cannot carry them portably)
//   {"t":"array","v":[...]}                 arrays; a hole is {"t":"hole"}, distinct from undefined;
//                                           other own enumerable keys (rare) in "props" as below
//   {"t":"object","v":[["key",TAGGED],...]} plain objects: own enumerable string keys in order;
//                                           "proto":null added for Object.create(null) objects
//   {"t":"instance","v":{"class":"Point","props":[["x",TAGGED],...]}}
//                                           class instances: constructor name and own enumerable
//                                           string-keyed properties in order
//   {"t":"map","v":[[TAGGED,TAGGED],...]}   Map entries in insertion order
//   {"t":"set","v":[TAGGED,...]}            Set members in insertion order (observable in JS)
//   {"t":"date","v":"2020-01-01T00:00:00.000Z"}   Date; "v":null for an invalid date
//   {"t":"regexp","v":{"source":"a+","flags":"gi","lastIndex":0}}
//   {"t":"typedarray","v":{"type":"Uint8Array","b64":"..."}}   typed arrays, Buffer and DataView
//                                           (their bytes, in the host's byte order)
//   {"t":"arraybuffer","v":"<base64>"}      ArrayBuffer
//   {"t":"error","v":{"class":"TypeError","props":[...]},"message":"..."}
//                                           Errors by class name and own enumerable properties
//                                           (e.g. `code`); the message is kept beside "v" for
//                                           people and is never compared (see `comparable`)
//
//   {"t":"fn","v":{"src":"(a, b) => a - b"}}   a function argument we wrote (a pool callback,
//                                           inputs.mjs): decoded by evaluating its source, a
//                                           self-contained arrow function, in a fresh scope; a
//                                           decoded function encodes back to the same tag
//   {"t":"fncalls","v":{"length":1,"calls":[{"args":[TAGGED...],"returns":TAGGED}
//                                           | {"args":[TAGGED...],"raises":"TypeError"}, ...]}}
//                                           a function in a RESULT (`encodeResult`), at any depth:
//                                           its `length` and what it gave when called (`this`
//                                           undefined, fresh arguments each time) on each of the
//                                           probe argument lists, in order; a thrown value by its
//                                           class only. The probes of a case are those of the
//                                           first fncalls tag of its expectation (`probesOf`):
//                                           every function of one result is called on the same
//                                           lists. Never decoded.
//
// Other functions, symbols (as values or keys), cycles, promises, weak collections, boxed
// primitives and values nested deeper than MAX_DEPTH are unrecordable: `encode` throws
// UnrecordableValueError, whose `reason` ('function', 'symbol', 'cycle', 'depth', 'unsupported') a
// caller can count; for 'function' its `arity` is the function's length (at least 1), the length
// of the probe lists to call it with. A function in a result without probes, a probe call that
// returns a function or a promise, are unrecordable too.
//
// Two encodings are compared with `same`: util.isDeepStrictEqual of their `comparable` forms (error
// messages removed). Order is kept where JavaScript observes it (arrays of pairs for objects, maps
// and sets), so key order is compared too.
import { Buffer } from 'node:buffer';
import { isDeepStrictEqual } from 'node:util';

export const MAX_DEPTH = 64;

/** The value cannot be serialised exactly; `reason` says why. */
export class UnrecordableValueError extends Error {
  constructor(reason, message) {
    super(message);
    this.name = 'UnrecordableValueError';
    this.reason = reason;
  }
}

/** A tagged value that does not follow the format (or names a class the caller cannot build). */
export class DecodeError extends Error {
  constructor(message) {
    super(message);
    this.name = 'DecodeError';
  }
}

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
const TYPED_ARRAYS = {
  Int8Array, Uint8Array, Uint8ClampedArray, Int16Array, Uint16Array, Int32Array, Uint32Array,
  Float32Array, Float64Array, BigInt64Array, BigUint64Array,
};
const ERRORS = { Error, TypeError, RangeError, SyntaxError, ReferenceError, EvalError, URIError };
const objectToString = Object.prototype.toString;
const getPrototypeOf = Object.getPrototypeOf;
const getOwnPropertyDescriptor = Object.getOwnPropertyDescriptor;

/** The name of the constructor of `proto` read from data properties only (no getter runs). */
function constructorName(proto) {
  if (proto === null) return null;
  const ctor = getOwnPropertyDescriptor(proto, 'constructor');
  const fn = ctor && 'value' in ctor ? ctor.value : undefined;
  if (typeof fn !== 'function') return null;
  const name = getOwnPropertyDescriptor(fn, 'name');
  return name && typeof name.value === 'string' ? name.value : null;
}

/**
 * What a case expects when the original threw where the library does not throw itself nor documents
 * the throw (a TypeError out of `undefined.length`, a SyntaxError out of JSON.parse): only that the
 * call throws (issue 19, part 4; Python's codec.ANY_EXCEPTION).
 */
export const ANY_THROW = '*';

/** The message of the error a masked body throws (mask-javascript-body.ts's MASKED_BODY). */
export const MASKED_MESSAGE = 'not implemented';

/**
 * Whether a thrown outcome (`type`, `message`: the record harness's bare message or the subject's
 * `Error: message`) meets a case expecting `expected`: the same class, or for ANY_THROW any throw but
 * a masked body's.
 */
export function throwMeets(expected, type, message) {
  if (expected === ANY_THROW) return !(type === 'Error' && (message === MASKED_MESSAGE || message === `Error: ${MASKED_MESSAGE}`));
  return type === expected;
}

/**
 * The class name by which a thrown value is recorded and judged: an object's constructor name
 * (`TypeError`, `ValidationError`, `Object`), `typeof:<type>` for a thrown primitive
 * (`typeof:string`), `null` for `throw null`.
 */
export function thrownClassName(value) {
  if (value === null) return 'null';
  if (typeof value !== 'object' && typeof value !== 'function') return `typeof:${typeof value}`;
  try {
    return constructorName(getPrototypeOf(value)) ?? 'Object';
  } catch {
    return 'Object'; // a revoked proxy
  }
}

/** Encodes `value` (see the header); throws UnrecordableValueError. */
export function encode(value) {
  return enc(value, 0, new Set());
}

function enc(value, depth, seen) {
  if (depth > MAX_DEPTH) throw new UnrecordableValueError('depth', 'value nested too deeply');
  switch (typeof value) {
    case 'undefined': return { t: 'undefined' };
    case 'boolean': return { t: 'bool', v: value };
    case 'number': return { t: 'number', v: Object.is(value, -0) ? '-0' : String(value) };
    case 'bigint': return { t: 'bigint', v: value.toString() };
    case 'string':
      return LONE_SURROGATE.test(value) ? { t: 'str16', v: Array.from({ length: value.length }, (_, i) => value.charCodeAt(i)) } : { t: 'str', v: value };
    case 'symbol': throw new UnrecordableValueError('symbol', 'a symbol cannot be recorded');
    case 'function': return encFunction(value, depth, seen);
    default: break;
  }
  if (value === null) return { t: 'null' };
  if (seen.has(value)) throw new UnrecordableValueError('cycle', 'cyclic value');
  seen.add(value);
  try {
    return encObject(value, depth, seen);
  } finally {
    seen.delete(value);
  }
}

function encObject(value, depth, seen) {
  const d = depth + 1;
  const kind = objectToString.call(value);
  if (Array.isArray(value)) {
    const items = [];
    for (let i = 0; i < value.length; i++) items.push(Object.hasOwn(value, i) ? enc(value[i], d, seen) : { t: 'hole' });
    const extra = ownEntries(value, d, seen, (k) => !isIndex(k, value.length));
    return extra.length > 0 ? { t: 'array', v: items, props: extra } : { t: 'array', v: items };
  }
  if (ArrayBuffer.isView(value)) {
    const type = value instanceof DataView ? 'DataView' : Buffer.isBuffer(value) ? 'Buffer' : constructorName(getPrototypeOf(value)) ?? kind.slice(8, -1);
    const bytes = Buffer.from(value.buffer, value.byteOffset, value.byteLength);
    return { t: 'typedarray', v: { type, b64: bytes.toString('base64') } };
  }
  if (kind === '[object ArrayBuffer]') return { t: 'arraybuffer', v: Buffer.from(value).toString('base64') };
  if (kind === '[object Date]') {
    const time = Date.prototype.getTime.call(value);
    return { t: 'date', v: Number.isNaN(time) ? null : Date.prototype.toISOString.call(value) };
  }
  if (kind === '[object RegExp]') return { t: 'regexp', v: { source: value.source, flags: value.flags, lastIndex: enc(value.lastIndex, d, seen) } };
  if (value instanceof Map) return { t: 'map', v: Array.from(Map.prototype.entries.call(value), ([k, v]) => [enc(k, d, seen), enc(v, d, seen)]) };
  if (value instanceof Set) return { t: 'set', v: Array.from(Set.prototype.values.call(value), (v) => enc(v, d, seen)) };
  if (kind === '[object Error]' || value instanceof Error) {
    const props = ownEntries(value, d, seen, (k) => k !== 'message' && k !== 'stack');
    const message = getOwnPropertyDescriptor(value, 'message');
    const text = message && typeof message.value === 'string' ? message.value : '';
    return { t: 'error', v: { class: thrownClassName(value), props }, message: text };
  }
  if (kind === '[object Promise]' || kind === '[object WeakMap]' || kind === '[object WeakSet]' || kind === '[object WeakRef]'
    || kind === '[object Number]' || kind === '[object String]' || kind === '[object Boolean]' || kind === '[object Symbol]' || kind === '[object BigInt]'
    || kind === '[object Generator]' || kind === '[object AsyncGenerator]') {
    throw new UnrecordableValueError('unsupported', `a ${kind.slice(8, -1)} cannot be recorded`);
  }
  const proto = getPrototypeOf(value);
  if (proto === null) return { t: 'object', v: ownEntries(value, d, seen), proto: null };
  if (proto === Object.prototype) return { t: 'object', v: ownEntries(value, d, seen) };
  const name = constructorName(proto);
  if (name === null) throw new UnrecordableValueError('unsupported', 'an object whose class has no name cannot be recorded');
  return { t: 'instance', v: { class: name, props: ownEntries(value, d, seen) } };
}

function isIndex(key, length) {
  const n = Number(key);
  return String(n >>> 0) === key && n < length;
}

/** Own enumerable string-keyed properties in order, as [key, tagged] pairs; a symbol key is unrecordable. */
function ownEntries(value, depth, seen, keep = () => true) {
  const out = [];
  for (const key of Reflect.ownKeys(value)) {
    const desc = getOwnPropertyDescriptor(value, key);
    if (desc === undefined || !desc.enumerable) continue;
    if (typeof key === 'symbol') throw new UnrecordableValueError('symbol', 'an object with a symbol-keyed property cannot be recorded');
    if (!keep(key)) continue;
    out.push([key, enc('value' in desc ? desc.value : value[key], depth, seen)]);
  }
  return out;
}

/**
 * Builds a fresh value from its tagged form (the inputs of a case). `options.classes` maps class
 * names to constructors for `instance` and non-builtin `error` tags; an instance is made with
 * Object.create(prototype) (its constructor does not run) and its properties assigned.
 */
export function decode(tagged, options = {}) {
  const classes = options.classes ?? {};
  const dec = (x) => decode(x, options);
  if (tagged === null || typeof tagged !== 'object') throw new DecodeError('a tagged value must be an object');
  const { t, v } = tagged;
  switch (t) {
    case 'undefined': return undefined;
    case 'null': return null;
    case 'bool': return Boolean(v);
    case 'number': return v === '-0' ? -0 : Number(v);
    case 'bigint': return BigInt(v);
    case 'str': return String(v);
    case 'str16': return fromCodeUnits(v);
    case 'array': {
      const out = new Array(v.length);
      v.forEach((item, i) => { if (item.t !== 'hole') out[i] = dec(item); });
      for (const [k, x] of tagged.props ?? []) defineOwn(out, k, dec(x));
      return out;
    }
    case 'object': {
      const out = tagged.proto === null ? Object.create(null) : {};
      for (const [k, x] of v) defineOwn(out, k, dec(x));
      return out;
    }
    case 'instance': {
      const ctor = classes[v.class];
      if (typeof ctor !== 'function') throw new DecodeError(`no class named ${v.class} to build an instance of`);
      const out = Object.create(ctor.prototype);
      for (const [k, x] of v.props) defineOwn(out, k, dec(x));
      return out;
    }
    case 'map': return new Map(v.map(([k, x]) => [dec(k), dec(x)]));
    case 'set': return new Set(v.map(dec));
    case 'date': return new Date(v === null ? NaN : v);
    case 'regexp': {
      const re = new RegExp(v.source, v.flags);
      re.lastIndex = dec(v.lastIndex);
      return re;
    }
    case 'arraybuffer': {
      const bytes = Buffer.from(v, 'base64');
      const out = new ArrayBuffer(bytes.length);
      new Uint8Array(out).set(bytes);
      return out;
    }
    case 'typedarray': {
      const bytes = Buffer.from(v.b64, 'base64');
      if (v.type === 'Buffer') return Buffer.from(bytes);
      const buffer = new ArrayBuffer(bytes.length);
      new Uint8Array(buffer).set(bytes);
      if (v.type === 'DataView') return new DataView(buffer);
      const ctor = TYPED_ARRAYS[v.type];
      if (ctor === undefined) throw new DecodeError(`unknown typed array ${v.type}`);
      return new ctor(buffer);
    }
    case 'fn': return functionFromSource(v?.src);
    case 'error': {
      const ctor = ERRORS[v.class] ?? classes[v.class];
      const out = typeof ctor === 'function' ? Object.create(ctor.prototype) : Object.assign(new Error(), { name: v.class });
      Object.defineProperty(out, 'message', { value: String(tagged.message ?? ''), writable: true, configurable: true, enumerable: false });
      for (const [k, x] of v.props) defineOwn(out, k, dec(x));
      return out;
    }
    default: throw new DecodeError(`unknown tag ${JSON.stringify(t)}`);
  }
}

/** A string from UTF-16 code units, in slices (spreading a long array would pass too many arguments). */
function fromCodeUnits(units) {
  let out = '';
  for (let i = 0; i < units.length; i += 4096) out += String.fromCharCode(...units.slice(i, i + 4096));
  return out;
}

function defineOwn(target, key, value) {
  // defineProperty, not assignment: a "__proto__" key stays an own property, as JSON.parse makes it
  Object.defineProperty(target, key, { value, writable: true, enumerable: true, configurable: true });
}

/** `tagged` without what is never compared (error messages), as a fresh tree. */
export function comparable(tagged) {
  if (Array.isArray(tagged)) return tagged.map(comparable);
  if (tagged === null || typeof tagged !== 'object') return tagged;
  const out = {};
  for (const key of Object.keys(tagged)) {
    if (key === 'message' && tagged.t === 'error') continue;
    out[key] = comparable(tagged[key]);
  }
  return out;
}

/** How close two numbers compare equal where either has a fraction (Python's codec.close: issue 19). */
export const FLOAT_TOLERANCE = Object.freeze({ relative: 1e-9, absolute: 1e-12 });

/**
 * True when two encodings are the same value: equal, numbers with a fraction within
 * FLOAT_TOLERANCE (two integers, `-0` and `0`, NaN and the infinities compare exactly).
 */
export function same(a, b) {
  const x = comparable(a);
  const y = comparable(b);
  return isDeepStrictEqual(x, y) || closeTrees(x, y);
}

function closeTrees(a, b) {
  if (a === b) return true;
  if (Array.isArray(a) || Array.isArray(b)) return Array.isArray(a) && Array.isArray(b) && a.length === b.length && a.every((x, i) => closeTrees(x, b[i]));
  if (a === null || b === null || typeof a !== 'object' || typeof b !== 'object') return false;
  if (a.t === 'number' && b.t === 'number' && typeof a.v === 'string' && typeof b.v === 'string') return closeNumbers(a.v, b.v);
  const keys = Object.keys(a);
  return keys.length === Object.keys(b).length && keys.every((k) => Object.hasOwn(b, k) && closeTrees(a[k], b[k]));
}

function closeNumbers(a, b) {
  if (a === b) return true;
  const x = Number(a);
  const y = Number(b);
  if (!Number.isFinite(x) || !Number.isFinite(y) || (Number.isInteger(x) && Number.isInteger(y))) return false;
  return Math.abs(x - y) <= Math.max(FLOAT_TOLERANCE.relative * Math.max(Math.abs(x), Math.abs(y)), FLOAT_TOLERANCE.absolute);
}

/** A short human-readable rendering, for failure messages. */
export function describe(tagged, limit = 200) {
  let text;
  try {
    text = describeValue(tagged);
  } catch {
    text = '<unreadable value>';
  }
  return text.length <= limit ? text : `${text.slice(0, limit - 3)}...`;
}

function describeValue(tg) {
  const { t, v } = tg;
  switch (t) {
    case 'undefined': case 'null': return t;
    case 'hole': return '<hole>';
    case 'bool': return String(v);
    case 'number': return String(v);
    case 'bigint': return `${v}n`;
    case 'str': return JSON.stringify(v);
    case 'str16': return JSON.stringify(fromCodeUnits(v));
    case 'array': return `[${v.map(describeValue).join(', ')}]`;
    case 'object': return `{${v.map(([k, x]) => `${k}: ${describeValue(x)}`).join(', ')}}`;
    case 'instance': return `${v.class} {${v.props.map(([k, x]) => `${k}: ${describeValue(x)}`).join(', ')}}`;
    case 'map': return `Map(${v.map(([k, x]) => `${describeValue(k)} => ${describeValue(x)}`).join(', ')})`;
    case 'set': return `Set(${v.map(describeValue).join(', ')})`;
    case 'date': return v === null ? 'Invalid Date' : v;
    case 'regexp': return `/${v.source}/${v.flags}`;
    case 'typedarray': return `${v.type}(b64:${v.b64})`;
    case 'arraybuffer': return `ArrayBuffer(b64:${v})`;
    case 'error': return `${v.class}: ${tg.message ?? ''}`;
    case 'fn': return String(v.src);
    case 'fncalls': return describeCalls(v);
    default: return JSON.stringify(tg);
  }
}

// ---- functions: pool callbacks as arguments (`fn`), returned functions by probes (`fncalls`) ----

/** The source each function decoded from an `fn` tag was made from: it encodes back to that tag. */
const SOURCES = new WeakMap();
/** The options of one `encodeResult` walk, by the `seen` set `enc` hands down through it. */
const WALKS = new WeakMap();
const MAX_DESCRIBED_CALLS = 4;

/**
 * A function from the source text of a self-contained arrow function (an `fn` tag's), evaluated in
 * a fresh scope; it encodes back to `{"t":"fn","v":{"src":...}}`. Only sources this project wrote
 * are ever decoded (inputs.mjs's pool): the text is run as it is.
 */
export function functionFromSource(src) {
  if (typeof src !== 'string') throw new DecodeError('an fn tag without its source');
  let fn;
  try {
    // eslint-disable-next-line no-new-func
    fn = new Function(`"use strict"; return (${src}\n);`)();
  } catch (error) {
    throw new DecodeError(`an fn tag whose source does not evaluate: ${error?.message ?? error}`);
  }
  if (typeof fn !== 'function') throw new DecodeError('an fn tag whose source is not a function');
  SOURCES.set(fn, src);
  return fn;
}

/**
 * Encodes the result of a call: as `encode`, but every function in it is called on each of
 * `probes` (lists of tagged arguments, decoded afresh for each call with `options.classes`) and
 * recorded as an `fncalls` tag. Without probes (null) a function is unrecordable, its `arity` given.
 */
export function encodeResult(value, probes, options = {}) {
  const seen = new Set();
  WALKS.set(seen, { probes: Array.isArray(probes) && probes.length > 0 ? probes : null, classes: options.classes ?? {} });
  return enc(value, 0, seen);
}

/** The probe argument lists of the first `fncalls` tag in a tagged value (a case's expectation), or null when it holds none. */
export function probesOf(tagged) {
  if (tagged === null || typeof tagged !== 'object') return null;
  if (!Array.isArray(tagged) && tagged.t === 'fncalls') return Array.isArray(tagged.v?.calls) ? tagged.v.calls.map((c) => c.args) : null;
  for (const value of Array.isArray(tagged) ? tagged : Object.values(tagged)) {
    const found = probesOf(value);
    if (found !== null) return found;
  }
  return null;
}

function arityOf(fn) {
  const length = getOwnPropertyDescriptor(fn, 'length');
  return length && typeof length.value === 'number' ? length.value : 0;
}

function unrecordableFunction(fn, why) {
  const error = new UnrecordableValueError('function', `a function (${fn.name || 'anonymous'}) ${why}`);
  error.arity = Math.max(1, arityOf(fn));
  return error;
}

function encFunction(fn, depth, seen) {
  const walk = WALKS.get(seen);
  // an argument: only a function decoded from an fn tag has a form
  if (walk === undefined) {
    if (SOURCES.has(fn)) return { t: 'fn', v: { src: SOURCES.get(fn) } };
    throw unrecordableFunction(fn, 'cannot be recorded');
  }
  if (walk.probes === null) throw unrecordableFunction(fn, 'cannot be recorded without probe arguments');
  const calls = walk.probes.map((args) => probeCall(fn, args, walk.classes, depth));
  return { t: 'fncalls', v: { length: arityOf(fn), calls } };
}

function probeCall(fn, args, classes, depth) {
  let value;
  try {
    value = Reflect.apply(fn, undefined, args.map((a) => decode(a, { classes })));
  } catch (error) {
    if (error instanceof DecodeError) throw error;
    return { args, raises: thrownClassName(error) };
  }
  if (objectToString.call(value) === '[object Promise]') {
    Promise.prototype.then.call(value, undefined, () => undefined); // no unhandled rejection
    throw new UnrecordableValueError('unsupported', 'a returned function gave a promise');
  }
  // what a probe call returns holds no function that could be probed in turn
  const inner = new Set();
  WALKS.set(inner, { probes: null, classes });
  return { args, returns: enc(value, depth + 1, inner) };
}

function describeCalls(v) {
  const calls = (v.calls ?? []).slice(0, MAX_DESCRIBED_CALLS).map((c) => {
    const args = c.args.map(describeValue).join(', ');
    return 'raises' in c ? `f(${args}) throws ${c.raises}` : `f(${args}) => ${describeValue(c.returns)}`;
  });
  const more = (v.calls ?? []).length > MAX_DESCRIBED_CALLS ? '; ...' : '';
  return `<function of length ${v.length}: ${calls.join('; ')}${more}>`;
}

/**
 * Where two results differ in a returned function, for a failure message: the first `fncalls` of
 * `expected` whose counterpart in `got` (same place) is another length or gives another outcome on
 * a probe (`the returned function gave false for f("b"), expected true`); null when the results
 * differ elsewhere first, or `got` has no function there.
 */
export function functionDifference(expected, got) {
  const pair = firstFunctionPair(expected, got);
  if (pair === null) return null;
  const [want, have] = pair;
  if (have?.t !== 'fncalls') return null;
  if (want.v.length !== have.v.length) return `the returned function has length ${have.v.length}, expected ${want.v.length}`;
  const outcome = (c) => (c === undefined ? 'nothing' : 'raises' in c ? `throws ${c.raises}` : `returns ${describeValue(c.returns)}`);
  const sameCall = (a, b) => ('raises' in a ? 'raises' in b && a.raises === b.raises : 'returns' in b && same(a.returns, b.returns));
  for (const [i, call] of want.v.calls.entries()) {
    const other = have.v.calls[i];
    if (other !== undefined && sameCall(call, other)) continue;
    return `the returned function, called as f(${call.args.map(describeValue).join(', ')}), ${outcome(other)}; expected it ${outcome(call).replace(/^(throws|returns)/, (w) => (w === 'throws' ? 'to throw' : 'to return'))}`;
  }
  return null;
}

/** The first `fncalls` of `a` with what sits at the same place in `b` (undefined when `b` has nothing there), or null. */
function firstFunctionPair(a, b) {
  if (a === null || typeof a !== 'object') return null;
  if (!Array.isArray(a) && a.t === 'fncalls') return [a, b];
  const entries = Array.isArray(a) ? a.entries() : Object.entries(a);
  for (const [key, value] of entries) {
    const found = firstFunctionPair(value, b !== null && typeof b === 'object' ? b[key] : undefined);
    if (found !== null) return found;
  }
  return null;
}
