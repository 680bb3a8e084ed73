import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { projectRoot } from '../../project-root.js';
import { behaviourClassOf } from '../../pipeline/write/behaviour-classes.js';
import { hiddenCasesSentence } from '../../pipeline/write/write-task.js';
import type { RecordedCase, Unit } from '../construction-types.js';
import { callSiteLines } from '../call-sites.js';
import { calledUnit } from '../called-unit.js';
import type { TaskWriter } from '../language.js';
import {
  type ClassRef, classNamesIn, hasUnshowableValue, holdsFunction, inspectTagged, javascriptString, type RecordedCall, type RecordedFunction, recordedFunctions,
  taggedToJavaScript, withFunctionsAs,
} from './javascript-values.js';
import { isJavaScriptTestFile } from './javascript-files.js';
import type { AliasPair, AliasStep } from './record-javascript-cases.js';

/** At most this many recorded examples appear in a prompt; the hidden tests hold the rest. */
export const MAX_PROMPT_EXAMPLES = 3;

/** The headings of a prompt's examples sections. */
export const EXAMPLES_HEADING = '## Examples';
export const MORE_EXAMPLES_HEADING = '## More examples';

/** At most this many calls of a returned function appear in a prompt example (at most one that throws). */
export const MAX_EXAMPLE_CALLS = 4;

/** What a masked body throws (mask-javascript-body.ts), as the prompt names it. */
const MASKED_THROW = "`Error('not implemented')`";

/** A case that asserts only that the call throws (runtime/codec.mjs's ANY_THROW; issue 19, part 4). */
const ANY_THROW = '*';

const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;
const RESERVED = new Set([
  'await', 'break', 'case', 'catch', 'class', 'const', 'continue', 'debugger', 'default', 'delete', 'do', 'else', 'enum', 'export', 'extends',
  'false', 'finally', 'for', 'function', 'if', 'import', 'in', 'instanceof', 'let', 'new', 'null', 'return', 'static', 'super', 'switch',
  'this', 'throw', 'true', 'try', 'typeof', 'var', 'void', 'while', 'with', 'yield',
]);

/** How a module is loaded: an ES module (`import`), CommonJS (`require`), or not known from the unit alone. */
export type ImportStyle = 'esm' | 'cjs' | 'unknown';

/**
 * How the unit's module is imported, from what the unit itself shows (the contract's `Unit` does not
 * carry the module format the parser found): `.mjs/.mts` ES module, `.cjs/.cts` CommonJS,
 * TypeScript sources ES syntax, a signature starting with `export` ES module, one assigning to
 * `exports`/`module.exports` CommonJS; else unknown (the prompt then shows both forms).
 */
export function importStyleOf(unit: Unit): ImportStyle {
  if (/\.m[jt]s$/.test(unit.file)) return 'esm';
  if (/\.c[jt]s$/.test(unit.file)) return 'cjs';
  if (/\.tsx?$/.test(unit.file)) return 'esm';
  const signature = unit.signature.trimStart();
  if (/^export\b/.test(signature)) return 'esm';
  if (/^(?:module\.)?exports\b/.test(signature)) return 'cjs';
  return 'unknown';
}

/** A local name for the module's default export: the default function's own name, else the file's base name in camelCase. */
export function defaultExportName(unit: Unit): string {
  if (unit.qualname === 'default') {
    const own = /^export\s+default\s+(?:async\s+)?(?:function\s*\*?|class)\s*([A-Za-z_$][\w$]*)/.exec(unit.signature.trim());
    if (own?.[1] !== undefined) return own[1];
  }
  const base = (unit.file.split('/').at(-1) ?? unit.file).replace(/\..*$/, '');
  const camel = base.replace(/[^A-Za-z0-9_$]+(.)?/g, (_, c: string | undefined) => (c ?? '').toUpperCase());
  const name = /^[0-9]/.test(camel) ? `_${camel}` : camel;
  return name === '' || RESERVED.has(name) ? 'mod' : name;
}

/** The names the example calls start from: the export path with `default` replaced by its local name. */
function localPath(unit: Unit, target: string): string[] {
  const parts = target.split('.');
  return parts[0] === 'default' ? [defaultExportName(unit), ...parts.slice(1)] : parts;
}

/** The name the prompt's import binds and the export it binds it to (`default` for a default export). */
export function localBinding(unit: Unit): { name: string; export: string } {
  const first = unit.qualname.split('.')[0] ?? unit.qualname;
  return first === 'default' ? { name: defaultExportName(unit), export: 'default' } : { name: first, export: first };
}

