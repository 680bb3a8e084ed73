import type { Node } from 'web-tree-sitter';
import { childrenOf, namedChildrenOf } from './parse-syntax.js';

/** What the names of one file refer to through its import statements (anywhere in the file). */
export interface ImportTable {
  /** Local name → fully dotted target: `np` → `numpy`, `wrap` → `pkg.text.wrap`, `os` → `os`. */
  names: Map<string, string>;
  /** Modules imported with `from m import *`, in order. */
  stars: string[];
}

/**
 * Reads every `import` and `from ... import` in the tree, resolving relative imports against
 * `module` (the file's dotted name; `isPackage` when the file is a package's `__init__.py`).
 */
export function readImports(root: Node, module: string, isPackage: boolean): ImportTable {
  const table: ImportTable = { names: new Map(), stars: [] };
  const statements = root.descendantsOfType(['import_statement', 'import_from_statement']);
  for (const statement of statements) {
    if (statement === null) continue;
    if (statement.type === 'import_statement') {
      for (const name of statement.childrenForFieldName('name')) {
        if (name === null) continue;
        if (name.type === 'aliased_import') {
          const target = name.childForFieldName('name')?.text;
          const alias = name.childForFieldName('alias')?.text;
          if (target !== undefined && alias !== undefined) table.names.set(alias, target);
        } else {
          // `import a.b` binds `a`
          const top = name.text.split('.')[0] ?? name.text;
          table.names.set(top, top);
        }
      }
      continue;
    }
    const moduleNode = statement.childForFieldName('module_name');
    if (moduleNode === null) continue;
    const from = resolveFromModule(moduleNode, module, isPackage);
    if (from === null) continue;
    if (childrenOf(statement).some((c) => c.type === 'wildcard_import')) {
      table.stars.push(from);
      continue;
    }
    for (const name of statement.childrenForFieldName('name')) {
      if (name === null) continue;
      const imported = name.type === 'aliased_import' ? name.childForFieldName('name')?.text : name.text;
      const local = name.type === 'aliased_import' ? name.childForFieldName('alias')?.text : name.text;
      if (imported !== undefined && local !== undefined) table.names.set(local, join(from, imported));
    }
  }
  return table;
}

function resolveFromModule(node: Node, module: string, isPackage: boolean): string | null {
  if (node.type !== 'relative_import') return node.text;
  const prefix = namedChildrenOf(node).find((c) => c.type === 'import_prefix')?.text ?? '.';
  const rest = namedChildrenOf(node).find((c) => c.type === 'dotted_name')?.text ?? '';
  const packageParts = module.split('.');
  if (!isPackage) packageParts.pop();
  const up = prefix.length - 1;
  if (up > packageParts.length) return null;
  const base = packageParts.slice(0, packageParts.length - up).join('.');
  return join(base, rest);
}

function join(a: string, b: string): string {
  return a === '' ? b : b === '' ? a : `${a}.${b}`;
}

/** `name` (`np.random.rand`, `wrap`) with its first segment replaced through the import table, or null when not imported. */
export function resolveThroughImports(name: string, table: ImportTable): string | null {
  const [head, ...rest] = name.split('.');
  if (head === undefined) return null;
  const target = table.names.get(head);
  if (target === undefined) return null;
  return [target, ...rest].join('.');
}
