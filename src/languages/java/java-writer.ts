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
import { warmedSteps } from './java-inputs.js';
import { javaValueText } from './java-values.js';
import { CONSTRUCTOR_NAME, DEFAULT_PACKAGE, isJavaTestFile } from './parse-java-units.js';

/** What a masked Java body does, as the prompt says it. */
const MASKED = '`throw new UnsupportedOperationException("not implemented");`';

interface JavaCall {
  cls?: string;
  member?: string;
  static?: boolean;
  ctor?: boolean;
  void?: boolean;
}

function callOf(c: RecordedCase): JavaCall {
  return ((c.init?.kwargs as { call?: JavaCall } | undefined)?.call ?? {}) as JavaCall;
}

/** The Java call of a case as written in its package: `Cls.member(args)`, `new Cls(args)`, or `<receiver>.member(args)`. */
export function javaCall(c: RecordedCase): string {
  const call = callOf(c);
  const [cls = '', member = ''] = c.target.split('.');
  const args = c.args.map((a) => String((a as { v?: unknown }).v)).join(', ');
  const name = member.replace(/~\d+$/, '');
  if (call.ctor || name === CONSTRUCTOR_NAME) return `new ${cls}(${args})`;
  const receiver = (c.init?.args[0] as { v?: unknown } | undefined)?.v;
  if (receiver === undefined) return `${cls}.${name}(${args})`;
  const steps = warmedSteps(String(receiver));
  return steps === null ? `${String(receiver)}.${name}(${args})` : `${steps.steps}\n${steps.variable}.${name}(${args})`;
}

/**
 * One case as the prompt shows it: the call, then `// → ` and what it returns, or `// throws ` and
 * the exception's class (its message in parentheses), and for a receiver or argument the call
 * changed, what it holds afterwards.
 */
export function javaExampleBlock(_unit: Unit, c: RecordedCase): string {
  const call = javaCall(c);
  if ('raises' in c.expect) {
    const message = c.shown?.[0];
    return `${call}; // throws ${c.expect.raises}${message && message !== 'null' ? ` (${JSON.stringify(message).slice(0, 120)})` : ''}`;
  }
  const lines = [`${call}; // → ${javaValueText(c.expect.returns)}`];
  if (c.argsAfter !== null) {
    const hasReceiver = (c.init?.args.length ?? 0) > 0;
    const names = [...(hasReceiver ? ['the receiver'] : []), ...c.args.map((_, i) => `argument ${i + 1}`)];
    // a primitive, a string or null cannot have changed: only the objects and arrays are shown
    const immutable = new Set(['int', 'float', 'bool', 'char', 'str', 'null', 'enum']);
    const changed = c.argsAfter.flatMap((v, i) => (immutable.has((v as { t?: string } | null)?.t ?? '') ? [] : [`${names[i] ?? `value ${i + 1}`} is ${javaValueText(v)}`]));
    if (changed.length > 0) lines.push(`// afterwards ${changed.join(', ')}`);
  }
  return lines.join('\n');
}

/**
 * The cases the prompt shows: one of each behaviour class (returns, or throws which class), the
 * repository's tests' and the shortest first, then the shortest others that return up to three; at most eight.
 */
export function pickJavaExamples(cases: readonly RecordedCase[]): RecordedCase[] {
  // the repository's tests' first; then a call that changes its receiver or an argument (what a void method does)
  return pickExamples(cases, { sizeOf: (c) => javaExampleBlock({} as Unit, c).length, classOf: behaviourClassOf, preferred: (c) => Number(c.argsAfter !== null) });
}

/** The example lines of a prompt: the calls inside its ```java fences that show a result (`// → ` or `// throws `). */
export function javaExampleLines(prompt: string): string[] {
  return fencedExampleLines(prompt, /\/\/ (?:→|throws )/);
}

/**
 * The member as the prompt names it: `Strings.reverse`; one of several overloads with its parameter
 * types, `Hex.encode(byte[], boolean)` (its qualname's `~2` is the parser's, not Java's).
 */
export function javaMemberName(unit: Unit): string {
  const name = unit.qualname.replace(/~\d+$/, '');
  if (!unit.decorators.includes('overloaded')) return name;
  return `${name}(${unit.params.map((p) => p.annotation ?? 'Object').join(', ')})`;
}

/** The task's title: the Javadoc's first sentence, else `Implement <member>`. */
export function javaTitle(unit: Unit): string {
  return docTitle(unit, javaMemberName(unit));
}

function comparedSentence(cases: number): string {
  return `${hiddenCasesSentence(cases)}, many more than these examples. Each call's result is compared with its exact Java type (an \`int\` is not a \`long\`, an \`int[]\` is not an \`Integer[]\`; a \`double\` within a relative tolerance of 1e-9; lists by their elements in order, sets and maps by their contents, whatever their implementation class; an object of the library by each of its fields), a thrown exception by its class, and what the receiver or an argument holds afterwards where the original changes it.`;
}

