import type { Node } from 'web-tree-sitter';
import type { Unit } from '../construction-types.js';
import type { RepoTests } from '../language.js';
import { createRustParser } from './rust-grammar.js';
import { errorTextMatches } from '../tree-sitter-nodes.js';

/**
 * The repository's own Rust tests as masking sees them: every `#[test]` function (in `tests/` files
 * and in `#[cfg(test)]` modules of the sources) whose body names the target (`slugify(`,
 * `p.shift(`, `Point::new`) is removed with its attributes and doc comments. A file of `tests/` with
 * no test left goes; a source file always stays (it holds the library). Needs `loadRustGrammar()`.
 */
export const rustRepoTests: RepoTests = Object.freeze({
  isTestFile: (path: string) => path.endsWith('.rs') && !path.split('/').includes('target'),
  removeTestsOf(source: string, unit: Unit): { source: string | null; removed: string[] } {
    if (!/#\s*\[\s*test\s*\]/.test(source)) return { source, removed: [] };
    const name = unit.qualname.split('.').at(-1) ?? unit.qualname;
    const mentions = new RegExp(`(?<![\\w])${name.replace(/[^\w]/g, '')}(?![\\w])`);
    const parser = createRustParser();
    try {
      const tree = parser.parse(source);
      // a syntax error to this grammar (older than the compiler) is left alone unless a test there may name the target
      if (tree === null || (tree.rootNode.hasError && errorTextMatches(tree.rootNode, mentions))) {
        tree?.delete();
        return { source, removed: [] };
      }
      const tests: Node[] = [];
      let topLevelItems = 0;
      const visit = (node: Node, top: boolean): void => {
        for (const child of node.namedChildren) {
          if (child === null) continue;
          if (top && child.type !== 'line_comment' && child.type !== 'block_comment' && child.type !== 'attribute_item' && child.type !== 'use_declaration') topLevelItems += 1;
          if (child.type === 'function_item' && isTest(child)) tests.push(child);
          else if (child.type === 'mod_item') {
            const body = child.childForFieldName('body');
            if (body !== null) visit(body, false);
          }
        }
      };
      visit(tree.rootNode, true);
      const doomed = tests.filter((n) => mentions.test(n.childForFieldName('body')?.text ?? ''));
      const removed = doomed.map((n) => n.childForFieldName('name')?.text ?? '');
      const spans = doomed.map((n) => {
        let start = n.startIndex;
        for (let prev = n.previousSibling; prev !== null && (prev.type === 'attribute_item' || prev.type === 'line_comment'); prev = prev.previousSibling) start = prev.startIndex;
        return [start, n.endIndex] as const;
      });
      tree.delete();
      if (doomed.length === 0) return { source, removed: [] };
      const onlyTests = source.split('\n').length > 0 && topLevelItems === tests.length;
      if (onlyTests && doomed.length === tests.length) return { source: null, removed };
      let out = source;
      for (const [start, end] of [...spans].sort((a, b) => b[0] - a[0])) out = out.slice(0, start) + out.slice(end);
      return { source: out, removed };
    } finally {
      parser.delete();
    }
  },
});

function isTest(fn: Node): boolean {
  for (let prev = fn.previousSibling; prev !== null && (prev.type === 'attribute_item' || prev.type === 'line_comment'); prev = prev.previousSibling) {
    if (prev.type === 'attribute_item' && /^#\s*\[\s*test\s*\]/.test(prev.text)) return true;
  }
  return false;
}
