import { Buffer } from 'node:buffer';
import { inspect } from 'node:util';

/**
 * The JavaScript codec's tagged values (runtime/codec.mjs documents the tags) as people read them:
 * `taggedToJavaScript`, an expression that evaluates to an equal value (the readable test, the calls
 * of prompt examples), and `inspectTagged`, what a Node REPL prints for the value (the results of
 * prompt examples: `util.inspect` with its default options, as the REPL's writer uses them). A
 * returned function (`fncalls`) has no such expression: `recordedFunctions` lists where they sit and
 * their recorded calls, and `withFunctionsAs` puts an expression of the caller's in their place.
 */

/** A codec-encoded value; tags not known here render as `undefined` (evaluable) or `<unknown>`. */
interface Tagged {
  t: string;
  v?: unknown;
  props?: unknown;
  proto?: unknown;
  message?: unknown;
}

/** How an expression reaches a class by its name (default: the bare name, in scope). */
export type ClassRef = (name: string) => string;

const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;
const TYPED_ELEMENTS: Record<string, { size: number; read: (view: DataView, at: number) => number | bigint }> = {
  Int8Array: { size: 1, read: (d, i) => d.getInt8(i) },
  Uint8Array: { size: 1, read: (d, i) => d.getUint8(i) },
  Uint8ClampedArray: { size: 1, read: (d, i) => d.getUint8(i) },
  Int16Array: { size: 2, read: (d, i) => d.getInt16(i, true) },
  Uint16Array: { size: 2, read: (d, i) => d.getUint16(i, true) },
  Int32Array: { size: 4, read: (d, i) => d.getInt32(i, true) },
  Uint32Array: { size: 4, read: (d, i) => d.getUint32(i, true) },
  Float32Array: { size: 4, read: (d, i) => d.getFloat32(i, true) },
  Float64Array: { size: 8, read: (d, i) => d.getFloat64(i, true) },
  BigInt64Array: { size: 8, read: (d, i) => d.getBigInt64(i, true) },
  BigUint64Array: { size: 8, read: (d, i) => d.getBigUint64(i, true) },
};
const BUILTIN_ERRORS = new Set(['Error', 'TypeError', 'RangeError', 'SyntaxError', 'ReferenceError', 'EvalError', 'URIError']);

function asTagged(value: unknown): Tagged {
  return value !== null && typeof value === 'object' && typeof (value as { t?: unknown }).t === 'string' ? (value as Tagged) : { t: 'unknown' };
}

function pairsOf(value: unknown): [string, unknown][] {
  return Array.isArray(value) ? value.filter((p): p is [string, unknown] => Array.isArray(p) && typeof p[0] === 'string') : [];
}

function listOf(value: unknown): unknown[] {
  return Array.isArray(value) ? value : [];
}

function fromCodeUnits(units: unknown): string {
  return listOf(units).map((u) => String.fromCharCode(Number(u))).join('');
}

/** A string literal in single quotes; control characters and lone surrogates escaped. */
export function javascriptString(text: string): string {
  let out = "'";
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i);
    const ch = text[i] as string;
    const pairs = unit >= 0xd800 && unit <= 0xdbff && i + 1 < text.length && text.charCodeAt(i + 1) >= 0xdc00 && text.charCodeAt(i + 1) <= 0xdfff;
    if (pairs) {
      out += ch + (text[i + 1] as string);
      i += 1;
    } else if (ch === "'" || ch === '\\') out += `\\${ch}`;
    else if (ch === '\n') out += '\\n';
    else if (ch === '\r') out += '\\r';
    else if (ch === '\t') out += '\\t';
    else if (unit < 0x20 || unit === 0x7f) out += `\\x${unit.toString(16).padStart(2, '0')}`;
    else if ((unit >= 0xd800 && unit <= 0xdfff) || unit === 0x2028 || unit === 0x2029) out += `\\u${unit.toString(16).padStart(4, '0')}`;
    else out += ch;
  }
  return `${out}'`;
}

