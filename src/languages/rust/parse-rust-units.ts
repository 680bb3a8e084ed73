import { posix } from 'node:path';
import type { Node } from 'web-tree-sitter';
import { attachCallSites, type FoundCall } from '../call-sites.js';
import type { CallSite, Param, RepoSnapshot, Unit } from '../construction-types.js';
import type { ParseOptions, ParseResult } from '../language-adapter.js';
import { parseSnapshotFiles } from '../parse-snapshot-files.js';
import { endLineOf, lineOf } from '../tree-sitter-nodes.js';
import { chooseTypeParameters } from './rust-generics.js';

/** Folders whose `.rs` files are no library source: build output, integration tests, benches, examples. */
const NOT_LIBRARY = new Set(['target', 'tests', 'benches', 'examples', 'vendor', 'fuzz']);

/**
 * Rust sources a crate's library is built from: `.rs` files under a `src/` folder, outside
 * `target/`, `tests/`, `benches/`, `examples/`, `vendor/`; `build.rs` and binaries (`main.rs`,
 * `src/bin/`) left out.
 */
export function isRustSourceFile(path: string): boolean {
  if (!path.endsWith('.rs')) return false;
  const parts = path.split('/');
  if (!parts.slice(0, -1).includes('src')) return false;
  if (parts.slice(0, -1).some((d) => NOT_LIBRARY.has(d) || d.startsWith('.') || d === 'bin')) return false;
  return parts.at(-1) !== 'main.rs' && parts.at(-1) !== 'build.rs';
}

/** Rust files whose calls count as the repository's tests: integration tests (`tests/`) and, in `isRustSourceFile`s, `#[cfg(test)]` modules. */
export function isRustTestFile(path: string): boolean {
  return path.endsWith('.rs') && path.split('/').slice(0, -1).includes('tests');
}

/** Comments, which `namedChildrenOf` of tree-sitter-nodes.ts does not know by these names. */
const isComment = (n: Node): boolean => n.type === 'line_comment' || n.type === 'block_comment';

function named(node: Node): Node[] {
  return node.namedChildren.filter((c): c is Node => c !== null && !isComment(c));
}