/** The import statements of the unit's module, as the prompt shows them. */
export function importStatements(unit: Unit): { esm: string; cjs: string } {
  const first = unit.qualname.split('.')[0] ?? unit.qualname;
  const spec = javascriptString(`./${unit.file}`);
  if (first === 'default') {
    const local = defaultExportName(unit);
    return { esm: `import ${local} from ${spec}`, cjs: `const ${local} = require(${spec})` };
  }
  return { esm: `import { ${first} } from ${spec}`, cjs: `const { ${first} } = require(${spec})` };
}

function isAccessor(unit: Unit, kind: 'get' | 'set'): boolean {
  return unit.decorators.includes(kind);
}

function awaits(unit: Unit): boolean {
  return unit.isAsync || /^Promise\s*</.test(unit.returnAnnotation?.trim() ?? '');
}

/** A name for argument `i` of an example that shows effects on its arguments: the parameter's, else `argN`. */
function argumentName(unit: Unit, i: number, taken: ReadonlySet<string>): string {
  const param = unit.params[i]?.name;
  const name = param !== undefined && IDENTIFIER.test(param) && !RESERVED.has(param) && !taken.has(param) ? param : `arg${i + 1}`;
  return name;
}

/** The arguments the case changes (argsAfter differs from args), by index. */
function changedArguments(c: RecordedCase): number[] {
  if (c.argsAfter === null) return [];
  return c.args.flatMap((arg, i) => (JSON.stringify(arg) !== JSON.stringify(c.argsAfter?.[i]) ? [i] : []));
}

/** The call of a case as an expression, arguments given as `args` (texts). */
function callExpression(unit: Unit, c: RecordedCase, args: readonly string[]): string {
  const path = localPath(unit, c.target || unit.qualname);
  const member = path.at(-1) ?? '';
  const owner = path.slice(0, -1).join('.');
  const holder = c.init !== null ? `new ${owner}(${c.init.args.map((v) => taggedToJavaScript(v)).join(', ')})` : owner;
  if (holder !== '' && isAccessor(unit, 'get') && args.length === 0) return `${holder}.${member}`;
  if (holder !== '' && isAccessor(unit, 'set')) return `void (${holder}.${member} = ${args[0] ?? 'undefined'})`;
  const call = `${holder === '' ? member : `${holder}.${member}`}(${args.join(', ')})`;
  return awaits(unit) ? `await ${call}` : call;
}


/** The example call of a case as the prompt shows it (arguments as evaluable expressions). */
export function exampleCall(unit: Unit, c: RecordedCase): string {
  return callExpression(calledUnit(unit), c, c.args.map((v) => taggedToJavaScript(v)));
}

/** What the REPL prints for a thrown value of the recorded class (the message elided: it is never compared). */
function uncaught(raises: string): string {
  if (raises === 'null') return 'Uncaught null';
  if (raises.startsWith('typeof:')) return `Uncaught ... (a thrown ${raises.slice('typeof:'.length)}, not an Error)`;
  return `Uncaught ${raises}: ...`;
}

/**
 * One case as a Node REPL session shows it: `> <call>` then what the REPL prints (`util.inspect` of
 * the value), or `Uncaught RangeError: ...` for a throw. An argument the call changes is bound first
 * (`> var list = [...]`, which prints `undefined`) and shown again after the call.
 */
export function exampleBlock(target: Unit, c: RecordedCase): string {
  const unit = calledUnit(target);
  const changed = changedArguments(c);
  const lines: string[] = [];
  const taken = new Set(localPath(unit, c.target || unit.qualname).slice(0, 1));
  const names = new Map<number, string>();
  for (const i of changed) {
    const name = argumentName(unit, i, taken);
    taken.add(name);
    names.set(i, name);
    // `var`, not `const`: the REPL lets a later example declare the same name again
    lines.push(`> var ${name} = ${taggedToJavaScript(c.args[i])}`, 'undefined');
  }
  const call = callExpression(unit, c, c.args.map((a, i) => names.get(i) ?? taggedToJavaScript(a)));
  const returned = 'returns' in c.expect ? returnedFunction(c.expect.returns) : null;
  if (returned !== null) lines.push(...functionExampleLines(call, returned, taken));
  else if ('raises' in c.expect && c.expect.raises === ANY_THROW) {
    // a case that asserts only that the call throws shows the class the original threw (c.shown)
    lines.push(`> ${call} // throws; the hidden tests check only that it throws`, uncaught(c.shown?.[0] ?? 'Error'));
  } else lines.push(`> ${call}`, 'raises' in c.expect ? uncaught(c.expect.raises) : inspectTagged(c.expect.returns));
  for (const i of changed) lines.push(`> ${names.get(i) ?? ''}`, inspectTagged(c.argsAfter?.[i]));
  return lines.join('\n');
}

