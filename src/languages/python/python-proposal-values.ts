import type { ValueFormat } from '../language.js';

/**
 * Tags a proposal may use: plain data only. `repr` (an expression the subject evaluates), `object`
 * and `ref` are left out: an expression written by a model is code, and those forms are for values
 * the recorder itself builds from the codebase.
 */
const DATA_TAGS = new Set(['none', 'bool', 'int', 'float', 'str', 'bytes', 'list', 'tuple', 'set', 'frozenset', 'dict']);
const MAX_DEPTH = 8;

/** A plain tagged value (DATA_TAGS) of Python's codec (`judge/codec.py`), well formed at every depth. */
function isTagged(value: unknown, depth: number): boolean {
  if (depth > MAX_DEPTH || value === null || typeof value !== 'object' || Array.isArray(value)) return false;
  const record = value as Record<string, unknown>;
  const keys = Object.keys(record);
  if (keys.length !== 2 || !('t' in record) || !('v' in record)) return false;
  const { t, v } = record;
  if (typeof t !== 'string' || !DATA_TAGS.has(t)) return false;
  switch (t) {
    case 'none':
      return v === null;
    case 'bool':
      return typeof v === 'boolean';
    case 'int':
      return typeof v === 'string' && /^-?\d{1,100}$/.test(v);
    case 'float':
      return typeof v === 'string' && /^(-?(\d+\.?\d*([eE][+-]?\d+)?|\.\d+([eE][+-]?\d+)?|inf)|nan)$/.test(v);
    case 'str':
      return typeof v === 'string';
    case 'bytes':
      return typeof v === 'string' && /^[A-Za-z0-9+/]*={0,2}$/.test(v) && v.length % 4 === 0;
    case 'dict':
      return Array.isArray(v) && v.every((pair) => Array.isArray(pair) && pair.length === 2 && isTagged(pair[0], depth + 1) && isTagged(pair[1], depth + 1));
    default:
      return Array.isArray(v) && v.every((x) => isTagged(x, depth + 1));
  }
}

/** Python's value format for inputs a model proposes. */
export const pythonProposalValues: ValueFormat = Object.freeze({
  description:
    'Every value is tagged JSON: {"t": <tag>, "v": <payload>} with tags none (v null), bool (true/false), int (decimal string: "3"), float (repr string: "0.5", "nan", "inf"), str (string), bytes (base64 string), list / tuple / set / frozenset (array of tagged values), dict (array of [key, value] pairs of tagged values).',
  isPlainValue: (value: unknown) => isTagged(value, 0),
  keywordArguments: true,
});
