import isPlainObject from 'is-plain-obj';

/**
 * Options with defaults filled in, nested plain objects merged key by key (arrays, dates and other
 * non-plain values replace). `undefined` values in `options` are ignored. Neither argument changes.
 * @param {object} defaults
 * @param {object} options
 * @returns {object}
 * @example withDefaults({ a: 1, b: { c: 2 } }, { b: { d: 3 } }) // => { a: 1, b: { c: 2, d: 3 } }
 */
export function withDefaults(defaults, options) {
  const out = { ...defaults };
  for (const [key, value] of Object.entries(options ?? {})) {
    if (value === undefined) continue;
    out[key] = isPlainObject(value) && isPlainObject(out[key]) ? withDefaults(out[key], value) : value;
  }
  return out;
}