/** The function a case returns when that is its whole result (the form an example shows), else null. */
function returnedFunction(returns: unknown): RecordedFunction | null {
  const found = recordedFunctions(returns);
  return found.length === 1 && found[0]?.path === '' ? found[0] : null;
}

/** What a call of a returned function gave, as a key (calls with the same key show the same thing). */
function callOutcome(call: RecordedCall): string {
  return 'raises' in call ? `raises:${call.raises}` : JSON.stringify(call.returns);
}

/**
 * The calls of a returned function an example shows, in their recorded order: at most
 * MAX_EXAMPLE_CALLS, at most one that throws, each outcome once before any twice (a matcher shows a
 * match and a miss rather than four misses).
 */
function shownCalls(fn: RecordedFunction): RecordedCall[] {
  const picked = new Set<RecordedCall>();
  const outcomes = new Set<string>();
  const take = (call: RecordedCall): void => {
    if (picked.size === MAX_EXAMPLE_CALLS || picked.has(call)) return;
    if ('raises' in call && [...picked].some((c) => 'raises' in c)) return;
    picked.add(call);
    outcomes.add(callOutcome(call));
  };
  for (const call of fn.calls) if (!outcomes.has(callOutcome(call))) take(call);
  for (const call of fn.calls) take(call);
  return fn.calls.filter((call) => picked.has(call));
}

/** True for a case whose returned function gives one outcome for every probe (an example of it shows little). */
function monotonous(c: RecordedCase): boolean {
  const returned = 'returns' in c.expect ? returnedFunction(c.expect.returns) : null;
  return returned !== null && new Set(returned.calls.map(callOutcome)).size < 2;
}

/** A returned function in a REPL session: bound to a name (`> var f = ...`), then called on recorded arguments. */
function functionExampleLines(call: string, fn: RecordedFunction, taken: ReadonlySet<string>): string[] {
  const name = ['f', 'fn', 'returned'].find((n) => !taken.has(n)) ?? 'returnedFunction';
  const lines = [`> var ${name} = ${call}`, 'undefined'];
  for (const c of shownCalls(fn)) {
    lines.push(`> ${name}(${c.args.map((a) => taggedToJavaScript(a)).join(', ')})`, 'raises' in c ? uncaught(c.raises) : inspectTagged(c.returns));
  }
  return lines;
}

/** The size by which examples are ranked (shorter first): what the example shows (a returned function's calls it shows; not the result's aliases). */
function sizeOf(c: RecordedCase): number {
  const returned = 'returns' in c.expect ? returnedFunction(c.expect.returns) : null;
  const expectation = returned !== null ? shownCalls(returned) : 'returns' in c.expect ? { returns: c.expect.returns } : c.expect;
  return JSON.stringify([c.init, c.args, expectation, changedArguments(c).length > 0 ? c.argsAfter : null]).length;
}

/**
 * True when a REPL could not print the case as recorded (a returned or changed error prints its
 * stack; a function inside a returned value prints without its calls: only a function returned as
 * the whole result is shown, called).
 */
function showable(c: RecordedCase): boolean {
  const returns = 'returns' in c.expect ? c.expect.returns : null;
  if (holdsFunction(returns) && returnedFunction(returns) === null) return false;
  return !hasUnshowableValue(returns) && !changedArguments(c).some((i) => hasUnshowableValue(c.argsAfter?.[i]));
}

/** At most this many more examples, in a "More examples" section, when the behaviour classes need them. */
export const MAX_MORE_EXAMPLES = 5;

/**
 * The cases the prompt shows (issue 19, part 3): one of every behaviour class the hidden cases
 * fall in (behaviour-classes.ts: for JavaScript, returns or throws which class), up to
 * `MAX_PROMPT_EXAMPLES + MAX_MORE_EXAMPLES`; in each class a JSDoc example first (the author chose
 * it), then the shortest (a returned function that gives one outcome for every probe last). With
 * fewer classes than `MAX_PROMPT_EXAMPLES`, the best-ranked other cases that return fill up to it.
 * Results a REPL cannot print as recorded (errors) are left out. Cases that return come before
 * those that throw, each group in the cases' order.
 */
export function pickExamples(cases: readonly RecordedCase[]): RecordedCase[] {
  // a class or module task's cases call several units: the examples of each, unit by unit
  const byTarget = new Map<string, RecordedCase[]>();
  for (const c of cases) byTarget.set(c.target, [...(byTarget.get(c.target) ?? []), c]);
  if (byTarget.size > 1) return [...byTarget.values()].flatMap((own) => pickOf(own));
  return pickOf(cases);
}

