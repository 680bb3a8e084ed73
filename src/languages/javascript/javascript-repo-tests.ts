import type { Node, Tree } from 'web-tree-sitter';
import type { Unit } from '../construction-types.js';
import type { RepoTests } from '../language.js';
import { isJavaScriptSource, isJavaScriptTestFile } from './javascript-files.js';
import { createJavaScriptParser, type JavaScriptGrammar } from './javascript-grammars.js';
import { lineOf, namedChildrenOf } from './javascript-syntax.js';
import { defaultExportName } from './javascript-writer.js';

/**
 * The repository's own tests as masking sees them: test files of node:test, mocha, jest, vitest and
 * ava, from which the tests of the target are removed (a test of the target gives its behaviour,
 * and often its code, back).
 */

/** `test`, `it`, `specify` and their modifiers (`it.only`, `test.skip`, `test.concurrent`, ava's `test.serial`...). */
const TEST_CALLEE = /^(?:test|it|specify|xit|fit)(?:\.(?:only|skip|todo|concurrent|serial|failing|sequential|fails|runIf\(.*\)|skipIf\(.*\)))*$/s;
/** `describe`, `suite`, `context` and their modifiers. */
const GROUP_CALLEE = /^(?:describe|suite|context|xdescribe|fdescribe)(?:\.(?:only|skip|todo|concurrent|serial|sequential|runIf\(.*\)|skipIf\(.*\)))*$/s;
/** Identifier-like nodes whose text names something the test uses. */
const NAME_TYPES = new Set(['identifier', 'property_identifier', 'shorthand_property_identifier', 'shorthand_property_identifier_pattern', 'type_identifier']);
/** Grammars tried in order: a test file's extension is not given, so the first that parses it wins. */
const GRAMMARS: readonly JavaScriptGrammar[] = ['typescript', 'tsx', 'javascript'];

/** True for a repository test file whose tests masking may thin out: a JavaScript/TypeScript source under a test folder or named `*.test.*`/`*.spec.*`. */
export function isJavaScriptRepoTestFile(path: string): boolean {
  return isJavaScriptSource(path) && isJavaScriptTestFile(path);
}

/** What kind of test call `call` is, by its callee (`test.each(table)(...)` is a test; `describe.each(table)(...)` a group). */
function callKind(call: Node): 'test' | 'group' | null {
  let callee = call.childForFieldName('function');
  // `test.each(table)('name', fn)` / jest's tagged `test.each`...`: the callee is itself a call or a template call
  if (callee?.type === 'call_expression') {
    const inner = callee.childForFieldName('function')?.text ?? '';
    if (!/\.each$/.test(inner)) return null;
    callee = callee.childForFieldName('function');
    const base = (callee?.text ?? '').replace(/\.each$/, '');
    return TEST_CALLEE.test(base) ? 'test' : GROUP_CALLEE.test(base) ? 'group' : null;
  }
  const text = callee?.text ?? '';
  if (TEST_CALLEE.test(text)) return 'test';
  if (GROUP_CALLEE.test(text)) return 'group';
  return null;
}

/** The statement holding a test call (through `await`, parentheses, `void`), or null when the call is part of a larger expression. */
function statementOf(call: Node): Node | null {
  let node: Node = call;
  for (let parent = node.parent; parent !== null; parent = node.parent) {
    if (parent.type === 'expression_statement') return parent;
    if (parent.type !== 'await_expression' && parent.type !== 'parenthesized_expression' && parent.type !== 'unary_expression') return null;
    node = parent;
  }
  return null;
}

function namesTarget(node: Node, names: ReadonlySet<string>): boolean {
  if (NAME_TYPES.has(node.type) && names.has(node.text)) return true;
  return namedChildrenOf(node).some((child) => namesTarget(child, names));
}

/** The quoted text of a string node, without its quotes. */
function stringText(node: Node | null | undefined): string | null {
  return node !== null && node !== undefined && node.type === 'string' ? node.text.slice(1, -1) : null;
}

