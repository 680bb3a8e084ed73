import type { Node } from 'web-tree-sitter';
import type { Param, Unit } from '../construction-types.js';
import type { ImportTable } from './parse-imports.js';
import { findImpurities } from './parse-impurities.js';
import { readDataclassFields, readParams } from './parse-params.js';
import { childrenOf, cleandoc, dottedName, endLineOf, lineOf, namedChildrenOf, stringNodeValue } from './parse-syntax.js';

/** Where the definitions being read come from. */
export interface DefinitionContext {
  file: string;
  module: string;
  imports: ImportTable;
}

/** Blocks of module- or class-level compound statements (`if`, `try`, `with`): definitions in them are still attributes. */
const TRANSPARENT_STATEMENTS = new Set(['if_statement', 'try_statement', 'with_statement']);
const TRANSPARENT_CLAUSES = new Set(['elif_clause', 'else_clause', 'except_clause', 'except_group_clause', 'finally_clause']);

/**
 * Lists the functions, methods and classes of a parsed module: module-level definitions, classes nested
 * in classes and their methods; functions nested in functions are part of their parent's body.
 * Units come with empty `callSites`; the repository-wide pass fills them.
 */
export function readDefinitions(root: Node, context: DefinitionContext): Unit[] {
  const units: Unit[] = [];
  walkScope(root, [], context, units);
  return units;
}

function walkScope(scope: Node, classPath: string[], context: DefinitionContext, units: Unit[]): void {
  for (const statement of namedChildrenOf(scope)) {
    const definition = statement.type === 'decorated_definition' ? statement.childForFieldName('definition') : statement;
    if (definition === null) continue;
    if (definition.type === 'function_definition') {
      units.push(readFunction(statement, definition, classPath, context));
    } else if (definition.type === 'class_definition') {
      const name = definition.childForFieldName('name')?.text ?? '';
      units.push(readClass(statement, definition, classPath, context));
      const body = definition.childForFieldName('body');
      if (body !== null) walkScope(body, [...classPath, name], context, units);
    } else if (TRANSPARENT_STATEMENTS.has(statement.type)) {
      for (const block of transparentBlocks(statement)) walkScope(block, classPath, context, units);
    }
  }
}

function transparentBlocks(statement: Node): Node[] {
  const blocks: Node[] = [];
  for (const child of childrenOf(statement)) {
    if (child.type === 'block') blocks.push(child);
    else if (TRANSPARENT_CLAUSES.has(child.type)) blocks.push(...transparentBlocks(child));
  }
  return blocks;
}

function decoratorsOf(outer: Node): string[] {
  if (outer.type !== 'decorated_definition') return [];
  return namedChildrenOf(outer)
    .filter((c) => c.type === 'decorator')
    .map((d) => d.text.replace(/^@\s*/, '').trim());
}

/** The docstring statement: a body's first statement when it is a lone string literal. */
function docstringStatement(body: Node | null): Node | null {
  const first = body === null ? undefined : namedChildrenOf(body)[0];
  if (first === undefined || first.type !== 'expression_statement') return null;
  const only = namedChildrenOf(first);
  const value = only[0];
  if (only.length !== 1 || value === undefined) return null;
  if (value.type === 'string' && !/^[a-zA-Z]*[fFbB]/.test(value.text)) return first;
  if (value.type === 'concatenated_string') return first;
  return null;
}

/** The `def ...:` / `class ...:` header, up to and including its colon. */
function headerText(definition: Node, body: Node | null): string {
  const colons = childrenOf(definition).filter((c) => c.type === ':' && (body === null || c.endIndex <= body.startIndex));
  const colon = colons.at(-1);
  const end = colon === undefined ? (body?.startIndex ?? definition.endIndex) : colon.endIndex;
  return definition.text.slice(0, end - definition.startIndex).trimEnd();
}

interface BodyLayout {
  docstring: string | null;
  bodyStartLine: number;
  bodyEndLine: number;
  docNode: Node | null;
}

function bodyLayout(definition: Node, body: Node | null): BodyLayout {
  const docNode = docstringStatement(body);
  const docstring = docNode === null ? null : cleandoc(stringNodeValue(namedChildrenOf(docNode)[0] ?? docNode));
  if (body === null) {
    const line = endLineOf(definition);
    return { docstring, bodyStartLine: line, bodyEndLine: line, docNode };
  }
  const bodyEndLine = endLineOf(body);
  if (docNode !== null) {
    // comments between the docstring and the first statement belong to the implementation
    const after = body.namedChildren.filter((c): c is Node => c !== null && c.startIndex >= docNode.endIndex)[0];
    const bodyStartLine = after === undefined ? endLineOf(docNode) + 1 : lineOf(after);
    return { docstring, bodyStartLine, bodyEndLine: after === undefined ? endLineOf(docNode) : bodyEndLine, docNode };
  }
  // a comment before the first statement is a child of the definition, not of the block
  const leadingComment = childrenOf(definition).find((c) => c.type === 'comment' && c.startIndex < body.startIndex && c.startPosition.row > definition.startPosition.row);
  return { docstring, bodyStartLine: leadingComment === undefined ? lineOf(body) : lineOf(leadingComment), bodyEndLine, docNode };
}

function isStatement(node: Node): boolean {
  return node.type.endsWith('_statement') || node.type === 'function_definition' || node.type === 'class_definition';
}

