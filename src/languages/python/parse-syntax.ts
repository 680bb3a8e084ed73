import type { Node } from 'web-tree-sitter';

import { childrenOf, endLineOf, lineOf, namedChildrenOf } from '../tree-sitter-nodes.js';

export { childrenOf, endLineOf, lineOf, namedChildrenOf };

/** `a`, `a.b.c` for identifier/attribute chains; null for anything else (`f().x`, `a[0].b`). */
export function dottedName(node: Node): string | null {
  if (node.type === 'identifier') return node.text;
  if (node.type === 'attribute') {
    const object = node.childForFieldName('object');
    const attribute = node.childForFieldName('attribute');
    if (object === null || attribute === null) return null;
    const base = dottedName(object);
    return base === null ? null : `${base}.${attribute.text}`;
  }
  return null;
}

const SIMPLE_ESCAPES: Record<string, string> = {
  '\n': '',
  '\\': '\\',
  "'": "'",
  '"': '"',
  a: '\x07',
  b: '\b',
  f: '\f',
  n: '\n',
  r: '\r',
  t: '\t',
  v: '\v',
};

/** The value of one Python string literal's source text (prefixes, quotes and common escapes handled). */
export function evaluateStringLiteral(text: string): string {
  const match = /^([rRbBuUfF]*)('''|"""|'|")/.exec(text);
  if (match === null) return text;
  const prefix = match[1] ?? '';
  const quote = match[2] ?? '';
  const body = text.slice(prefix.length + quote.length, text.length - quote.length);
  if (/[rR]/.test(prefix)) return body;
  return body.replace(/\\(x[0-9a-fA-F]{2}|u[0-9a-fA-F]{4}|U[0-9a-fA-F]{8}|[0-7]{1,3}|[\s\S])/g, (all, esc: string) => {
    if (esc in SIMPLE_ESCAPES) return SIMPLE_ESCAPES[esc] ?? all;
    if (/^[xuU]/.test(esc)) return String.fromCodePoint(Number.parseInt(esc.slice(1), 16));
    if (/^[0-7]+$/.test(esc)) return String.fromCodePoint(Number.parseInt(esc, 8));
    return all; // unknown escapes stay as written, as in Python
  });
}

/** The value of a `string` or `concatenated_string` node. */
export function stringNodeValue(node: Node): string {
  if (node.type === 'concatenated_string') return namedChildrenOf(node).map(stringNodeValue).join('');
  return evaluateStringLiteral(node.text);
}

/** `inspect.cleandoc`: tabs expanded, the first line stripped, the common indent of the rest removed, blank edges dropped. */
export function cleandoc(doc: string): string {
  const lines = doc.replace(/\t/g, '        ').split(/\r?\n/);
  let margin = Number.POSITIVE_INFINITY;
  for (const line of lines.slice(1)) {
    const content = line.trimStart();
    if (content.length > 0) margin = Math.min(margin, line.length - content.length);
  }
  const cleaned = [(lines[0] ?? '').trimStart()];
  for (const line of lines.slice(1)) cleaned.push(Number.isFinite(margin) ? line.slice(margin) : line);
  while (cleaned.length > 0 && (cleaned[0] ?? '').trim() === '') cleaned.shift();
  while (cleaned.length > 0 && (cleaned.at(-1) ?? '').trim() === '') cleaned.pop();
  return cleaned.map((l) => l.trimEnd()).join('\n');
}

/**
 * True for Python literals: numbers (signed), strings and bytes without interpolation, None/True/False,
 * and tuples, lists, sets and dicts made only of literals.
 */
export function isLiteralNode(node: Node): boolean {
  switch (node.type) {
    case 'integer':
    case 'float':
    case 'true':
    case 'false':
    case 'none':
      return true;
    case 'string':
      return !namedChildrenOf(node).some((c) => c.type === 'interpolation');
    case 'concatenated_string':
      return namedChildrenOf(node).every(isLiteralNode);
    case 'unary_operator': {
      const operand = node.childForFieldName('argument');
      return operand !== null && (operand.type === 'integer' || operand.type === 'float') && /^[-+]/.test(node.text);
    }
    case 'binary_operator': {
      // complex numbers such as 1+2j
      const left = node.childForFieldName('left');
      const right = node.childForFieldName('right');
      return left !== null && right !== null && /^[-+]?[\d.]+$/.test(left.text) && /^[\d.]+[jJ]$/.test(right.text);
    }
    case 'parenthesized_expression':
    case 'tuple':
    case 'list':
    case 'set':
      return namedChildrenOf(node).every(isLiteralNode);
    case 'dictionary':
      return namedChildrenOf(node).every((pair) => {
        if (pair.type !== 'pair') return false;
        const key = pair.childForFieldName('key');
        const value = pair.childForFieldName('value');
        return key !== null && value !== null && isLiteralNode(key) && isLiteralNode(value);
      });
    case 'keyword_argument': {
      const value = node.childForFieldName('value');
      return value !== null && isLiteralNode(value);
    }
    default:
      return false;
  }
}
