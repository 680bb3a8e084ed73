import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { projectRoot } from '../../project-root.js';
import { lineSpans } from '../../pipeline/write/prompt-examples.js';
import type { TaskTests } from '../../tasks/task-schema.js';
import type { Unit } from '../construction-types.js';
import type { ExamplesCheck, PromptExample } from '../language.js';
import { pythonStrRepr } from './python-literal.js';
import { pythonTestsOf } from './python-tests.js';

/** The headings of the prompt's own examples (render-prompt.ts): the first few, then one of each other behaviour class. */
export const EXAMPLES_HEADING = '## Examples';
export const MORE_EXAMPLES_HEADING = '## More examples';

/** Where the examples check sits under hidden/ while the gate runs it. */
export const EXAMPLES_CHECK_PATH = 'examples/test_prompt_examples.py';

/** A prompt's example as the check runs it. */
export interface PythonPromptExample extends PromptExample {
  /** The doctest text, dedented to its `>>>`. */
  text: string;
  /** Doctest texts run first in the same namespace: the section's import lines, or the section's earlier examples. */
  before: string[];
}

const isPrompt = (trimmed: string): boolean => trimmed === '>>>' || trimmed.startsWith('>>> ');
const isImport = (trimmed: string): boolean => /^>>> (import\s|from\s+\S+\s+import\s)/.test(trimmed);

/**
 * The examples of a prompt: each run of lines from a `>>>` line to the next blank line (or fence, or
 * heading) is one example, as doctest reads a docstring. In the prompt's own Examples section an
 * example made only of import lines is not an example but the set-up every later one of the section
 * runs after, and the comment lines just above an example belong to it; elsewhere (a docstring the
 * prompt quotes) each example runs after the earlier ones of its section.
 */
export function parsePromptExamples(prompt: string): PythonPromptExample[] {
  const { lines, offsets, endOf } = lineSpans(prompt);
  const out: PythonPromptExample[] = [];
  let section = '';
  let inFence = false;
  let setup: string[] = [];
  let earlier: string[] = [];
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] ?? '';
    const trimmed = line.trim();
    if (trimmed.startsWith('```')) {
      inFence = !inFence;
      continue;
    }
    if (!inFence && line.startsWith('## ')) {
      section = line.trim();
      setup = [];
      earlier = [];
      continue;
    }
    if (!isPrompt(trimmed)) continue;
    const own = section === EXAMPLES_HEADING || section === MORE_EXAMPLES_HEADING;
    let first = i;
    // the comment lines above an example of the Examples section say what it shows
    while (own && first > 0 && /^#( |$)/.test((lines[first - 1] ?? '').trim())) first -= 1;
    let last = i;
    while (last + 1 < lines.length) {
      const next = (lines[last + 1] ?? '').trim();
      if (next === '' || next.startsWith('```') || (!inFence && (lines[last + 1] ?? '').startsWith('## '))) break;
      last += 1;
    }
    const indent = line.length - line.trimStart().length;
    const text = `${lines
      .slice(i, last + 1)
      .map((l) => (l.slice(0, indent).trim() === '' ? l.slice(indent) : l.trimStart()))
      .join('\n')}\n`;
    i = last;
    if (own && text.split('\n').filter((l) => l.trim() !== '').every((l) => isImport(l.trim()))) {
      setup.push(text);
      continue;
    }
    // the blank line before an example of the Examples section goes with it when it is cut out
    if (own && first > 0 && (lines[first - 1] ?? '').trim() === '') first -= 1;
    out.push({
      id: `e${out.length + 1}`,
      own,
      start: offsets[first] ?? 0,
      end: endOf(last),
      text,
      before: own ? [...setup] : [...earlier],
    });
    if (!own) earlier.push(text);
  }
  return out;
}

let cachedTemplate: string | undefined;

function template(): string {
  cachedTemplate ??= readFileSync(join(projectRoot(), 'src', 'languages', 'python', 'templates', 'prompt_examples_check.py'), 'utf8');
  return cachedTemplate;
}

/**
 * The examples gate's check of a Python prompt: a pytest file with one test per example
 * (`test_example_<id>`), run by the task's runner with its cases left out; null when the prompt
 * shows no example.
 */
export function pythonExamplesCheck(input: { taskId: string; prompt: string; unit: Unit; tests: TaskTests }): ExamplesCheck | null {
  const examples = parsePromptExamples(input.prompt);
  if (examples.length === 0) return null;
  const payload = examples.map((e) => ({ id: e.id, module: e.own ? null : input.unit.module, before: e.before, text: e.text }));
  const content = template()
    .replace('__CODEMIDAS_TASK_ID__', input.taskId)
    .replace('__CODEMIDAS_EXAMPLES__', () => pythonStrRepr(JSON.stringify(payload)))
    .concat(examples.map((e) => `\n\ndef test_example_${e.id}():\n    _check(${pythonStrRepr(e.id)})\n`).join(''));
  const tests = pythonTestsOf(input.tests);
  return {
    examples: examples.map(({ id, own, start, end }) => ({ id, own, start, end })),
    files: new Map([[EXAMPLES_CHECK_PATH, Buffer.from(content)]]),
    tests: { ...tests, cases: null, scripts: [EXAMPLES_CHECK_PATH] },
    exampleOf: (name) => /::test_example_(e\d+)$/.exec(name)?.[1] ?? null,
  };
}
