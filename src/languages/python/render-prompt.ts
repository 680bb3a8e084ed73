import { calledUnit } from '../called-unit.js';
import { callSiteLines } from '../call-sites.js';
import type { RecordedCase, Unit } from '../construction-types.js';
import { behaviourClassOf } from '../../pipeline/write/behaviour-classes.js';
import { hiddenCasesSentence } from '../../pipeline/write/write-task.js';
import { importRootOf } from './parse-module-names.js';
import { EXAMPLES_HEADING, MORE_EXAMPLES_HEADING } from './prompt-examples.js';
import { importsOf, keywordArguments, taggedToPython } from './python-literal.js';

/** A case's `expect.raises` when it checks only that the call raises (docs/task-format.md). */
export const ANY_EXCEPTION = '*';

/** At most this many recorded examples appear in a prompt; the hidden tests hold the rest. */
export const MAX_PROMPT_EXAMPLES = 3;

/** A collected or probed case: builtins.list called on one `repr` input. */
function isListOfExpression(c: RecordedCase): boolean {
  return c.module === 'builtins' && c.target === 'list' && c.init === null && c.args.length === 1;
}

/**
 * The forms a case is judged in when the call alone cannot show it, each as builtins.list over one
 * `repr` expression around the call: `probed` (a returned function called on a probe, `(<call> for
 * _ in (0,))`, expecting `[value]`), `nested` (a tuple or list of iterators, each collected:
 * `(... for _ in (0,) for _x in itertools.islice(<call>, N))`), `stated` (a method judged by its
 * result and the state it leaves: `((_r, <state of _o>) for _ in (0,) for _o in (<instance>,) for
 * _r in (_o.<method>(<args>),))`, expecting `[(result, state)]`), `attribute` (a property read on
 * an instance: `(_o.<name> for _ in (0,) for _o in (<instance>,))`, expecting `[value]`) and
 * `restored` (a method called on an instance rebuilt from the attributes it had when the
 * repository's own code called it: `(_o.<name>(<args>) for _ in (0,) for _o in ((lambda _o:
 * vars(_o).update({...}) or _o)(object.__new__(<Class>)),))`, or with the attributes set one by one
 * by `object.__setattr__` for a class with `__slots__`, expecting `[value]`) and
 * `constructed` (a `__init__`
 * target judged by the state it leaves: `(<state of _o> for _ in (0,) for _o in (<call>,))`,
 * expecting `[state]`). The prompt shows the call and the value.
 */
const JUDGED_FORMS = [
  { form: 'probed', pattern: /^\((.*) for _ in \(0,\)\)$/s, call: (m: RegExpExecArray) => m[1] ?? '' },
  { form: 'nested', pattern: / for _ in \(0,\) for _x in itertools\.islice\((.*), \d+\)\)$/s, call: (m: RegExpExecArray) => m[1] ?? '' },
  { form: 'stated', pattern: / for _ in \(0,\) for _o in \((.*),\) for _r in \(_o(\..*),\)\)$/s, call: (m: RegExpExecArray) => `${m[1] ?? ''}${m[2] ?? ''}` },
  { form: 'attribute', pattern: /^\(_o\.(\w+) for _ in \(0,\) for _o in \((.*),\)\)$/s, call: (m: RegExpExecArray) => `${m[2] ?? ''}.${m[1] ?? ''}` },
  {
    form: 'restored',
    // the attributes set by vars().update, or one by one with object.__setattr__ (a class with __slots__, values.restore_source)
    pattern: /^\(_o\.(\w+)\((.*)\) for _ in \(0,\) for _o in \((\(lambda _o: (?:vars\(_o\)\.update\(.*\)|any\(object\.__setattr__\(_o, k, v\) for k, v in .*\.items\(\)\)) or _o\)\([\w.]+\.__new__\([\w.]+\)\)),\)\)$/s,
    call: (m: RegExpExecArray) => `${m[3] ?? ''}.${m[1] ?? ''}(${m[2] ?? ''})`,
  },
  { form: 'constructed', pattern: / for _ in \(0,\) for _o in \((.*),\)\)$/s, call: (m: RegExpExecArray) => m[1] ?? '' },
] as const;

type JudgedForm = { form: (typeof JUDGED_FORMS)[number]['form']; call: string };

