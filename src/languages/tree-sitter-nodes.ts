import type { Node } from 'web-tree-sitter';

/** Helpers on tree-sitter nodes that every plugin's parser uses. */

/** The node's children with the nulls web-tree-sitter's typings allow filtered out. */
export function childrenOf(node: Node): Node[] {
  return node.children.filter((c): c is Node => c !== null);
}

/** Named children without comments. */
export function namedChildrenOf(node: Node): Node[] {
  return node.namedChildren.filter((c): c is Node => c !== null && c.type !== 'comment');
}

/** 1-based line of the node's first character. */
export function lineOf(node: Node): number {
  return node.startPosition.row + 1;
}

/**
 * 1-based last line of the node. tree-sitter ends a node after its last token; a node that ends at
 * column 0 ended with a newline, so its last line is the previous one.
 */
export function endLineOf(node: Node): number {
  const end = node.endPosition;
  return end.column === 0 && end.row > node.startPosition.row ? end.row : end.row + 1;
}

/** The first line holding a syntax error (an ERROR or MISSING node) under `root`; its last line when none. */
export function firstErrorLine(root: Node): number {
  let line = endLineOf(root);
  const visit = (node: Node): void => {
    if (!node.hasError || lineOf(node) >= line) return;
    if (node.isError || node.isMissing) line = Math.min(line, lineOf(node));
    for (const child of node.children) if (child !== null) visit(child);
  };
  visit(root);
  return line;
}

/** The line ranges `[first, last]` of the syntax errors (ERROR and MISSING nodes) under `root`, outermost only. */
export function errorLineRanges(root: Node): Array<[number, number]> {
  const out: Array<[number, number]> = [];
  const visit = (node: Node): void => {
    if (!node.hasError) return;
    if (node.isError || node.isMissing) {
      out.push([lineOf(node), endLineOf(node)]);
      return;
    }
    for (const child of node.children) if (child !== null) visit(child);
  };
  visit(root);
  return out;
}

/** Whether the text of a syntax error (an ERROR node) under `root` matches `pattern`: a test this grammar cannot read may name it there. */
export function errorTextMatches(root: Node, pattern: RegExp): boolean {
  let found = false;
  const visit = (node: Node): void => {
    if (found || !node.hasError) return;
    if (node.isError) {
      found = pattern.test(node.text);
      return;
    }
    for (const child of node.children) if (child !== null) visit(child);
  };
  visit(root);
  return found;
}
