import { posix } from 'node:path';
import type { Node } from 'web-tree-sitter';
import { attachCallSites, type FoundCall } from '../call-sites.js';
import type { CallSite, Param, RepoSnapshot, Unit } from '../construction-types.js';
import type { ParseOptions, ParseResult } from '../language-adapter.js';
import { parseSnapshotFiles } from '../parse-snapshot-files.js';
import { endLineOf, lineOf, namedChildrenOf } from '../tree-sitter-nodes.js';

/**
 * Go sources a package is built from: `.go` files outside `vendor/`, `testdata/` and folders Go
 * ignores (`_x`, `.x`), tests (`_test.go`) left out.
 */
export function isGoSourceFile(path: string): boolean {
  if (!path.endsWith('.go') || path.endsWith('_test.go')) return false;
  return !path.split('/').slice(0, -1).some((dir) => dir === 'vendor' || dir === 'testdata' || dir.startsWith('_') || dir.startsWith('.'));
}

/** A Go package's path in the repository, as a unit's module: its folder (`.` at the root). */
export function goPackageDir(file: string): string {
  return posix.dirname(file);
}

/** The statement kinds `statementCount` counts (a block is not one; its statements are). */
const isStatement = (type: string): boolean => type.endsWith('_statement') || type === 'short_var_declaration' || type === 'var_declaration' || type === 'const_declaration';

/** Calls into the world outside a function's arguments, by the selector that names them: [pattern, impurity kind]. */
const IMPURITY_RULES: readonly (readonly [RegExp, string])[] = [
  [/^time\.(?:Now|Since|Until|Sleep|After|Tick|NewTimer|NewTicker)$/, 'clock'],
  [/^(?:rand|crand)\.\w+$/, 'random'],
  [/^os\.(?:Open|OpenFile|Create|ReadFile|WriteFile|Remove|RemoveAll|Mkdir|MkdirAll|ReadDir|Getenv|Setenv|LookupEnv|Environ|Getwd|Chdir|Exit|Stat|Lstat|Rename)$/, 'files'],
  [/^(?:ioutil|fs)\.\w+$/, 'files'],
  [/^(?:net|http|rpc|smtp)\.\w+$/, 'network'],
  [/^(?:exec|syscall|signal)\.\w+$/, 'process'],
];

/** A function or method found in one file, before call sites are attached. */
interface FoundUnit {
  unit: Unit;
}

interface ParsedFile {
  file: string;
  dir: string;
  calls: (FoundCall & { callee: string })[];
}

/**
 * Parses every Go source of the snapshot (`isGoSourceFile`) with tree-sitter-go: each struct type
 * is a unit of kind `class` (`structUnits`), and each function and method with a body is a unit (`Func`, `Type.Method`; kind `function` or `method`), exported or
 * not (a harness placed inside the package reaches both: `decorators` says `exported` or
 * `unexported`, and a method's receiver, `receiver:*Point`). Its doc comment (the `//` lines just
 * above) is its docstring; `bodyStartLine..bodyEndLine` are the lines of the block's statements.
 * Call sites come from every `.go` file, tests included, resolved by name within the package
 * (`Parse(…)`, `p.Norm()` by its last name) and across packages by `pkg.Name(…)`. A file that does
 * not parse is a problem, not an exception.
 */
export async function parseGoUnits(snapshot: RepoSnapshot, options: ParseOptions = {}): Promise<ParseResult> {
  const { units, parsed, problems } = await parseSnapshotFiles(snapshot, options, {
    grammar: 'go',
    parses: (f) => f.endsWith('.go') && !f.split('/').some((d) => d === 'vendor' || d === 'testdata'),
    holdsUnits: isGoSourceFile,
    parseTree,
  });
  // a call resolves to the unit of that last name in the caller's package, or in the package a `pkg.` qualifier names
  const byPackageName = new Map<string, Unit[]>();
  for (const u of units) {
    const key = `${u.module} ${u.qualname.split('.').at(-1)}`;
    byPackageName.set(key, [...(byPackageName.get(key) ?? []), u]);
  }
  attachCallSites(parsed, (call, file) => {
    const last = call.callee.split('.').at(-1) ?? call.callee;
    const same = byPackageName.get(`${file.dir} ${last}`);
    if (same?.length === 1) return same[0];
    const qualifier = call.callee.split('.')[0] ?? '';
    const elsewhere = units.filter((u) => u.module !== file.dir && posix.basename(u.module) === qualifier && u.qualname === last);
    return elsewhere.length === 1 ? elsewhere[0] : undefined;
  });
  return { units, problems };
}

