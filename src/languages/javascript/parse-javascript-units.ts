import { readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join, posix } from 'node:path';
import type { Node } from 'web-tree-sitter';
import type { ParseOptions, ParseProblem, ParseProblemCode, ParseResult } from '../language-adapter.js';
import type { CallSite, RepoSnapshot, Unit } from '../construction-types.js';
import { readJavaScriptLayout } from './javascript-layout.js';
import { isJavaScriptTestFile, javascriptModuleName, type ModuleFormat, moduleFormatOf, SOURCE_EXTENSIONS } from './javascript-files.js';
import { createJavaScriptParser, grammarOf, loadJavaScriptGrammars } from './javascript-grammars.js';
import {
  callsIn, childrenOf, codeLinesOf, endLineOf, FUNCTION_TYPES, hasToken, impuritiesIn, isLiteral, jsDocBefore, lineOf, namedChildrenOf,
  readParams, returnAnnotationOf, statementCountOf,
} from './javascript-syntax.js';
import { firstErrorLine } from '../tree-sitter-nodes.js';
import { attachCallSites as attachSortedCallSites, compareStrings } from '../call-sites.js';

/** What `parseJavaScriptUnits` finds: units and problems, and how Node loads each source file. */
export interface JavaScriptParseResult extends ParseResult {
  /** Repository-relative source path → `esm` | `cjs` (Node's rule: extension, then the nearest package.json `type`). */
  moduleFormats: Record<string, ModuleFormat>;
}

/** A unit before call sites are attached, with what resolving calls to it needs. */
interface FoundUnit {
  unit: Unit;
  /** The name the defining file binds it to locally (`wrap`, `Wrapper.fill`, `obj.m`). */
  localName: string;
}

/** A call found in some file, before resolution to a unit. */
interface RawCall {
  callee: string;
  site: CallSite;
  column: number;
  ownerClass: string | null;
}

/** Where a local name of a file comes from: another file's export (`name` is the export path, `*` the namespace). */
interface ImportBinding {
  file: string;
  name: string;
}

interface ParsedFile {
  file: string;
  calls: RawCall[];
  imports: Map<string, ImportBinding>;
  /** Local name → export path, for names this file exports. */
  exports: Map<string, string>;
}

/**
 * Parses every JavaScript/TypeScript source of the snapshot (`.js .mjs .cjs .ts .mts .cts .jsx
 * .tsx`; `.d.ts` and node_modules/ skipped, and built copies: `readJavaScriptLayout` says which
 * files are sources, asking this parser how many units a file gives where its rules need it). Units come from library files (not
 * tests), call sites from all files. Only what the module exports is a unit, since the harness and
 * the subject reach a target through the module's exports: exported functions (declarations and
 * `const f = (…) => …` / function expressions), methods of exported classes (static methods,
 * getters and setters included; constructors and `#private` methods not), and methods of exported
 * object literals (`export default {…}`, `module.exports = {…}`, `export const obj = {…}`).
 *
 * A unit's qualname is its path from the module's exports: `wrap`, `default` (a default-exported
 * function), `Wrapper.fill`, `default.m`, `obj.m`; a CommonJS `module.exports = function` is
 * `default`. Its module is the repository-relative path without extension (`src/text`), or with it
 * where a twin would be found first (`javascriptModuleName`).
 * `decorators` holds the method modifiers that change how it is called (`static`, `get`, `set`)
 * and any `@decorator` texts.
 */
