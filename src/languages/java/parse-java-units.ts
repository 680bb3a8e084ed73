import type { Node } from 'web-tree-sitter';
import { attachCallSites, type FoundCall } from '../call-sites.js';
import type { CallSite, Param, RepoSnapshot, Unit } from '../construction-types.js';
import type { ParseOptions, ParseResult } from '../language-adapter.js';
import { parseSnapshotFiles } from '../parse-snapshot-files.js';
import { endLineOf, lineOf, namedChildrenOf } from '../tree-sitter-nodes.js';

/** A unit's module when its file has no package clause. */
export const DEFAULT_PACKAGE = '(default)';

/** The qualname's last part of a constructor (`Point.new`): `new` is a keyword, so no method has it. */
export const CONSTRUCTOR_NAME = 'new';

/** Folders whose `.java` files are tests or build output, never library sources. */
const SKIPPED_DIRS = new Set(['test', 'tests', 'target', 'build', 'out', 'bin', '.git', '.gradle', '.idea', 'node_modules']);

/**
 * A Java source of the library: a `.java` file outside test folders (`src/test/java`, `test/`,
 * `tests/`) and build output (`target/`, `build/`), not named like a test class (`FooTest.java`,
 * `FooTests.java`, `TestFoo.java`), and not a `module-info.java`.
 */
export function isJavaSourceFile(path: string): boolean {
  if (!path.endsWith('.java')) return false;
  const parts = path.split('/');
  const name = parts.at(-1)!;
  if (name === 'module-info.java' || /(?:Test|Tests|IT)\.java$/.test(name) || /^Test[A-Z]/.test(name)) return false;
  return !parts.slice(0, -1).some((d) => SKIPPED_DIRS.has(d) || d.startsWith('.'));
}

/** A repository's Java test file: a `.java` file under a test folder or named like a test class. */
export function isJavaTestFile(path: string): boolean {
  return path.endsWith('.java') && !isJavaSourceFile(path) && !path.split('/').some((d) => d === 'target' || d === 'build') && !path.endsWith('module-info.java');
}

/** Calls into the world outside the arguments, by the text that names them: [pattern, impurity kind]. */
const IMPURITY_RULES: readonly (readonly [RegExp, string])[] = [
  [/^System\.(?:currentTimeMillis|nanoTime)$|^(?:Instant|LocalDate|LocalDateTime|LocalTime|ZonedDateTime|Clock)\.now$|^Thread\.sleep$/, 'clock'],
  [/^Math\.random$|^(?:ThreadLocalRandom|SecureRandom)\.|^new Random$|^UUID\.randomUUID$/, 'random'],
  [/^(?:Files|Paths|Path)\.\w+$|^new (?:File|FileInputStream|FileOutputStream|FileReader|FileWriter|RandomAccessFile)$|^System\.(?:getenv|getProperty|setProperty|exit)$/, 'files'],
  [/^new (?:Socket|ServerSocket|URL|DatagramSocket)$|^(?:HttpClient|URI)\.\w+$/, 'network'],
  [/^(?:Runtime\.getRuntime|ProcessBuilder|new Thread|new ProcessBuilder)\b|^Executors\.\w+$/, 'process'],
  [/^System\.(?:out|err|in)\.\w+$/, 'io'],
];

interface ParsedFile {
  file: string;
  pkg: string;
  calls: (FoundCall & { callee: string })[];
}

/** Text of `node`'s modifiers, split into words (annotations left out). */
function modifiersOf(node: Node): string[] {
  const mods = namedChildrenOf(node).find((c) => c.type === 'modifiers');
  if (mods === undefined) return [];
  return mods.children.filter((c): c is Node => c !== null && !c.type.endsWith('annotation') && c.type !== 'line_comment' && c.type !== 'block_comment').map((c) => c.text);
}

/** `public`, `protected`, `private`, or `package` (no modifier). */
function visibilityOf(modifiers: readonly string[]): string {
  return modifiers.find((m) => m === 'public' || m === 'protected' || m === 'private') ?? 'package';
}

