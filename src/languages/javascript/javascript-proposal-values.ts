import type { ValueFormat } from '../language.js';

/**
 * Tags of `runtime/codec.mjs` a proposal may use: plain data only. `instance` and `error` are left
 * out (the recorder builds instances from the codebase), and so are the forms that only recording
 * produces (`hole`, `str16`).
 */
const MAX_DEPTH = 8;
const TYPED_ARRAYS = new Set([
  'Int8Array', 'Uint8Array', 'Uint8ClampedArray', 'Int16Array', 'Uint16Array', 'Int32Array', 'Uint32Array', 'Float32Array', 'Float64Array', 'BigInt64Array', 'BigUint64Array',
]);
const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

function isPlain(value: unknown, depth: number): boolean {
  if (depth > MAX_DEPTH || value === null || typeof value !== 'object' || Array.isArray(value)) return false;
  const record = value as Record<string, unknown>;
  const keys = Object.keys(record).sort().join(',');
  const { t, v } = record;
  if (t === 'undefined' || t === 'null') return keys === 't';
  if (keys !== 't,v') return false;
  switch (t) {
    case 'bool':
      return typeof v === 'boolean';
    case 'number':
      return typeof v === 'string' && /^(?:-?(?:\d+(?:\.\d+)?(?:e[+-]?\d+)?|Infinity)|NaN|-0)$/.test(v);
    case 'bigint':
      return typeof v === 'string' && /^-?\d{1,100}$/.test(v);
    case 'str':
      return typeof v === 'string';
    case 'array':
    case 'set':
      return Array.isArray(v) && v.every((x) => isPlain(x, depth + 1));
    case 'object':
      return Array.isArray(v) && v.every((pair) => Array.isArray(pair) && pair.length === 2 && typeof pair[0] === 'string' && isPlain(pair[1], depth + 1));
    case 'map':
      return Array.isArray(v) && v.every((pair) => Array.isArray(pair) && pair.length === 2 && isPlain(pair[0], depth + 1) && isPlain(pair[1], depth + 1));
    case 'date':
      return v === null || (typeof v === 'string' && !Number.isNaN(Date.parse(v)));
    case 'regexp': {
      if (v === null || typeof v !== 'object' || Array.isArray(v)) return false;
      const r = v as Record<string, unknown>;
      return typeof r['source'] === 'string' && typeof r['flags'] === 'string' && /^[dgimsuvy]*$/.test(r['flags']) && (r['lastIndex'] === undefined || r['lastIndex'] === 0);
    }
    case 'typedarray': {
      if (v === null || typeof v !== 'object' || Array.isArray(v)) return false;
      const a = v as Record<string, unknown>;
      return typeof a['type'] === 'string' && TYPED_ARRAYS.has(a['type']) && typeof a['b64'] === 'string' && BASE64.test(a['b64']);
    }
    default:
      return false;
  }
}

/** JavaScript's value format (`runtime/codec.mjs`) for inputs a model proposes. */
export const javascriptProposalValues: ValueFormat = Object.freeze({
  description:
    'Every value is tagged JSON: {"t": <tag>, "v": <payload>} with tags undefined and null (no v), bool (true/false), number (text as String(x) gives it: "3", "-0.5", "NaN", "Infinity", "-0"), bigint (decimal text), str (string), array and set (arrays of tagged values), object (array of ["key", tagged] pairs, in key order), map (array of [tagged key, tagged value] pairs), date (ISO text, or null for an invalid date), regexp ({"source": "a+", "flags": "gi"}), typedarray ({"type": "Uint8Array", "b64": <the bytes in base64>}).',
  isPlainValue: (value: unknown) => isPlain(value, 0),
  keywordArguments: false,
});