export async function parseJavaScriptUnits(snapshot: RepoSnapshot, options: ParseOptions = {}): Promise<JavaScriptParseResult> {
  await loadJavaScriptGrammars();
  const fileSet = new Set(snapshot.files);
  const texts = new Map<string, string | undefined>();
  const read = (file: string): string | undefined => {
    if (!texts.has(file)) texts.set(file, readText(join(snapshot.dir, file)));
    return texts.get(file);
  };
  const outcomes = new Map<string, FileOutcome>();
  const parseFile = (file: string): FileOutcome => {
    let outcome = outcomes.get(file);
    if (outcome === undefined) {
      options.signal?.throwIfAborted();
      outcome = parseOneFile(file, read(file), fileSet);
      outcomes.set(file, outcome);
    }
    return outcome;
  };
  const layout = readJavaScriptLayout({ files: snapshot.files, read, unitCount: (file) => parseFile(file).units.length });
  const sources = layout.sources;
  const problems: ParseProblem[] = [];
  const found: FoundUnit[] = [];
  const parsed: ParsedFile[] = [];
  for (const file of sources) {
    const outcome = parseFile(file);
    if (outcome.problem !== null) problems.push(outcome.problem);
    if (outcome.parsed !== null) parsed.push(outcome.parsed);
    found.push(...outcome.units);
  }
  const units = dropRedefinitions(found, problems);
  attachCallSites(units, parsed);
  // an internal unit's inputs come from its entry's call sites
  const byId = new Map(units.map((u) => [u.unit.id, u.unit] as const));
  for (const { unit } of units) if (unit.via !== undefined) unit.via.callSites = byId.get(unit.via.id)?.callSites ?? [];
  units.sort((a, b) => compare(a.unit.file, b.unit.file) || a.unit.startLine - b.unit.startLine || compare(a.unit.qualname, b.unit.qualname));
  problems.sort((a, b) => compare(a.file, b.file));
  return { units: units.map((u) => u.unit), problems, moduleFormats: await moduleFormats(snapshot, sources) };
}

/** One file parsed: what it gives, or the problem that kept it from giving anything. */
interface FileOutcome {
  parsed: ParsedFile | null;
  /** Its units (none for a test file). */
  units: FoundUnit[];
  problem: ParseProblem | null;
}

/** A file's text, or undefined when it is missing or not UTF-8. */
function readText(path: string): string | undefined {
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(readFileSync(path));
  } catch {
    return undefined;
  }
}

function parseOneFile(file: string, source: string | undefined, fileSet: ReadonlySet<string>): FileOutcome {
  const failed = (code: ParseProblemCode, message: string): FileOutcome => ({ parsed: null, units: [], problem: { file, code, message } });
  if (source === undefined) return failed('not-utf8', 'not valid UTF-8 text; file skipped');
  const parser = createJavaScriptParser(grammarOf(file));
  const tree = parser.parse(source);
  try {
    if (tree === null) return failed('parse-error', 'the parser gave no tree; file skipped');
    const root = tree.rootNode;
    if (root.hasError) return failed('syntax-error', `syntax error at line ${firstErrorLine(root)}; file skipped`);
    const reader = new FileReader(file, fileSet);
    reader.read(root);
    return {
      parsed: { file, calls: reader.calls, imports: reader.imports, exports: reader.exportNames },
      units: isJavaScriptTestFile(file) ? [] : reader.units(),
      problem: null,
    };
  } finally {
    tree?.delete();
    parser.delete();
  }
}

