import { createPythonScorer } from './python-scorer.js';
import { pythonExamplesCheck } from './prompt-examples.js';
import { foldersNamed } from '../host-folders.js';
import { pythonDependencyRules } from './python-dependencies.js';
import { pythonProposalValues } from './python-proposal-values.js';
import { pythonTestRunner } from './python-tests.js';
import { compareStrings } from '../../pipeline/write/stable-json.js';
import type { Unit } from '../construction-types.js';
import type { LanguagePlugin, RepoTests, TaskWriter } from '../language.js';
import { findLibraryCopies } from './library-copies.js';
import { maskPythonBody } from './mask-body.js';
import { removeTestsOfTarget } from './mask-tests.js';
import { isPythonTestPath, PYTHON_IDENTIFIER } from './parse-module-names.js';
import { createPythonAdapter } from './python-adapter.js';
import { createPythonRecorder } from './python-recorder.js';
import { tokenizePython } from './python-tokens.js';
import { exampleBlock, exampleLines, pickExamples, renderPrompt, taskTitle, withCoMaskedNote } from './render-prompt.js';
import { renderReadableTest } from './render-readable-test.js';

const isPythonFile = (path: string): boolean => path.endsWith('.py');

/** The prompt, its examples and the readable pytest file of a Python task. */
const pythonWriter: TaskWriter = Object.freeze({
  renderPrompt,
  pickExamples,
  exampleBlock,
  exampleLines,
  title: taskTitle,
  withCoMaskedNote,
  examplesCheck: pythonExamplesCheck,
  shapes: Object.freeze(['function', 'feature', 'class', 'module'] as const),
  readableTest: ({ taskId, taskName, cases, unit }: Parameters<TaskWriter['readableTest']>[0]) => {
    const first = cases[0];
    const content = renderReadableTest({ taskId, module: first?.module ?? unit.module, target: first?.target ?? unit.qualname, cases });
    return { path: `readable/test_${taskName.replace(/-/g, '_')}.py`, content };
  },
});

/** Test files of the repository (`test_*.py`, `*_test.py`, files under `tests/`), `conftest.py` left alone. */
const pythonRepoTests: RepoTests = Object.freeze({
  isTestFile: (path: string) => isPythonFile(path) && isPythonTestPath(path) && !path.endsWith('conftest.py'),
  removeTestsOf: (source: string, unit: Unit) => removeTestsOfTarget(source, unit.qualname),
});

/** The library's top-level package names, for the prompt (``the Python package `textkit` ``). */
function describeLibrary(units: readonly Unit[]): string {
  const tops = [...new Set(units.map((u) => u.module.split('.')[0] ?? u.module))].sort(compareStrings);
  return tops.length === 1 ? `the Python package \`${tops[0]}\`` : `a Python codebase (${tops.slice(0, 5).map((t) => `\`${t}\``).join(', ')})`;
}

/** Python: tree-sitter units, the Python record harness and judge (pytest for test scripts), the `python` image. */
export function createPythonPlugin(): LanguagePlugin {
  const adapter = createPythonAdapter({ maskBody: maskPythonBody });
  const plugin: LanguagePlugin = {
    ...adapter,
    taskLanguages: ['python'],
    displayName: 'Python',
    codeFence: 'python',
    image: 'python',
    testRunners: [pythonTestRunner],
    createScorer: ({ provider, logger }) => createPythonScorer({ provider, logger }),
    // A module below the workspace root (`src/`, a package of a monorepo) is scored from there
    // (task.json `tests.importRoots`); only a name `import` cannot spell is left out.
    unbuildable: (unit) =>
      unit.module.split('.').every((segment) => PYTHON_IDENTIFIER.test(segment))
        ? null
        : { code: 'not-importable', reason: `${unit.module} (${unit.file}) is no module name an import statement can reach` },
    isSourceFile: isPythonFile,
    describeLibrary,
    recorder: createPythonRecorder(),
    writer: pythonWriter,
    repoTests: pythonRepoTests,
    selection: Object.freeze({ settlesAsync: false, receiverInParams: true, staticMarker: 'staticmethod' }),
    values: pythonProposalValues,
    rootBuildDirs: Object.freeze(['build', 'dist']),
    dependencies: pythonDependencyRules,
    leaks: Object.freeze({
      tokenize: tokenizePython,
      indexesImageFile: isPythonFile,
      findLibraryCopies: (imagePaths: readonly string[], library: { units: readonly Unit[]; files: ReadonlySet<string> }) =>
        findLibraryCopies(imagePaths, { importNames: new Set(library.units.map((u) => u.module.split('.')[0] ?? u.module)), files: library.files }),
      hostLibraryFolders: () => foldersNamed(['usr/lib', 'usr/local/lib'], (name) => name.startsWith('python')),
    }),
    // the generic scrub covers Python's build output and bytecode
    workspace: Object.freeze({ scrub: () => ({ remove: [], keep: [] }) }),
  };
  return Object.freeze(plugin);
}