/** The form and the call of a probed, nested, stated or constructed case; null for any other case. */
function judgedForm(c: RecordedCase): JudgedForm | null {
  if (!isListOfExpression(c)) return null;
  const arg = c.args[0] as { t?: unknown; v?: unknown };
  if (arg.t !== 'repr' || typeof arg.v !== 'string') return null;
  for (const { form, pattern, call } of JUDGED_FORMS) {
    const match = pattern.exec(arg.v);
    if (match !== null) return { form, call: call(match) };
  }
  return null;
}

function exampleCall(target: Unit, c: RecordedCase): string {
  // a unit recorded through an entry (Unit.via): its cases call the entry
  const unit = calledUnit(target);
  const judged = judgedForm(c);
  if (judged !== null) return judged.call;
  // A generator's case calls builtins.list on `itertools.islice(<module>.<gen>(...), N)`: show that call.
  if (isListOfExpression(c)) {
    return `list(${taggedToPython(c.args[0])})`;
  }
  const name = unit.qualname.split('.').at(-1) ?? unit.qualname;
  const args = [...c.args.map((x) => taggedToPython(x)), ...keywordArguments(c.kwargs)];
  if (c.init) {
    const cls = unit.qualname.split('.').slice(0, -1).join('.');
    const initArgs = [...c.init.args.map((x) => taggedToPython(x)), ...keywordArguments(c.init.kwargs)];
    return `${cls}(${initArgs.join(', ')}).${name}(${args.join(', ')})`;
  }
  // a static or class method is called on its class (what the import line brings in), a function by its name
  return `${unit.qualname.includes('.') ? unit.qualname : name}(${args.join(', ')})`;
}

/** The longest example a prompt shows to fill up to `MAX_PROMPT_EXAMPLES` (its call and value as JSON, in characters). */
const MAX_EXAMPLE_SIZE = 400;

/** The longest example shown for a behaviour class no shorter case shows. */
const MAX_CLASS_EXAMPLE_SIZE = 1500;

/** At most this many more examples, in a "More examples" section, when the behaviour classes need them. */
export const MAX_MORE_EXAMPLES = 5;

/**
 * The cases the prompt shows, in the order it shows them: one of every behaviour class, classes that
 * return before those that raise and larger classes first, up to `MAX_PROMPT_EXAMPLES +
 * MAX_MORE_EXAMPLES`; in each class the case a docstring example gave (the author chose it), else
 * one that shows a value (not None), else the shortest (up to `MAX_CLASS_EXAMPLE_SIZE`). With
 * fewer classes than `MAX_PROMPT_EXAMPLES`, the best-ranked other cases of at most
 * `MAX_EXAMPLE_SIZE` fill up to it (one exception case at most).
 */
export function pickExamples(cases: readonly RecordedCase[]): RecordedCase[] {
  // a class task's cases call several methods: the examples of each, method by method
  const byMethod = new Map<string, RecordedCase[]>();
  for (const c of cases) byMethod.set(methodOf(c), [...(byMethod.get(methodOf(c)) ?? []), c]);
  if (byMethod.size > 1) return [...byMethod.values()].flatMap((own) => pickOf(own));
  return pickOf(cases);
}

/**
 * The name of the method (or function) a case calls: its target's, or for a case judged through an
 * expression the last `.name(` of the call that expression shows outside any parentheses (the
 * receiver's own calls and the arguments' are inside them: `Cls(d.f(1)).m(x.g())` calls `m`).
 */
