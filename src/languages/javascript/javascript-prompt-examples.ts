import { lineSpans } from '../../pipeline/write/prompt-examples.js';
import type { TaskTests } from '../../tasks/task-schema.js';
import type { Unit } from '../construction-types.js';
import { calledUnit } from '../called-unit.js';
import type { ExamplesCheck, PromptExample } from '../language.js';
import { nodeTestsOf } from './javascript-tests.js';
import { EXAMPLES_HEADING, MORE_EXAMPLES_HEADING, localBinding } from './javascript-writer.js';

/** Where the examples check sits under hidden/ while the gate runs it (judge.mjs reads it as its cases file). */
export const JAVASCRIPT_EXAMPLES_CHECK_PATH = 'examples/prompt-examples.json';

/** A prompt's REPL example as the check runs it: each `> ` input line and the text the prompt shows after it. */
export interface JavaScriptPromptExample extends PromptExample {
  lines: { input: string; output: string }[];
}

/**
 * The examples of a prompt's own Examples sections (javascript-writer.ts renders them): in each
 * section's code fence, each run of lines between blank lines is one example, a Node REPL session
 * of `> ` input lines, each followed by what the REPL prints for it. The blank line before an
 * example goes with it when it is cut out. A quoted JSDoc's `@example` lines (the library's own
 * conventions, not a REPL's) are not examples here.
 */
export function parseJavaScriptPromptExamples(prompt: string): JavaScriptPromptExample[] {
  const { lines, offsets, endOf } = lineSpans(prompt);
  const out: JavaScriptPromptExample[] = [];
  let section = '';
  let inFence = false;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] ?? '';
    if (line.trim().startsWith('```')) {
      inFence = !inFence;
      continue;
    }
    if (!inFence) {
      if (line.startsWith('## ')) section = line.trim();
      continue;
    }
    if (!line.startsWith('> ') || (section !== EXAMPLES_HEADING && section !== MORE_EXAMPLES_HEADING)) continue;
    let last = i;
    while (last + 1 < lines.length && (lines[last + 1] ?? '').trim() !== '' && !(lines[last + 1] ?? '').trim().startsWith('```')) last += 1;
    const session: { input: string; output: string }[] = [];
    for (const l of lines.slice(i, last + 1)) {
      if (l.startsWith('> ')) session.push({ input: l.slice(2), output: '' });
      else if (session.length > 0) {
        const entry = session[session.length - 1]!;
        entry.output = entry.output === '' ? l : `${entry.output}\n${l}`;
      }
    }
    const first = i > 0 && (lines[i - 1] ?? '').trim() === '' ? i - 1 : i;
    out.push({ id: `e${out.length + 1}`, own: true, start: offsets[first] ?? 0, end: endOf(last), lines: session });
    i = last;
  }
  return out;
}

/**
 * The examples gate's check of a JavaScript prompt: a document under hidden/ that the Node judge
 * runs instead of recorded cases (judge.mjs `runExamples`: one test per example, `example:<id>`),
 * the unit's module loaded with its exports as globals and the prompt's import binding; null when
 * the prompt shows no example.
 */
export function javascriptExamplesCheck(input: { taskId: string; prompt: string; unit: Unit; tests: TaskTests }): ExamplesCheck | null {
  const examples = parseJavaScriptPromptExamples(input.prompt);
  if (examples.length === 0) return null;
  const called = calledUnit(input.unit);
  const document = {
    schemaVersion: 1,
    task: input.taskId,
    module: called.module,
    binding: localBinding(called),
    examples: examples.map((e) => ({ id: e.id, lines: e.lines })),
  };
  return {
    examples: examples.map(({ id, own, start, end }) => ({ id, own, start, end })),
    files: new Map([[JAVASCRIPT_EXAMPLES_CHECK_PATH, Buffer.from(`${JSON.stringify(document, null, 1)}\n`)]]),
    tests: { ...nodeTestsOf(input.tests), cases: JAVASCRIPT_EXAMPLES_CHECK_PATH },
    exampleOf: (name) => /^example:(e\d+)$/.exec(name)?.[1] ?? null,
  };
}
