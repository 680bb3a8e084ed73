/**
 * Only promised assertions (issue 19, part 4), with Debian's python3: a case asserts an exception's
 * exact type only when the library's own `raise` or `assert` raised it or the function's
 * documentation names the type; any other exception is asserted as "raises" ("*"), which the judge
 * meets with any exception but NotImplementedError.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { recordResultSchema } from '../../src/pipeline/record/harness-result-schema.js';
import { renderPrompt } from '../../src/languages/python/render-prompt.js';
import { runPromptExamples } from '../fixtures/prompt-examples-run.js';
import { makeUnit } from '../fixtures/units.js';
import { FIXTURE, judgeCases, runHarness, target } from './pipeline-harness-helpers.js';

const MODULE = 'recfix.promised';
const NAMES = ['level', 'shout', 'lookup', 'halve'];
let recorded: Map<string, any>;

beforeAll(() => {
  const targets = NAMES.map((n) => target(n, MODULE));
  const rec = recordResultSchema.parse(runHarness('record.py', { runRepoTests: false, targets }));
  recorded = new Map(NAMES.map((n, k) => [n, rec.targets[k]]));
}, 300_000);

const raised = (name: string): string[] => [...new Set<string>(recorded.get(name).cases.flatMap((c: any) => ('raises' in c.expect ? [c.expect.raises] : [])))].sort();

describe('the exceptions a case asserts', () => {
  it("asserts the exact type of an exception the library's own raise statements raise", () => {
    // level(None) and level('x') reach `raise TypeError` and `raise ValueError`; nothing else raises
    expect(raised('level')).toEqual(['builtins.TypeError', 'builtins.ValueError']);
  });

  it("keeps where each call ended, which with its outcome is the case's behaviour class", () => {
    // level's exits: `raise TypeError` (line 8), `raise ValueError` (line 11), `return table[key]` (line 12)
    const exits = new Set(recorded.get('level').cases.map((c: any) => `${c.path} ${'raises' in c.expect ? c.expect.raises : 'returns'}`));
    expect([...exits].sort()).toEqual(['line 11 builtins.ValueError', 'line 12 returns', 'line 8 builtins.TypeError']);
  });

  it('asserts only that the call raises when the exception came out of an operation on the input', () => {
    // shout(0) or shout(None) fails in `text.upper()`: the function never chose to raise it
    expect(raised('shout')).toEqual(['*']);
    const anyCase = recorded.get('shout').cases.find((c: any) => c.expect.raises === '*');
    // what the original raised is kept for the prompt's example
    expect(anyCase.shown).toEqual(['builtins.AttributeError']);
  });

  it("shows such a case in the prompt with the type the original raised, and the example holds", () => {
    const cases = recorded.get('shout').cases.filter((c: any) => c.expect.raises === '*').slice(0, 1);
    const unit = makeUnit({ id: `${MODULE}:shout`, kind: 'function', module: MODULE, qualname: 'shout', file: 'recfix/promised.py', signature: 'def shout(text):' });
    const prompt = renderPrompt({ unit, cases, libraryName: 'recfix' });
    expect(prompt).toContain('# raises an exception (the hidden tests check only that it raises)\n>>> shout(');
    expect(prompt).toMatch(/>>> shout\(.*\)\nTraceback \(most recent call last\):\nAttributeError: \.\.\./);
    expect(runPromptExamples(prompt, unit, FIXTURE)).toMatchObject({ held: ['e1'], failed: [] });
  });

  it('asserts the exact type its documentation names, and that of an assert statement', () => {
    expect(raised('lookup')).toContain('builtins.KeyError');
    expect(raised('lookup')).not.toContain('builtins.TypeError');
    expect(raised('halve')).toContain('builtins.AssertionError');
  });

  it('judges "raises" met by any exception but NotImplementedError, and not by a return', () => {
    const anyCase = { id: 'a', module: MODULE, target: 'shout', init: null, args: [{ t: 'none', v: null }], kwargs: {}, expect: { raises: '*' }, argsAfter: null };
    const returns = { ...anyCase, id: 'b', args: [{ t: 'str', v: 'hi' }] };
    const [onNone, onText] = judgeCases([anyCase, returns]);
    expect(onNone?.[0]).toBe(true);
    expect(onText).toEqual([false, 'expected an exception, got a return value']);
    // a masked body's NotImplementedError does not count as raising
    const masked = { ...anyCase, id: 'c', target: 'stub' };
    expect(judgeCases([masked])[0]).toEqual([false, expect.stringMatching(/^expected an exception other than NotImplementedError, got builtins\.NotImplementedError/)]);
  });
});