/** Calls into the world outside a function's arguments, by the text that names them: [pattern, impurity kind]. */
const IMPURITY_RULES: readonly (readonly [RegExp, string])[] = [
  [/\b(?:Instant|SystemTime)::now\b|\bthread::sleep\b/, 'clock'],
  [/\brand::|\bthread_rng\b|\bRandomState\b/, 'random'],
  [/\bstd::fs::|\bfs::\w+\(|\bFile::(?:open|create)\b|\bstd::env::|\benv::(?:var|args|set_var|current_dir)\b/, 'files'],
  [/\bstd::net::|\bTcp(?:Stream|Listener)\b|\bUdpSocket\b/, 'network'],
  [/\bstd::process::|\bCommand::new\b|\bprocess::exit\b|\bthread::spawn\b/, 'process'],
];

interface ParsedFile {
  file: string;
  dir: string;
  calls: (FoundCall & { callee: string })[];
  /** The module files this one declares under `#[cfg(test)]` (`#[cfg(test)] mod tests;` → `src/tests.rs` or `src/tests/mod.rs`). */
  testModules: string[];
  /** Its `pub`/`pub(crate)` constants: name and type (`STANDARD`, `Config`). */
  consts: { name: string; type: string }[];
}

/**
 * Parses every Rust library source of the snapshot (`isRustSourceFile`) with tree-sitter-rust. Each
 * free function of a module file, and each function of an `impl` block of a named, non-generic type
 * (`impl Point`, `impl Display for Point`), is a unit: `<module file>:<name>` or
 * `<module file>:<Type>.<name>` (kind `function`, or `method` for an `impl`'s). A unit's module is
 * its file (`src/text.rs`): the record harness compiles a driver into that module, which reaches its
 * private items. `decorators` holds its visibility (`pub`, `pub(crate)`, `private`), a method's
 * type (`impl:Point`) and receiver (`self:&mut self`, or `static` for an associated function), a
 * trait impl's trait (`trait:Display`), `generic` for type parameters or `impl Trait` parameters, and
 * `unsafe`. Struct types are units of kind `class` (their fields as params). Functions of inline
 * `mod` blocks are not units (their calls still count: `#[cfg(test)] mod tests` are repository
 * tests). The `///` doc comment is the docstring. Call sites come from every `.rs` file, calls inside
 * macros (`assert_eq!(f(1), 2)`) included, resolved by last name. A file that does not parse is a
 * problem, not an exception.
 */
export async function parseRustUnits(snapshot: RepoSnapshot, options: ParseOptions = {}): Promise<ParseResult> {
  const { units: parsedUnits, parsed, problems } = await parseSnapshotFiles(snapshot, options, {
    grammar: 'rust',
    parses: (f) => f.endsWith('.rs') && !f.split('/').some((d) => d === 'target' || d === 'vendor'),
    holdsUnits: isRustSourceFile,
    parseTree,
  });
  // module files declared under `#[cfg(test)]` are the crate's tests: no units, their calls are tests'
  const testFiles = new Set(parsed.flatMap((p) => p.testModules));
  for (const p of parsed) if (testFiles.has(p.file)) for (const call of p.calls) call.site = { ...call.site, caller: RUST_TESTS_CALLER };
  const units = parsedUnits.filter((u) => !testFiles.has(u.file));
  // a struct's public constants (`pub const STANDARD: Config`) are values of it: its receivers, and arguments of its type
  for (const p of parsed) {
    if (testFiles.has(p.file)) continue;
    for (const c of p.consts) {
      const struct = units.find((u) => u.kind === 'class' && u.qualname === c.type.split('::').at(-1));
      struct?.decorators.push(`${CONST_DECORATOR}${rustModulePath(p.file)}::${c.name}`);
    }
  }
  const byName = new Map<string, Unit[]>();
  for (const u of units) {
    if (u.kind === 'class') continue;
    const key = u.qualname.split('.').at(-1)!;
    byName.set(key, [...(byName.get(key) ?? []), u]);
  }
  attachCallSites(parsed, (call, file) => {
    const parts = call.callee.split(/::|\./);
    const last = parts.at(-1) ?? call.callee;
    const qualifier = parts.length > 1 ? parts.at(-2)! : null;
    let candidates = byName.get(last) ?? [];
    if (qualifier !== null && /^[A-Z]/.test(qualifier) && qualifier !== 'Self') {
      // `Point::new` names its type: `Vec::new` is no call of it
      candidates = candidates.filter((u) => u.qualname === `${qualifier}.${last}`);
    } else if (qualifier === '_' || qualifier === 'self') {
      // `p.shift(…)`: a method that takes a receiver
      candidates = candidates.filter((u) => u.decorators.some((d) => d.startsWith('self:')));
    } else {
      // `slugify(…)`, `text::slugify(…)`: a free function
      candidates = candidates.filter((u) => u.kind === 'function');
    }
    if (candidates.length === 1) return candidates[0];
    const local = candidates.filter((u) => u.file === file.file);
    return local.length === 1 ? local[0] : undefined;
  });
  return { units, problems };
}

/** Where a module file's child module `name` may live: beside it (`lib.rs`, `main.rs`, `mod.rs`) or in its folder (`src/a.rs` → `src/a/`). */
function childModuleFiles(file: string, name: string): string[] {
  const base = posix.basename(file);
  const dir = ['lib.rs', 'main.rs', 'mod.rs'].includes(base) ? posix.dirname(file) : file.slice(0, -'.rs'.length);
  return [`${dir}/${name}.rs`, `${dir}/${name}/mod.rs`];
}

/** The Rust path of a module file from the crate root (`src/config.rs` → `crate::config`, `src/lib.rs` → `crate`). */
export function rustModulePath(file: string): string {
  const rel = file.replace(/^(?:.*\/)?src\//, '').replace(/\.rs$/, '');
  const parts = rel.split('/').filter((p) => p !== 'mod' && p !== 'lib' && p !== 'main');
  return ['crate', ...parts].join('::');
}

function parseTree(root: Node, file: string, source: string): { parsed: ParsedFile; units: Unit[] } {
  const units: Unit[] = [];
  const calls: ParsedFile['calls'] = [];
  const testModules: string[] = [];
  const consts: ParsedFile['consts'] = [];
  for (const node of named(root)) {
    if (node.type === 'function_item') {
      const unit = unitOf(node, file, source, null);
      if (unit !== null) units.push(unit);
      collectCalls(node, unit?.qualname ?? '<module>', file, calls);
    } else if (node.type === 'impl_item') {
      const owner = implOwner(node);
      const body = node.childForFieldName('body');
      for (const item of body === null ? [] : named(body)) {
        if (item.type !== 'function_item') continue;
        const unit = owner === null ? null : unitOf(item, file, source, owner);
        if (unit !== null) units.push(unit);
        collectCalls(item, unit?.qualname ?? '<impl>', file, calls);
      }
    } else if (node.type === 'struct_item') {
      const unit = structUnit(node, file);
      if (unit !== null) units.push(unit);
    } else {
      // inline modules (`#[cfg(test)] mod tests { … }`), statics, consts: their calls count
      const tests = node.type === 'mod_item' && /#\[cfg\(test\)\]/.test(attributesBefore(node).join('\n'));
      collectCalls(node, tests ? RUST_TESTS_CALLER : '<module>', file, calls);
      const name = node.childForFieldName('name')?.text;
      if (tests && node.childForFieldName('body') === null && name !== undefined) testModules.push(...childModuleFiles(file, name));
      const type = node.childForFieldName('type')?.text;
      if (node.type === 'const_item' && name !== undefined && type !== undefined && visibilityOf(node).startsWith('pub')) consts.push({ name, type });
    }
  }
  return { parsed: { file, dir: posix.dirname(file), calls, testModules, consts }, units };
}

/** The type an `impl` block is for, when it is a plain named type without type parameters: its name and trait. */
function implOwner(node: Node): { type: string; trait: string | null } | null {
  if (node.childForFieldName('type_parameters') !== null) return null;
  const type = node.childForFieldName('type');
  if (type?.type !== 'type_identifier') return null;
  return { type: type.text, trait: node.childForFieldName('trait')?.text ?? null };
}

/** The attribute items (`#[…]`) just above a node. */
function attributesBefore(node: Node): string[] {
  const out: string[] = [];
  for (let prev = node.previousNamedSibling; prev !== null && (prev.type === 'attribute_item' || isComment(prev)); prev = prev.previousNamedSibling) {
    if (prev.type === 'attribute_item') out.unshift(prev.text);
  }
  return out;
}

/** The `///` lines above a declaration (attributes between them and it allowed), their markers dropped; null when none. */
function docCommentOf(node: Node): string | null {
  const lines: string[] = [];
  for (let prev = node.previousNamedSibling; prev !== null; prev = prev.previousNamedSibling) {
    if (prev.type === 'attribute_item') continue;
    if (prev.type !== 'line_comment' || !prev.text.startsWith('///') || prev.text.startsWith('////')) break;
    lines.unshift(prev.text.replace(/^\/\/\/ ?/, '').replace(/\n$/, ''));
  }
  return lines.length > 0 ? lines.join('\n') : null;
}

function visibilityOf(node: Node): string {
  const v = named(node).find((c) => c.type === 'visibility_modifier');
  return v === undefined ? 'private' : v.text.replace(/\s+/g, '');
}

/** Type parameters that are types (`<T>`, `<const N: usize>`), not only lifetimes (`<'a>`), or an `impl Trait` parameter. */
function isGeneric(node: Node): boolean {
  const typeParams = node.childForFieldName('type_parameters');
  if (typeParams !== null && named(typeParams).some((p) => p.type !== 'lifetime' && p.type !== 'lifetime_parameter')) return true;
  return /(?<![\w])impl\s+[\w:(]/.test(node.childForFieldName('parameters')?.text ?? '');
}

function unitOf(node: Node, file: string, source: string, owner: { type: string; trait: string | null } | null): Unit | null {
  const name = node.childForFieldName('name')?.text;
  const body = node.childForFieldName('body');
  if (name === undefined || body === null) return null;
  const statements = named(body);
  if (statements.length === 0) return null;
  const attributes = attributesBefore(node);
  // a function of the repository's tests, not of the library
  if (attributes.some((a) => /^#\[(?:test|cfg\(test\)|bench)/.test(a))) return null;
  const qualname = owner ? `${owner.type}.${name}` : name;
  const parameters = node.childForFieldName('parameters');
  const selfParam = parameters === null ? undefined : named(parameters).find((p) => p.type === 'self_parameter');
  const bodyStartLine = lineOf(statements[0]!);
  const bodyEndLine = endLineOf(statements.at(-1)!);
  const lines = source.split('\n');
  const codeLines = lines.slice(bodyStartLine - 1, bodyEndLine).filter((l) => l.trim() !== '' && !l.trim().startsWith('//')).length;
  const modifiers = named(node).find((c) => c.type === 'function_modifiers')?.text ?? '';
  const decorators = [visibilityOf(node)];
  if (owner) decorators.push(`impl:${owner.type}`, ...(owner.trait ? [`trait:${owner.trait}`] : []), selfParam ? `self:${selfParam.text.replace(/\s+/g, ' ').replace(/^&\s*mut/, '&mut')}` : 'static');
  if (isGeneric(node)) {
    decorators.push('generic');
    // concrete types for its type parameters where their bounds allow (rust-generics.ts)
    const chosen = chooseTypeParameters(node);
    if (chosen !== null) decorators.push(`${TYPEVARS_DECORATOR}${JSON.stringify(chosen.typeVars)}`, `${CONCRETE_PARAMS_DECORATOR}${JSON.stringify(chosen.params)}`);
  }
  if (/\bunsafe\b/.test(modifiers)) decorators.push('unsafe');
  const returnType = node.childForFieldName('return_type');
  return {
    id: `${file}:${qualname}`,
    kind: owner ? 'method' : 'function',
    module: file,
    qualname,
    file,
    startLine: lineOf(node),
    endLine: endLineOf(node),
    bodyStartLine,
    bodyEndLine,
    signature: source.slice(node.startIndex, body.startIndex).trim(),
    params: paramsOf(parameters),
    returnAnnotation: returnType?.text ?? null,
    docstring: docCommentOf(node),
    decorators,
    statementCount: countStatements(body),
    codeLines,
    calls: callsIn(body),
    callSites: [],
    isAsync: /\basync\b/.test(modifiers),
    isGenerator: false,
    impurities: impuritiesIn(body.text),
  };
}

/** A struct with named fields as a unit of kind `class` (never a target): its fields as params, their visibility as each param's `defaultValue` (`pub` or null). */
function structUnit(node: Node, file: string): Unit | null {
  const name = node.childForFieldName('name')?.text;
  const body = node.childForFieldName('body');
  if (name === undefined || node.childForFieldName('type_parameters') !== null) return null;
  const params: Param[] = [];
  for (const field of body?.type === 'field_declaration_list' ? named(body) : []) {
    if (field.type !== 'field_declaration') continue;
    const fieldName = field.childForFieldName('name')?.text;
    if (fieldName !== undefined) params.push({ name: fieldName, kind: 'keyword-only', annotation: field.childForFieldName('type')?.text ?? null, defaultValue: null });
  }
  const derives = attributesBefore(node).join(' ');
  return {
    id: `${file}:${name}`,
    kind: 'class',
    module: file,
    qualname: name,
    file,
    startLine: lineOf(node),
    endLine: endLineOf(node),
    bodyStartLine: lineOf(node),
    bodyEndLine: endLineOf(node),
    signature: `struct ${name}`,
    params,
    returnAnnotation: null,
    docstring: docCommentOf(node),
    decorators: [visibilityOf(node), ...(/\bDefault\b/.test(derives) ? ['derive:Default'] : [])],
    statementCount: 0,
    codeLines: 0,
    calls: [],
    callSites: [],
    isAsync: false,
    isGenerator: false,
    impurities: [],
  };
}

/** The parameters after `self`, each with its pattern as the name (`mut b` → `b`) and its type as written. */
function paramsOf(list: Node | null): Param[] {
  if (list === null) return [];
  const out: Param[] = [];
  for (const p of named(list)) {
    if (p.type !== 'parameter') continue;
    const pattern = p.childForFieldName('pattern')?.text.replace(/^mut\s+/, '') ?? `arg${out.length}`;
    out.push({ name: /^\w+$/.test(pattern) ? pattern : `arg${out.length}`, kind: 'positional', annotation: p.childForFieldName('type')?.text ?? null, defaultValue: null });
  }
  return out;
}

const STATEMENTS = new Set(['let_declaration', 'expression_statement', 'return_expression', 'if_expression', 'match_expression', 'for_expression', 'while_expression', 'loop_expression']);

function countStatements(body: Node): number {
  let n = 0;
  const visit = (x: Node): void => {
    if (STATEMENTS.has(x.type)) n += 1;
    if (x.type === 'closure_expression' || x.type === 'function_item') return;
    for (const child of named(x)) visit(child);
  };
  const children = named(body);
  for (const child of children) visit(child);
  // the block's tail expression (`a + b`, the value it returns) is a statement of its own
  const tail = children.at(-1);
  if (tail !== undefined && !STATEMENTS.has(tail.type) && !tail.type.endsWith('_item')) n += 1;
  return Math.max(n, 1);
}

/** The name a call expression calls: `f`, `Point::new`, `p.shift` (a method by its field). */
function calleeOf(call: Node): string | null {
  const fn = call.childForFieldName('function');
  if (fn === null) return null;
  if (fn.type === 'identifier' || fn.type === 'scoped_identifier') return fn.text.replace(/\s+/g, '');
  if (fn.type === 'field_expression') {
    const field = fn.childForFieldName('field')?.text;
    return field === undefined ? null : `${fn.childForFieldName('value')?.type === 'self' ? 'self' : '_'}.${field}`;
  }
  return null;
}

function callsIn(body: Node): string[] {
  const out: string[] = [];
  const visit = (x: Node): void => {
    if (x.type === 'call_expression') {
      const callee = calleeOf(x);
      if (callee !== null && !out.includes(callee)) out.push(callee);
    }
    for (const child of named(x)) visit(child);
  };
  visit(body);
  return out;
}

function impuritiesIn(text: string): string[] {
  const found = new Set<string>();
  for (const [pattern, kind] of IMPURITY_RULES) {
    const m = pattern.exec(text);
    if (m) found.add(`${kind}:${m[0].replace(/\($/, '')}`);
  }
  return [...found];
}

/** The caller of a call site inside a `#[cfg(test)]` module: such calls are the repository's tests'. */
export const RUST_TESTS_CALLER = '<tests>';

/** The decorator of a struct's class unit for each public constant of its type: `const-expr:crate::config::STANDARD`. */
export const CONST_DECORATOR = 'const-expr:';

/** A generic function's concrete types for its type parameters (`typevars:{"T":"&str"}`), and its parameters' types with them put in (`concrete-params:["&str"]`). */
export const TYPEVARS_DECORATOR = 'typevars:';
export const CONCRETE_PARAMS_DECORATOR = 'concrete-params:';

/** Every call of `node`, as call sites with the caller's name and the argument texts; calls inside macro token trees found by their text. */
function collectCalls(node: Node, caller: string, file: string, into: ParsedFile['calls']): void {
  const visit = (x: Node): void => {
    if (x.type === 'call_expression') {
      const callee = calleeOf(x);
      const args = x.childForFieldName('arguments');
      if (callee !== null && args !== null) {
        const argumentNodes = named(args);
        const site: CallSite = { file, line: lineOf(x), caller, argumentTexts: argumentNodes.map((a) => a.text), allLiteral: argumentNodes.every(isLiteral) };
        into.push({ callee, column: x.startPosition.column, site });
      }
    }
    if (x.type === 'token_tree' && x.parent?.type === 'macro_invocation') {
      for (const found of callsInText(x.text)) {
        into.push({ callee: found.callee, column: x.startPosition.column + found.offset, site: { file, line: lineOf(x) + (x.text.slice(0, found.offset).match(/\n/g) ?? []).length, caller, argumentTexts: found.args, allLiteral: found.args.every(isLiteralText) } });
      }
      return;
    }
    for (const child of named(x)) visit(child);
  };
  visit(node);
}

/** Calls written in a macro's tokens (`assert_eq!(slugify("a b"), "a-b")`): each `name(…)` with its top-level arguments' texts. */
export function callsInText(text: string): { callee: string; offset: number; args: string[] }[] {
  const out: { callee: string; offset: number; args: string[] }[] = [];
  const pattern = /(?<![\w!.])((?:[A-Za-z_]\w*::)*[A-Za-z_]\w*)\s*\(/g;
  for (let m = pattern.exec(text); m !== null; m = pattern.exec(text)) {
    const start = m.index + m[0].length;
    const args: string[] = [];
    let depth = 0;
    let from = start;
    let i = start;
    let closed = false;
    for (; i < text.length; i += 1) {
      const ch = text[i]!;
      if (ch === '"') {
        for (i += 1; i < text.length && text[i] !== '"'; i += text[i] === '\\' ? 2 : 1);
        continue;
      }
      if (ch === '(' || ch === '[' || ch === '{') depth += 1;
      else if (ch === ')' || ch === ']' || ch === '}') {
        if (depth === 0) {
          closed = ch === ')';
          break;
        }
        depth -= 1;
      } else if (ch === ',' && depth === 0) {
        args.push(text.slice(from, i).trim());
        from = i + 1;
      }
    }
    if (!closed) continue;
    const last = text.slice(from, i).trim();
    if (last !== '') args.push(last);
    if (/^(?:Some|Ok|Err|vec|format|assert|println)$/.test(m[1]!)) continue;
    out.push({ callee: m[1]!, offset: m.index, args });
  }
  return out;
}

const LITERAL_TYPES = new Set(['integer_literal', 'float_literal', 'string_literal', 'raw_string_literal', 'char_literal', 'boolean_literal']);

/** A literal argument: a number, string, char or bool (maybe negated), a reference to one, an array, tuple or `vec![…]` of them, `None`, `Some(…)` of one. */
function isLiteral(node: Node): boolean {
  if (LITERAL_TYPES.has(node.type)) return true;
  if (node.type === 'unary_expression' && node.text.startsWith('-')) return named(node).every(isLiteral);
  if (node.type === 'reference_expression' || node.type === 'array_expression' || node.type === 'tuple_expression') return named(node).filter((c) => c.type !== 'mutable_specifier').every(isLiteral);
  if (node.type === 'identifier') return node.text === 'None';
  if (node.type === 'macro_invocation') return /^vec!\s*\[/.test(node.text) && isLiteralText(node.text);
  if (node.type === 'call_expression') return node.childForFieldName('function')?.text === 'Some' && named(node.childForFieldName('arguments')!).every(isLiteral);
  return false;
}

/** The same test on an argument's text (calls inside macros have no tree). */
export function isLiteralText(text: string): boolean {
  const literal = String.raw`-?\d[\d_]*(?:\.\d+)?(?:e-?\d+)?(?:[iuf]\d+|[iu]size)?|"(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.[^']*)'|true|false`;
  const item = new RegExp(`^(?:${literal})$`);
  const t = text.trim();
  if (item.test(t) || t === 'None') return true;
  const inner = /^(?:&(?:mut\s+)?|vec!\s*|Some\s*)?[[(](.*)[\])]$/s.exec(t);
  if (inner === null) return false;
  const parts = splitTopLevel(inner[1]!);
  return parts.every((p) => p === '' || isLiteralText(p));
}

function splitTopLevel(text: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let from = 0;
  for (let i = 0; i < text.length; i += 1) {
    const ch = text[i]!;
    if (ch === '"') {
      for (i += 1; i < text.length && text[i] !== '"'; i += text[i] === '\\' ? 2 : 1);
      continue;
    }
    if ('([{'.includes(ch)) depth += 1;
    else if (')]}'.includes(ch)) depth -= 1;
    else if (ch === ',' && depth === 0) {
      out.push(text.slice(from, i).trim());
      from = i + 1;
    }
  }
  out.push(text.slice(from).trim());
  return out;
}