export function methodOf(c: RecordedCase): string {
  const call = isListOfExpression(c) ? (judgedForm(c)?.call ?? '') : '';
  let depth = 0;
  let last: string | undefined;
  for (let i = 0; i < call.length; i += 1) {
    const ch = call[i];
    if (ch === '(' || ch === '[' || ch === '{') depth += 1;
    else if (ch === ')' || ch === ']' || ch === '}') depth -= 1;
    else if (ch === '.' && depth === 0) {
      const name = /^\.(\w+)\(/.exec(call.slice(i))?.[1];
      if (name !== undefined) last = name;
    }
  }
  return last ?? c.target.split('.').at(-1) ?? c.target;
}

/** `pickExamples` for the cases of one function or method. */
function pickOf(cases: readonly RecordedCase[]): RecordedCase[] {
  // a probed, nested, stated or constructed case is measured by the call it shows, not the expression around it
  const size = (c: RecordedCase): number => JSON.stringify([c.init, judgedForm(c)?.call ?? c.args, c.kwargs, c.expect]).length;
  // an example returning None shows nothing (the REPL prints no output for it): those come last
  const showsNothing = (c: RecordedCase): number => Number('returns' in c.expect && isNone(c.expect.returns));
  const ranked = [...cases]
    .filter((c) => size(c) <= MAX_CLASS_EXAMPLE_SIZE)
    .sort((a, b) => Number(b.source === 'doctest') - Number(a.source === 'doctest') || showsNothing(a) - showsNothing(b) || size(a) - size(b) || cases.indexOf(a) - cases.indexOf(b));
  const classes = new Map<string, RecordedCase[]>();
  for (const c of ranked) {
    const key = behaviourClassOf(c);
    classes.set(key, [...(classes.get(key) ?? []), c]);
  }
  const raises = (key: string): number => Number(classes.get(key)?.[0] !== undefined && 'raises' in (classes.get(key)?.[0] as RecordedCase).expect);
  const order = [...classes.keys()].sort((a, b) => raises(a) - raises(b) || (classes.get(b)?.length ?? 0) - (classes.get(a)?.length ?? 0));
  // a class is shown by its best case even when that one is long; filling up takes short ones only
  const picked = order.slice(0, MAX_PROMPT_EXAMPLES + MAX_MORE_EXAMPLES).map((key) => classes.get(key)?.[0] as RecordedCase);
  let raised = picked.filter((c) => 'raises' in c.expect).length;
  for (const c of ranked.filter((x) => size(x) <= MAX_EXAMPLE_SIZE)) {
    if (picked.length >= MAX_PROMPT_EXAMPLES) break;
    if (picked.includes(c)) continue;
    if ('raises' in c.expect) {
      if (raised >= 1) continue;
      raised += 1;
    }
    picked.push(c);
  }
  // ordinary results first, as the classes are ordered
  return picked.sort((a, b) => Number('raises' in a.expect) - Number('raises' in b.expect) || order.indexOf(behaviourClassOf(a)) - order.indexOf(behaviourClassOf(b)));
}

/** The example lines of a prompt: the `>>> ` lines, trimmed. */
export function exampleLines(text: string): string[] {
  return text.split('\n').map((l) => l.trim()).filter((l) => l.startsWith('>>> '));
}

/** A tagged None (a result the REPL shows as no output). */
function isNone(value: unknown): boolean {
  return (value as { t?: unknown } | null)?.t === 'none';
}

/**
 * One case as the prompt shows it, as the REPL shows it: what the example shows in comment lines
 * first, then `>>> <call>` and the value the REPL prints (nothing for None), or the exception type.
 * A method judged with the state it leaves is a session: the instance, the call, then `vars(_o)`;
 * a constructor's case shows `vars(<call>)`.
 */
export function exampleBlock(unit: Unit, c: RecordedCase): string {
  const judged = judgedForm(c);
  const form = judged?.form;
  const comments: string[] = [];
  if (form === 'stated') comments.push("# the call's result, then the instance's attributes after it");
  if (form === 'nested') comments.push('# each iterator in the result is shown as the list of its items');
  if (form === 'restored') comments.push('# called on an instance built from the attributes shown, __init__ not called (its __new__, then each attribute set)');
  if (c.argsAfter) comments.push(`# afterwards the arguments are: ${c.argsAfter.map((x) => taggedToPython(x, 'prompt')).join(', ')}`);
  const call = exampleCall(unit, c);
  if ('raises' in c.expect) {
    // a case that asserts only that the call raises shows the type the original raised (c.shown)
    const any = c.expect.raises === ANY_EXCEPTION;
    if (any) comments.push('# raises an exception (the hidden tests check only that it raises)');
    const raised = any ? (c.shown?.[0] ?? 'builtins.Exception') : c.expect.raises;
    const type = raised.startsWith('builtins.') ? raised.slice('builtins.'.length) : raised;
    const shownCall = form === 'constructed' ? `vars(${call})` : call;
    return [...comments, `>>> ${shownCall}`, 'Traceback (most recent call last):', `${type}: ...`].join('\n');
  }
  const returns = c.expect.returns as { t?: unknown; v?: unknown };
  // a probed, stated, attribute, restored or constructed case expects the list of the one value its call gives
  const single = form === 'probed' || form === 'constructed' || form === 'stated' || form === 'attribute' || form === 'restored';
  const shown = single && returns.t === 'list' && Array.isArray(returns.v) && returns.v.length === 1 ? returns.v[0] : c.expect.returns;
  // as the REPL prints it: the repr recorded with the case (c.shown), else the value written as Python
  const printed = (v: unknown, k: number): string => c.shown?.[k] ?? taggedToPython(v, 'prompt');
  const value = (v: unknown, k: number): string[] => (isNone(v) ? [] : [printed(v, k)]);
  if (form === 'stated' && judged !== null) {
    const pair = shown as { t?: unknown; v?: unknown };
    const match = JUDGED_FORMS[2].pattern.exec((c.args[0] as { v: string }).v);
    if (pair.t === 'tuple' && Array.isArray(pair.v) && pair.v.length === 2 && match !== null) {
      const method = match[2] ?? '';
      return [...comments, `>>> _o = ${match[1] ?? ''}`, `>>> _o${method}`, ...value(pair.v[0], 0), '>>> vars(_o)', printed(pair.v[1], 1)].join('\n');
    }
  }
  if (form === 'constructed') return [...comments, `>>> vars(${call})`, printed(shown, 0)].join('\n');
  return [...comments, `>>> ${call}`, ...value(shown, 0)].join('\n');
}

/** The import lines an Examples section starts with: the names its calls use, and the modules their inputs need. */
function exampleImports(unit: Unit, examples: readonly RecordedCase[], names?: readonly string[]): string[] {
  const called = calledUnit(unit);
  const first = called.qualname.split('.')[0] ?? called.qualname;
  const modules = new Set<string>();
  for (const c of examples) importsOf([c.args, c.kwargs, c.init, c.argsAfter], modules);
  modules.delete('builtins');
  return [`>>> from ${unit.module} import ${(names ?? [first]).join(', ')}`, ...[...modules].sort().map((m) => `>>> import ${m}`)];
}

const isTestPath = (path: string): boolean => /(^|\/)(tests?|testing)\//.test(path) || /(^|\/)(test_[^/]*|[^/]*_test|conftest)\.py$/.test(path);

/**
 * What a prompt says of a unit with no docstring (issue 19, part 5): that its examples are its
 * specification (the build keeps such a task only when they show every behaviour class the hidden
 * tests check), and how the repository's own code calls it (up to three call sites outside tests).
 */
function undocumentedBehaviour(unit: Unit): string[] {
  return [
    `\`${unit.qualname}\` has no documentation. What it must do is what the examples below show: one example of each behaviour the hidden tests check, with the value or the exception each input gives.`,
    ...callSiteLines(unit, isTestPath),
  ];
}

/** A prompt's closing sentence: how many hidden cases there are and how they are compared. */
function comparedSentence(cases: number): string {
  return `${hiddenCasesSentence(cases)}, many more than these examples. Results are compared with their exact types (a \`tuple\` is not a \`list\`, \`True\` is not \`1\`; a \`float\` within a relative tolerance of 1e-9), exceptions by their exact type (where the library raises them itself or documents them; on other invalid inputs only that the call raises an exception other than \`NotImplementedError\`) and never by their message, and effects on mutable arguments where the original has them.`;
}

function dedentDocstring(doc: string): string {
  const lines = doc.replace(/\r\n/g, '\n').split('\n');
  const rest = lines.slice(1).filter((l) => l.trim() !== '');
  const indent = rest.length ? Math.min(...rest.map((l) => l.length - l.trimStart().length)) : 0;
  return [lines[0]?.trim() ?? '', ...lines.slice(1).map((l) => l.slice(indent))].join('\n').trim();
}

/** The title of a task: the docstring's first line, else `Implement <qualname>`. */
export function taskTitle(unit: Unit): string {
  const first = unit.docstring ? dedentDocstring(unit.docstring).split('\n')[0]?.trim().replace(/\.$/, '') : '';
  return first ? first.slice(0, 120) : `Implement ${unit.qualname}`;
}

/**
 * The deterministic prompt (Markdown): what to implement and where it sits, the signature, the
 * docstring, a few recorded examples, and what is expected. An LLM `SpecWriter` may rewrite it.
 */
export function renderPrompt(input: { unit: Unit; cases: readonly RecordedCase[]; libraryName: string; methods?: readonly Unit[]; shape?: 'class' | 'module' }): string {
  if (input.methods !== undefined && input.methods.length > 1) {
    return input.shape === 'module' ? renderModulePrompt({ ...input, methods: input.methods }) : renderClassPrompt({ ...input, methods: input.methods });
  }
  const { unit } = input;
  const parts = unit.qualname.split('.');
  const name = parts.at(-1) ?? unit.qualname;
  const owner = parts.slice(0, -1).join('.');
  const what = unit.kind === 'method' ? `method \`${owner}.${name}\`` : `function \`${name}\``;
  const importLine = owner ? `from ${unit.module} import ${parts[0] ?? owner}` : `from ${unit.module} import ${name}`;
  // A module below the workspace root (`src/pkg/mod.py`) is imported from its folder, as scoring does.
  const importRoot = importRootOf(unit);
  const out: string[] = [];
  const entry = unit.via === undefined ? null : calledUnit(unit);
  const where = `module \`${unit.module}\`${owner ? `, class \`${owner}\`` : ''}`;
  out.push(`# Implement \`${unit.qualname}\` in \`${unit.file}\``, '');
  if (entry === null) {
    out.push(
      `The workspace holds ${input.libraryName}. The ${what} in \`${unit.file}\` (${where}, imported as \`${importLine}\`${importRoot === '' ? '' : ` with \`${importRoot}/\` on the import path`}) has lost its body: it now raises \`NotImplementedError\`. Implement it so that it behaves as described below. Keep its signature and leave the rest of the code as it is.`,
      '',
    );
  } else {
    const entryParts = entry.qualname.split('.');
    const entryImport = `from ${unit.module} import ${entryParts[0] ?? entry.qualname}`;
    out.push(
      `The workspace holds ${input.libraryName}. The ${what} in \`${unit.file}\` (${where}) has lost its body: it now raises \`NotImplementedError\`. \`${entry.qualname}\` in the same module (imported as \`${entryImport}\`${importRoot === '' ? '' : ` with \`${importRoot}/\` on the import path`}) reaches it through its calls, and the hidden tests call \`${entry.qualname}\`, not \`${unit.qualname}\` itself: implement \`${unit.qualname}\` so that \`${entry.qualname}\` behaves as described below again. Read how the module's code calls it and uses what it returns. Keep its signature and leave the rest of the code as it is.`,
      '',
    );
  }
  out.push('## Signature', '', '```python', unit.signature.trim(), '```', '');
  if (unit.docstring && unit.docstring.trim()) {
    out.push('## Behaviour', '', dedentDocstring(unit.docstring), '');
  } else if (entry === null || !entry.docstring?.trim()) {
    out.push('## Behaviour', '', ...undocumentedBehaviour(unit), '');
  }
  if (entry !== null) {
    out.push('## The entry the hidden tests call', '', '```python', entry.signature.trim(), '```', '');
    if (entry.docstring && entry.docstring.trim()) out.push(dedentDocstring(entry.docstring), '');
  }
  const examples = pickExamples(input.cases);
  const first = examples.slice(0, MAX_PROMPT_EXAMPLES);
  const more = examples.slice(MAX_PROMPT_EXAMPLES);
  if (first.length) {
    out.push(EXAMPLES_HEADING, '', '```python', [exampleImports(unit, first).join('\n'), ...first.map((c) => exampleBlock(unit, c))].join('\n\n'), '```', '');
  }
  if (more.length) {
    out.push(MORE_EXAMPLES_HEADING, '', 'One example of each other behaviour the hidden tests check:', '', '```python', [exampleImports(unit, more).join('\n'), ...more.map((c) => exampleBlock(unit, c))].join('\n\n'), '```', '');
  }
  out.push(
    comparedSentence(input.cases.length),
    '',
  );
  return out.join('\n');
}


