/**
 * The examples gate's reading of a Python prompt (issue 19, part 2): which lines are examples, what
 * each runs after, the check file run for real by Debian's python3 and pytest on examples/textkit,
 * and the prompt with the failing examples cut out.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { EXAMPLES_CHECK_PATH, parsePromptExamples, pythonExamplesCheck } from '../../src/languages/python/prompt-examples.js';
import { withoutExamples } from '../../src/pipeline/write/prompt-examples.js';
import { runPromptExamples } from '../fixtures/prompt-examples-run.js';

const TEXTKIT = join(process.cwd(), 'examples', 'textkit');
const unit = { module: 'textkit.roman', file: 'textkit/roman.py' };

const prompt = [
  '# Implement `to_roman` in `textkit/roman.py`',
  '',
  '## Behaviour',
  '',
  'Returns the numeral.',
  '',
  '    >>> n = 4',
  '    >>> to_roman(n)',
  "    'IV'",
  '',
  '    >>> MAX_ROMAN + n',
  '    4003',
  '',
  '## Examples',
  '',
  '```python',
  '>>> from textkit.roman import to_roman',
  '>>> import textkit.roman',
  '',
  '>>> to_roman(1994)',
  "'MCMXCIV'",
  '',
  '# a wrong value',
  '>>> to_roman(3)',
  "'IV'",
  '',
  '>>> to_roman(0)',
  'Traceback (most recent call last):',
  'ValueError: ...',
  '',
  '>>> {to_roman(k) for k in (1, 2, 3, 5, 10)}',
  "{'X', 'V', 'III', 'II', 'I'}",
  '',
  '>>> textkit.roman.to_roman(9)',
  "'IX'",
  '',
  '>>> print(None)',
  'None',
  '```',
  '',
  'Hidden tests check 9 recorded cases.',
  '',
].join('\n');

describe('the examples of a Python prompt', () => {
  it('reads each example with what it runs after: the Examples section after its imports, a docstring after its earlier examples', () => {
    const examples = parsePromptExamples(prompt);
    expect(examples.map((e) => [e.id, e.own])).toEqual([
      ['e1', false],
      ['e2', false],
      ['e3', true],
      ['e4', true],
      ['e5', true],
      ['e6', true],
      ['e7', true],
      ['e8', true],
    ]);
    // a docstring's example is dedented to its >>> and runs after the earlier ones of its section
    expect(examples[0]?.text).toBe(">>> n = 4\n>>> to_roman(n)\n'IV'\n");
    expect(examples[1]?.before).toEqual([examples[0]?.text]);
    // the import lines are the Examples section's set-up, not an example
    expect(examples[2]?.before).toEqual(['>>> from textkit.roman import to_roman\n>>> import textkit.roman\n']);
    // an example's span takes its comment lines and the blank line before it
    const wrong = examples[3]!;
    expect(prompt.slice(wrong.start, wrong.end)).toBe("\n# a wrong value\n>>> to_roman(3)\n'IV'\n");
  });

  it('reads a More examples section as the prompt\'s own, after its own import lines', () => {
    const more = `${prompt}## More examples\n\n\`\`\`python\n>>> from textkit.roman import from_roman\n\n>>> from_roman('IX')\n9\n\`\`\`\n`;
    const last = parsePromptExamples(more).at(-1)!;
    expect(last).toMatchObject({ id: 'e9', own: true, before: ['>>> from textkit.roman import from_roman\n'], text: ">>> from_roman('IX')\n9\n" });
    expect(runPromptExamples(more, unit, TEXTKIT).held).toContain('e9');
  });

  it('runs each example as a doctest on the original: a wrong value fails, a set in another order and a shown None hold', () => {
    const run = runPromptExamples(prompt, unit, TEXTKIT);
    expect(run.failed, run.output).toEqual(['e4']);
    expect(run.held.sort()).toEqual(['e1', 'e2', 'e3', 'e5', 'e6', 'e7', 'e8']);
  });

  it('names one test per example in the check the gate runs, and reads the example back from a test name', () => {
    const check = pythonExamplesCheck({ taskId: 's/to-roman', prompt, unit: unit as never, tests: { runner: 'python', cases: 'cases.json', scripts: [], timeoutMs: 1000, caseTimeoutMs: 100 } })!;
    expect(check.tests).toMatchObject({ runner: 'python', cases: null, scripts: [EXAMPLES_CHECK_PATH] });
    const source = check.files.get(EXAMPLES_CHECK_PATH)!.toString();
    expect([...source.matchAll(/^def (test_example_e\d+)\(\):$/gm)].map((m) => m[1])).toHaveLength(8);
    expect(check.exampleOf(`${EXAMPLES_CHECK_PATH}::test_example_e4`)).toBe('e4');
    expect(check.exampleOf('case:to-roman-1')).toBeNull();
    expect(pythonExamplesCheck({ taskId: 's/t', prompt: '# no examples\n', unit: unit as never, tests: check.tests })).toBeNull();
  });

  it('cuts failing examples out of the prompt, leaving the others and the rest of the prompt as they were', () => {
    const examples = parsePromptExamples(prompt);
    const cut = withoutExamples(prompt, examples.filter((e) => e.id === 'e4' || e.id === 'e2'));
    expect(cut).not.toContain('to_roman(3)');
    expect(cut).not.toContain('# a wrong value');
    expect(cut).not.toContain('MAX_ROMAN');
    expect(cut).toContain(">>> to_roman(1994)\n'MCMXCIV'\n\n>>> to_roman(0)\n");
    expect(cut).toContain('Hidden tests check 9 recorded cases.');
    // what is left still holds, example by example
    const again = runPromptExamples(cut, unit, TEXTKIT);
    expect(again.failed, again.output).toEqual([]);
    expect(again.held).toHaveLength(6);
  });
});
