import { describe, expect, it } from 'vitest';
import { featureSlices, MAX_FEATURE_HELPERS } from '../../src/pipeline/record/feature-slices.js';
import type { Unit } from '../../src/pipeline/types.js';
import { makeUnit } from '../fixtures/units.js';

const fn = (qualname: string, calls: string[], file = 'pkg/parse.py'): Unit =>
  makeUnit({ id: `pkg.parse:${qualname}`, kind: qualname.includes('.') ? 'method' : 'function', module: 'pkg.parse', qualname, file, calls });

describe('feature slices: a public entry with the private helpers only it reaches', () => {
  const units = [
    fn('parse', ['_tokens', 'self._expr']),
    fn('_tokens', ['_skip']),
    fn('_skip', []),
    fn('Parser._expr', ['_atom']),
    fn('_atom', ['_shared']),
    fn('dump', ['_shared', '_quote']),
    fn('_shared', []),
    fn('_quote', []),
    fn('lonely', []),
    fn('__repr__', ['_quote']),
  ];
  const all = new Set(units.map((u) => u.id));

  it('takes the private units its calls reach down the file, not those another public unit or a dunder reaches', () => {
    const slices = featureSlices(units, all);
    // _shared is reached from dump too, _quote from __repr__: dump keeps no helper, and lonely has none
    expect(slices.map((s) => [s.entry.qualname, s.helpers.map((h) => h.qualname)])).toEqual([['parse', ['Parser._expr', '_atom', '_skip', '_tokens']]]);
  });

  it('proposes only entries recorded on their own, and no feature past the helper limit', () => {
    expect(featureSlices(units, new Set(['pkg.parse:dump']))).toEqual([]);
    const wide = [fn('run', Array.from({ length: MAX_FEATURE_HELPERS + 1 }, (_, k) => `_h${k}`)), ...Array.from({ length: MAX_FEATURE_HELPERS + 1 }, (_, k) => fn(`_h${k}`, []))];
    expect(featureSlices(wide, new Set(['pkg.parse:run']))).toEqual([]);
    expect(featureSlices(wide.slice(0, MAX_FEATURE_HELPERS + 1), new Set(['pkg.parse:run']))[0]?.helpers).toHaveLength(MAX_FEATURE_HELPERS);
  });

  it('looks in the entry\'s own file only', () => {
    expect(featureSlices([fn('parse', ['_tokens']), fn('_tokens', [], 'pkg/other.py')], all)).toEqual([]);
  });
});