/** True when an import specifier names the unit's file by its last part (`../src/text.js`, `../src/text`; a folder for its `index`). */
function specifierNamesFile(spec: string, unit: Unit): boolean {
  const stem = (path: string): string => (path.split('/').at(-1) ?? path).replace(/\.(?:[mc]?[jt]s|[jt]sx)$/, '');
  const folders = unit.file.split('/').slice(0, -1);
  const wanted = new Set([stem(unit.file)]);
  if (stem(unit.file) === 'index' && folders.length > 0) wanted.add(folders.at(-1) ?? '');
  return (spec.startsWith('.') || spec.startsWith('/')) && wanted.has(stem(spec));
}

/**
 * The names a test file calls the target by: its own name, and the local names the file binds to it
 * from the unit's module (`import { padLeft as pad }`, `import slug from '../index.js'`,
 * `const slug = require('../index')`, `const { clamp: c } = require(...)`).
 */
function localNamesOf(root: Node, unit: Unit, name: string): Set<string> {
  const first = unit.qualname.split('.')[0] ?? unit.qualname;
  const names = new Set([name]);
  const visit = (node: Node): void => {
    if (node.type === 'import_statement' && specifierNamesFile(stringText(node.childForFieldName('source')) ?? '', unit)) {
      const clause = namedChildrenOf(node).find((c) => c.type === 'import_clause');
      for (const part of clause === undefined ? [] : namedChildrenOf(clause)) {
        if (part.type === 'identifier' && first === 'default') names.add(part.text);
        if (part.type !== 'named_imports') continue;
        for (const spec of namedChildrenOf(part)) {
          const imported = spec.childForFieldName('name')?.text;
          const alias = spec.childForFieldName('alias')?.text;
          if (imported === first && alias !== undefined) names.add(alias);
        }
      }
    }
    if (node.type === 'variable_declarator') {
      const value = node.childForFieldName('value');
      const required = value?.type === 'call_expression' && value.childForFieldName('function')?.text === 'require'
        ? stringText(namedChildrenOf(value.childForFieldName('arguments') ?? value)[0]) : null;
      const bound = node.childForFieldName('name');
      if (required !== null && specifierNamesFile(required, unit) && bound !== null) {
        if (bound.type === 'identifier' && first === 'default') names.add(bound.text);
        for (const pair of bound.type === 'object_pattern' ? namedChildrenOf(bound) : []) {
          if (pair.type === 'pair_pattern' && pair.childForFieldName('key')?.text === first) {
            const local = pair.childForFieldName('value');
            if (local?.type === 'identifier') names.add(local.text);
          }
        }
      }
    }
    for (const child of namedChildrenOf(node)) visit(child);
  };
  visit(root);
  return names;
}

/** The test's title for people: its first argument's text (quotes removed), else its line. */
function titleOf(call: Node): string {
  const first = namedChildrenOf(call.childForFieldName('arguments') ?? call)[0];
  if (first !== undefined && (first.type === 'string' || first.type === 'template_string')) return first.text.slice(1, -1);
  return `line ${lineOf(call)}`;
}

interface TestCall {
  kind: 'test' | 'group';
  call: Node;
  statement: Node;
}

/** Every test and group call that is a statement of its own, outermost first. */
function testCalls(root: Node): TestCall[] {
  const out: TestCall[] = [];
  const visit = (node: Node): void => {
    if (node.type === 'call_expression') {
      const kind = callKind(node);
      const statement = kind === null ? null : statementOf(node);
      if (kind !== null && statement !== null) out.push({ kind, call: node, statement });
    }
    for (const child of namedChildrenOf(node)) visit(child);
  };
  visit(root);
  return out;
}

function inside(inner: Node, outer: Node): boolean {
  return inner.startIndex >= outer.startIndex && inner.endIndex <= outer.endIndex;
}

