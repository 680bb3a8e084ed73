import type { Node } from 'web-tree-sitter';
import type { Param } from '../construction-types.js';
import { namedChildrenOf } from './parse-syntax.js';

/** The parameters of a `parameters` node, as written (`self`/`cls` included), with kinds per PEP 570/3102. */
export function readParams(parameters: Node | null): Param[] {
  if (parameters === null) return [];
  const params: Param[] = [];
  let keywordOnly = false;
  for (const child of namedChildrenOf(parameters)) {
    switch (child.type) {
      case 'positional_separator':
        for (const p of params) if (p.kind === 'positional') p.kind = 'positional-only';
        break;
      case 'keyword_separator':
        keywordOnly = true;
        break;
      case 'identifier':
        params.push({ name: child.text, kind: keywordOnly ? 'keyword-only' : 'positional', annotation: null, defaultValue: null });
        break;
      case 'list_splat_pattern':
      case 'dictionary_splat_pattern':
        params.push(splat(child, null));
        if (child.type === 'list_splat_pattern') keywordOnly = true;
        break;
      case 'typed_parameter': {
        const inner = namedChildrenOf(child)[0];
        const annotation = child.childForFieldName('type')?.text ?? null;
        if (inner === undefined) break;
        if (inner.type === 'list_splat_pattern' || inner.type === 'dictionary_splat_pattern') {
          params.push(splat(inner, annotation));
          if (inner.type === 'list_splat_pattern') keywordOnly = true;
        } else {
          params.push({ name: inner.text, kind: keywordOnly ? 'keyword-only' : 'positional', annotation, defaultValue: null });
        }
        break;
      }
      case 'default_parameter':
      case 'typed_default_parameter':
        params.push({
          name: child.childForFieldName('name')?.text ?? '',
          kind: keywordOnly ? 'keyword-only' : 'positional',
          annotation: child.childForFieldName('type')?.text ?? null,
          defaultValue: child.childForFieldName('value')?.text ?? null,
        });
        break;
      default:
        break;
    }
  }
  return params;
}

function splat(node: Node, annotation: string | null): Param {
  const name = namedChildrenOf(node)[0]?.text ?? node.text.replace(/^\*+/, '');
  return { name, kind: node.type === 'list_splat_pattern' ? 'var-positional' : 'var-keyword', annotation, defaultValue: null };
}

/**
 * The constructor parameters of a dataclass body (annotated class-level names, `ClassVar` excluded),
 * in the order the generated `__init__` takes them.
 */
export function readDataclassFields(classBody: Node): Param[] {
  const params: Param[] = [];
  for (const statement of namedChildrenOf(classBody)) {
    if (statement.type !== 'expression_statement') continue;
    const assignment = namedChildrenOf(statement)[0];
    if (assignment === undefined || assignment.type !== 'assignment') continue;
    const left = assignment.childForFieldName('left');
    const type = assignment.childForFieldName('type');
    if (left === null || left.type !== 'identifier' || type === null || /^(typing\.)?ClassVar\b/.test(type.text)) continue;
    params.push({
      name: left.text,
      kind: 'positional',
      annotation: type.text,
      defaultValue: assignment.childForFieldName('right')?.text ?? null,
    });
  }
  return params;
}