/** Statements in the body, nested blocks included, the docstring excluded. */
function countStatements(body: Node | null, docNode: Node | null): number {
  if (body === null) return 0;
  let count = 0;
  const visit = (node: Node): void => {
    if (isStatement(node) && !(docNode !== null && node.startIndex === docNode.startIndex && node.type === docNode.type)) count += 1;
    for (const child of node.namedChildren) if (child !== null) visit(child);
  };
  for (const child of body.namedChildren) if (child !== null) visit(child);
  return count;
}

/** Lines of the body holding code: comments, blank lines and the docstring left out. */
function countCodeLines(body: Node | null, docNode: Node | null): number {
  if (body === null) return 0;
  const rows = new Set<number>();
  const visit = (node: Node): void => {
    if (node.type === 'comment' || (docNode !== null && node.startIndex === docNode.startIndex && node.type === docNode.type)) return;
    if (node.childCount === 0) {
      for (let row = node.startPosition.row; row <= node.endPosition.row; row += 1) rows.add(row);
      return;
    }
    for (const child of node.children) if (child !== null) visit(child);
  };
  visit(body);
  return rows.size;
}

/** Callee names (`foo`, `self.bar`, `mod.baz`) in order of first appearance. */
function callsIn(body: Node | null): string[] {
  if (body === null) return [];
  const names = new Set<string>();
  const visit = (node: Node): void => {
    if (node.type === 'call') {
      const fn = node.childForFieldName('function');
      const name = fn === null ? null : dottedName(fn);
      if (name !== null) names.add(name);
    }
    for (const child of node.namedChildren) if (child !== null) visit(child);
  };
  visit(body);
  return [...names];
}

/** True when the body yields outside nested functions, lambdas and classes. */
function yieldsIn(body: Node | null): boolean {
  if (body === null) return false;
  const visit = (node: Node): boolean => {
    if (node.type === 'yield') return true;
    if (node.type === 'function_definition' || node.type === 'lambda' || node.type === 'class_definition') return false;
    return node.namedChildren.some((c) => c !== null && visit(c));
  };
  return body.namedChildren.some((c) => c !== null && visit(c));
}

function readFunction(outer: Node, definition: Node, classPath: string[], context: DefinitionContext): Unit {
  const name = definition.childForFieldName('name')?.text ?? '';
  const qualname = [...classPath, name].join('.');
  const body = definition.childForFieldName('body');
  const layout = bodyLayout(definition, body);
  const params = readParams(definition.childForFieldName('parameters'));
  return {
    id: `${context.module}:${qualname}`,
    kind: classPath.length > 0 ? 'method' : 'function',
    module: context.module,
    qualname,
    file: context.file,
    startLine: lineOf(outer),
    endLine: endLineOf(definition),
    bodyStartLine: layout.bodyStartLine,
    bodyEndLine: layout.bodyEndLine,
    signature: headerText(definition, body),
    params,
    returnAnnotation: definition.childForFieldName('return_type')?.text ?? null,
    docstring: layout.docstring,
    decorators: decoratorsOf(outer),
    statementCount: countStatements(body, layout.docNode),
    codeLines: countCodeLines(body, layout.docNode),
    calls: callsIn(body),
    callSites: [],
    isAsync: childrenOf(definition)[0]?.type === 'async',
    isGenerator: yieldsIn(body),
    impurities: body === null ? [] : findImpurities(body, context.imports, new Set(params.map((p) => p.name))),
  };
}

/** The constructor's parameters: `__init__`'s as written, else a dataclass's fields, else none. */
function constructorParams(body: Node | null, decorators: string[]): Param[] {
  if (body === null) return [];
  for (const statement of namedChildrenOf(body)) {
    const definition = statement.type === 'decorated_definition' ? statement.childForFieldName('definition') : statement;
    if (definition?.type === 'function_definition' && definition.childForFieldName('name')?.text === '__init__') {
      return readParams(definition.childForFieldName('parameters'));
    }
  }
  if (decorators.some((d) => /^(dataclasses\.)?dataclass\b/.test(d))) {
    return [{ name: 'self', kind: 'positional', annotation: null, defaultValue: null }, ...readDataclassFields(body)];
  }
  return [];
}

function readClass(outer: Node, definition: Node, classPath: string[], context: DefinitionContext): Unit {
  const name = definition.childForFieldName('name')?.text ?? '';
  const qualname = [...classPath, name].join('.');
  const body = definition.childForFieldName('body');
  const layout = bodyLayout(definition, body);
  const decorators = decoratorsOf(outer);
  return {
    id: `${context.module}:${qualname}`,
    kind: 'class',
    module: context.module,
    qualname,
    file: context.file,
    startLine: lineOf(outer),
    endLine: endLineOf(definition),
    bodyStartLine: layout.bodyStartLine,
    bodyEndLine: layout.bodyEndLine,
    signature: headerText(definition, body),
    params: constructorParams(body, decorators),
    returnAnnotation: null,
    docstring: layout.docstring,
    decorators,
    statementCount: countStatements(body, layout.docNode),
    codeLines: countCodeLines(body, layout.docNode),
    calls: callsIn(body),
    callSites: [],
    isAsync: false,
    isGenerator: false,
    impurities: body === null ? [] : findImpurities(body, context.imports, new Set()),
  };
}