/** An object literal's key: bare when an identifier, else a string; `__proto__` computed (a literal key would set the prototype). */
function propertyKey(key: string): string {
  if (key === '__proto__') return `[${javascriptString(key)}]`;
  return IDENTIFIER.test(key) ? key : javascriptString(key);
}

function objectLiteral(pairs: [string, unknown][], classRef: ClassRef): string {
  return pairs.length === 0 ? '{}' : `{ ${pairs.map(([k, x]) => `${propertyKey(k)}: ${taggedToJavaScript(x, classRef)}`).join(', ')} }`;
}

function withProps(base: string, props: [string, unknown][], classRef: ClassRef): string {
  return props.length === 0 ? base : `Object.assign(${base}, ${objectLiteral(props, classRef)})`;
}

/** The elements of a typed array's bytes (little-endian, as the codec's hosts store them). */
function typedElements(type: string, bytes: Buffer): (number | bigint)[] {
  const kind = TYPED_ELEMENTS[type] ?? TYPED_ELEMENTS['Uint8Array'];
  if (kind === undefined) return [];
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const out: (number | bigint)[] = [];
  for (let at = 0; at + kind.size <= bytes.byteLength; at += kind.size) out.push(kind.read(view, at));
  return out;
}

function numberLiteral(x: number | bigint): string {
  if (typeof x === 'bigint') return `${x}n`;
  return Object.is(x, -0) ? '-0' : String(x);
}

/**
 * The value as a JavaScript expression that evaluates to an equal value (what `assert.deepStrictEqual`
 * and the judge accept as the same): `undefined`, `NaN`, `-0`, `10n`, `'text'`, `[1, , 3]` (holes),
 * `{ a: 1, 'b-c': 2 }`, `new Map([['a', 1]])`, `new Set([1])`, `new Date('2020-01-01T00:00:00.000Z')`,
 * `/a+/gi`, `new Uint8Array([1, 2])`, `Buffer.from([1])`, `new Uint8Array([1]).buffer` (an
 * ArrayBuffer), `Object.assign(new TypeError('message'), { code: 'E' })`. A class instance is
 * `Object.assign(Object.create(Point.prototype), { x: 1 })`: `Point` must be in scope where the
 * expression is evaluated, or `classRef` names how to reach a class (`exportedClass('Point')`).
 */
export function taggedToJavaScript(value: unknown, classRef: ClassRef = (name) => name): string {
  const tagged = asTagged(value);
  const v = tagged.v;
  switch (tagged.t) {
    case 'null': return 'null';
    case 'bool': return v === true ? 'true' : 'false';
    case 'number': return typeof v === 'string' ? v : 'NaN';
    case 'bigint': return `${String(v)}n`;
    case 'str': return javascriptString(String(v));
    case 'str16': return javascriptString(fromCodeUnits(v));
    case 'array': {
      const items = listOf(v).map((x) => (asTagged(x).t === 'hole' ? '' : taggedToJavaScript(x, classRef)));
      const last = listOf(v).at(-1);
      const text = `[${items.join(', ')}${last !== undefined && asTagged(last).t === 'hole' ? ',' : ''}]`;
      return withProps(text, pairsOf(tagged.props), classRef);
    }
    case 'object': return tagged.proto === null ? `Object.assign(Object.create(null), ${objectLiteral(pairsOf(v), classRef)})` : objectLiteral(pairsOf(v), classRef);
    case 'instance': {
      const { class: name, props } = (v ?? {}) as { class?: unknown; props?: unknown };
      return withProps(`Object.create(${classRef(String(name))}.prototype)`, pairsOf(props), classRef);
    }
    case 'map': return `new Map([${listOf(v).map((p) => `[${listOf(p).map((x) => taggedToJavaScript(x, classRef)).join(', ')}]`).join(', ')}])`;
    case 'set': return `new Set([${listOf(v).map((x) => taggedToJavaScript(x, classRef)).join(', ')}])`;
    case 'date': return v === null ? 'new Date(NaN)' : `new Date(${javascriptString(String(v))})`;
    case 'regexp': {
      const { source, flags, lastIndex } = (v ?? {}) as { source?: unknown; flags?: unknown; lastIndex?: unknown };
      const literal = `/${String(source)}/${String(flags ?? '')}`;
      const index = taggedToJavaScript(lastIndex, classRef);
      return index === '0' ? literal : `Object.assign(${literal}, { lastIndex: ${index} })`;
    }
    case 'typedarray': {
      const { type, b64 } = (v ?? {}) as { type?: unknown; b64?: unknown };
      const bytes = Buffer.from(String(b64 ?? ''), 'base64');
      const byteList = `[${[...bytes].join(', ')}]`;
      if (type === 'Buffer') return `Buffer.from(${byteList})`;
      if (type === 'DataView') return `new DataView(new Uint8Array(${byteList}).buffer)`;
      const name = String(type);
      return `new ${name}([${typedElements(name, bytes).map(numberLiteral).join(', ')}])`;
    }
    case 'arraybuffer': return `new Uint8Array([${[...Buffer.from(String(v ?? ''), 'base64')].join(', ')}]).buffer`;
    case 'fn': return String((v as { src?: unknown } | undefined)?.src ?? 'undefined');
    case EXPRESSION_TAG: return String(v);
    case 'error': {
      const { class: name, props } = (v ?? {}) as { class?: unknown; props?: unknown };
      const className = String(name);
      const base = BUILTIN_ERRORS.has(className)
        ? `new ${className}(${javascriptString(String(tagged.message ?? ''))})`
        : `Object.create(${classRef(className)}.prototype)`;
      return withProps(base, pairsOf(props), classRef);
    }
    default: return 'undefined';
  }
}

