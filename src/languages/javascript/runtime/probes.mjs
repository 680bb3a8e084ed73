// The argument lists a returned function is called on (codec.mjs's `fncalls`), chosen once per
// unit by record-driver.mjs when an input's result holds a function: from the declared return type
// when it is a function type (values of its parameters' types, inputs.mjs's `shapeValues`), else
// from the scalar values of the unit's own inputs, the strings its body checks and a few plain
// values of every kind. Every input of the unit gets the same lists.
import { encode } from './codec.mjs';
import { shapeValues, uniqueByJson } from './inputs.mjs';

/** Probe argument lists per unit, at most. */
export const MAX_PROBES = 8;
/** Scalars taken from the unit's inputs, at most (the rest of the lists try other kinds). */
const MAX_INPUT_SCALARS = 5;
/** Values of every kind after the inputs' own: what a returned function may get wrong. */
const PLAIN_VALUES = [0, 1, '', 'abc', -1, null, 'a', 2, true, [1, 2], { a: 1 }];
const SCALAR_TAGS = new Set(['number', 'str', 'bool', 'bigint', 'null', 'undefined']);

function encodedOrNull(value) {
  try {
    return encode(value);
  } catch {
    return null;
  }
}

/** The scalar tagged values in `inputs` ({args}), an array's or object's own members too, first seen first. */
function inputScalars(inputs) {
  const out = [];
  const visit = (tagged, depth) => {
    if (SCALAR_TAGS.has(tagged?.t)) out.push(tagged);
    else if (depth === 0 && tagged?.t === 'array') for (const x of tagged.v ?? []) visit(x, 1);
    else if (depth === 0 && tagged?.t === 'object') for (const [, x] of tagged.v ?? []) visit(x, 1);
  };
  for (const input of inputs) for (const arg of input.args ?? []) visit(arg, 0);
  return uniqueByJson(out);
}

/** `values` with one of each kind that `own` lacks first (a returned function's other branches), then the rest. */
function otherKindsFirst(values, own) {
  const kinds = new Set(own.map((v) => v.t));
  const first = [];
  for (const v of values) {
    if (kinds.has(v.t)) continue;
    kinds.add(v.t);
    first.push(v);
  }
  return [...first, ...values.filter((v) => !first.includes(v))];
}

/** Per position, the values tried there: of the declared parameter's type, else `fallback`. */
function positionValues(arity, declared, fallback, strings) {
  return Array.from({ length: arity }, (_, j) => {
    const shape = declared?.[j];
    const typed = shape ? uniqueByJson(shapeValues(shape, { strings }).map(encodedOrNull).filter((v) => v !== null)) : [];
    return typed.length > 0 ? typed : fallback;
  });
}

/**
 * At most MAX_PROBES argument lists (tagged) of `arity` arguments (the returned function's length,
 * or the declared function type's parameter count when larger): list i takes value i (then i+1,
 * ... for the later positions) of each position's values; with two positions or more, one list of
 * equal arguments (comparators and equality checks). `returns`: the declared return SHAPE
 * (declared-types.mjs) or null; `strings`: the strings the body checks (source-strings.mjs).
 */
export function probeLists({ arity, inputs = [], strings = [], returns = null }) {
  const declared = returns?.k === 'function' && Array.isArray(returns.params) && returns.params.length > 0 ? returns.params : null;
  const n = Math.max(1, arity, declared?.length ?? 0);
  const own = [...inputScalars(inputs).slice(0, MAX_INPUT_SCALARS), ...strings.slice(0, 2).map((s) => ({ t: 'str', v: s }))];
  const fallback = uniqueByJson([...own, ...otherKindsFirst(PLAIN_VALUES.map(encodedOrNull).filter((v) => v !== null), own)]);
  const values = positionValues(n, declared, fallback, strings);
  const lists = [];
  for (let i = 0; lists.length < MAX_PROBES && i < MAX_PROBES * 2; i++) {
    lists.push(values.map((vs, j) => vs[(i + j) % vs.length]));
    if (n >= 2 && i === 0) lists.push(values.map((vs) => vs[0]));
  }
  return uniqueByJson(lists).slice(0, MAX_PROBES);
}
