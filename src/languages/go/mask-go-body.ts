import type { Node } from 'web-tree-sitter';
import type { Unit } from '../construction-types.js';
import { maskFunctionBody } from '../mask-function-body.js';
import { lineOf, namedChildrenOf } from '../tree-sitter-nodes.js';
import { createGoParser } from './go-grammar.js';

/** What a masked Go body holds: a terminating statement, so any signature still compiles. */
export const MASKED_GO_STATEMENT = 'panic("not implemented")';

/**
 * Replaces the body of `unit` in `source` with `panic("not implemented")`, keeping its signature
 * and doc comment, and turns each import the file no longer uses into a blank import (`_ "strings"`:
 * Go refuses an unused import, and a blank one keeps the package's `init`), so the package still
 * compiles. Needs `loadGoGrammar()` to have resolved. Throws MaskBodyError when the unit's function
 * is not in the file, or the result would not parse.
 */
export function maskGoBody(source: string, unit: Unit): string {
  return maskFunctionBody(source, unit, {
    createParser: createGoParser,
    declaration: 'function',
    find: functionAt,
    maskedBody: (_body, indent) => `{\n${indent}\t${MASKED_GO_STATEMENT}\n${indent}}`,
    repair: (masked, parser) => withUnusedImportsBlank(parser, masked),
  });
}

/** The function or method declaration of `unit`: its name, and its body's first statement on `unit.bodyStartLine`. */
function functionAt(root: Node, unit: Unit): Node | null {
  const name = unit.qualname.split('.').at(-1);
  for (const node of namedChildrenOf(root)) {
    if (node.type !== 'function_declaration' && node.type !== 'method_declaration') continue;
    if (node.childForFieldName('name')?.text !== name) continue;
    const first = node.childForFieldName('body') === null ? undefined : namedChildrenOf(node.childForFieldName('body')!)[0];
    if (first !== undefined && lineOf(first) === unit.bodyStartLine) return node;
  }
  return null;
}

/** The name an import binds: its alias, else its path's last element (`gopkg.in/yaml.v3` → `yaml`, `example.com/go-cmp` → `cmp`, `x/v2` → `x`). */
export function importedName(path: string): string {
  const parts = path.split('/');
  let last = parts.at(-1) ?? path;
  if (/^v\d+$/.test(last) && parts.length > 1) last = parts.at(-2) ?? last;
  return last.replace(/\.v\d+$/, '').replace(/^go-/, '').replace(/-go$/, '').replace(/[^\w]/g, '_');
}

/** `source` with every import whose name no code of the file uses any more made blank (`_ "path"`). */
export function withUnusedImportsBlank(parser: ReturnType<typeof createGoParser>, source: string): string {
  const tree = parser.parse(source);
  if (tree === null) return source;
  try {
    const used = new Set<string>();
    const specs: Node[] = [];
    const visit = (x: Node): void => {
      if (x.type === 'import_spec') {
        specs.push(x);
        return;
      }
      if (x.type === 'selector_expression') {
        const operand = x.childForFieldName('operand');
        if (operand?.type === 'identifier') used.add(operand.text);
      }
      if (x.type === 'qualified_type') {
        const pkg = x.childForFieldName('package');
        if (pkg !== null) used.add(pkg.text);
      }
      for (const child of x.namedChildren) if (child !== null) visit(child);
    };
    visit(tree.rootNode);
    const edits: { start: number; end: number; text: string }[] = [];
    for (const spec of specs) {
      const path = spec.childForFieldName('path');
      const alias = spec.childForFieldName('name');
      if (path === null || alias?.type === 'blank_identifier' || alias?.type === 'dot') continue;
      const name = alias?.text ?? importedName(path.text.slice(1, -1));
      if (!used.has(name)) edits.push({ start: spec.startIndex, end: spec.endIndex, text: `_ ${path.text}` });
    }
    let out = source;
    for (const e of edits.sort((a, b) => b.start - a.start)) out = out.slice(0, e.start) + e.text + out.slice(e.end);
    return out;
  } finally {
    tree.delete();
  }
}