/** The class names a tagged value builds instances or custom errors of (what must be in scope to evaluate it). */
export function classNamesIn(value: unknown, into: Set<string> = new Set()): Set<string> {
  const tagged = asTagged(value);
  const v = tagged.v;
  if (tagged.t === 'instance' || (tagged.t === 'error' && !BUILTIN_ERRORS.has(String((v as { class?: unknown } | undefined)?.class)))) {
    const { class: name, props } = (v ?? {}) as { class?: unknown; props?: unknown };
    into.add(String(name));
    for (const [, x] of pairsOf(props)) classNamesIn(x, into);
  } else if (tagged.t === 'array') {
    for (const x of listOf(v)) classNamesIn(x, into);
    for (const [, x] of pairsOf(tagged.props)) classNamesIn(x, into);
  } else if (tagged.t === 'object') {
    for (const [, x] of pairsOf(v)) classNamesIn(x, into);
  } else if (tagged.t === 'map') {
    for (const pair of listOf(v)) for (const x of listOf(pair)) classNamesIn(x, into);
  } else if (tagged.t === 'set') {
    for (const x of listOf(v)) classNamesIn(x, into);
  } else if (tagged.t === 'fncalls') {
    for (const call of callsOf(v)) {
      for (const x of call.args) classNamesIn(x, into);
      if ('returns' in call) classNamesIn(call.returns, into);
    }
  }
  return into;
}

/** A stand-in class named `name`: `util.inspect` shows its instances as `Name { ... }`, as it shows the real class's. */
function standIn(name: string, classes: Map<string, { prototype: object }>, base: object | null = null): { prototype: object } {
  const key = base === null ? name : `error:${name}`;
  let ctor = classes.get(key);
  if (ctor === undefined) {
    // a computed key names the function, as `class Name {}` would be named
    ctor = { [name]: function () {} }[name] as { prototype: object };
    if (base !== null) Object.setPrototypeOf(ctor.prototype, base);
    classes.set(key, ctor);
  }
  return ctor;
}

function define(target: object, key: string, value: unknown): void {
  Object.defineProperty(target, key, { value, writable: true, enumerable: true, configurable: true });
}