/**
 * Parses every Java source of the snapshot (`isJavaSourceFile`) with tree-sitter-java. Each
 * top-level class (not an interface, enum or record: those are not built yet) is a unit of kind
 * `class`, and each of its methods and constructors with a body is a unit of kind `method`:
 * `<package>:<Class>.<method>`, a constructor `<Class>.new`. Decorators: the visibility (`public`,
 * `protected`, `package`, `private`), `static` (a constructor counts as static: no receiver is
 * needed), `constructor`, `generic` (type parameters of its own, or an instance member of a generic
 * class) with `typevars:{"T": "Integer"}` (what the harness puts for each), `overloaded` (the class has another member of that name: the second and later get
 * `~2`, `~3` in their qualname), `abstract-class`. A class unit carries its constructors as
 * decorators `ctor:<JSON list of parameter types>`, its `static final` constants of its own type as
 * `const:<NAME>` and its static factories as `factory:{"name", "params"}` (instancesMadeBy), and its void instance methods (which change the
 * instance: the harness warms receivers with them) as `mutator:{"name", "params"}`. The Javadoc (`/** … *\/` just above, markers
 * dropped) is the docstring; `bodyStartLine..bodyEndLine` are the lines of the body's statements.
 * Call sites come from every `.java` file, tests included: `name(…)` within the class, `Class.name(…)`
 * and `x.name(…)` by the last name when one unit has it, `new Class(…)` for constructors.
 */
export async function parseJavaUnits(snapshot: RepoSnapshot, options: ParseOptions = {}): Promise<ParseResult> {
  const { units, parsed, problems } = await parseSnapshotFiles(snapshot, options, {
    grammar: 'java',
    parses: (f) => f.endsWith('.java') && !f.split('/').some((d) => d === 'target' || d === 'build' || d.startsWith('.')),
    holdsUnits: isJavaSourceFile,
    parseTree,
  });
  const byName = new Map<string, Unit[]>();
  for (const u of units) {
    if (u.kind === 'class') continue;
    const parts = u.qualname.split('.');
    const last = parts.at(-1)!.replace(/~\d+$/, '');
    const key = last === CONSTRUCTOR_NAME ? `new ${parts[0]}` : last;
    byName.set(key, [...(byName.get(key) ?? []), u]);
  }
  attachCallSites(parsed, (call, file) => {
    const found = byName.get(call.callee.startsWith('new ') ? call.callee : call.callee.split('.').at(-1)!) ?? [];
    if (found.length === 1) return found[0];
    const samePackage = found.filter((u) => u.module === file.pkg);
    return samePackage.length === 1 ? samePackage[0] : undefined;
  });
  return { units, problems };
}

/**
 * What else makes instances of a class the driver can reach (not private): its `static final`
 * fields of its own type (`const:DEFAULT`, as `CSVFormat.DEFAULT`) and its static methods that
 * return its own type (`factory:{"name", "params"}`, as `CSVFormat.newFormat(char)`), not generic
 * ones, at most three parameters.
 */
function instancesMadeBy(body: Node, className: string): string[] {
  const out: string[] = [];
  for (const m of namedChildrenOf(body)) {
    const mods = modifiersOf(m);
    if (mods.includes('private') || !mods.includes('static')) continue;
    const type = m.childForFieldName('type')?.text;
    if (type !== className) continue;
    if (m.type === 'field_declaration' && mods.includes('final')) {
      for (const d of namedChildrenOf(m).filter((c) => c.type === 'variable_declarator')) {
        const name = d.childForFieldName('name')?.text;
        if (name !== undefined) out.push(`const:${name}`);
      }
    }
    if (m.type === 'method_declaration' && m.childForFieldName('type_parameters') === null) {
      const params = paramsOf(m.childForFieldName('parameters'));
      const name = m.childForFieldName('name')?.text;
      if (name !== undefined && params.length <= 3 && params.every((p) => p.kind !== 'var-positional')) out.push(`factory:${JSON.stringify({ name, params: params.map((p) => p.annotation ?? 'Object') })}`);
    }
  }
  return out;
}

function parseTree(root: Node, file: string, source: string): { parsed: ParsedFile; units: Unit[] } {
  const pkgNode = namedChildrenOf(root).find((n) => n.type === 'package_declaration');
  const pkg = pkgNode === undefined ? DEFAULT_PACKAGE : namedChildrenOf(pkgNode).find((n) => n.type === 'scoped_identifier' || n.type === 'identifier')?.text ?? DEFAULT_PACKAGE;
  const units: Unit[] = [];
  const calls: ParsedFile['calls'] = [];
  for (const node of namedChildrenOf(root)) {
    if (node.type === 'class_declaration') units.push(...classUnits(node, file, pkg, source));
    collectCalls(node, '<class>', file, calls);
  }
  return { parsed: { file, pkg, calls }, units };
}

