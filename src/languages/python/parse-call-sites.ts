import type { Node } from 'web-tree-sitter';
import type { CallSite } from '../construction-types.js';
import { dottedName, isLiteralNode, lineOf, namedChildrenOf } from './parse-syntax.js';

/** A call found in a file, before its callee is resolved to a unit. */
export interface RawCall {
  /** The callee as written (`wrap`, `text.wrap`, `self.fill`). */
  callee: string;
  /** Qualname of the innermost enclosing class when the call sits directly in one of its methods (for `self.x()`). */
  ownerClass: string | null;
  column: number;
  site: CallSite;
}

interface Scope {
  /** Python qualname prefix for definitions in this scope (`f.<locals>`, `C`). */
  prefix: string;
  /** The caller name: qualname of the enclosing function or class, or `<module>`. */
  caller: string;
  ownerClass: string | null;
  isClass: boolean;
}

/** Every call of a named callee in the file, with its enclosing qualname and argument texts. */
export function readCalls(root: Node, file: string): RawCall[] {
  const calls: RawCall[] = [];
  const visit = (node: Node, scope: Scope): void => {
    if (node.type === 'function_definition' || node.type === 'class_definition') {
      const name = node.childForFieldName('name')?.text ?? '';
      const qualname = scope.prefix === '' ? name : `${scope.prefix}.${name}`;
      const isClass = node.type === 'class_definition';
      const inner: Scope = {
        prefix: isClass ? qualname : `${qualname}.<locals>`,
        caller: qualname,
        ownerClass: isClass ? qualname : scope.isClass ? scope.ownerClass : null,
        isClass,
      };
      for (const child of node.namedChildren) {
        if (child === null) continue;
        // parameters (defaults) and superclasses are evaluated in the enclosing scope
        const isBody = child.startIndex === node.childForFieldName('body')?.startIndex;
        visit(child, isBody ? inner : scope);
      }
      return;
    }
    if (node.type === 'call') {
      const fn = node.childForFieldName('function');
      const callee = fn === null ? null : dottedName(fn);
      const args = node.childForFieldName('arguments');
      if (callee !== null && args !== null) {
        const argumentNodes = args.type === 'argument_list' ? namedChildrenOf(args) : [args];
        calls.push({
          callee,
          ownerClass: scope.ownerClass,
          column: node.startPosition.column,
          site: {
            file,
            line: lineOf(node),
            caller: scope.caller,
            argumentTexts: argumentNodes.map((a) => a.text),
            allLiteral: argumentNodes.every(isLiteralNode),
          },
        });
      }
    }
    for (const child of node.namedChildren) if (child !== null) visit(child, scope);
  };
  visit(root, { prefix: '', caller: '<module>', ownerClass: null, isClass: false });
  return calls;
}