/** A live value equal to the tagged one, instances made from stand-in classes (for display only). */
function liveValue(value: unknown, classes: Map<string, { prototype: object }>): unknown {
  const tagged = asTagged(value);
  const v = tagged.v;
  const live = (x: unknown): unknown => liveValue(x, classes);
  switch (tagged.t) {
    case 'null': return null;
    case 'bool': return v === true;
    case 'number': return v === '-0' ? -0 : Number(v);
    case 'bigint': return BigInt(String(v));
    case 'str': return String(v);
    case 'str16': return fromCodeUnits(v);
    case 'array': {
      const items = listOf(v);
      const out: unknown[] = new Array(items.length);
      items.forEach((x, i) => {
        if (asTagged(x).t !== 'hole') out[i] = live(x);
      });
      for (const [k, x] of pairsOf(tagged.props)) define(out, k, live(x));
      return out;
    }
    case 'object': {
      const out: object = tagged.proto === null ? Object.create(null) : {};
      for (const [k, x] of pairsOf(v)) define(out, k, live(x));
      return out;
    }
    case 'instance': {
      const { class: name, props } = (v ?? {}) as { class?: unknown; props?: unknown };
      const out: object = Object.create(standIn(String(name), classes).prototype);
      for (const [k, x] of pairsOf(props)) define(out, k, live(x));
      return out;
    }
    case 'map': return new Map(listOf(v).map((p) => [live(listOf(p)[0]), live(listOf(p)[1])]));
    case 'set': return new Set(listOf(v).map(live));
    case 'date': return new Date(v === null ? Number.NaN : String(v));
    case 'regexp': {
      const { source, flags, lastIndex } = (v ?? {}) as { source?: unknown; flags?: unknown; lastIndex?: unknown };
      const re = new RegExp(String(source), String(flags ?? ''));
      re.lastIndex = Number(live(lastIndex) ?? 0);
      return re;
    }
    case 'typedarray': {
      const { type, b64 } = (v ?? {}) as { type?: unknown; b64?: unknown };
      const bytes = Buffer.from(String(b64 ?? ''), 'base64');
      if (type === 'Buffer') return Buffer.from(bytes);
      const buffer = new Uint8Array(bytes).buffer;
      if (type === 'DataView') return new DataView(buffer);
      const ctor = (globalThis as Record<string, unknown>)[String(type)];
      return typeof ctor === 'function' && String(type) in TYPED_ELEMENTS ? new (ctor as new (b: ArrayBuffer) => unknown)(buffer) : new Uint8Array(buffer);
    }
    case 'arraybuffer': return new Uint8Array(Buffer.from(String(v ?? ''), 'base64')).buffer;
    // a function prints as an anonymous one (`[Function (anonymous)]`): its source is written inline
    case 'fn':
    case 'fncalls': return anonymousFunction();
    case 'error': {
      const { class: name, props } = (v ?? {}) as { class?: unknown; props?: unknown };
      const className = String(name);
      const builtin = (globalThis as Record<string, unknown>)[className];
      const proto = BUILTIN_ERRORS.has(className) && typeof builtin === 'function' ? (builtin as { prototype: object }).prototype : standIn(className, classes, Error.prototype).prototype;
      const out = Object.create(proto) as object;
      Object.defineProperty(out, 'message', { value: String(tagged.message ?? ''), writable: true, configurable: true, enumerable: false });
      for (const [k, x] of pairsOf(props)) define(out, k, live(x));
      return out;
    }
    default: return undefined;
  }
}

/**
 * What a Node REPL prints for the value (`util.inspect` with its default options): `'abc'`,
 * `[ 1, <1 empty item>, 3 ]`, `Map(1) { 'a' => 1 }`, `Point { x: 1 }`, `-0`, `10n`. A class
 * instance is shown from a stand-in class of the same name, so a class with its own
 * `[util.inspect.custom]` prints differently in a real REPL; an error prints without its stack
 * (`[TypeError: message]`), unlike a live one.
 */
export function inspectTagged(value: unknown): string {
  return inspect(liveValue(value, new Map()));
}

/** True when the tagged value holds a tag whose REPL rendering cannot match a live value's (an error: the REPL prints its stack). */
export function hasUnshowableValue(value: unknown): boolean {
  return JSON.stringify(value ?? null).includes('"t":"error"');
}