function classUnits(node: Node, file: string, pkg: string, source: string): Unit[] {
  const className = node.childForFieldName('name')?.text;
  const body = node.childForFieldName('body');
  if (className === undefined || body === null) return [];
  const classMods = modifiersOf(node);
  const classGeneric = node.childForFieldName('type_parameters') !== null;
  const classTypeVars = typeVariablesOf(node.childForFieldName('type_parameters'));
  const members = namedChildrenOf(body).filter((m) => m.type === 'method_declaration' || m.type === 'constructor_declaration');
  const counts = new Map<string, number>();
  for (const m of members) {
    const name = m.type === 'constructor_declaration' ? CONSTRUCTOR_NAME : m.childForFieldName('name')?.text ?? '';
    counts.set(name, (counts.get(name) ?? 0) + 1);
  }
  const seen = new Map<string, number>();
  const out: Unit[] = [];
  const ctors: string[] = [];
  const mutators: string[] = [];
  for (const m of members) {
    const isCtor = m.type === 'constructor_declaration';
    const name = isCtor ? CONSTRUCTOR_NAME : m.childForFieldName('name')?.text;
    const mbody = m.childForFieldName('body');
    if (name === undefined) continue;
    const params = paramsOf(m.childForFieldName('parameters'));
    const mods = modifiersOf(m);
    if (isCtor && !mods.includes('private')) ctors.push(`ctor:${JSON.stringify(params.map((p) => p.annotation ?? 'Object'))}`);
    // a void instance method the driver can call: it changes its instance, so receivers may be warmed by it
    if (!isCtor && !mods.includes('private') && !mods.includes('static') && !mods.includes('abstract') && m.childForFieldName('type')?.text === 'void' && m.childForFieldName('type_parameters') === null && params.length <= 3) {
      mutators.push(`mutator:${JSON.stringify({ name, params: params.map((p) => p.annotation ?? 'Object') })}`);
    }
    if (mbody === null) continue;
    const n = (seen.get(name) ?? 0) + 1;
    seen.set(name, n);
    const qualname = `${className}.${name}${n > 1 ? `~${n}` : ''}`;
    const statements = namedChildrenOf(mbody).filter((s) => s.type !== 'line_comment' && s.type !== 'block_comment');
    if (statements.length === 0) continue;
    const bodyStartLine = lineOf(statements[0]!);
    const bodyEndLine = endLineOf(statements.at(-1)!);
    const lines = source.split('\n');
    const codeLines = lines.slice(bodyStartLine - 1, bodyEndLine).filter((l) => l.trim() !== '' && !l.trim().startsWith('//')).length;
    const isStatic = isCtor || mods.includes('static');
    const ownGeneric = m.childForFieldName('type_parameters') !== null;
    // the type variables its parameters may name, and what the harness puts for them
    const typeVars = { ...(isStatic && !isCtor ? {} : classTypeVars), ...typeVariablesOf(m.childForFieldName('type_parameters')) };
    const decorators = [
      visibilityOf(mods),
      ...(isStatic ? ['static'] : []),
      ...(isCtor ? ['constructor'] : []),
      ...(ownGeneric || (classGeneric && (!isStatic || isCtor)) ? ['generic', `typevars:${JSON.stringify(typeVars)}`] : []),
      ...((counts.get(name) ?? 0) > 1 ? ['overloaded'] : []),
      ...(classMods.includes('abstract') && !isStatic ? ['abstract-class'] : []),
      ...(isCtor && classMods.includes('abstract') ? ['abstract-class'] : []),
    ];
    const returnType = isCtor ? className : m.childForFieldName('type')?.text ?? null;
    out.push({
      id: `${pkg}:${qualname}`,
      kind: 'method',
      module: pkg,
      qualname,
      file,
      startLine: lineOf(m),
      endLine: endLineOf(m),
      bodyStartLine,
      bodyEndLine,
      signature: signatureText(source.slice(m.startIndex, mbody.startIndex)),
      params,
      returnAnnotation: returnType,
      docstring: javadocOf(m),
      decorators,
      statementCount: countStatements(mbody),
      codeLines,
      calls: callsIn(mbody),
      callSites: [],
      isAsync: false,
      isGenerator: false,
      impurities: impuritiesIn(mbody),
    });
  }
  if (!members.some((m) => m.type === 'constructor_declaration')) ctors.push('ctor:[]');
  const made = instancesMadeBy(body, className);
  out.unshift({
    id: `${pkg}:${className}`,
    kind: 'class',
    module: pkg,
    qualname: className,
    file,
    startLine: lineOf(node),
    endLine: endLineOf(node),
    bodyStartLine: lineOf(body),
    bodyEndLine: endLineOf(body),
    signature: source.slice(node.startIndex, body.startIndex).trim().replace(/\s*\n\s*/g, ' ').replace(/^\/\*\*[\s\S]*?\*\/\s*/, ''),
    params: [],
    returnAnnotation: null,
    docstring: javadocOf(node),
    decorators: [visibilityOf(classMods), ...(classMods.includes('abstract') ? ['abstract'] : []), ...(classGeneric ? ['generic', `typevars:${JSON.stringify(classTypeVars)}`] : []), ...ctors, ...made, ...mutators],
    statementCount: 0,
    codeLines: 0,
    calls: [],
    callSites: [],
    isAsync: false,
    isGenerator: false,
    impurities: [],
  });
  return out;
}

