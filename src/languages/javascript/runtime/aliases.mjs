// Aliasing facts of a returned value: which objects in the result are the very objects (===) the
// call was given. Cases compare values, so without these a deep clone that returns its input, or
// skips copying a nested object, is the same as the original; with them it is not.
// Shared by the record harness (record.mjs) and the subject (subject.mjs); imports nothing.
//
// A path is a list of steps from the result, or from the argument list, to an object:
//   a number    an array index (and, first in an argument path, the argument's position)
//   a string    an own enumerable data property (plain objects, instances, errors, arrays' extras)
//   {"mapKey": i} / {"mapValue": i}   the key or the value of a Map's i-th entry (insertion order)
//   {"setMember": i}                  a Set's i-th member (insertion order)
// `aliases` is a list of [path in result, path in arguments] pairs, in the order a depth-first walk
// of the result meets them (the codec's order); an aliased object's own contents are not walked
// (they are shared with it). At most MAX_ALIASES pairs; an empty list says that the result shares no
// object with the arguments. A primitive result has no aliases (undefined).

/** Pairs recorded per result, at most. */
export const MAX_ALIASES = 32;
/** Objects visited per walk, at most (a huge argument or result is walked that far, the same way each time). */
export const MAX_NODES = 20_000;
const MAX_DEPTH = 64;

const getOwnPropertyDescriptor = Object.getOwnPropertyDescriptor;
const ownKeys = Reflect.ownKeys;
const isArray = Array.isArray;
const isView = ArrayBuffer.isView;
const mapEntries = Map.prototype.entries;
const setValues = Set.prototype.values;

function isObject(value) {
  return value !== null && typeof value === 'object';
}

/** The child objects of `value` as [step, child] pairs, in the codec's order (data properties only: no getter runs). */
function childrenOf(value) {
  const out = [];
  if (isView(value)) return out;
  if (value instanceof Map) {
    let i = 0;
    for (const [k, v] of mapEntries.call(value)) {
      if (isObject(k)) out.push([{ mapKey: i }, k]);
      if (isObject(v)) out.push([{ mapValue: i }, v]);
      i += 1;
    }
    return out;
  }
  if (value instanceof Set) {
    let i = 0;
    for (const v of setValues.call(value)) {
      if (isObject(v)) out.push([{ setMember: i }, v]);
      i += 1;
    }
    return out;
  }
  const array = isArray(value);
  for (const key of ownKeys(value)) {
    if (typeof key !== 'string') continue;
    const desc = getOwnPropertyDescriptor(value, key);
    if (desc === undefined || !desc.enumerable || !('value' in desc) || !isObject(desc.value)) continue;
    const n = Number(key);
    const step = array && String(n >>> 0) === key && n < value.length ? n : key;
    out.push([step, desc.value]);
  }
  return out;
}

/**
 * Every object reachable from `args` (the arguments as passed, before the call) with its shortest
 * path (breadth-first: the first path found), as a Map object → path.
 */
export function argumentObjects(args) {
  const paths = new Map();
  const queue = [];
  args.forEach((arg, i) => {
    if (isObject(arg) && !paths.has(arg)) {
      paths.set(arg, [i]);
      queue.push(arg);
    }
  });
  for (let at = 0; at < queue.length && paths.size < MAX_NODES; at++) {
    const value = queue[at];
    const path = paths.get(value);
    if (path.length > MAX_DEPTH) continue;
    let children;
    try {
      children = childrenOf(value);
    } catch {
      continue; // a revoked proxy: nothing below it is counted
    }
    for (const [step, child] of children) {
      if (paths.has(child)) continue;
      paths.set(child, [...path, step]);
      queue.push(child);
    }
  }
  return paths;
}

/**
 * The [path in result, path in arguments] pairs of `result` (see the header), or undefined for a
 * primitive result. `objects` is `argumentObjects(args)` taken before the call; an array of the
 * arguments themselves is accepted too (walked now).
 */
export function aliasesOf(result, objects) {
  if (!isObject(result)) return undefined;
  const paths = objects instanceof Map ? objects : argumentObjects(objects);
  const pairs = [];
  let budget = MAX_NODES;
  const ancestors = new Set();
  const walk = (value, path) => {
    if (pairs.length >= MAX_ALIASES || budget <= 0 || path.length > MAX_DEPTH || ancestors.has(value)) return;
    budget -= 1;
    const shared = paths.get(value);
    if (shared !== undefined) {
      pairs.push([path, shared]);
      return;
    }
    let children;
    try {
      children = childrenOf(value);
    } catch {
      return;
    }
    ancestors.add(value);
    for (const [step, child] of children) walk(child, [...path, step]);
    ancestors.delete(value);
  };
  walk(result, []);
  return pairs;
}

/** A path as people read it: `result.a[1]`, `argument 1.b`, `result{value of entry 0}`. */
export function describePath(path, root) {
  let text = root;
  let steps = path;
  if (root === 'argument') {
    text = `argument ${path[0]}`;
    steps = path.slice(1);
  }
  for (const step of steps) {
    if (typeof step === 'number') text += `[${step}]`;
    else if (typeof step === 'string') text += /^[A-Za-z_$][\w$]*$/.test(step) ? `.${step}` : `[${JSON.stringify(step)}]`;
    else if (step && typeof step === 'object' && 'mapKey' in step) text += `{key of entry ${step.mapKey}}`;
    else if (step && typeof step === 'object' && 'mapValue' in step) text += `{value of entry ${step.mapValue}}`;
    else if (step && typeof step === 'object' && 'setMember' in step) text += `{member ${step.setMember}}`;
    else text += '{?}';
  }
  return text;
}

function samePath(a, b) {
  return JSON.stringify(a) === JSON.stringify(b);
}

/**
 * Null when two alias lists agree, else a sentence saying what `expected` wants that `got` does not
 * give: `the result should be a new object, not argument 0`, `result.a should be the same object as
 * argument 1.b`. Either side undefined (a primitive, or a case recorded before aliases): null.
 */
export function aliasDifference(expected, got) {
  if (expected === undefined || got === undefined) return null;
  if (!isArray(expected) || !isArray(got)) return 'the aliases of the result could not be read';
  if (samePath(expected, got)) return null;
  const name = (path) => (path.length === 0 ? 'the result' : describePath(path, 'result'));
  for (const [resultPath, argPath] of expected) {
    if (got.some(([r, a]) => samePath(r, resultPath) && samePath(a, argPath))) continue;
    return `${name(resultPath)} should be the same object as ${describePath(argPath, 'argument')}`;
  }
  for (const [resultPath, argPath] of got) {
    if (expected.some(([r, a]) => samePath(r, resultPath) && samePath(a, argPath))) continue;
    return `${name(resultPath)} should be a new object, not ${describePath(argPath, 'argument')}`;
  }
  return 'the objects the result shares with the arguments are not in the same order';
}