/** `pickExamples` for the cases of one function or method. */
function pickOf(cases: readonly RecordedCase[]): RecordedCase[] {
  const ranked = [...cases]
    .filter((c) => sizeOf(c) <= MAX_CLASS_EXAMPLE_SIZE && showable(c))
    .sort((a, b) => Number(b.source === 'doctest') - Number(a.source === 'doctest') || Number(monotonous(a)) - Number(monotonous(b)) || sizeOf(a) - sizeOf(b));
  const picked: RecordedCase[] = [];
  const classes = new Set<string>();
  for (const c of ranked) {
    if (picked.length === MAX_PROMPT_EXAMPLES + MAX_MORE_EXAMPLES) break;
    const key = behaviourClassOf(c);
    if (classes.has(key)) continue;
    classes.add(key);
    picked.push(c);
  }
  for (const c of ranked) {
    if (picked.length >= MAX_PROMPT_EXAMPLES) break;
    if (!picked.includes(c) && 'returns' in c.expect && sizeOf(c) <= MAX_EXAMPLE_SIZE) picked.push(c);
  }
  const order = (c: RecordedCase): number => Number('raises' in c.expect) * cases.length + cases.indexOf(c);
  return picked.sort((a, b) => order(a) - order(b));
}

/** The longest example a prompt shows to fill up to `MAX_PROMPT_EXAMPLES` (what it shows, as JSON, in characters). */
const MAX_EXAMPLE_SIZE = 400;

/** The longest example shown for a behaviour class no shorter case shows. */
const MAX_CLASS_EXAMPLE_SIZE = 1500;

/** The example lines of a prompt: the REPL's `> ` lines inside code fences, trimmed (a Markdown quote outside a fence is not one). */
export function exampleLines(text: string): string[] {
  const out: string[] = [];
  let fenced = false;
  for (const raw of text.split('\n')) {
    const line = raw.trim();
    if (line.startsWith('```')) fenced = !fenced;
    else if (fenced && line.startsWith('> ')) out.push(line);
  }
  return out;
}

/** The JSDoc as text: `/**`, `*\/` and each line's leading `*` removed, common indentation dropped. */
export function cleanJsDoc(doc: string): string {
  const text = doc.replace(/\r\n/g, '\n');
  // the parser hands the JSDoc over already cleaned; a raw comment still has its stars
  const raw = /^\s*\/\*/.test(text);
  const body = raw ? text.replace(/^\s*\/\*\*?/, '').replace(/\*\/\s*$/, '') : text;
  const lines = raw ? body.split('\n').map((l) => l.replace(/^\s*\* ?/, '')) : body.split('\n');
  const rest = lines.slice(1).filter((l) => l.trim() !== '');
  const indent = rest.length ? Math.min(...rest.map((l) => l.length - l.trimStart().length)) : 0;
  return [lines[0]?.trim() ?? '', ...lines.slice(1).map((l) => l.slice(indent).trimEnd())].join('\n').trim();
}

/** The task's title: the JSDoc's first sentence (up to 120 characters), else `Implement <qualname>`. */
export function taskTitle(unit: Unit): string {
  const doc = unit.docstring ? cleanJsDoc(unit.docstring) : '';
  const firstLine = doc.split('\n')[0]?.trim() ?? '';
  const sentence = firstLine.startsWith('@') ? '' : (/^.*?[.!?](?=\s|$)/.exec(firstLine)?.[0] ?? firstLine).replace(/\.$/, '');
  return sentence ? sentence.slice(0, 120) : `Implement ${unit.qualname}`;
}

/** The sentence before the examples: they run in a Node REPL with the module imported, and the classes they build imported too. */
function examplesIntro(unit: Unit, examples: readonly RecordedCase[]): string {
  const first = localPath(unit, unit.qualname)[0];
  const classes = new Set<string>();
  for (const c of examples) for (const value of [...c.args, ...(c.init?.args ?? [])]) classNamesIn(value, classes);
  const more = [...classes].filter((name) => name !== first).sort();
  const also = more.length ? `, and ${more.map((n) => `\`${n}\``).join(', ')} imported from the same module` : '';
  return `As a Node REPL shows them, with \`${first}\` imported as above${also}:`;
}

/** What the unit is, in the prompt's words. */
function describeUnit(unit: Unit): string {
  const parts = unit.qualname.split('.');
  const name = parts.at(-1) ?? unit.qualname;
  if (parts.length === 1) return name === 'default' ? `default-exported function \`${defaultExportName(unit)}\`` : `function \`${name}\``;
  const kind = isAccessor(unit, 'get') ? 'getter' : isAccessor(unit, 'set') ? 'setter' : unit.decorators.includes('static') ? 'static method' : 'method';
  const owner = parts.slice(0, -1).join('.');
  if (owner === 'default') return `${kind} \`${name}\` of the default-exported object (\`${defaultExportName(unit)}\`)`;
  return `${kind} \`${owner}.${name}\``;
}

