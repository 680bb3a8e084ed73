import { callSiteLines } from '../call-sites.js';
import type { RecordedCase, Unit } from '../construction-types.js';
import type { TaskWriter } from '../language.js';
import { withCoMaskedNote } from '../co-masked-note.js';
import { readableCases } from '../readable-cases.js';
import { docTitle } from '../doc-title.js';
import { fencedExampleLines } from '../fenced-example-lines.js';
import { FIRST_EXAMPLES, pickExamples } from '../pick-examples.js';
import { behaviourClassOf } from '../../pipeline/write/behaviour-classes.js';
import { hiddenCasesSentence } from '../../pipeline/write/write-task.js';
import { goValueText } from './go-values.js';

/** What a masked Go body does, as the prompt says it. */
const MASKED = '`panic("not implemented")`';

const EXAMPLES_HEADING = '## Examples';
const MORE_EXAMPLES_HEADING = '## More examples';

/**
 * The Go call of a case as written in its package: the receiver for a method (a composite literal
 * as `(&T{…})`: a pointer method cannot be called on a literal value, and a value method is called
 * the same through its pointer), then the arguments (a variadic one spread).
 */
export function goCall(c: RecordedCase): string {
  const args = c.args.map((a) => {
    const arg = a as { v?: unknown; variadic?: boolean };
    return arg.variadic ? `${String(arg.v)}...` : String(arg.v);
  });
  const name = c.target.split('.').at(-1) ?? c.target;
  const receiver = (c.init?.args[0] as { v?: unknown } | undefined)?.v;
  if (receiver === undefined) return `${name}(${args.join(', ')})`;
  const written = String(receiver);
  const literal = /^[\w.]+(?:\[[^\]]*\])?\{/.test(written);
  return `${literal ? `(&${written})` : written}.${name}(${args.join(', ')})`;
}

/**
 * One case as the prompt shows it: the call, then `// → ` and what it returns (each result, an
 * error as `errors.New("…")` with its type), or `// panics with a <type>`, and for a receiver or
 * argument the call changed, what it holds afterwards.
 */
export function goExampleBlock(_unit: Unit, c: RecordedCase): string {
  const call = goCall(c);
  const lines = 'raises' in c.expect ? [`${call} // panics with a ${c.expect.raises}`] : [`${call} // → ${goValueText(c.expect.returns)}`];
  if (c.argsAfter !== null) {
    const names = [...(c.init !== null ? ['the receiver'] : []), ...c.args.map((_, i) => `argument ${i + 1}`)];
    lines.push(`// afterwards ${c.argsAfter.map((v, i) => `${names[i] ?? `value ${i + 1}`} is ${goValueText(v)}`).join(', ')}`);
  }
  return lines.join('\n');
}

/**
 * The cases the prompt shows (issue 19, part 3, for Go): one of each behaviour class (returns, or
 * panics with which type), the shortest first, cases that return first, then the shortest others
 * that return up to three; at most eight.
 */
export function pickGoExamples(cases: readonly RecordedCase[]): RecordedCase[] {
  return pickExamples(cases, { sizeOf: (c) => goExampleBlock({} as Unit, c).length, classOf: behaviourClassOf });
}

/** The example lines of a prompt: the calls inside its ```go fences that show a result (`// → ` or `// panics`). */
export function goExampleLines(prompt: string): string[] {
  return fencedExampleLines(prompt, /\/\/ (?:→|panics with)/);
}

/** The task's title: the doc comment's first sentence, else `Implement <qualname>`. */
export function goTitle(unit: Unit): string {
  return docTitle(unit, unit.qualname);
}

function comparedSentence(cases: number): string {
  return `${hiddenCasesSentence(cases)}, many more than these examples. Each call's results are compared with their exact Go types (an \`int\` is not an \`int64\`, a nil slice is not an empty one; a \`float64\` within a relative tolerance of 1e-9), an error by its type and message, a panic by the type of its value, and what a pointer receiver or an argument holds afterwards where the original changes it.`;
}

/**
 * The prompt (Markdown): what to implement and where it sits (its package, exported or not), the
 * signature, the doc comment (or, undocumented, that the examples are its spec and the
 * repository's calls of it), the examples as Go calls with their results, and what is compared.
 */
export function renderGoPrompt(input: { unit: Unit; cases: readonly RecordedCase[]; libraryName: string }): string {
  const { unit } = input;
  const receiver = unit.decorators.find((d) => d.startsWith('receiver:'))?.slice('receiver:'.length);
  const what = receiver ? `method \`${unit.qualname}\` (receiver \`${receiver}\`)` : `function \`${unit.qualname}\``;
  const out = [
    `# Implement \`${unit.qualname}\` in \`${unit.file}\``,
    '',
    `The workspace holds ${input.libraryName}. The ${what} in \`${unit.file}\` (package folder \`${unit.module}\`) has lost its body: it now calls ${MASKED}. Implement it so that it behaves as described below. Keep its signature and leave the rest of the code as it is; the hidden tests call it from inside its package.`,
    '',
    '## Signature',
    '',
    '```go',
    unit.signature.trim(),
    '```',
    '',
    '## Behaviour',
    '',
    ...(unit.docstring?.trim()
      ? [unit.docstring.trim()]
      : [`\`${unit.qualname}\` has no documentation. What it must do is what the examples below show: one example of each behaviour the hidden tests check.`, ...callSiteLines(unit, (f) => f.endsWith('_test.go'))]),
    '',
  ];
  const examples = pickGoExamples(input.cases);
  const first = examples.slice(0, FIRST_EXAMPLES);
  const more = examples.slice(FIRST_EXAMPLES);
  if (first.length > 0) out.push(EXAMPLES_HEADING, '', `Each call as written inside package \`${unit.module}\`, and what it gives (\`// → \` its results):`, '', '```go', first.map((c) => goExampleBlock(unit, c)).join('\n\n'), '```', '');
  if (more.length > 0) out.push(MORE_EXAMPLES_HEADING, '', 'One example of each other behaviour the hidden tests check:', '', '```go', more.map((c) => goExampleBlock(unit, c)).join('\n\n'), '```', '');
  out.push(comparedSentence(input.cases.length), '');
  return out.join('\n');
}

/** The prompt with a closing note naming the units masked besides the target. */
export function goWithCoMaskedNote(prompt: string, coMasked: readonly Unit[]): string {
  return withCoMaskedNote(prompt, coMasked, `call ${MASKED}`);
}

/** The cases as a file for people (hidden/readable/, never run by scoring): each call and what it gives, as Go comments. */
export function goReadableTest(input: { taskId: string; taskName: string; cases: readonly RecordedCase[]; unit: Unit }): { path: string; content: string } {
  return readableCases({
    taskName: input.taskName,
    cases: input.cases,
    header: [
      `// The hidden cases of ${input.taskId}, for people: each call, made inside package ${input.unit.module}, and what the original gave.`,
      `// Scoring runs them with codemidas's Go judge (/opt/codemidas/go/judge.py), not with this file.`,
    ],
    exampleBlock: (c) => goExampleBlock(input.unit, c),
  });
}

/** Go's prompt and readable-case rendering (function and feature tasks). */
export const goWriter: TaskWriter = Object.freeze({
  renderPrompt: renderGoPrompt,
  pickExamples: pickGoExamples,
  exampleBlock: goExampleBlock,
  exampleLines: goExampleLines,
  title: goTitle,
  withCoMaskedNote: goWithCoMaskedNote,
  readableTest: goReadableTest,
});
