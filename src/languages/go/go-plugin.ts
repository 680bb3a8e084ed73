import { compareStrings } from '../call-sites.js';
import type { RepoSnapshot, Unit } from '../construction-types.js';
import type { DetectResult, ParseOptions, ParseResult } from '../language-adapter.js';
import type { LanguagePlugin } from '../language.js';
import { goDependencyRules } from './go-dependencies.js';
import { loadGoGrammar } from './go-grammar.js';
import { goLeakRules } from './go-leaks.js';
import { createGoRecorder } from './go-recorder.js';
import { goRepoTests } from './go-repo-tests.js';
import { createGoScorer } from './go-scorer.js';
import { goTestRunner } from './go-tests.js';
import { goWriter } from './go-writer.js';
import { maskGoBody } from './mask-go-body.js';
import { isGoSourceFile, parseGoUnits } from './parse-go-units.js';
import { join } from 'node:path';
import { projectRoot } from '../../project-root.js';

/** The Go sources of a snapshot, and go.mod: what says a repository is Go. */
export function detectGo(snapshot: RepoSnapshot): DetectResult {
  const files = snapshot.files.filter((f) => f.endsWith('.go') && !f.split('/').includes('vendor')).sort();
  const hasGoMod = snapshot.files.includes('go.mod');
  const outsideTests = files.filter(isGoSourceFile).length;
  return {
    language: 'go',
    detected: files.length > 0,
    files,
    reason: files.length > 0 ? `${files.length} Go files (${outsideTests} outside tests)${hasGoMod ? ', go.mod' : ''}` : 'no .go files',
  };
}

/** The library as the prompt names it: a Go module and its packages (folders). */
export function describeGoLibrary(units: readonly Unit[]): string {
  const packages = [...new Set(units.map((u) => u.module))].sort(compareStrings);
  const shown = packages.slice(0, 5).map((p) => `\`${p}\``).join(', ');
  return packages.length === 0 ? 'a Go module' : `a Go module (packages ${shown}${packages.length > 5 ? ', ...' : ''})`;
}

/**
 * Units the driver cannot call: a package's `init` (Go runs it, no code may call it) and a generic
 * function (reflect cannot take it without instantiation).
 */
function unbuildableGo(unit: Unit): { code: string; reason: string } | null {
  if (unit.kind === 'function' && unit.qualname === 'init') return { code: 'init', reason: 'a package init function: Go runs it before anything else, and no code may call it' };
  if (unit.kind === 'function' && new RegExp(`^func\\s+${unit.qualname}\\s*\\[`).test(unit.signature)) {
    return { code: 'generic', reason: 'a generic function: the Go harness calls targets through reflect, which needs them instantiated' };
  }
  return null;
}

async function parseGo(snapshot: RepoSnapshot, options?: ParseOptions): Promise<ParseResult> {
  // masking and repository-test masking parse synchronously with the grammar this loads
  await loadGoGrammar();
  return parseGoUnits(snapshot, options);
}

/**
 * Go (issue 20): tree-sitter units of a module's packages (functions and methods, exported or not),
 * a record and mutate harness and a judge that compile a generated driver into the package with
 * `go test` (runtime/), the `go` runner, the `go` image (Debian's golang-go 1.19, offline).
 */
export function createGoPlugin(): LanguagePlugin {
  const plugin: LanguagePlugin = {
    language: 'go',
    detect: detectGo,
    parseUnits: parseGo,
    harnessDir: join(projectRoot(), 'src', 'languages', 'go', 'runtime'),
    maskBody: maskGoBody,
    runnerImage: 'go',
    taskLanguages: ['go'],
    displayName: 'Go',
    codeFence: 'go',
    image: 'go',
    testRunners: [goTestRunner],
    createScorer: ({ provider, logger }) => createGoScorer({ provider, logger }),
    unbuildable: unbuildableGo,
    isSourceFile: isGoSourceFile,
    describeLibrary: describeGoLibrary,
    recorder: createGoRecorder(),
    writer: goWriter,
    repoTests: goRepoTests,
    selection: Object.freeze({ settlesAsync: false, receiverInParams: false, staticMarker: 'static' }),
    values: Object.freeze({
      description: 'Every value is a Go expression as source text, written inside the target\'s package: "42", "\\"abc\\"", "[]string{\\"a\\"}", "map[string]int{\\"a\\": 1}", "Point{X: 1, Y: 2}".',
      isPlainValue: (value: unknown) => typeof value === 'string',
      keywordArguments: false,
    }),
    rootBuildDirs: Object.freeze([]),
    leaks: goLeakRules,
    workspace: Object.freeze({ scrub: () => ({ remove: [], keep: [] }) }),
    dependencies: goDependencyRules,
  };
  return Object.freeze(plugin);
}