async function moduleFormats(snapshot: RepoSnapshot, sources: readonly string[]): Promise<Record<string, ModuleFormat>> {
  const types = new Map<string, string | undefined>();
  for (const file of snapshot.files) {
    if (file !== 'package.json' && !file.endsWith('/package.json')) continue;
    if (/(?:^|\/)node_modules\//.test(file)) continue;
    let type: string | undefined;
    try {
      const parsed = JSON.parse(await readFile(join(snapshot.dir, file), 'utf8')) as { type?: unknown };
      type = typeof parsed.type === 'string' ? parsed.type : undefined;
    } catch {
      type = undefined; // an unreadable package.json: Node would fail too; CommonJS is its default
    }
    types.set(posix.dirname(file) === '.' ? '' : posix.dirname(file), type);
  }
  const out: Record<string, ModuleFormat> = {};
  for (const file of sources) out[file] = moduleFormatOf(file, types);
  return out;
}

/** A property name as written, without quotes (`m`, `'my-key'` → `my-key`); null for computed names. */
function propertyName(node: Node | null): string | null {
  if (node === null) return null;
  if (node.type === 'property_identifier' || node.type === 'identifier') return node.text;
  if (node.type === 'string') return node.text.slice(1, -1);
  if (node.type === 'number') return node.text;
  return null;
}

/** `a`, `a.b.c` for identifier/member chains; null otherwise. */
function dottedName(node: Node): string | null {
  if (node.type === 'identifier' || node.type === 'this') return node.text;
  if (node.type === 'member_expression') {
    const object = node.childForFieldName('object');
    const property = node.childForFieldName('property');
    if (object === null || property === null || property.type === 'private_property_identifier') return null;
    const base = dottedName(object);
    return base === null ? null : `${base}.${property.text}`;
  }
  return null;
}

/** The export path an assignment target names: `default` for `module.exports`, `x` for `exports.x` / `module.exports.x`; else null. */
function commonJsExportPath(left: Node): string | null {
  const target = dottedName(left);
  if (target === 'module.exports') return 'default';
  if (target !== null && /^(module\.)?exports\.[\w$]+$/.test(target)) return target.slice(target.lastIndexOf('.') + 1);
  return null;
}

/** Reads one file's top level: local definitions, what it exports under which names, its imports, and its calls. */
class FileReader {
  readonly calls: RawCall[] = [];
  readonly imports = new Map<string, ImportBinding>();
  /** Local name → export path. */
  readonly exportNames = new Map<string, string>();
  /** Local name → definition (function node, class node or object node) and its statement. */
  private readonly locals = new Map<string, { node: Node; statement: Node }>();
  /** Definitions exported directly under a path, not through a local name (`export default {…}`, `module.exports.f = …`). */
  private readonly direct: { path: string; node: Node; statement: Node }[] = [];
  private readonly module: string;

  constructor(
    private readonly file: string,
    private readonly fileSet: ReadonlySet<string>,
  ) {
    this.module = javascriptModuleName(file, fileSet);
  }

  read(root: Node): void {
    for (const statement of namedChildrenOf(root)) this.readStatement(statement);
    this.readCalls(root, '<module>', null);
  }

  private readStatement(statement: Node): void {
    if (statement.type === 'export_statement') {
      this.readExport(statement);
      return;
    }
    this.readDeclaration(statement, statement, null);
    if (statement.type === 'import_statement') this.readImport(statement);
    if (statement.type === 'expression_statement') this.readCommonJsExport(statement);
    for (const declarator of statement.type === 'lexical_declaration' || statement.type === 'variable_declaration' ? namedChildrenOf(statement) : []) {
      this.readRequire(declarator);
    }
  }

  /** Local definitions in a declaration; `exportAs` names the export path when the declaration is exported. */
  private readDeclaration(node: Node, statement: Node, exportAs: 'name' | 'default' | null): void {
    const define = (name: string, value: Node): void => {
      this.locals.set(name, { node: value, statement });
      if (exportAs === 'name') this.exportAs(name, name);
      if (exportAs === 'default') this.exportAs(name, 'default');
    };
    switch (node.type) {
      case 'function_declaration':
      case 'generator_function_declaration':
      case 'class_declaration':
      case 'abstract_class_declaration': {
        const name = node.childForFieldName('name')?.text;
        if (name !== undefined) define(name, node);
        else if (exportAs === 'default') this.direct.push({ path: 'default', node, statement });
        return;
      }
      case 'lexical_declaration':
      case 'variable_declaration':
        for (const declarator of namedChildrenOf(node)) {
          if (declarator.type !== 'variable_declarator') continue;
          const name = declarator.childForFieldName('name');
          const value = declarator.childForFieldName('value');
          if (name?.type === 'identifier' && value !== null && isDefinitionValue(value)) define(name.text, unwrapValue(value));
        }
        return;
      default:
        return;
    }
  }

  /**
   * Records that local `name` is exported as `path`. A function exported both by name and as the
   * default (`export function dedent…; export default dedent`) keeps its name: the name is what
   * its callers and the module's CommonJS build reach it by.
   */
  private exportAs(name: string, path: string): void {
    const current = this.exportNames.get(name);
    if (path === 'default' && current !== undefined && current !== 'default') return;
    this.exportNames.set(name, path);
  }

  private readExport(statement: Node): void {
    const isDefault = hasToken(statement, 'default');
    const declaration = statement.childForFieldName('declaration');
    if (declaration !== null) {
      this.readDeclaration(declaration, statement, isDefault ? 'default' : 'name');
      return;
    }
    const value = statement.childForFieldName('value');
    if (isDefault && value !== null) {
      if (value.type === 'identifier') this.exportAs(value.text, 'default');
      else if (isDefinitionValue(value)) this.direct.push({ path: 'default', node: unwrapValue(value), statement });
      return;
    }
    if (statement.childForFieldName('source') !== null) return; // re-exports define nothing here
    for (const clause of namedChildrenOf(statement)) {
      if (clause.type !== 'export_clause') continue;
      for (const spec of namedChildrenOf(clause)) {
        const name = spec.childForFieldName('name');
        const alias = spec.childForFieldName('alias');
        if (name !== null) this.exportAs(name.text, propertyName(alias) ?? name.text);
      }
    }
  }

  /**
   * `module.exports = …`, `module.exports.x = …`, `exports.x = …`, and chains of them
   * (`exports.parse = exports.decode = decode`): every name of a chain exports the value at its end.
   * That value is one unit, named by the export that matches its local name (`decode`), else by the
   * named export nearest to it (`b` in `module.exports.a = exports.b = function () {…}`, the name its
   * calls are attributed to), else `default`.
   */
  private readCommonJsExport(statement: Node): void {
    let assignment: Node | undefined = namedChildrenOf(statement)[0];
    const paths: string[] = [];
    let right: Node | null = null;
    while (assignment?.type === 'assignment_expression') {
      const left = assignment.childForFieldName('left');
      right = assignment.childForFieldName('right');
      if (left === null || right === null) return;
      const path = commonJsExportPath(left);
      if (path !== null) paths.push(path);
      assignment = right;
    }
    if (right === null || paths.length === 0) return;
    const local = right.type === 'identifier' ? right.text : null;
    const path = paths.find((p) => p === local) ?? [...paths].reverse().find((p) => p !== 'default') ?? 'default';
    if (paths.includes('default') && right.type === 'object') {
      // module.exports = { a, b: c, m() {} }: its members are the module's exports
      for (const member of namedChildrenOf(right)) {
        if (member.type === 'shorthand_property_identifier') this.exportNames.set(member.text, member.text);
        else if (member.type === 'pair') {
          const key = propertyName(member.childForFieldName('key'));
          const value = member.childForFieldName('value');
          if (key === null || value === null) continue;
          if (value.type === 'identifier') this.exportNames.set(value.text, key);
          else if (isDefinitionValue(value)) this.direct.push({ path: key, node: unwrapValue(value), statement });
        } else if (member.type === 'method_definition') {
          const key = propertyName(member.childForFieldName('name'));
          if (key !== null) this.direct.push({ path: key, node: member, statement: member });
        }
      }
      return;
    }
    if (right.type === 'identifier') this.exportNames.set(right.text, path);
    else if (isDefinitionValue(right)) this.direct.push({ path, node: unwrapValue(right), statement });
  }

  private readImport(statement: Node): void {
    const source = statement.childForFieldName('source');
    const from = source === null ? null : this.resolveSpecifier(source.text.slice(1, -1));
    if (from === null) return;
    for (const clause of namedChildrenOf(statement)) {
      if (clause.type !== 'import_clause') continue;
      for (const part of namedChildrenOf(clause)) {
        if (part.type === 'identifier') this.imports.set(part.text, { file: from, name: 'default' });
        else if (part.type === 'namespace_import') {
          const local = namedChildrenOf(part)[0];
          if (local !== undefined) this.imports.set(local.text, { file: from, name: '*' });
        } else if (part.type === 'named_imports') {
          for (const spec of namedChildrenOf(part)) {
            const name = spec.childForFieldName('name');
            const alias = spec.childForFieldName('alias');
            if (name !== null) this.imports.set((alias ?? name).text, { file: from, name: propertyName(name) ?? name.text });
          }
        }
      }
    }
  }

  /** `const m = require('./m')`, `const { a, b: c } = require('./m')`. */
  private readRequire(declarator: Node): void {
    const name = declarator.childForFieldName('name');
    const value = declarator.childForFieldName('value');
    if (name === null || value?.type !== 'call_expression' || value.childForFieldName('function')?.text !== 'require') return;
    const arg = namedChildrenOf(value.childForFieldName('arguments') ?? value)[0];
    if (arg?.type !== 'string') return;
    const from = this.resolveSpecifier(arg.text.slice(1, -1));
    if (from === null) return;
    if (name.type === 'identifier') this.imports.set(name.text, { file: from, name: '*' });
    if (name.type === 'object_pattern') {
      for (const part of namedChildrenOf(name)) {
        if (part.type === 'shorthand_property_identifier_pattern') this.imports.set(part.text, { file: from, name: part.text });
        if (part.type === 'pair_pattern') {
          const key = propertyName(part.childForFieldName('key'));
          const local = part.childForFieldName('value');
          if (key !== null && local?.type === 'identifier') this.imports.set(local.text, { file: from, name: key });
        }
      }
    }
  }

  /** A relative specifier to a snapshot file (`./m.js` may name `m.ts`, `./m` may name `m.js` or `m/index.js`); null for packages. */
  private resolveSpecifier(spec: string): string | null {
    if (!spec.startsWith('./') && !spec.startsWith('../')) return null;
    const base = posix.normalize(posix.join(posix.dirname(this.file), spec));
    const stem = base.replace(/\.(?:[mc]?js|jsx)$/, '');
    const candidates = [base, ...SOURCE_EXTENSIONS.map((e) => stem + e), ...SOURCE_EXTENSIONS.map((e) => `${base}/index${e}`)];
    return candidates.find((c) => this.fileSet.has(c)) ?? null;
  }

  /** Every call in `node`, with the qualname of the unit it sits in. */
  private readCalls(node: Node, caller: string, ownerClass: string | null): void {
    for (const child of namedChildrenOf(node)) {
      if (child.type === 'call_expression') {
        const callee = child.childForFieldName('function');
        const args = child.childForFieldName('arguments');
        const name = callee === null ? null : dottedName(callee);
        if (name !== null && args !== null && args.type === 'arguments') {
          const argNodes = namedChildrenOf(args);
          this.calls.push({
            callee: name,
            column: child.startPosition.column,
            ownerClass,
            site: { file: this.file, line: lineOf(child), caller, argumentTexts: argNodes.map((a) => a.text), allLiteral: argNodes.every(isLiteral) },
          });
        }
      }
      let nextCaller = caller;
      let nextOwner = ownerClass;
      if (child.type === 'class_declaration' || child.type === 'class') {
        nextOwner = child.childForFieldName('name')?.text ?? ownerClass;
      } else if (FUNCTION_TYPES.has(child.type) && caller === '<module>') {
        nextCaller = this.localNameOf(child) ?? caller;
      }
      this.readCalls(child, nextCaller, nextOwner);
    }
  }

  /** The local name of a top-level function or method node (`f`, `C.m`, `obj.m`), or null. */
  private localNameOf(fn: Node): string | null {
    if (fn.type === 'method_definition') {
      const name = propertyName(fn.childForFieldName('name'));
      const owner = fn.parent?.parent;
      const ownerName = owner?.type === 'class_declaration' || owner?.type === 'class' ? owner.childForFieldName('name')?.text : undefined;
      return name === null ? null : ownerName === undefined ? name : `${ownerName}.${name}`;
    }
    const named = fn.childForFieldName('name')?.text;
    if (named !== undefined) return named;
    const parent = fn.parent;
    if (parent?.type === 'variable_declarator') return parent.childForFieldName('name')?.text ?? null;
    if (parent?.type === 'pair') return propertyName(parent.childForFieldName('key'));
    if (parent?.type === 'assignment_expression') {
      // exports.total = (…) => …: the name it is exported under
      const target = parent.childForFieldName('left');
      const name = target === null ? null : dottedName(target);
      return name === null ? null : name === 'module.exports' ? 'default' : name.slice(name.lastIndexOf('.') + 1);
    }
    return null;
  }

  /** The units of this file: everything reachable from its exports. */
  units(): FoundUnit[] {
    const out: FoundUnit[] = [];
    const seen = new Set<Node['id']>();
    const add = (path: string, localName: string, node: Node, statement: Node): void => {
      if (seen.has(node.id)) return;
      seen.add(node.id);
      if (FUNCTION_TYPES.has(node.type)) {
        out.push({ unit: this.makeUnit(path, node, statement, 'function'), localName });
        return;
      }
      if (node.type === 'class_declaration' || node.type === 'class' || node.type === 'abstract_class_declaration') {
        const body = node.childForFieldName('body');
        // the class itself, as Python's parser gives one: what its methods' instances are built from
        out.push({ unit: this.makeClassUnit(path, node, statement), localName });
        for (const member of body === null ? [] : namedChildrenOf(body)) {
          if (member.type !== 'method_definition') continue;
          const nameNode = member.childForFieldName('name');
          const name = propertyName(nameNode);
          if (name === null || name === 'constructor' || nameNode?.type === 'private_property_identifier') continue;
          out.push({ unit: this.makeUnit(`${path}.${name}`, member, member, 'method'), localName: `${localName}.${name}` });
        }
        return;
      }
      if (node.type === 'object') {
        for (const member of namedChildrenOf(node)) {
          if (member.type === 'method_definition') {
            const name = propertyName(member.childForFieldName('name'));
            if (name !== null) out.push({ unit: this.makeUnit(`${path}.${name}`, member, member, 'method'), localName: `${localName}.${name}` });
          } else if (member.type === 'pair') {
            const name = propertyName(member.childForFieldName('key'));
            const value = member.childForFieldName('value');
            if (name !== null && value !== null && FUNCTION_TYPES.has(value.type)) {
              out.push({ unit: this.makeUnit(`${path}.${name}`, value, member, 'method'), localName: `${localName}.${name}` });
            }
          }
        }
      }
    };
    for (const [local, path] of this.exportNames) {
      const definition = this.locals.get(local);
      if (definition !== undefined) add(path, local, definition.node, definition.statement);
    }
    for (const { path, node, statement } of this.direct) add(path, path, node, statement);
    out.push(...this.internalUnits(out, seen));
    return out;
  }

  /**
   * Functions at the top level of the module that it does not export, but that an exported function
   * or method calls, directly or through other such functions: units the harness reaches through
   * that caller (`via`), the nearest one (fewest calls away; ties in source order). A function no
   * export reaches is dead code as far as a caller of the package can tell: no unit.
   */
  private internalUnits(exported: readonly FoundUnit[], seen: ReadonlySet<Node['id']>): FoundUnit[] {
    const ids = new Set(exported.map((f) => f.unit.id));
    const internal = new Map<string, Unit>();
    for (const [name, { node, statement }] of this.locals) {
      if (this.exportNames.has(name) || seen.has(node.id) || !FUNCTION_TYPES.has(node.type)) continue;
      const unit = this.makeUnit(name, node, statement, 'function');
      if (!ids.has(unit.id)) internal.set(name, unit);
    }
    if (internal.size === 0) return [];
    const entries = exported.filter((f) => f.unit.kind !== 'class').map((f) => f.unit).sort((a, b) => a.startLine - b.startLine);
    const reached = new Map<string, Unit>();
    let frontier = entries.map((entry) => ({ entry, calls: entry.calls }));
    while (frontier.length > 0) {
      const next: { entry: Unit; calls: string[] }[] = [];
      for (const { entry, calls } of frontier) {
        for (const name of calls) {
          const unit = internal.get(name);
          if (unit === undefined || reached.has(name)) continue;
          reached.set(name, entry);
          next.push({ entry, calls: unit.calls });
        }
      }
      frontier = next;
    }
    const out: FoundUnit[] = [];
    for (const [name, entry] of reached) {
      const unit = internal.get(name);
      if (unit === undefined) continue;
      unit.via = {
        id: entry.id,
        kind: entry.kind,
        qualname: entry.qualname,
        signature: entry.signature,
        params: entry.params,
        returnAnnotation: entry.returnAnnotation,
        docstring: entry.docstring,
        decorators: entry.decorators,
        isAsync: entry.isAsync,
        callSites: [],
      };
      out.push({ unit, localName: name });
    }
    return out;
  }

  /**
   * A class as a unit of kind `class`: its constructor's parameters and the class's own lines. It is
   * never a target itself (select drops it); it tells the stages that its methods have a class whose
   * instances the recorder builds.
   */
  private makeClassUnit(qualname: string, node: Node, statement: Node): Unit {
    const body = node.childForFieldName('body') ?? node;
    const constructor = namedChildrenOf(body).find((m) => m.type === 'method_definition' && propertyName(m.childForFieldName('name')) === 'constructor');
    const signature = statement.text.slice(0, Math.max(0, body.startIndex - statement.startIndex)).trim();
    return {
      ...this.placeOf(qualname, 'class', statement, body),
      signature,
      params: constructor === undefined ? [] : readParams(constructor),
      returnAnnotation: null,
      docstring: jsDocBefore(firstDecorator(statement)),
      decorators: [],
      statementCount: 0,
      codeLines: codeLinesOf(body),
      calls: [],
      callSites: [],
      isAsync: false,
      isGenerator: false,
      impurities: [],
    };
  }

  /** Where a unit is: its id and names, the lines of its definition and of its body. */
  private placeOf(qualname: string, kind: Unit['kind'], statement: Node, body: Node): Pick<Unit, 'id' | 'kind' | 'module' | 'qualname' | 'file' | 'startLine' | 'endLine' | 'bodyStartLine' | 'bodyEndLine'> {
    const { bodyStartLine, bodyEndLine } = bodyLines(body);
    return {
      id: `${this.module}:${qualname}`,
      kind,
      module: this.module,
      qualname,
      file: this.file,
      startLine: lineOf(firstDecorator(statement)),
      endLine: endLineOf(statement),
      bodyStartLine,
      bodyEndLine,
    };
  }

  private makeUnit(qualname: string, fn: Node, statement: Node, kind: 'function' | 'method'): Unit {
    const body = fn.childForFieldName('body');
    const bodyNode = body ?? fn;
    const decorators: string[] = [];
    if (fn.type === 'method_definition') {
      for (const token of ['static', 'get', 'set']) if (hasToken(fn, token)) decorators.push(token);
      let prev = fn.previousNamedSibling;
      const texts: string[] = [];
      while (prev?.type === 'decorator') {
        texts.unshift(prev.text);
        prev = prev.previousNamedSibling;
      }
      for (const child of namedChildrenOf(fn)) if (child.type === 'decorator') texts.push(child.text);
      decorators.push(...texts);
    }
    const signatureEnd = body?.startIndex ?? fn.endIndex;
    const signature = statement.text.slice(0, Math.max(0, signatureEnd - statement.startIndex)).trim().replace(/\s*=>\s*$/, ' =>');
    return {
      ...this.placeOf(qualname, kind, statement, bodyNode),
      signature,
      params: readParams(fn),
      returnAnnotation: returnAnnotationOf(fn),
      docstring: jsDocBefore(firstDecorator(statement)),
      decorators,
      statementCount: statementCountOf(bodyNode),
      codeLines: codeLinesOf(bodyNode),
      calls: callsIn(bodyNode),
      callSites: [],
      isAsync: hasToken(fn, 'async'),
      isGenerator: fn.type.startsWith('generator_function') || hasToken(fn, '*'),
      impurities: impuritiesIn(bodyNode),
    };
  }
}

function firstDecorator(node: Node): Node {
  let first = node;
  let prev = node.previousNamedSibling;
  while (prev?.type === 'decorator') {
    first = prev;
    prev = prev.previousNamedSibling;
  }
  return first;
}

/**
 * The lines inside a block body's braces that hold its content: from the line after `{` (or the
 * line of `{` when the first statement shares it) to the line before `}` (or the line of `}` when
 * the last statement shares it). An expression body (`(x) => x * 2`) is its own lines.
 */
function bodyLines(body: Node): { bodyStartLine: number; bodyEndLine: number } {
  if (body.type !== 'statement_block') return { bodyStartLine: lineOf(body), bodyEndLine: endLineOf(body) };
  const open = lineOf(body);
  const close = endLineOf(body);
  const inner = childrenOf(body).filter((c) => c.type !== '{' && c.type !== '}');
  const first = inner[0];
  const last = inner[inner.length - 1];
  const start = first !== undefined && lineOf(first) === open ? open : Math.min(open + 1, close);
  const end = last !== undefined && endLineOf(last) === close ? close : Math.max(close - 1, start);
  return { bodyStartLine: start, bodyEndLine: end };
}

function isDefinitionValue(node: Node): boolean {
  const inner = unwrapValue(node);
  return FUNCTION_TYPES.has(inner.type) || inner.type === 'class' || inner.type === 'object';
}

/** `(expr)`, `expr as T`, `expr satisfies T` → expr. */
function unwrapValue(node: Node): Node {
  let current = node;
  while (['parenthesized_expression', 'as_expression', 'satisfies_expression'].includes(current.type)) {
    const inner = namedChildrenOf(current)[0];
    if (inner === undefined) break;
    current = inner;
  }
  return current;
}

/**
 * One unit per id. A getter and a setter of the same name share it: the first stands for the pair.
 * Any other name defined twice is ambiguous, so none of its copies is a unit, and a problem says so.
 */
function dropRedefinitions(found: FoundUnit[], problems: ParseProblem[]): FoundUnit[] {
  const groups = new Map<string, FoundUnit[]>();
  for (const f of found) groups.set(f.unit.id, [...(groups.get(f.unit.id) ?? []), f]);
  const kept: FoundUnit[] = [];
  for (const group of groups.values()) {
    const first = group[0];
    if (first === undefined) continue;
    const accessors = group.every((g) => g.unit.decorators.includes('get') || g.unit.decorators.includes('set'));
    if (group.length === 1 || (group.length === 2 && accessors)) {
      kept.push(first);
      continue;
    }
    problems.push({
      file: first.unit.file,
      code: 'redefined',
      message: `'${first.unit.qualname}' is defined ${group.length} times (lines ${group.map((g) => g.unit.startLine).join(', ')}); none is a unit`,
    });
  }
  return kept;
}

/** Resolves calls (same file by local name or `this.m`, other files through imports and requires) to units. */
function attachCallSites(units: FoundUnit[], parsed: ParsedFile[]): void {
  const byLocal = new Map<string, Unit>();
  const byExport = new Map<string, Unit>();
  for (const { unit, localName } of units) {
    byLocal.set(`${unit.file}\0${localName}`, unit);
    byExport.set(`${unit.file}\0${unit.qualname}`, unit);
  }
  attachSortedCallSites(parsed, (call, file) => resolveCall(call, file, byLocal, byExport));
}

function resolveCall(call: RawCall, file: ParsedFile, byLocal: Map<string, Unit>, byExport: Map<string, Unit>): Unit | undefined {
  const parts = call.callee.split('.');
  if (parts[0] === 'this' && parts.length === 2 && call.ownerClass !== null) return byLocal.get(`${file.file}\0${call.ownerClass}.${parts[1] ?? ''}`);
  const head = parts[0] ?? '';
  const binding = file.imports.get(head);
  if (binding !== undefined) {
    const rest = parts.slice(1);
    const path = binding.name === '*' ? rest.join('.') : [binding.name, ...rest].join('.');
    return byExport.get(`${binding.file}\0${path}`) ?? (binding.name === '*' ? byExport.get(`${binding.file}\0default.${path}`) : undefined);
  }
  return byLocal.get(`${file.file}\0${call.callee}`);
}

const compare = compareStrings;