// ---- functions: pool callbacks (`fn`) and returned functions (`fncalls`) ----

/** A tag of this file only, never recorded: an expression put where a returned function sits (`withFunctionsAs`). */
const EXPRESSION_TAG = 'codemidas:expression';

/** One recorded call of a returned function: the probe arguments and what it returned or the class it threw. */
export type RecordedCall = { args: unknown[]; returns: unknown } | { args: unknown[]; raises: string };

/** A function in a returned value: the accessor that reaches it (`''` the value itself, `.format`, `[0]`), its `length`, its calls. */
export interface RecordedFunction {
  path: string;
  length: number;
  calls: RecordedCall[];
}

function anonymousFunction(): () => undefined {
  return (() => () => undefined)();
}

function callsOf(v: unknown): RecordedCall[] {
  const calls = listOf((v as { calls?: unknown } | undefined)?.calls);
  return calls.flatMap((c): RecordedCall[] => {
    if (c === null || typeof c !== 'object') return [];
    const call = c as { args?: unknown; returns?: unknown; raises?: unknown };
    const args = listOf(call.args);
    return typeof call.raises === 'string' ? [{ args, raises: call.raises }] : [{ args, returns: call.returns }];
  });
}

/** The accessor of a property: `.name` for an identifier, else `['key']`. */
function accessor(key: string): string {
  return IDENTIFIER.test(key) ? `.${key}` : `[${javascriptString(key)}]`;
}

/**
 * Each `fncalls` (returned function) in a tagged value reached through arrays, objects and class
 * instances, with its accessor from the value, in order; functions inside maps and sets are left out.
 */
export function recordedFunctions(value: unknown, path = ''): RecordedFunction[] {
  const tagged = asTagged(value);
  const v = tagged.v;
  switch (tagged.t) {
    case 'fncalls': return [{ path, length: Number((v as { length?: unknown } | undefined)?.length ?? 0), calls: callsOf(v) }];
    case 'array': return [...listOf(v).flatMap((x, i) => recordedFunctions(x, `${path}[${i}]`)), ...pairsOf(tagged.props).flatMap(([k, x]) => recordedFunctions(x, path + accessor(k)))];
    case 'object': return pairsOf(v).flatMap(([k, x]) => recordedFunctions(x, path + accessor(k)));
    case 'instance': return pairsOf((v as { props?: unknown } | undefined)?.props).flatMap(([k, x]) => recordedFunctions(x, path + accessor(k)));
    default: return [];
  }
}

/** True when a tagged value holds a returned function anywhere (in a map or set too). */
export function holdsFunction(value: unknown): boolean {
  return JSON.stringify(value ?? null).includes('"t":"fncalls"');
}

/**
 * The tagged value with each returned function that `recordedFunctions` finds replaced by the
 * expression `expressionAt(path)` gives (rendered as is by `taggedToJavaScript`).
 */
export function withFunctionsAs(value: unknown, expressionAt: (path: string) => string, path = ''): unknown {
  const tagged = asTagged(value);
  const v = tagged.v;
  const each = (x: unknown, at: string): unknown => withFunctionsAs(x, expressionAt, at);
  switch (tagged.t) {
    case 'fncalls': return { t: EXPRESSION_TAG, v: expressionAt(path) };
    case 'array': {
      const props = pairsOf(tagged.props).map(([k, x]) => [k, each(x, path + accessor(k))]);
      return { ...tagged, v: listOf(v).map((x, i) => each(x, `${path}[${i}]`)), ...(tagged.props === undefined ? {} : { props }) };
    }
    case 'object': return { ...tagged, v: pairsOf(v).map(([k, x]) => [k, each(x, path + accessor(k))]) };
    case 'instance': {
      const { props, ...rest } = (v ?? {}) as { props?: unknown };
      return { ...tagged, v: { ...rest, props: pairsOf(props).map(([k, x]) => [k, each(x, path + accessor(k))]) } };
    }
    default: return value;
  }
}