function parseTree(root: Node, file: string, source: string): { parsed: ParsedFile; units: Unit[] } {
  const dir = goPackageDir(file);
  const found: FoundUnit[] = [];
  const calls: ParsedFile['calls'] = [];
  const declarations = namedChildrenOf(root);
  for (const node of root.namedChildren) {
    if (node?.type === 'type_declaration') found.push(...structUnits(node, file, dir));
    if (node === null || (node.type !== 'function_declaration' && node.type !== 'method_declaration')) continue;
    const unit = unitOf(node, file, dir, source);
    if (unit !== null) found.push({ unit });
    collectCalls(node, unit?.qualname ?? '<package>', file, calls);
  }
  // calls outside functions (package-level `var x = f(…)`)
  for (const node of declarations) if (node.type !== 'function_declaration' && node.type !== 'method_declaration') collectCalls(node, '<package>', file, calls);
  return { parsed: { file, dir, calls }, units: found.map((f) => f.unit) };
}

/** The receiver's type name, without `*` and type parameters (`*Pair[K, V]` → `Pair`), and as written. */
function receiverOf(node: Node): { name: string; written: string } | null {
  const receiver = node.childForFieldName('receiver');
  const declaration = receiver === null ? undefined : namedChildrenOf(receiver)[0];
  const type = declaration?.childForFieldName('type');
  if (type === null || type === undefined) return null;
  let named: Node | null = type.type === 'pointer_type' ? namedChildrenOf(type)[0] ?? null : type;
  if (named?.type === 'generic_type') named = named.childForFieldName('type');
  return named === null ? null : { name: named.text, written: type.text };
}

function unitOf(node: Node, file: string, dir: string, source: string): Unit | null {
  const name = node.childForFieldName('name')?.text;
  const body = node.childForFieldName('body');
  if (name === undefined || body === null) return null;
  const receiver = node.type === 'method_declaration' ? receiverOf(node) : null;
  if (node.type === 'method_declaration' && receiver === null) return null;
  const qualname = receiver ? `${receiver.name}.${name}` : name;
  const statements = namedChildrenOf(body);
  if (statements.length === 0) return null;
  const bodyStartLine = lineOf(statements[0]!);
  const bodyEndLine = endLineOf(statements.at(-1)!);
  const lines = source.split('\n');
  const codeLines = lines.slice(bodyStartLine - 1, bodyEndLine).filter((l) => l.trim() !== '' && !l.trim().startsWith('//')).length;
  const result = node.childForFieldName('result');
  return {
    id: `${dir}:${qualname}`,
    kind: receiver ? 'method' : 'function',
    module: dir,
    qualname,
    file,
    startLine: lineOf(node),
    endLine: endLineOf(node),
    bodyStartLine,
    bodyEndLine,
    signature: source.slice(node.startIndex, body.startIndex).trim(),
    params: paramsOf(node.childForFieldName('parameters')),
    returnAnnotation: result?.text ?? null,
    docstring: docCommentOf(node),
    decorators: [/^\p{Lu}/u.test(name) ? 'exported' : 'unexported', ...(receiver ? [`receiver:${receiver.written}`] : [])],
    statementCount: countStatements(body),
    codeLines,
    calls: callsIn(body),
    callSites: [],
    isAsync: false,
    isGenerator: false,
    impurities: impuritiesIn(body),
  };
}

/**
 * The struct types a `type` declaration declares, as units of kind `class` (never targets: select
 * drops them): their fields as the parameters (name and type, embedded ones by their type's name)
 * and their type parameters as decorators (`typeparam:K`), which a harness builds receivers from.
 */
function structUnits(node: Node, file: string, dir: string): FoundUnit[] {
  const out: FoundUnit[] = [];
  for (const spec of namedChildrenOf(node)) {
    if (spec.type !== 'type_spec') continue;
    const name = spec.childForFieldName('name')?.text;
    const type = spec.childForFieldName('type');
    if (name === undefined || type?.type !== 'struct_type') continue;
    const params: Param[] = [];
    const list = namedChildrenOf(type).find((c) => c.type === 'field_declaration_list');
    for (const field of list ? namedChildrenOf(list) : []) {
      const fieldType = field.childForFieldName('type')?.text ?? null;
      const names = field.childrenForFieldName('name').filter((n): n is Node => n !== null);
      if (names.length === 0 && fieldType !== null) params.push({ name: fieldType.replace(/^\*/, '').split('.').at(-1) ?? fieldType, kind: 'keyword-only', annotation: fieldType, defaultValue: null });
      for (const n of names) params.push({ name: n.text, kind: 'keyword-only', annotation: fieldType, defaultValue: null });
    }
    const typeParams = spec.childForFieldName('type_parameters');
    const typeParamNames = typeParams === null ? [] : namedChildrenOf(typeParams).flatMap((d) => d.childrenForFieldName('name').filter((n): n is Node => n !== null).map((n) => n.text));
    out.push({
      unit: {
        id: `${dir}:${name}`,
        kind: 'class',
        module: dir,
        qualname: name,
        file,
        startLine: lineOf(spec),
        endLine: endLineOf(spec),
        bodyStartLine: lineOf(type),
        bodyEndLine: endLineOf(type),
        signature: `type ${name}${typeParams?.text ?? ''} struct`,
        params,
        returnAnnotation: null,
        docstring: docCommentOf(node),
        decorators: [/^\p{Lu}/u.test(name) ? 'exported' : 'unexported', ...typeParamNames.map((t) => `typeparam:${t}`)],
        statementCount: 0,
        codeLines: 0,
        calls: [],
        callSites: [],
        isAsync: false,
        isGenerator: false,
        impurities: [],
      },
    });
  }
  return out;
}