/** The source with the statements cut out, each with its indentation and the rest of its line when nothing else is on it. */
function cut(source: string, statements: readonly Node[]): string {
  let out = source;
  for (const node of [...statements].sort((a, b) => b.startIndex - a.startIndex)) {
    let start = node.startIndex;
    let end = node.endIndex;
    const lineStart = out.lastIndexOf('\n', start - 1) + 1;
    if (out.slice(lineStart, start).trim() === '') start = lineStart;
    const newline = out.indexOf('\n', end);
    const lineEnd = newline === -1 ? out.length : newline + 1;
    if (out.slice(end, lineEnd).trim() === '') end = lineEnd;
    out = out.slice(0, start) + out.slice(end);
  }
  return out;
}

/** The first grammar that parses `source` without errors, and its tree; null when none does. */
function parseAny(source: string): { grammar: JavaScriptGrammar; tree: Tree } | null {
  for (const grammar of GRAMMARS) {
    const parser = createJavaScriptParser(grammar);
    try {
      const tree = parser.parse(source);
      if (tree !== null && !tree.rootNode.hasError) return { grammar, tree };
      tree?.delete();
    } finally {
      parser.delete();
    }
  }
  return null;
}

function parses(source: string, grammar: JavaScriptGrammar): boolean {
  const parser = createJavaScriptParser(grammar);
  try {
    const tree = parser.parse(source);
    const ok = tree !== null && !tree.rootNode.hasError;
    tree?.delete();
    return ok;
  } finally {
    parser.delete();
  }
}

/**
 * `source` (a test file) without its tests of `unit`: each `test(...)`/`it(...)` call (with any of
 * `.only`, `.skip`, `.each(table)`, ...) that is a statement of its own and whose arguments name the
 * target (the last part of its qualname; a default export by its local name; any name the file
 * imports or requires the target under from its module, `import { f as g }`) is removed, and so is
 * every `describe(...)` block whose tests were all removed. `source` null: tests were removed and
 * none is left. A file that no grammar parses, or where no test names the target, comes back
 * unchanged with nothing removed; when the thinned file would not parse, the whole file goes
 * (`source` null), since a test of the target must not stay. Needs `loadJavaScriptGrammars()` to
 * have resolved first (as masking does).
 */
export function removeJavaScriptTestsOf(source: string, unit: Unit): { source: string | null; removed: string[] } {
  const last = unit.qualname.split('.').at(-1) ?? unit.qualname;
  const name = last === 'default' ? defaultExportName(unit) : last;
  const parsed = parseAny(source);
  if (parsed === null) return { source, removed: [] };
  try {
    const names = localNamesOf(parsed.tree.rootNode, unit, name);
    const calls = testCalls(parsed.tree.rootNode);
    const tests = calls.filter((c) => c.kind === 'test');
    const removedTests = tests.filter((t) => !tests.some((o) => o !== t && inside(t.statement, o.statement) && namesTarget(o.call, names)) && namesTarget(t.call, names));
    if (removedTests.length === 0) return { source, removed: [] };
    const gone = (t: TestCall): boolean => removedTests.some((r) => inside(t.statement, r.statement));
    const left = tests.filter((t) => !gone(t));
    // a group goes when it held tests and all of them went; an outer group that goes takes inner ones with it
    const emptied = calls.filter((c) => c.kind === 'group' && tests.some((t) => inside(t.statement, c.statement)) && !left.some((t) => inside(t.statement, c.statement)));
    const byRange = new Map([...removedTests, ...emptied].map((c) => [`${c.statement.startIndex}:${c.statement.endIndex}`, c.statement]));
    const outermost = [...byRange.values()];
    const statements = outermost.filter((s) => !outermost.some((o) => o !== s && inside(s, o)));
    const removed = removedTests.map((t) => titleOf(t.call));
    if (left.length === 0) return { source: null, removed };
    const thinned = cut(source, statements);
    return { source: parses(thinned, parsed.grammar) ? thinned : null, removed };
  } finally {
    parsed.tree.delete();
  }
}

/** The JavaScript plugin's `RepoTests`. */
export const javascriptRepoTests: RepoTests = Object.freeze({
  isTestFile: isJavaScriptRepoTestFile,
  removeTestsOf: removeJavaScriptTestsOf,
});