/**
 * The concrete type the harness gives each type parameter of `node` (a class or member): `String`
 * for one bounded by `CharSequence` or `String`, else `Integer` (a `Comparable`, a `Number`, an
 * `Object`); as `{"T": "Integer"}`.
 */
function typeVariablesOf(node: Node | null): Record<string, string> {
  const out: Record<string, string> = {};
  if (node === null) return out;
  for (const p of namedChildrenOf(node)) {
    if (p.type !== 'type_parameter') continue;
    const name = namedChildrenOf(p).find((c) => c.type === 'type_identifier' || c.type === 'identifier')?.text;
    if (name === undefined) continue;
    const bound = namedChildrenOf(p).find((c) => c.type === 'type_bound')?.text ?? '';
    out[name] = /\b(?:CharSequence|String)\b/.test(bound) ? 'String' : 'Integer';
  }
  return out;
}

/** A declaration's text up to its body, on one line, its annotations dropped (`@Override`). */
function signatureText(text: string): string {
  return text.trim().replace(/^(?:@[\w.]+(?:\([^)]*\))?\s*)+/, '').replace(/\s*\n\s*/g, ' ');
}

/** The parameters; a `T... xs` one as `var-positional` with its type `T[]`. */
function paramsOf(list: Node | null): Param[] {
  if (list === null) return [];
  const out: Param[] = [];
  for (const p of namedChildrenOf(list)) {
    if (p.type === 'formal_parameter') {
      const dims = p.childForFieldName('dimensions')?.text ?? '';
      out.push({ name: p.childForFieldName('name')?.text ?? `arg${out.length}`, kind: 'positional', annotation: `${p.childForFieldName('type')?.text ?? 'Object'}${dims}`, defaultValue: null });
    } else if (p.type === 'spread_parameter') {
      const named = namedChildrenOf(p).filter((c) => c.type !== 'modifiers');
      const declarator = named.find((c) => c.type === 'variable_declarator');
      const type = named.find((c) => c.type !== 'variable_declarator');
      out.push({ name: declarator?.childForFieldName('name')?.text ?? `arg${out.length}`, kind: 'var-positional', annotation: `${type?.text ?? 'Object'}[]`, defaultValue: null });
    }
  }
  return out;
}

/** The Javadoc comment (`/** … *\/`) just before a declaration, its markers dropped; null when none. */
function javadocOf(node: Node): string | null {
  let prev = node.previousSibling;
  while (prev !== null && prev.type === 'line_comment') prev = prev.previousSibling;
  if (prev === null || prev.type !== 'block_comment' || !prev.text.startsWith('/**')) return null;
  const text = prev.text
    .replace(/^\/\*\*/, '')
    .replace(/\*\/$/, '')
    .split('\n')
    .map((l) => l.replace(/^\s*\* ?/, '').trimEnd())
    .join('\n')
    .trim();
  return text === '' ? null : text;
}

