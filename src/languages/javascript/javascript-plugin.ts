import { javascriptProposalValues } from './javascript-proposal-values.js';
import type { LanguagePlugin } from '../language.js';
import { javascriptDependencyRules } from './javascript-dependencies.js';
import { detectJavaScript } from './javascript-files.js';
import { javascriptLeakRules } from './javascript-leaks.js';
import { describeJavaScriptLibrary, isJavaScriptSourceFile, javascriptCodeFence, javascriptDisplayName } from './javascript-library.js';
import { createJavaScriptRecorder } from './javascript-recorder.js';
import { javascriptRepoTests } from './javascript-repo-tests.js';
import { createJavaScriptScorer } from './javascript-scorer.js';
import { nodeTestRunner } from './javascript-tests.js';
import { javascriptWorkspaceRules } from './javascript-workspace.js';
import { javascriptExamplesCheck } from './javascript-prompt-examples.js';
import { javascriptWriter } from './javascript-writer.js';
import { maskJavaScriptBody } from './mask-javascript-body.js';
import { parseJavaScriptUnits } from './parse-javascript-units.js';
import { javascriptRuntimeDir } from './record-javascript-cases.js';

/**
 * JavaScript and TypeScript: tree-sitter units of ES modules and CommonJS, the Node record harness
 * and mutation driver, the Node judge (`node` runner), the `node` image (Node 20, typescript).
 * TypeScript sources are transpiled, not type-checked: runtime behaviour is what is judged.
 */
export function createJavaScriptPlugin(): LanguagePlugin {
  const plugin: LanguagePlugin = {
    language: 'javascript',
    detect: detectJavaScript,
    parseUnits: parseJavaScriptUnits,
    harnessDir: javascriptRuntimeDir(),
    maskBody: maskJavaScriptBody,
    runnerImage: 'node',
    taskLanguages: ['javascript', 'typescript'],
    displayName: javascriptDisplayName,
    codeFence: javascriptCodeFence,
    image: 'node',
    testRunners: [nodeTestRunner],
    createScorer: ({ provider, logger }) => createJavaScriptScorer({ provider, logger }),
    // every unit the parser finds is reached through the module's exports, which the judge loads
    unbuildable: () => null,
    isSourceFile: isJavaScriptSourceFile,
    describeLibrary: describeJavaScriptLibrary,
    recorder: createJavaScriptRecorder(),
    // the examples gate runs every REPL example the prompt shows on the reference
    writer: Object.freeze({ ...javascriptWriter, examplesCheck: javascriptExamplesCheck }),
    repoTests: javascriptRepoTests,
    selection: Object.freeze({ settlesAsync: true, receiverInParams: false, staticMarker: 'static' }),
    values: javascriptProposalValues,
    rootBuildDirs: Object.freeze([]),
    leaks: javascriptLeakRules,
    workspace: javascriptWorkspaceRules,
    dependencies: javascriptDependencyRules,
  };
  return Object.freeze(plugin);
}