/**
 * The prompt of a class task (issue 19, part 1): the class and where it lives, each removed method's
 * signature and documentation, then the examples, method by method (one of each behaviour class of
 * each), each called on an instance as the hidden cases call it.
 */
function renderClassPrompt(input: { unit: Unit; methods: readonly Unit[]; cases: readonly RecordedCase[]; libraryName: string }): string {
  const { unit, methods } = input;
  const owner = unit.qualname.slice(0, unit.qualname.lastIndexOf('.'));
  const top = owner.split('.')[0] ?? owner;
  const importRoot = importRootOf(unit);
  const names = methods.map((m) => `\`${m.qualname.split('.').at(-1)}\``).join(', ');
  return renderGroupPrompt(input, {
    heading: `# Implement the methods of \`${owner}\` in \`${unit.file}\``,
    intro: `The workspace holds ${input.libraryName}. The class \`${owner}\` in \`${unit.file}\` (module \`${unit.module}\`, imported as \`from ${unit.module} import ${top}\`${importRoot === '' ? '' : ` with \`${importRoot}/\` on the import path`}) has lost the bodies of ${methods.length} methods: ${names}. Each now raises \`NotImplementedError\`. Implement them so that the class behaves as described below. Keep their signatures and leave the rest of the code as it is; the hidden tests call each of them on instances of the class.`,
    examplesIntro: 'Of each method, one example of each behaviour the hidden tests check:',
  });
}