function importSentence(unit: Unit): string {
  const { esm, cjs } = importStatements(unit);
  const style = importStyleOf(unit);
  if (style === 'esm') return `imported as \`${esm}\``;
  if (style === 'cjs') return `imported as \`${cjs}\``;
  return `imported as \`${esm}\` from an ES module or \`${cjs}\` from CommonJS`;
}

/** The objects of the arguments a case's returned object is or holds (runtime/aliases.mjs), or undefined where the case does not record them. */
function recordedAliases(c: RecordedCase): AliasPair[] | undefined {
  if (!('returns' in c.expect)) return undefined;
  const aliases = (c.expect as { aliases?: unknown }).aliases;
  return Array.isArray(aliases) ? (aliases as AliasPair[]) : undefined;
}

/** True when the case returns a value equal to one of its arguments (a copy of it, or the argument itself). */
function returnsAnArgument(c: RecordedCase): boolean {
  if (!('returns' in c.expect)) return false;
  const returned = JSON.stringify(c.expect.returns);
  return c.args.some((arg) => JSON.stringify(arg) === returned);
}

/**
 * What the prompt says of the result's identity where the cases record it (the judge compares it):
 * that it is compared, and for a function whose every result is a new object and which copies an
 * argument in some case, that it returns a copy.
 */
function identitySentence(cases: readonly RecordedCase[]): string {
  const recorded = cases.map(recordedAliases).filter((a) => a !== undefined);
  if (recorded.length === 0) return '';
  const returning = cases.filter((c) => 'returns' in c.expect);
  const copies = recorded.length === returning.length && recorded.every((a) => a.length === 0) && returning.some(returnsAnArgument);
  const compared = ' Whether a returned object is an object of the arguments (the same object, not an equal one) is compared too.';
  return copies ? `${compared} It returns a new object: the result shares no object with the arguments, even where it equals one of them.` : compared;
}

/**
 * What a prompt says of a unit with no JSDoc (issue 19, part 5): that its examples are its
 * specification (the build keeps such a task only when they show every behaviour class the hidden
 * tests check), and how the repository's own code calls it (up to three call sites outside tests).
 */
function undocumentedBehaviour(unit: Unit): string[] {
  return [
    `\`${unit.qualname}\` has no documentation. What it must do is what the examples below show: one example of each behaviour the hidden tests check, with the value it returns or the class of what it throws for each input.`,
    ...callSiteLines(unit, isJavaScriptTestFile),
  ];
}

/**
 * The deterministic prompt (Markdown): what to implement and where it sits, how it is imported, the
 * signature, the JSDoc, a few recorded examples as a Node REPL shows them, and what is compared.
 * An LLM `SpecWriter` may rewrite it.
 */
export function renderPrompt(input: { unit: Unit; cases: readonly RecordedCase[]; libraryName: string; methods?: readonly Unit[]; shape?: 'class' | 'module' }): string {
  if (input.methods !== undefined && input.methods.length > 1) return renderGroupPrompt({ ...input, methods: input.methods, shape: input.shape ?? 'class' });
  const { unit } = input;
  const called = calledUnit(unit);
  const fence = /\.[mc]?tsx?$/.test(unit.file) ? 'ts' : 'js';
  const out: string[] = [];
  out.push(`# Implement \`${unit.qualname}\` in \`${unit.file}\``, '');
  if (unit.via === undefined) {
    out.push(
      `The workspace holds ${input.libraryName}. The ${describeUnit(unit)} in \`${unit.file}\` (${importSentence(unit)}) has lost its body: it now throws ${MASKED_THROW}. Implement it so that it behaves as described below. Keep its signature and leave the rest of the code as it is.`,
      '',
    );
  } else {
    out.push(
      `The workspace holds ${input.libraryName}. The function \`${unit.qualname}\` in \`${unit.file}\` is internal to its module (not exported) and has lost its body: it now throws ${MASKED_THROW}. The module's ${describeUnit(called)} (${importSentence(called)}) calls it, and the hidden tests call that export, not \`${unit.qualname}\` itself: implement \`${unit.qualname}\` so that the export behaves as described below again. Keep its signature and leave the rest of the code as it is.`,
      '',
    );
  }
  out.push('## Signature', '', `\`\`\`${fence}`, unit.signature.trim(), '```', '');
  const doc = unit.docstring ? cleanJsDoc(unit.docstring) : '';
  if (doc) out.push('## Behaviour', '', doc, '');
  else if (unit.via === undefined || !called.docstring) out.push('## Behaviour', '', ...undocumentedBehaviour(unit), '');
  if (unit.via !== undefined) {
    const entryDoc = called.docstring ? cleanJsDoc(called.docstring) : '';
    out.push(`## The export that calls it`, '', `\`\`\`${fence}`, called.signature.trim(), '```', '');
    if (entryDoc) out.push(entryDoc, '');
  }
  const examples = pickExamples(input.cases);
  const first = examples.slice(0, MAX_PROMPT_EXAMPLES);
  const more = examples.slice(MAX_PROMPT_EXAMPLES);
  // one example per block, blank lines between (the examples gate runs and cuts them one by one)
  if (first.length) out.push(EXAMPLES_HEADING, '', examplesIntro(called, examples), '', '```js', first.map((c) => exampleBlock(unit, c)).join('\n\n'), '```', '');
  if (more.length) out.push(MORE_EXAMPLES_HEADING, '', 'One example of each other behaviour the hidden tests check:', '', '```js', more.map((c) => exampleBlock(unit, c)).join('\n\n'), '```', '');
  out.push(comparedSentence([called], input.cases), '');
  return out.join('\n');
}

