import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Node } from 'web-tree-sitter';
import type { RepoSnapshot, Unit } from './construction-types.js';
import type { ParseOptions, ParseProblem } from './language-adapter.js';
import { createParser, type GrammarName } from './tree-sitter-grammar.js';
import { compareStrings } from './call-sites.js';
import { errorLineRanges } from './tree-sitter-nodes.js';

/** What a plugin's unit parser tells `parseSnapshotFiles`. */
export interface SnapshotFileParsing<P> {
  grammar: GrammarName;
  /** The snapshot's files to parse: the language's sources and tests, whose calls count. */
  parses: (file: string) => boolean;
  /** The parsed files whose units are the library's (its sources, tests left out). */
  holdsUnits: (file: string) => boolean;
  /** The units of one file that parsed without a syntax error, and what the plugin keeps of it to attach call sites (`P`). */
  parseTree: (root: Node, file: string, source: string) => { parsed: P; units: Unit[] };
}

/**
 * Reads and parses each file of `snapshot` that `parsing.parses`, in the snapshot's order, checking
 * `options.signal` between files. A file that cannot be read (`parse-error`) or gives no tree
 * (`parse-error`) is a problem, not an exception; one that holds a syntax error to this grammar is a
 * problem too (`syntax-error`), but its units outside the error are kept: the language's compiler,
 * not a tree-sitter grammar that may be older, decides what compiles. Units come from the files
 * `holdsUnits`, sorted by file, line and qualname; problems are sorted by file.
 */
export async function parseSnapshotFiles<P>(snapshot: RepoSnapshot, options: ParseOptions, parsing: SnapshotFileParsing<P>): Promise<{ units: Unit[]; parsed: P[]; problems: ParseProblem[] }> {
  const parser = await createParser(parsing.grammar);
  const units: Unit[] = [];
  const parsed: P[] = [];
  const problems: ParseProblem[] = [];
  try {
    for (const file of snapshot.files.filter(parsing.parses)) {
      options.signal?.throwIfAborted();
      let source: string;
      try {
        source = await readFile(join(snapshot.dir, file), 'utf8');
      } catch (error) {
        problems.push({ file, code: 'parse-error', message: `cannot read ${file}: ${error instanceof Error ? error.message : String(error)}` });
        continue;
      }
      const tree = parser.parse(source);
      if (tree === null) {
        problems.push({ file, code: 'parse-error', message: `${file}: the parser gave no tree` });
        continue;
      }
      try {
        const root = tree.rootNode;
        const result = parsing.parseTree(root, file, source);
        parsed.push(result.parsed);
        // the grammar can be older than the compiler (a raw string in an attribute, newer syntax):
        // the units that hold no error are kept, the others dropped with the file's problem
        const errors = root.hasError ? errorLineRanges(root) : [];
        const clean = result.units.filter((u) => !errors.some(([first, last]) => first <= u.endLine && last >= u.startLine));
        if (errors.length > 0) {
          const lost = result.units.length - clean.length;
          problems.push({ file, code: 'syntax-error', message: `${file}: a syntax error at line ${errors[0]![0]} (to this parser); ${clean.length} units elsewhere in the file kept${lost > 0 ? `, ${lost} holding it dropped` : ''}` });
        }
        if (parsing.holdsUnits(file)) units.push(...clean);
      } finally {
        tree.delete();
      }
    }
  } finally {
    parser.delete();
  }
  units.sort((a, b) => compareStrings(a.file, b.file) || a.startLine - b.startLine || compareStrings(a.qualname, b.qualname));
  problems.sort((a, b) => compareStrings(a.file, b.file));
  return { units, parsed, problems };
}