/**
 * The prompt of a module task (issue 19, part 1): the module and where it lives, each removed
 * function's signature and documentation, then the examples, function by function (one of each
 * behaviour class of each), with one import line for all of them.
 */
function renderModulePrompt(input: { unit: Unit; methods: readonly Unit[]; cases: readonly RecordedCase[]; libraryName: string }): string {
  const { unit, methods } = input;
  const importRoot = importRootOf(unit);
  const names = methods.map((m) => m.qualname);
  return renderGroupPrompt(input, {
    heading: `# Implement the functions of \`${unit.module}\` in \`${unit.file}\``,
    intro: `The workspace holds ${input.libraryName}. The module \`${unit.module}\` in \`${unit.file}\` (imported as \`from ${unit.module} import ${names.join(', ')}\`${importRoot === '' ? '' : ` with \`${importRoot}/\` on the import path`}) has lost the bodies of ${methods.length} functions: ${names.map((n) => `\`${n}\``).join(', ')}. Each now raises \`NotImplementedError\`, so where one calls another, both must be implemented before either behaves. Implement them so that the module behaves as described below. Keep their signatures and leave the rest of the code as it is; the hidden tests call each of them.`,
    examplesIntro: 'Of each function, one example of each behaviour the hidden tests check:',
    imported: names,
  });
}

