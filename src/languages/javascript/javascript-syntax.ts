import type { Node } from 'web-tree-sitter';
import type { Param } from '../construction-types.js';

import { childrenOf, endLineOf, lineOf, namedChildrenOf } from '../tree-sitter-nodes.js';

export { childrenOf, endLineOf, lineOf, namedChildrenOf };

/** Node types that are a function value: what a unit's definition node is. */
export const FUNCTION_TYPES: ReadonlySet<string> = new Set([
  'function_declaration',
  'generator_function_declaration',
  'function_expression',
  'function',
  'generator_function',
  'arrow_function',
  'method_definition',
]);

/** True when the function node carries an anonymous token of type `token` (`async`, `*`, `static`, `get`, `set`). */
export function hasToken(node: Node, token: string): boolean {
  return childrenOf(node).some((c) => !c.isNamed && c.type === token);
}

/** The parameters of a function node as `Param`s (TypeScript annotations and defaults kept as source text). */
export function readParams(fn: Node): Param[] {
  const single = fn.childForFieldName('parameter');
  if (single !== null) return [{ name: single.text, kind: 'positional', annotation: null, defaultValue: null }];
  const list = fn.childForFieldName('parameters');
  if (list === null) return [];
  const params: Param[] = [];
  for (const p of namedChildrenOf(list)) {
    const param = readParam(p);
    if (param !== null) params.push(param);
  }
  return params;
}

function readParam(node: Node): Param | null {
  if (node.type === 'required_parameter' || node.type === 'optional_parameter') {
    const pattern = node.childForFieldName('pattern');
    if (pattern === null) return null;
    if (pattern.type === 'this') return null; // TypeScript's `this: T` is not a parameter at run time
    const type = node.childForFieldName('type');
    const value = node.childForFieldName('value');
    const inner = readParam(pattern);
    if (inner === null) return null;
    return { ...inner, annotation: type === null ? null : stripColon(type.text), defaultValue: value === null ? inner.defaultValue : value.text };
  }
  if (node.type === 'assignment_pattern') {
    const left = node.childForFieldName('left');
    const right = node.childForFieldName('right');
    return { name: left?.text ?? node.text, kind: 'positional', annotation: null, defaultValue: right?.text ?? null };
  }
  if (node.type === 'rest_pattern') {
    const inner = namedChildrenOf(node)[0];
    return { name: inner?.text ?? node.text.replace(/^\.\.\./, ''), kind: 'var-positional', annotation: null, defaultValue: null };
  }
  if (node.type === 'decorator' || node.type === 'accessibility_modifier' || node.type === 'override_modifier') return null;
  // identifiers, and destructuring patterns kept as their source text
  return { name: node.text, kind: 'positional', annotation: null, defaultValue: null };
}

function stripColon(text: string): string {
  return text.replace(/^\s*:\s*/, '');
}

/** A TypeScript return type as written (`number`), or null. */
export function returnAnnotationOf(fn: Node): string | null {
  const type = fn.childForFieldName('return_type');
  return type === null ? null : stripColon(type.text);
}

/** The text of a `/** ... *\/` comment ending on the line before `node` (or on its first line), cleaned; else null. */
export function jsDocBefore(node: Node): string | null {
  let prev = node.previousSibling;
  while (prev !== null && prev.type === 'decorator') prev = prev.previousSibling;
  if (prev === null || prev.type !== 'comment' || !prev.text.startsWith('/**')) return null;
  if (prev.endPosition.row < node.startPosition.row - 1) return null;
  const lines = prev.text
    .replace(/^\/\*\*/, '')
    .replace(/\*\/$/, '')
    .split('\n')
    .map((l) => l.replace(/^\s*\* ?/, '').trimEnd());
  while (lines.length > 0 && lines[0]?.trim() === '') lines.shift();
  if (lines[0] !== undefined) lines[0] = lines[0].trimStart(); // `/** One line. */`
  while (lines.length > 0 && lines[lines.length - 1]?.trim() === '') lines.pop();
  return lines.length === 0 ? null : lines.join('\n');
}

/** True when `node` is a JavaScript literal: numbers, strings, substitution-free templates, booleans, null, undefined, and arrays/objects of those. */
export function isLiteral(node: Node): boolean {
  switch (node.type) {
    case 'number':
    case 'string':
    case 'true':
    case 'false':
    case 'null':
    case 'undefined':
      return true;
    case 'identifier':
      return node.text === 'undefined' || node.text === 'NaN' || node.text === 'Infinity';
    case 'template_string':
      return !namedChildrenOf(node).some((c) => c.type === 'template_substitution');
    case 'unary_expression': {
      const op = node.childForFieldName('operator')?.text;
      const arg = node.childForFieldName('argument');
      return (op === '-' || op === '+') && arg !== null && (arg.type === 'number' || arg.text === 'Infinity');
    }
    case 'parenthesized_expression':
      return namedChildrenOf(node).every(isLiteral);
    case 'array':
      return namedChildrenOf(node).every(isLiteral);
    case 'object':
      return namedChildrenOf(node).every((member) => {
        if (member.type !== 'pair') return false;
        const key = member.childForFieldName('key');
        const value = member.childForFieldName('value');
        return key !== null && value !== null && ['property_identifier', 'string', 'number'].includes(key.type) && isLiteral(value);
      });
    default:
      return false;
  }
}