/**
 * The prompt of a class or module task (issue 19, part 1): the class (or module) and where it
 * lives, each removed method's (or function's) signature and JSDoc, then the examples, unit by unit
 * (one of each behaviour class of each), as the hidden cases call them.
 */
function renderGroupPrompt(input: { unit: Unit; methods: readonly Unit[]; cases: readonly RecordedCase[]; libraryName: string; shape: 'class' | 'module' }): string {
  const { unit, methods } = input;
  const fence = /\.[mc]?tsx?$/.test(unit.file) ? 'ts' : 'js';
  const names = methods.map((m) => `\`${m.qualname.split('.').at(-1)}\``).join(', ');
  const owner = unit.qualname.split('.').slice(0, -1).join('.');
  const out: string[] = [];
  if (input.shape === 'class') {
    const shown = owner === 'default' ? defaultExportName(unit) : owner;
    const what = owner === 'default' ? `default-exported object \`${shown}\`` : `class \`${shown}\``;
    out.push(
      `# Implement the methods of \`${shown}\` in \`${unit.file}\``,
      '',
      `The workspace holds ${input.libraryName}. The ${what} in \`${unit.file}\` (${importSentence(unit)}) has lost the bodies of ${methods.length} methods: ${names}. Each now throws ${MASKED_THROW}. Implement them so that it behaves as described below. Keep their signatures and leave the rest of the code as it is; the hidden tests call each of them.`,
      '',
    );
  } else {
    out.push(
      `# Implement the functions of \`${unit.file}\``,
      '',
      `The workspace holds ${input.libraryName}. The module \`${unit.file}\` has lost the bodies of ${methods.length} functions: ${names}. Each now throws ${MASKED_THROW}, so where one calls another, both must be implemented before either behaves. Implement them so that the module behaves as described below. Keep their signatures and leave the rest of the code as it is; the hidden tests call each of them.`,
      '',
    );
  }
  for (const m of methods) {
    out.push(`## \`${m.qualname}\``, '');
    if (input.shape === 'module') out.push(`The ${describeUnit(m)}, ${importSentence(m)}.`, '');
    out.push(`\`\`\`${fence}`, m.signature.trim(), '```', '');
    const doc = m.docstring ? cleanJsDoc(m.docstring) : '';
    out.push(...(doc ? [doc] : undocumentedBehaviour(m)), '');
  }
  const byTarget = new Map(methods.map((m) => [m.qualname, m] as const));
  const examples = pickExamples(input.cases);
  if (examples.length) {
    out.push(EXAMPLES_HEADING, '', `As a Node REPL shows them, with the names imported as above; of each ${input.shape === 'class' ? 'method' : 'function'}, one example of each behaviour the hidden tests check:`, '', '```js', examples.map((c) => exampleBlock(byTarget.get(c.target) ?? unit, c)).join('\n\n'), '```', '');
  }
  out.push(comparedSentence(methods, input.cases), '');
  return out.join('\n');
}