/** A class or module prompt: its heading and introduction, each removed unit's signature and documentation, then the examples unit by unit. */
function renderGroupPrompt(
  input: { unit: Unit; methods: readonly Unit[]; cases: readonly RecordedCase[] },
  text: { heading: string; intro: string; examplesIntro: string; imported?: readonly string[] },
): string {
  const { unit, methods } = input;
  const out: string[] = [text.heading, '', text.intro, ''];
  for (const m of methods) {
    out.push(`## \`${m.qualname}\``, '', '```python', m.signature.trim(), '```', '');
    out.push(...(m.docstring && m.docstring.trim() ? [dedentDocstring(m.docstring)] : undocumentedBehaviour(m)), '');
  }
  const byName = new Map(methods.map((m) => [m.qualname, m] as const));
  const block = (c: RecordedCase): string => exampleBlock(byName.get(c.target) ?? unit, c);
  const examples = pickExamples(input.cases);
  if (examples.length > 0) {
    out.push(EXAMPLES_HEADING, '', text.examplesIntro, '', '```python', [exampleImports(unit, examples, text.imported).join('\n'), ...examples.map(block)].join('\n\n'), '```', '');
  }
  out.push(comparedSentence(input.cases.length), '');
  return out.join('\n');
}

/**
 * The prompt with a closing note naming the units masked besides the target (co-masked because
 * their code would give the body back), so the agent does not take their `NotImplementedError` for
 * a fault to fix. The prompt as it was when there are none.
 */
export function withCoMaskedNote(prompt: string, coMasked: readonly Unit[]): string {
  if (coMasked.length === 0) return prompt;
  const named = coMasked.map((u) => `\`${u.module}.${u.qualname}\` (\`${u.file}\`)`).join(', ');
  return `${prompt.trimEnd()}\n\nAlso removed from this workspace, because their code would give this one back: ${named}. They raise \`NotImplementedError\` too; the hidden tests do not need them.\n`;
}
