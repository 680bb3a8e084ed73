import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { projectRoot } from '../../project-root.js';
import type { RecordedCase } from '../construction-types.js';
import { importsOf, keywordArguments, pythonStrRepr, taggedToPython } from './python-literal.js';

/** The real .py template the readable rendering starts from. */
export function readableTemplatePath(root: string = projectRoot()): string {
  return join(root, 'src', 'languages', 'python', 'templates', 'readable_test.py');
}

let cachedTemplate: string | undefined;

function template(): string {
  cachedTemplate ??= readFileSync(readableTemplatePath(), 'utf8');
  return cachedTemplate;
}

function callSource(c: RecordedCase): string {
  // A generator's case, or one whose call returned an iterator, calls builtins.list on
  // `itertools.islice(<module>.<qualname>(...), N)` (one `repr` input): that call is the test.
  if (c.module === 'builtins' && c.target === 'list' && c.init === null && c.args.length === 1 && Object.keys(c.kwargs).length === 0) {
    return `list(${taggedToPython(c.args[0])})`;
  }
  const args = [...c.args.map((x) => taggedToPython(x)), ...keywordArguments(c.kwargs)];
  const init = c.init
    ? `([${c.init.args.map((x) => taggedToPython(x)).join(', ')}], {${Object.keys(c.init.kwargs)
        .sort()
        .map((k) => `${pythonStrRepr(k)}: ${taggedToPython(c.init?.kwargs[k])}`)
        .join(', ')}})`
    : '';
  return `_target(${init})(${args.join(', ')})`;
}

function testFunction(c: RecordedCase): string {
  const name = `test_${c.id.replace(/[^A-Za-z0-9_]/g, '_')}`;
  const lines: string[] = [`def ${name}():`];
  const needsArgs = c.argsAfter !== null;
  if (needsArgs) {
    lines.push(`    args = [${c.args.map((x) => taggedToPython(x)).join(', ')}]`);
  }
  const callWithArgs = needsArgs ? withStarArgs(c) : callSource(c);
  if ('raises' in c.expect) {
    lines.push(`    _raises(lambda: ${callWithArgs}, ${pythonStrRepr(c.expect.raises)})`);
  } else {
    lines.push(`    result = ${callWithArgs}`);
    lines.push(`    assert _same(result, ${taggedToPython(c.expect.returns)})`);
  }
  if (c.argsAfter) {
    c.argsAfter.forEach((after, i) => lines.push(`    assert _same(args[${i}], ${taggedToPython(after)})`));
  }
  return lines.join('\n');
}

/** The call with the positional arguments taken from a local `args` list (so effects on them show). */
function withStarArgs(c: RecordedCase): string {
  const kwargs = keywordArguments(c.kwargs);
  const base = callSource({ ...c, args: [], kwargs: {} });
  return `${base.slice(0, -2)}(${['*args', ...kwargs].join(', ')})`;
}

/**
 * `hidden/readable/test_<name>.py`: the same cases as cases.json, as plain pytest functions, for
 * people reading a task. Not listed in task.json `tests.scripts`, so scoring never runs it.
 */
export function renderReadableTest(input: { taskId: string; module: string; target: string; cases: readonly RecordedCase[] }): string {
  const imports = new Set<string>();
  for (const c of input.cases) importsOf([c.args, c.kwargs, c.init], imports);
  const importLines = [...imports].sort().map((m) => `import ${m}`);
  const body = input.cases.map(testFunction).join('\n\n\n');
  return template()
    .replace('__CODEMIDAS_TASK_ID__', input.taskId)
    .replace('__CODEMIDAS_IMPORTS__ = None  # replaced by the imports the cases need', importLines.length ? importLines.join('\n') : '# (no extra imports)')
    .replace('"__CODEMIDAS_MODULE__"', JSON.stringify(input.module))
    .replace('"__CODEMIDAS_TARGET__"', JSON.stringify(input.target))
    .replace('# __CODEMIDAS_CASES__', `# ---- cases (${input.cases.length}) ----\n\n\n${body}`)
    .replace(/\n*$/, '\n');
}