/** A prompt's closing sentence: how many hidden cases there are and how results, throws and effects are compared. */
function comparedSentence(units: readonly Unit[], cases: readonly RecordedCase[]): string {
  const settles = units.some(awaits) ? ' A returned promise is judged by the value it settles with, or the class of the value it rejects with.' : '';
  const functions = cases.some((c) => 'returns' in c.expect && holdsFunction(c.expect.returns))
    ? ' A returned function (the result, or a value inside it) is judged by its `length` and by what it returns, or the class of what it throws, when called with `this` undefined on recorded arguments.'
    : '';
  return `${hiddenCasesSentence(cases.length)}, many more than these examples. Results are compared with their exact types and values (\`1\` is not \`1n\`, \`-0\` is not \`0\`, \`undefined\` is not \`null\`, an array's holes and the order of an object's keys count; a number with a fraction within a relative tolerance of 1e-9), a thrown value by its class (where the library throws it itself or its JSDoc names it; on other invalid inputs only that the call throws something other than ${MASKED_THROW}) and never its message, and effects on the arguments where the original has them.${settles}${functions}${identitySentence(cases)}`;
}

/**
 * The prompt with a closing note naming the units masked besides the target (their code would give
 * the body back), so the agent does not take their `Error('not implemented')` for a fault to fix.
 * The prompt as it was when there are none.
 */
export function withCoMaskedNote(prompt: string, coMasked: readonly Unit[]): string {
  if (coMasked.length === 0) return prompt;
  const named = coMasked.map((u) => `\`${u.qualname}\` (\`${u.file}\`)`).join(', ');
  return `${prompt.trimEnd()}\n\nAlso removed from this workspace, because their code would give this one back: ${named}. They throw ${MASKED_THROW} too; the hidden tests do not need them.\n`;
}

/** The real .mjs template the readable test starts from. */
export function readableTemplatePath(root: string = projectRoot()): string {
  return join(root, 'src', 'languages', 'javascript', 'templates', 'readable.test.mjs');
}

let cachedTemplate: string | undefined;

/** The names the template binds at its top level (a class of the same name is reached through `exportedClass`). */
const TEMPLATE_NAMES = new Set([
  'assert', 'fs', 'createRequire', 'path', 'test', 'pathToFileURL', 'MODULE', 'TARGET', 'ROOT', 'EXTENSIONS', 'moduleFile', 'isCommonJs', 'FILE',
  'COMMONJS', 'EXPORTS', 'at', 'exportedClass', 'accessorOf', 'call', 'thrownClass', 'thrown', 'Object', 'Reflect', 'Error', 'Buffer', 'Map', 'Set',
  'Date', 'Promise', 'Array', 'Symbol', 'String', 'Number', 'Boolean', 'BigInt', 'RegExp', 'DataView', 'ArrayBuffer', 'JSON', 'Math',
]);

function template(): string {
  cachedTemplate ??= readFileSync(readableTemplatePath(), 'utf8');
  return cachedTemplate;
}

/** A path of runtime/aliases.mjs as an expression from `base` (`value.a[1]`, `args[0].b`, `[...args[1].values()][0]`). */
function pathExpression(base: string, path: readonly AliasStep[]): string {
  let text = base;
  for (const step of path) {
    if (typeof step === 'number') text += `[${step}]`;
    else if (typeof step === 'string') text += IDENTIFIER.test(step) ? `.${step}` : `[${javascriptString(step)}]`;
    else if ('mapKey' in step) text = `[...${text}.keys()][${step.mapKey}]`;
    else if ('mapValue' in step) text = `[...${text}.values()][${step.mapValue}]`;
    else text = `[...${text}][${step.setMember}]`;
  }
  return text;
}

/**
 * The result's identity as the case records it: `assert.strictEqual` for each object of the
 * arguments it is or holds, and where it shares none, `assert.notStrictEqual` against each argument
 * it equals (a copy).
 */
function identityAssertions(c: RecordedCase): string[] {
  const pairs = recordedAliases(c);
  if (pairs === undefined) return [];
  const out = pairs.map(([inResult, inArgs]) => `  assert.strictEqual(${pathExpression('value', inResult)}, ${pathExpression('args', inArgs)});`);
  if (pairs.length === 0 && 'returns' in c.expect) {
    const returned = JSON.stringify(c.expect.returns);
    c.args.forEach((arg, i) => {
      if (JSON.stringify(arg) === returned) out.push(`  assert.notStrictEqual(value, args[${i}]); // a new object, equal to argument ${i}`);
    });
  }
  return out;
}

