import type { Node } from 'web-tree-sitter';
import type { Unit } from '../construction-types.js';
import { MaskBodyError } from '../language-adapter.js';
import { createJavaScriptParser, grammarOf } from './javascript-grammars.js';
import { childrenOf, FUNCTION_TYPES, lineOf } from './javascript-syntax.js';

/** The statement a masked body holds. */
export const MASKED_BODY = "throw new Error('not implemented');";

/** A unit whose body cannot be masked: not found in the source, or the masked file would not parse (a funnel drop with `code`). */
export class JavaScriptMaskError extends MaskBodyError {
  constructor(code: 'mask-not-found' | 'mask-broken', message: string) {
    super(code, message);
    this.name = 'JavaScriptMaskError';
  }
}

/**
 * Replaces the body of `unit` in `source` with `throw new Error('not implemented');`, keeping the
 * JSDoc, decorators, modifiers (`static`, `async`, `get`/`set`, `*`), the signature and its types.
 * An arrow function's expression body becomes a block body. The function is found again by parsing
 * (a unit whose body lines and name match), and the masked file is parsed once more: a result with
 * an ERROR or MISSING node is refused. Needs `loadJavaScriptGrammars()` to have resolved first.
 * Returns the whole new file text; line endings of the file are kept.
 */
export function maskJavaScriptBody(source: string, unit: Unit): string {
  const parser = createJavaScriptParser(grammarOf(unit.file));
  try {
    const tree = parser.parse(source);
    if (tree === null) throw new JavaScriptMaskError('mask-not-found', `${unit.id}: the parser gave no tree`);
    let masked: string;
    try {
      const fn = findFunction(tree.rootNode, unit);
      if (fn === null) throw new JavaScriptMaskError('mask-not-found', `${unit.id}: no function with body lines ${unit.bodyStartLine}..${unit.bodyEndLine} in ${unit.file}`);
      masked = replaceBody(source, fn);
    } finally {
      tree.delete();
    }
    const check = parser.parse(masked);
    const broken = check === null || check.rootNode.hasError;
    check?.delete();
    if (broken) throw new JavaScriptMaskError('mask-broken', `${unit.id}: the masked file would not parse`);
    return masked;
  } finally {
    parser.delete();
  }
}

/** The name a function node is known by: its own name, its method/key name, its variable or export target. */
function nameOf(fn: Node): string | null {
  const own = fn.childForFieldName('name');
  if (own !== null) return own.text.replace(/^['"]|['"]$/g, '');
  const parent = fn.parent;
  if (parent === null) return null;
  if (parent.type === 'variable_declarator') return parent.childForFieldName('name')?.text ?? null;
  if (parent.type === 'pair') return parent.childForFieldName('key')?.text.replace(/^['"]|['"]$/g, '') ?? null;
  if (parent.type === 'assignment_expression') {
    const left = parent.childForFieldName('left')?.text ?? '';
    return left === 'module.exports' ? 'default' : left.slice(left.lastIndexOf('.') + 1);
  }
  if (parent.type === 'export_statement') return 'default';
  return null;
}

function findFunction(root: Node, unit: Unit): Node | null {
  const wanted = unit.qualname.slice(unit.qualname.lastIndexOf('.') + 1);
  const candidates: Node[] = [];
  const visit = (node: Node): void => {
    if (FUNCTION_TYPES.has(node.type)) {
      const body = node.childForFieldName('body');
      const line = lineOf(node);
      if (body !== null && line >= unit.startLine && line <= unit.endLine && lineOf(body) <= unit.bodyStartLine && body.endPosition.row + 1 >= unit.bodyEndLine) {
        candidates.push(node);
      }
    }
    for (const child of node.namedChildren) if (child !== null) visit(child);
  };
  visit(root);
  // the outermost function whose name matches (a nested arrow inside the body also spans its lines)
  return candidates.find((c) => nameOf(c) === wanted) ?? (candidates.length === 1 ? (candidates[0] ?? null) : null);
}

function indentOfLine(source: string, index: number): string {
  const start = source.lastIndexOf('\n', index - 1) + 1;
  return /^[ \t]*/.exec(source.slice(start))?.[0] ?? '';
}

function replaceBody(source: string, fn: Node): string {
  const body = fn.childForFieldName('body');
  if (body === null) throw new JavaScriptMaskError('mask-not-found', 'the function has no body');
  const eol = source.includes('\r\n') ? '\r\n' : '\n';
  if (body.type !== 'statement_block') {
    // `(x) => x * 2` → `(x) => {⏎  throw …;⏎}` at the indentation of the arrow's line
    const base = indentOfLine(source, fn.startIndex);
    return `${source.slice(0, body.startIndex)}{${eol}${base}  ${MASKED_BODY}${eol}${base}}${source.slice(body.endIndex)}`;
  }
  const parts = childrenOf(body);
  const open = parts[0];
  const close = parts[parts.length - 1];
  if (open?.type !== '{' || close?.type !== '}') throw new JavaScriptMaskError('mask-not-found', 'the body has no braces');
  if (body.startPosition.row === body.endPosition.row) {
    return `${source.slice(0, open.endIndex)} ${MASKED_BODY} ${source.slice(close.startIndex)}`;
  }
  const closeIndent = indentOfLine(source, close.startIndex);
  const first = parts[1];
  const indent = first !== undefined && first !== close && first.startPosition.row > open.startPosition.row ? indentOfLine(source, first.startIndex) : `${closeIndent}  `;
  const closeLineStart = source.lastIndexOf('\n', close.startIndex - 1) + 1;
  const closeOnOwnLine = source.slice(closeLineStart, close.startIndex).trim() === '';
  const tail = closeOnOwnLine ? source.slice(closeLineStart) : `${eol}${closeIndent}${source.slice(close.startIndex)}`;
  return `${source.slice(0, open.endIndex)}${eol}${indent}${MASKED_BODY}${eol}${tail}`;
}