const isStatement = (type: string): boolean => type.endsWith('_statement') || type === 'local_variable_declaration' || type === 'explicit_constructor_invocation';

function countStatements(node: Node): number {
  let n = 0;
  const visit = (x: Node): void => {
    if (isStatement(x.type)) n += 1;
    if (x.type === 'lambda_expression' || x.type === 'class_body') return;
    for (const child of x.namedChildren) if (child !== null) visit(child);
  };
  for (const child of node.namedChildren) if (child !== null) visit(child);
  return n;
}

/** The callee of a call node as text (`reverse`, `Strings.reverse`, `sb.append`, `new Point`), or null. */
function calleeOf(x: Node): string | null {
  if (x.type === 'method_invocation') {
    const name = x.childForFieldName('name')?.text;
    const object = x.childForFieldName('object');
    if (name === undefined) return null;
    return object === null ? name : /^[\w.]+$/.test(object.text) ? `${object.text}.${name}` : `?.${name}`;
  }
  if (x.type === 'object_creation_expression') {
    const type = x.childForFieldName('type')?.text.replace(/<.*$/, '');
    return type === undefined ? null : `new ${type.split('.').at(-1)}`;
  }
  return null;
}

function callsIn(body: Node): string[] {
  const out: string[] = [];
  const visit = (x: Node): void => {
    const callee = calleeOf(x);
    if (callee !== null && !out.includes(callee)) out.push(callee);
    for (const child of x.namedChildren) if (child !== null) visit(child);
  };
  visit(body);
  return out;
}

function impuritiesIn(body: Node): string[] {
  const found = new Set<string>();
  const visit = (x: Node): void => {
    const callee = calleeOf(x);
    if (callee !== null) {
      const rule = IMPURITY_RULES.find(([pattern]) => pattern.test(callee));
      if (rule) found.add(`${rule[1]}:${callee}`);
    }
    if (x.type === 'synchronized_statement') found.add('process:synchronized');
    for (const child of x.namedChildren) if (child !== null) visit(child);
  };
  visit(body);
  return [...found];
}

/** The enclosing method's or constructor's name of a node, for call sites (`Class.method`). */
function callerOf(x: Node): string {
  let names: string[] = [];
  for (let p: Node | null = x.parent; p !== null; p = p.parent) {
    if (p.type === 'method_declaration') names = [p.childForFieldName('name')?.text ?? '?'];
    if (p.type === 'constructor_declaration') names = [CONSTRUCTOR_NAME];
    if (p.type === 'class_declaration' || p.type === 'enum_declaration' || p.type === 'interface_declaration' || p.type === 'record_declaration') names.unshift(p.childForFieldName('name')?.text ?? '?');
  }
  return names.length > 0 ? names.join('.') : '<class>';
}

function collectCalls(node: Node, _caller: string, file: string, into: ParsedFile['calls']): void {
  const visit = (x: Node): void => {
    const callee = calleeOf(x);
    const args = x.childForFieldName('arguments');
    if (callee !== null && args !== null && !callee.startsWith('?.')) {
      const argumentNodes = namedChildrenOf(args).filter((a) => a.type !== 'line_comment' && a.type !== 'block_comment');
      const site: CallSite = { file, line: lineOf(x), caller: callerOf(x), argumentTexts: argumentNodes.map((a) => a.text), allLiteral: argumentNodes.every(isLiteral) };
      into.push({ callee, column: x.startPosition.column, site });
    }
    for (const child of x.namedChildren) if (child !== null) visit(child);
  };
  visit(node);
}

const LITERALS = new Set(['decimal_integer_literal', 'hex_integer_literal', 'octal_integer_literal', 'binary_integer_literal', 'decimal_floating_point_literal', 'hex_floating_point_literal', 'string_literal', 'character_literal', 'true', 'false', 'null_literal', 'text_block']);

/** A literal argument: a number, string, char, boolean or null, maybe negated; an array of literals (`new int[]{1, 2}`). */
export function isLiteral(node: Node): boolean {
  if (LITERALS.has(node.type)) return true;
  if (node.type === 'unary_expression' && /^[-+]/.test(node.text)) return namedChildrenOf(node).every(isLiteral);
  if (node.type === 'array_creation_expression') {
    const init = node.childForFieldName('value');
    return init !== null && namedChildrenOf(init).every(isLiteral);
  }
  return false;
}
