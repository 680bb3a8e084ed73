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
import { isRepoTestSite } from './rust-inputs.js';
import { rustValueText, shortRustType } from './rust-values.js';

/** What a masked Rust body does, as the prompt says it. */
const MASKED = '`unimplemented!()`';

/** The Rust call of a case as written in its module: `Type::f(…)`, `<receiver>.m(…)` or `f(…)`. */
export function rustCall(c: RecordedCase): string {
  const args = c.args.map((a) => String((a as { v?: unknown }).v));
  const parts = c.target.split('.');
  const receiver = (c.init?.args[0] as { v?: unknown } | undefined)?.v;
  if (receiver !== undefined) return `${String(receiver)}.${parts.at(-1)}(${args.join(', ')})`;
  return `${parts.join('::')}(${args.join(', ')})`;
}

/**
 * One case as the prompt shows it: the call, then `// → ` and what it returns (its `{:?}` text, its
 * type in a comment where a literal would not say it), or `// panics`, and for a receiver or a
 * `&mut` argument the call changed, what it holds afterwards.
 */
export function rustExampleBlock(_unit: Unit, c: RecordedCase): string {
  const call = rustCall(c);
  if ('raises' in c.expect) return `${call} // panics`;
  const returned = c.expect.returns as { type?: string } | null;
  const lines = [`${call} // → ${rustValueText(returned)}${returned?.type && returned.type !== '()' ? ` (${shortRustType(returned.type)})` : ''}`];
  if (c.argsAfter !== null) {
    // only what the call can change: a `&mut self` receiver, `&mut` arguments
    const held = [
      ...(c.init !== null ? [{ name: 'the receiver', mutable: (c.init.args[0] as { self?: string } | undefined)?.self === '&mut self' }] : []),
      ...c.args.map((a, i) => ({ name: `argument ${i + 1}`, mutable: /^&\s*mut\b/.test((a as { type?: string }).type ?? '') })),
    ];
    const shown = c.argsAfter.map((v, i) => ({ v, at: held[i] })).filter(({ at }) => at?.mutable === true);
    if (shown.length > 0) lines.push(`// afterwards ${shown.map(({ v, at }) => `${at!.name} is ${rustValueText(v)}`).join(', ')}`);
  }
  return lines.join('\n');
}

/**
 * The cases the prompt shows: one of each behaviour class (returns, returns `Err`, panics), the
 * repository's tests' and the shortest first, then the shortest others that return up to three;
 * at most eight.
 */
export function pickRustExamples(cases: readonly RecordedCase[]): RecordedCase[] {
  return pickExamples(cases, { sizeOf: (c) => rustExampleBlock({} as Unit, c).length, classOf: behaviourClassOf });
}

/** The example lines of a prompt: the calls inside its ```rust fences that show a result (`// → ` or `// panics`). */
export function rustExampleLines(prompt: string): string[] {
  return fencedExampleLines(prompt, /\/\/ (?:→|panics)/);
}

/** The task's title: the doc comment's first sentence, else `Implement <qualname>`. */
export function rustTitle(unit: Unit): string {
  return docTitle(unit, unit.qualname.replace('.', '::'));
}

function comparedSentence(cases: number): string {
  return `${hiddenCasesSentence(cases)}, many more than these examples. Each call's result is compared by its exact Rust type and its \`{:?}\` text (an \`f64\` within a relative tolerance of 1e-9), a panic as a panic, and what a \`&mut self\` receiver or a \`&mut\` argument holds afterwards where the original changes it.`;
}

/**
 * The prompt (Markdown): what to implement and where it sits (its module file, its visibility), the
 * signature, the doc comment (or, undocumented, that the examples are its spec and the
 * repository's calls of it), the examples as Rust calls with their results, and what is compared.
 */
export function renderRustPrompt(input: { unit: Unit; cases: readonly RecordedCase[]; libraryName: string }): string {
  const { unit } = input;
  const name = unit.qualname.replace('.', '::');
  const type = unit.decorators.find((d) => d.startsWith('impl:'))?.slice('impl:'.length);
  const what = type ? `method \`${name}\` (in \`impl ${type}\`)` : `function \`${name}\``;
  const out = [
    `# Implement \`${name}\` in \`${unit.file}\``,
    '',
    `The workspace holds ${input.libraryName}. The ${what} in \`${unit.file}\` has lost its body: it now calls ${MASKED}. Implement it so that it behaves as described below. Keep its signature and leave the rest of the code as it is; the hidden tests call it from inside its module, as the examples do.`,
    '',
    '## Signature',
    '',
    '```rust',
    unit.signature.trim(),
    '```',
    '',
    '## Behaviour',
    '',
    ...(unit.docstring?.trim()
      ? [unit.docstring.trim()]
      : [`\`${name}\` has no documentation. What it must do is what the examples below show: one example of each behaviour the hidden tests check.`, ...callSiteLines(unit, (f) => isRepoTestSite({ file: f, caller: '' }))]),
    '',
  ];
  const examples = pickRustExamples(input.cases);
  const first = examples.slice(0, FIRST_EXAMPLES);
  const more = examples.slice(FIRST_EXAMPLES);
  if (first.length > 0) out.push('## Examples', '', `Each call as written inside \`${unit.file}\`'s module, and what it gives (\`// → \` its result and its type):`, '', '```rust', first.map((c) => rustExampleBlock(unit, c)).join('\n\n'), '```', '');
  if (more.length > 0) out.push('## More examples', '', 'One example of each other behaviour the hidden tests check:', '', '```rust', more.map((c) => rustExampleBlock(unit, c)).join('\n\n'), '```', '');
  out.push(comparedSentence(input.cases.length), '');
  return out.join('\n');
}

/** The prompt with a closing note naming the units masked besides the target. */
export function rustWithCoMaskedNote(prompt: string, coMasked: readonly Unit[]): string {
  return withCoMaskedNote(prompt, coMasked, `call ${MASKED}`, (u) => u.qualname.replace('.', '::'));
}

/** The cases as a file for people (hidden/readable/, never run by scoring): each call and what it gives, as Rust comments. */
export function rustReadableTest(input: { taskId: string; taskName: string; cases: readonly RecordedCase[]; unit: Unit }): { path: string; content: string } {
  return readableCases({
    taskName: input.taskName,
    cases: input.cases,
    header: [
      `// The hidden cases of ${input.taskId}, for people: each call, made inside ${input.unit.file}'s module, and what the original gave.`,
      `// Scoring runs them with codemidas's Rust judge (/opt/codemidas/rust/judge.py), not with this file.`,
    ],
    exampleBlock: (c) => rustExampleBlock(input.unit, c),
  });
}

/** Rust's prompt and readable-case rendering (function and feature tasks). */
export const rustWriter: TaskWriter = Object.freeze({
  renderPrompt: renderRustPrompt,
  pickExamples: pickRustExamples,
  exampleBlock: rustExampleBlock,
  exampleLines: rustExampleLines,
  title: rustTitle,
  withCoMaskedNote: rustWithCoMaskedNote,
  readableTest: rustReadableTest,
});