/** The parameters, one per name (`a, b int` is two), a `...T` one as `var-positional`. */
function paramsOf(list: Node | null): Param[] {
  if (list === null) return [];
  const out: Param[] = [];
  for (const declaration of namedChildrenOf(list)) {
    const type = declaration.childForFieldName('type')?.text ?? null;
    const kind = declaration.type === 'variadic_parameter_declaration' ? 'var-positional' : 'positional';
    const names = declaration.childrenForFieldName('name').filter((n): n is Node => n !== null);
    if (names.length === 0) out.push({ name: `arg${out.length}`, kind, annotation: type, defaultValue: null });
    for (const n of names) out.push({ name: n.text, kind, annotation: type, defaultValue: null });
  }
  return out;
}

/** The `//` comment lines just above a declaration (no blank line between), their markers dropped; null when none. */
function docCommentOf(node: Node): string | null {
  const lines: string[] = [];
  let next = node;
  for (let prev = node.previousSibling; prev !== null && prev.type === 'comment' && endLineOf(prev) === lineOf(next) - 1; prev = prev.previousSibling) {
    if (!prev.text.startsWith('//')) break;
    lines.unshift(prev.text.replace(/^\/\/ ?/, ''));
    next = prev;
  }
  return lines.length > 0 ? lines.join('\n') : null;
}

function countStatements(node: Node): number {
  let n = 0;
  const visit = (x: Node): void => {
    if (isStatement(x.type)) n += 1;
    // a function literal's statements are its own, not this body's
    if (x.type === 'func_literal') return;
    for (const child of x.namedChildren) if (child !== null) visit(child);
  };
  for (const child of node.namedChildren) if (child !== null) visit(child);
  return n;
}

/** The callees of a body, in order of first appearance (`Parse`, `strings.ToUpper`, `p.norm`). */
function callsIn(body: Node): string[] {
  const out: string[] = [];
  const visit = (x: Node): void => {
    if (x.type === 'call_expression') {
      const callee = x.childForFieldName('function');
      if (callee !== null && /^[\w.]+$/.test(callee.text) && !out.includes(callee.text)) out.push(callee.text);
    }
    for (const child of x.namedChildren) if (child !== null) visit(child);
  };
  visit(body);
  return out;
}

function impuritiesIn(body: Node): string[] {
  const found = new Set<string>();
  const visit = (x: Node): void => {
    if (x.type === 'selector_expression' && /^\w+\.\w+$/.test(x.text)) {
      const rule = IMPURITY_RULES.find(([pattern]) => pattern.test(x.text));
      if (rule) found.add(`${rule[1]}:${x.text}`);
    }
    if (x.type === 'go_statement') found.add('process:go');
    for (const child of x.namedChildren) if (child !== null) visit(child);
  };
  visit(body);
  return [...found];
}

/** Every call of `node`, as call sites with the caller's name and the argument texts. */
function collectCalls(node: Node, caller: string, file: string, into: ParsedFile['calls']): void {
  const visit = (x: Node): void => {
    if (x.type === 'call_expression') {
      const callee = x.childForFieldName('function');
      const args = x.childForFieldName('arguments');
      if (callee !== null && args !== null && /^[\w.]+$/.test(callee.text)) {
        const argumentNodes = namedChildrenOf(args);
        const site: CallSite = { file, line: lineOf(x), caller, argumentTexts: argumentNodes.map((a) => a.text), allLiteral: argumentNodes.every(isLiteral) };
        into.push({ callee: callee.text, column: x.startPosition.column, site });
      }
    }
    for (const child of x.namedChildren) if (child !== null) visit(child);
  };
  visit(node);
}

const LITERALS = new Set(['int_literal', 'float_literal', 'imaginary_literal', 'rune_literal', 'interpreted_string_literal', 'raw_string_literal', 'true', 'false', 'nil']);

/** A literal argument: a number, string, rune, bool or nil, maybe negated. */
function isLiteral(node: Node): boolean {
  if (LITERALS.has(node.type)) return true;
  if (node.type === 'unary_expression' && /^[-+]/.test(node.text)) return namedChildrenOf(node).every(isLiteral);
  return false;
}