/** One node:test test for one case: the call (commented as the prompt would show it), the result or the thrown class, the result's identity, the arguments after. */
function testOfCase(unit: Unit, c: RecordedCase, classRef: ClassRef): string {
  const js = (v: unknown): string => taggedToJavaScript(v, classRef);
  const lines = [`test(${javascriptString(`${c.id}: ${exampleCall(unit, c)}`.slice(0, 200))}, async () => {`];
  lines.push(`  const args = [${c.args.map(js).join(', ')}];`);
  const init = c.init === null ? 'null' : `[${c.init.args.map(js).join(', ')}]`;
  if ('raises' in c.expect) {
    lines.push(`  await assert.rejects(call(${init}, args), thrown(${javascriptString(c.expect.raises)}));`);
  } else {
    lines.push(`  const { value } = await call(${init}, args);`);
    lines.push(...returnAssertions(c.expect.returns, js));
  }
  lines.push(...identityAssertions(c));
  if (c.argsAfter !== null) lines.push(`  assert.deepStrictEqual(args, [${c.argsAfter.map(js).join(', ')}]);`);
  lines.push('});');
  return lines.join('\n');
}

/**
 * The assertions on a returned value: deepStrictEqual with it; a function in it (`fncalls`) stands
 * for itself there and is then checked by its length and its recorded calls.
 */
function returnAssertions(returns: unknown, js: (v: unknown) => string): string[] {
  const functions = recordedFunctions(returns);
  if (functions.length === 0) return [`  assert.deepStrictEqual(value, ${js(returns)});`];
  const lines: string[] = [];
  // the value around the functions, each standing for itself
  if (functions.length > 1 || functions[0]?.path !== '') lines.push(`  assert.deepStrictEqual(value, ${js(withFunctionsAs(returns, (path) => `value${path}`))});`);
  lines.push('  // a returned function: its length and what it gives, called with `this` undefined on the recorded arguments');
  functions.forEach((fn, i) => {
    const name = i === 0 ? 'f' : `f${i + 1}`;
    lines.push(`  const ${name} = value${fn.path};`, `  assert.equal(typeof ${name}, 'function');`, `  assert.equal(${name}.length, ${fn.length});`);
    for (const call of fn.calls) {
      const args = call.args.map(js).join(', ');
      if ('raises' in call) lines.push(`  assert.throws(() => ${name}(${args}), thrown(${javascriptString(call.raises)}));`);
      else lines.push(`  assert.deepStrictEqual(${name}(${args}), ${js(call.returns)});`);
    }
  });
  return lines;
}

/**
 * `hidden/readable/<taskName>.test.mjs`: the cases as node:test tests for people, with evaluable
 * literals (`taggedToJavaScript`), `assert.deepStrictEqual` (which already tells `-0` from `0`,
 * finds `NaN` equal to itself and checks prototypes and holes) and `assert.rejects` by thrown
 * class. The module is loaded as the package loads it (import() or require). Scoring never runs it.
 */
export function renderReadableTest(input: { taskId: string; taskName: string; cases: readonly RecordedCase[]; unit: Unit }): { path: string; content: string } {
  const { cases } = input;
  const unit = calledUnit(input.unit);
  const first = cases[0];
  const classes = new Set<string>();
  for (const c of cases) {
    for (const value of [...c.args, ...(c.init?.args ?? []), ...(c.argsAfter ?? []), 'returns' in c.expect ? c.expect.returns : null]) classNamesIn(value, classes);
  }
  // a class is bound to its own name unless that name is taken (by the template, or not an identifier)
  const bound = [...classes].sort().filter((name) => IDENTIFIER.test(name) && !RESERVED.has(name) && !TEMPLATE_NAMES.has(name));
  const classRef: ClassRef = (name) => (bound.includes(name) ? name : `exportedClass(${javascriptString(name)})`);
  const classLines = bound.map((name) => `const ${name} = exportedClass(${javascriptString(name)});`);
  const content = template()
    .replace('__CODEMIDAS_TASK_ID__', input.taskId)
    .replace("'__CODEMIDAS_MODULE__'", javascriptString(first?.module ?? unit.module))
    .replace("'__CODEMIDAS_TARGET__'", javascriptString(first?.target ?? unit.qualname))
    .replace('// __CODEMIDAS_CLASSES__', classLines.length ? `// classes the cases build instances of\n${classLines.join('\n')}` : '// (the cases build no class instances)')
    .replace('// __CODEMIDAS_CASES__', `// ---- cases (${cases.length}) ----\n\n${cases.map((c) => testOfCase(unit, c, classRef)).join('\n\n')}`)
    .replace(/\n*$/, '\n');
  return { path: `readable/${input.taskName}.test.mjs`, content };
}

/** The write stage's JavaScript/TypeScript rendering (the contract's `TaskWriter`). */
export const javascriptWriter: TaskWriter = Object.freeze({
  shapes: Object.freeze(['function', 'feature', 'class', 'module'] as const),
  renderPrompt,
  pickExamples,
  exampleBlock,
  exampleLines,
  title: taskTitle,
  withCoMaskedNote,
  readableTest: renderReadableTest,
});
