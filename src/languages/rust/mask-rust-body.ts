import type { Node } from 'web-tree-sitter';
import type { Unit } from '../construction-types.js';
import { maskFunctionBody } from '../mask-function-body.js';
import { lineOf } from '../tree-sitter-nodes.js';
import { createRustParser } from './rust-grammar.js';

/** What a masked Rust body holds: a diverging macro, so any signature still compiles. */
export const MASKED_RUST_STATEMENT = 'unimplemented!()';

/**
 * Replaces the body of `unit` in `source` with `unimplemented!()`, keeping its signature, attributes
 * and doc comment. The crate still compiles: `unimplemented!()` has type `!`, and parameters or
 * imports left unused are warnings, not errors (a crate that denies warnings, `#![deny(warnings)]`,
 * is not handled). Needs `loadRustGrammar()` to have resolved. Throws MaskBodyError when the unit's
 * function is not in the file, or the result would not parse.
 */
export function maskRustBody(source: string, unit: Unit): string {
  return maskFunctionBody(source, unit, {
    createParser: createRustParser,
    declaration: 'function',
    find: functionAt,
    maskedBody: (_body, indent) => `{\n${indent}    ${MASKED_RUST_STATEMENT}\n${indent}}`,
  });
}

/** The function item of `unit`: its name, and its body's first statement on `unit.bodyStartLine` (at the top level or in an `impl`). */
function functionAt(root: Node, unit: Unit): Node | null {
  const name = unit.qualname.split('.').at(-1);
  const visit = (node: Node): Node | null => {
    for (const child of node.namedChildren) {
      if (child === null) continue;
      if (child.type === 'function_item' && child.childForFieldName('name')?.text === name) {
        const body = child.childForFieldName('body');
        const first = body?.namedChildren.find((c) => c !== null && c.type !== 'line_comment' && c.type !== 'block_comment');
        if (first && lineOf(first) === unit.bodyStartLine) return child;
      }
      if (child.type === 'impl_item' || child.type === 'declaration_list') {
        const found = visit(child);
        if (found !== null) return found;
      }
    }
    return null;
  };
  return visit(root);
}