/** Names of what calls a body makes (`foo`, `this.bar`, `Math.max`), in order of first appearance. */
export function callsIn(body: Node): string[] {
  const seen = new Set<string>();
  for (const call of body.descendantsOfType(['call_expression', 'new_expression'])) {
    if (call === null) continue;
    const callee = call.childForFieldName(call.type === 'new_expression' ? 'constructor' : 'function');
    if (callee === null || !/^[\w$.#]+$/.test(callee.text)) continue;
    seen.add(call.type === 'new_expression' ? `new ${callee.text}` : callee.text);
  }
  return [...seen];
}

/** `<kind>:<what>` rules for member and call names seen in a body; matched on the start of a dotted name. */
const IMPURITY_RULES: ReadonlyArray<readonly [RegExp, string]> = [
  [/^Date\.now$/, 'clock'],
  [/^performance\.now$/, 'clock'],
  [/^process\.hrtime/, 'clock'],
  [/^Math\.random$/, 'random'],
  [/^crypto\./, 'random'],
  [/^(globalThis\.)?crypto$/, 'random'],
  [/^fetch$/, 'network'],
  [/^XMLHttpRequest$/, 'network'],
  [/^WebSocket$/, 'network'],
  [/^process\.(env|argv|cwd|chdir)/, 'environment'],
  [/^process\.(exit|kill|stdout|stderr|stdin|on)/, 'process'],
  [/^process\./, 'process'],
  [/^(fs|fsp|fsPromises)\./, 'filesystem'],
  [/^(setTimeout|setInterval|setImmediate|queueMicrotask)$/, 'threads'],
  [/^console\./, 'io'],
  [/^(window|document|localStorage|sessionStorage|navigator)\b/, 'global'],
  // deterministic built-ins reached through globalThis are no outside world (`globalThis.btoa`, `new globalThis.TextDecoder()`)
  [/^globalThis\.(?!(?:atob|btoa|TextDecoder|TextEncoder|structuredClone|Buffer|Math|JSON|Number|String|Boolean|BigInt|Symbol|Array|Object|Map|Set|WeakMap|WeakSet|Promise|Reflect|RegExp|Error|TypeError|RangeError|Intl|encodeURIComponent|decodeURIComponent|encodeURI|decodeURI|escape|unescape|parseInt|parseFloat|isNaN|isFinite|ArrayBuffer|SharedArrayBuffer|DataView|(?:Big)?(?:Int|Uint|Float)(?:8|16|32|64)(?:Clamped)?Array)(?![\w$]))/, 'global'],
];

const IMPURE_MODULES: ReadonlyArray<readonly [RegExp, string]> = [
  [/^(node:)?(fs|fs\/promises)$/, 'filesystem'],
  [/^(node:)?child_process$/, 'process'],
  [/^(node:)?(net|http|https|http2|dgram|dns|tls)$/, 'network'],
  [/^(node:)?crypto$/, 'random'],
  [/^(node:)?(os|process)$/, 'environment'],
  [/^(node:)?worker_threads$/, 'threads'],
];

/** Impurity strings (`clock:Date.now`, `process:require('child_process')`) for what a body uses, in order of appearance, deduplicated. */
export function impuritiesIn(body: Node): string[] {
  const found = new Set<string>();
  const visit = (node: Node): void => {
    if (node.type === 'member_expression' || node.type === 'identifier') {
      const text = node.text;
      if (/^[\w$.]+$/.test(text)) {
        for (const [rule, kind] of IMPURITY_RULES) {
          if (rule.test(text)) {
            found.add(`${kind}:${text}`);
            return; // the shortest name that matched is enough; its parts would repeat it
          }
        }
      }
    }
    if (node.type === 'new_expression') {
      const ctor = node.childForFieldName('constructor');
      const args = node.childForFieldName('arguments');
      if (ctor?.text === 'Date' && (args === null || namedChildrenOf(args).length === 0)) found.add('clock:new Date()');
    }
    if (node.type === 'call_expression') {
      const callee = node.childForFieldName('function');
      const args = node.childForFieldName('arguments');
      const first = args === null ? undefined : namedChildrenOf(args)[0];
      if ((callee?.text === 'require' || callee?.type === 'import') && first?.type === 'string') {
        const spec = first.text.slice(1, -1);
        for (const [rule, kind] of IMPURE_MODULES) if (rule.test(spec)) found.add(`${kind}:require('${spec}')`);
      }
    }
    for (const child of node.namedChildren) if (child !== null) visit(child);
  };
  visit(body);
  return [...found];
}

/** Statements in a body, nested blocks counted (the body's own braces not). */
export function statementCountOf(body: Node): number {
  if (body.type !== 'statement_block') return 1; // an arrow's expression body is one `return`
  let count = 0;
  const visit = (node: Node): void => {
    for (const child of namedChildrenOf(node)) {
      if (child.type.endsWith('_statement') || child.type.endsWith('_declaration') || child.type === 'expression_statement') count += 1;
      visit(child);
    }
  };
  visit(body);
  return count;
}

/** Lines of a body holding code (comments and blank lines left out; the body's own braces too). */
export function codeLinesOf(body: Node): number {
  const rows = new Set<number>();
  const inner = body.type === 'statement_block' ? namedChildrenOf(body) : [body];
  const visit = (node: Node): void => {
    if (node.type === 'comment') return;
    if (node.childCount === 0 || node.type === 'string' || node.type === 'template_string') {
      for (let r = node.startPosition.row; r <= node.endPosition.row; r++) rows.add(r);
      return;
    }
    for (const child of childrenOf(node)) visit(child);
  };
  for (const node of inner) visit(node);
  return rows.size;
}
