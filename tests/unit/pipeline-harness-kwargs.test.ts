/**
 * Keyword arguments no keyword can spell (`'1'`, `'a b'`, `'class'`), which reach a **kwargs parameter
 * only by unpacking (orderedmultidict's `update(**{'1': 1})`): the recorder's call source (common.py,
 * the expression a stated or restored case evaluates) and the prompt and readable renderings pass them
 * as `**{...}`, so the expression still compiles.
 */
import { describe, expect, it } from 'vitest';
import { keywordArguments } from '../../src/languages/python/python-literal.js';
import { runWithHarnessModule } from './pipeline-harness-helpers.js';

const int = (n: number): unknown => ({ t: 'int', v: String(n) });

describe('keyword arguments that are not names', () => {
  it('the call source unpacks them, and it evaluates to the same keywords', () => {
    const out = runWithHarnessModule('common', [
      'source = common.call_args_source({"args": [{"t": "int", "v": "0"}], "kwargs": {"1": {"t": "int", "v": "1"}, "a": {"t": "int", "v": "2"}, "class": {"t": "int", "v": "3"}}}, set())',
      'print(json.dumps({"source": source, "called": eval("(lambda *a, **k: [list(a), k])(%s)" % source)}))',
    ], '');
    expect(out.source).toBe("0, a=2, **{'1': 1, 'class': 3}");
    expect(out.called).toEqual([[0], { a: 2, '1': 1, class: 3 }]);
  });

  it('the renderings do the same', () => {
    expect(keywordArguments({ b: int(2), a: int(1), '1': int(1), 'a b': int(3) })).toEqual(['a=1', 'b=2', "**{'1': 1, 'a b': 3}"]);
    expect(keywordArguments({})).toEqual([]);
  });
});
