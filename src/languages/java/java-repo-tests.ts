import type { Node } from 'web-tree-sitter';
import type { Unit } from '../construction-types.js';
import type { RepoTests } from '../language.js';
import { errorTextMatches, namedChildrenOf } from '../tree-sitter-nodes.js';
import { createJavaParser } from './java-grammar.js';
import { CONSTRUCTOR_NAME, isJavaTestFile } from './parse-java-units.js';

/** The annotations that make a method a JUnit (4 or 5) or TestNG test. */
const TEST_ANNOTATION = /^@(?:[\w.]+\.)?(?:Test|ParameterizedTest|RepeatedTest|TestFactory|TestTemplate|Property)\b/;

function testMethods(root: Node): Node[] {
  const out: Node[] = [];
  const visit = (x: Node): void => {
    if (x.type === 'method_declaration') {
      const mods = namedChildrenOf(x).find((c) => c.type === 'modifiers');
      if (mods !== undefined && namedChildrenOf(mods).some((a) => a.type.endsWith('annotation') && TEST_ANNOTATION.test(a.text))) out.push(x);
      return;
    }
    for (const child of x.namedChildren) if (child !== null) visit(child);
  };
  visit(root);
  return out;
}

/**
 * The repository's own Java tests as masking sees them: in a test file (`src/test/java`, `FooTest.java`),
 * each `@Test` (or `@ParameterizedTest`, `@RepeatedTest`, `@TestFactory`) method whose body names the
 * target (`reverse(`; a constructor by `new Cls(`) is removed, with its annotations and Javadoc; a
 * file with no test method left goes. Needs `loadJavaGrammar()` to have resolved.
 */
export const javaRepoTests: RepoTests = Object.freeze({
  isTestFile: isJavaTestFile,
  removeTestsOf(source: string, unit: Unit): { source: string | null; removed: string[] } {
    const [cls = '', rawMember = ''] = unit.qualname.split('.');
    const member = rawMember.replace(/~\d+$/, '');
    const mentions = member === CONSTRUCTOR_NAME ? new RegExp(`\\bnew\\s+${cls}\\s*[(<]`) : new RegExp(`(?<![\\w$])${member}\\s*\\(`);
    const parser = createJavaParser();
    try {
      const tree = parser.parse(source);
      // a syntax error to this grammar (older than the compiler) is left alone unless a test there may name the target
      if (tree === null || (tree.rootNode.hasError && errorTextMatches(tree.rootNode, mentions))) {
        tree?.delete();
        return { source, removed: [] };
      }
      const tests = testMethods(tree.rootNode);
      const doomed = tests.filter((n) => mentions.test(n.childForFieldName('body')?.text ?? ''));
      const removed = doomed.map((n) => n.childForFieldName('name')?.text ?? '');
      const spans = doomed.map((n) => {
        let start = n.startIndex;
        const prev = n.previousSibling;
        if (prev?.type === 'block_comment' && prev.text.startsWith('/**')) start = prev.startIndex;
        // the whole line the method starts on, so no indentation is left behind
        const lineStart = source.lastIndexOf('\n', start - 1) + 1;
        if (/^[ \t]*$/.test(source.slice(lineStart, start))) start = lineStart;
        const end = source[n.endIndex] === '\n' ? n.endIndex + 1 : n.endIndex;
        return [start, end] as const;
      });
      tree.delete();
      if (doomed.length === 0) return { source, removed: [] };
      if (doomed.length === tests.length) return { source: null, removed };
      let out = source;
      for (const [start, end] of [...spans].sort((a, b) => b[0] - a[0])) out = out.slice(0, start) + out.slice(end);
      return { source: out, removed };
    } finally {
      parser.delete();
    }
  },
});