/** What the unit is, in words: `the public static method \`reverse\` of class \`Strings\``. */
function describeMember(unit: Unit): string {
  const [cls = '', member = ''] = unit.qualname.split('.');
  const visibility = unit.decorators.includes('package') ? 'package-private' : (unit.decorators[0] ?? 'public');
  // an overload is told from its siblings by its parameters: the signature below shows them
  const which = unit.decorators.includes('overloaded') ? ` taking \`(${unit.params.map((p) => p.annotation ?? 'Object').join(', ')})\` (the class has other ${unit.decorators.includes('constructor') ? 'constructors' : `methods named \`${member.replace(/~\d+$/, '')}\``}; only this one has lost its body)` : '';
  if (unit.decorators.includes('constructor')) return `the ${visibility} constructor of class \`${cls}\`${which}`;
  return `the ${visibility}${unit.decorators.includes('static') ? ' static' : ''} method \`${member.replace(/~\d+$/, '')}\` of class \`${cls}\`${which}`;
}

/**
 * The prompt (Markdown): what to implement and where it sits (its class and package), the
 * signature, the Javadoc (or, undocumented, that the examples are its spec and the repository's
 * calls of it), the examples as Java calls with their results, and what is compared.
 */
export function renderJavaPrompt(input: { unit: Unit; cases: readonly RecordedCase[]; libraryName: string }): string {
  const { unit } = input;
  const pkg = unit.module === DEFAULT_PACKAGE ? 'the default package' : `package \`${unit.module}\``;
  const how = unit.decorators.includes('private') ? ' (a private member: through reflection, by its name and parameter types)' : '';
  const out = [
    `# Implement \`${javaMemberName(unit)}\` in \`${unit.file}\``,
    '',
    `The workspace holds ${input.libraryName}. The body of ${describeMember(unit)} in \`${unit.file}\` (${pkg}) has been removed: it now only does ${MASKED}. Implement it so that it behaves as described below. Keep its signature and leave the rest of the code as it is; the hidden tests call it from a class of ${pkg}${how}, compiled with javac (Java 17) together with the workspace's sources.`,
    '',
    '## Signature',
    '',
    '```java',
    unit.signature.trim(),
    '```',
    '',
    '## Behaviour',
    '',
    ...(unit.docstring?.trim()
      ? [unit.docstring.trim()]
      : [`\`${javaMemberName(unit)}\` has no documentation. What it must do is what the examples below show: one example of each behaviour the hidden tests check.`, ...callSiteLines(unit, isJavaTestFile)]),
    '',
  ];
  const examples = pickJavaExamples(input.cases);
  const first = examples.slice(0, FIRST_EXAMPLES);
  const more = examples.slice(FIRST_EXAMPLES);
  if (first.length > 0) out.push('## Examples', '', `Each call as written in a class of ${pkg}, and what it gives (\`// → \` its result, \`// throws \` the exception's class):`, '', '```java', first.map((c) => javaExampleBlock(unit, c)).join('\n\n'), '```', '');
  if (more.length > 0) out.push('## More examples', '', 'One example of each other behaviour the hidden tests check:', '', '```java', more.map((c) => javaExampleBlock(unit, c)).join('\n\n'), '```', '');
  out.push(comparedSentence(input.cases.length), '');
  return out.join('\n');
}

/** The prompt with a closing note naming the units masked besides the target. */
export function javaWithCoMaskedNote(prompt: string, coMasked: readonly Unit[]): string {
  return withCoMaskedNote(prompt, coMasked, `throw ${MASKED}`);
}

/** The cases as a file for people (hidden/readable/, never run by scoring): each call and what it gives, as Java comments. */
export function javaReadableTest(input: { taskId: string; taskName: string; cases: readonly RecordedCase[]; unit: Unit }): { path: string; content: string } {
  return readableCases({
    taskName: input.taskName,
    cases: input.cases,
    header: [
      `// The hidden cases of ${input.taskId}, for people: each call, made from a class of ${input.unit.module}, and what the original gave.`,
      `// Scoring runs them with codemidas's Java judge (/opt/codemidas/java/judge.py), not with this file.`,
    ],
    exampleBlock: (c) => javaExampleBlock(input.unit, c),
  });
}

/** Java's prompt and readable-case rendering (function and feature tasks). */
export const javaWriter: TaskWriter = Object.freeze({
  renderPrompt: renderJavaPrompt,
  pickExamples: pickJavaExamples,
  exampleBlock: javaExampleBlock,
  exampleLines: javaExampleLines,
  title: javaTitle,
  withCoMaskedNote: javaWithCoMaskedNote,
  readableTest: javaReadableTest,
});
