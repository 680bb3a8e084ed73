import type { Node } from 'web-tree-sitter';
import type { Unit } from '../construction-types.js';
import type { RepoTests } from '../language.js';
import { errorTextMatches, namedChildrenOf } from '../tree-sitter-nodes.js';
import { createGoParser } from './go-grammar.js';
import { withUnusedImportsBlank } from './mask-go-body.js';

/** A function `go test` runs: `TestX`, `ExampleX`, `BenchmarkX`, `FuzzX`. */
const TEST_FUNCTION = /^(?:Test|Example|Benchmark|Fuzz)(?:$|[^a-z])/;

/**
 * The repository's own Go tests as masking sees them: in a `_test.go` file, each test, example,
 * benchmark or fuzz function whose body names the target (`Reverse(`, `p.Reverse(`) is removed,
 * with its doc comment; imports nothing uses any more become blank (Go refuses unused ones); a file
 * with no such function left goes. Needs `loadGoGrammar()` to have resolved.
 */
export const goRepoTests: RepoTests = Object.freeze({
  isTestFile: (path: string) => path.endsWith('_test.go'),
  removeTestsOf(source: string, unit: Unit): { source: string | null; removed: string[] } {
    const name = unit.qualname.split('.').at(-1) ?? unit.qualname;
    const mentions = new RegExp(`(?<![\\w])${name.replace(/[^\w]/g, '')}(?![\\w])`);
    const parser = createGoParser();
    try {
      const tree = parser.parse(source);
      // a syntax error to this grammar (older than the compiler) is left alone unless a test there may name the target
      if (tree === null || (tree.rootNode.hasError && errorTextMatches(tree.rootNode, mentions))) {
        tree?.delete();
        return { source, removed: [] };
      }
      const tests: Node[] = namedChildrenOf(tree.rootNode).filter((n) => n.type === 'function_declaration' && TEST_FUNCTION.test(n.childForFieldName('name')?.text ?? ''));
      const doomed = tests.filter((n) => mentions.test(n.childForFieldName('body')?.text ?? ''));
      const removed = doomed.map((n) => n.childForFieldName('name')?.text ?? '');
      const spans = doomed.map((n) => {
        let start = n.startIndex;
        for (let prev = n.previousSibling; prev?.type === 'comment'; prev = prev.previousSibling) start = prev.startIndex;
        return [start, n.endIndex] as const;
      });
      tree.delete();
      if (doomed.length === 0) return { source, removed: [] };
      if (doomed.length === tests.length) return { source: null, removed };
      let out = source;
      for (const [start, end] of [...spans].sort((a, b) => b[0] - a[0])) out = out.slice(0, start) + out.slice(end);
      return { source: withUnusedImportsBlank(parser, out), removed };
    } finally {
      parser.delete();
    }
  },
});
