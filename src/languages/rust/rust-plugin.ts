import { join } from 'node:path';
import { projectRoot } from '../../project-root.js';
import { compareStrings } from '../call-sites.js';
import type { RepoSnapshot, Unit } from '../construction-types.js';
import type { DetectResult, ParseOptions, ParseResult } from '../language-adapter.js';
import type { LanguagePlugin } from '../language.js';
import { isRustSourceFile, parseRustUnits, TYPEVARS_DECORATOR } from './parse-rust-units.js';
import { maskRustBody } from './mask-rust-body.js';
import { rustDependencyRules } from './rust-dependencies.js';
import { loadRustGrammar } from './rust-grammar.js';
import { rustReceivers } from './rust-inputs.js';
import { rustLeakRules } from './rust-leaks.js';
import { createRustRecorder, RECEIVER_DECORATOR } from './rust-recorder.js';
import { rustRepoTests } from './rust-repo-tests.js';
import { createRustScorer } from './rust-scorer.js';
import { rustTestRunner } from './rust-tests.js';
import { rustWriter } from './rust-writer.js';

/** The Rust sources of a snapshot, and Cargo.toml: what says a repository is Rust. */
export function detectRust(snapshot: RepoSnapshot): DetectResult {
  const files = snapshot.files.filter((f) => f.endsWith('.rs') && !f.split('/').some((d) => d === 'target' || d === 'vendor')).sort();
  const hasManifest = snapshot.files.some((f) => f === 'Cargo.toml' || f.endsWith('/Cargo.toml'));
  const library = files.filter(isRustSourceFile).length;
  return {
    language: 'rust',
    detected: files.length > 0 && hasManifest,
    files,
    reason: files.length > 0 ? `${files.length} Rust files (${library} library sources)${hasManifest ? ', Cargo.toml' : ', no Cargo.toml'}` : 'no .rs files',
  };
}

/** The library as the prompt names it: a Rust crate and its module files. */
export function describeRustLibrary(units: readonly Unit[]): string {
  const modules = [...new Set(units.map((u) => u.module))].sort(compareStrings);
  const shown = modules.slice(0, 5).map((p) => `\`${p}\``).join(', ');
  return modules.length === 0 ? 'a Rust crate' : `a Rust crate (modules ${shown}${modules.length > 5 ? ', ...' : ''})`;
}

/** Units the driver cannot call: a generic function without concrete types for its type parameters, an `unsafe` one. */
function unbuildableRust(unit: Unit): { code: string; reason: string } | null {
  if (unit.decorators.includes('generic') && !unit.decorators.some((d) => d.startsWith(TYPEVARS_DECORATOR))) {
    return { code: 'generic', reason: 'a generic function whose type parameters have no concrete type the harness knows for their bounds (rust-generics.ts): it binds each argument to a concrete type' };
  }
  if (unit.decorators.includes('unsafe')) return { code: 'unsafe', reason: 'an unsafe function: its cases could be undefined behaviour' };
  return null;
}

/** Units, with each struct's receiver expressions (rust-inputs.ts `rustReceivers`) as `receiver-expr:` decorators for the recorder. */
async function parseRust(snapshot: RepoSnapshot, options?: ParseOptions): Promise<ParseResult> {
  // masking and repository-test masking parse synchronously with the grammar this loads
  await loadRustGrammar();
  const result = await parseRustUnits(snapshot, options);
  const units = result.units.map((u) => (u.kind === 'class' ? { ...u, decorators: [...u.decorators, ...rustReceivers(u.qualname, result.units).map((r) => `${RECEIVER_DECORATOR}${r}`)] } : u));
  return { ...result, units };
}

/**
 * Rust (first version): tree-sitter units of a crate's library (free functions and `impl` methods,
 * any visibility), a record and mutate harness and a judge that compile a generated driver module
 * into the crate's library tests with cargo (runtime/), the `rust` runner, the `rust` image
 * (Debian's rustc-web and cargo-web, offline).
 */
export function createRustPlugin(): LanguagePlugin {
  const plugin: LanguagePlugin = {
    language: 'rust',
    detect: detectRust,
    parseUnits: parseRust,
    harnessDir: join(projectRoot(), 'src', 'languages', 'rust', 'runtime'),
    maskBody: maskRustBody,
    runnerImage: 'rust',
    taskLanguages: ['rust'],
    displayName: 'Rust',
    codeFence: 'rust',
    image: 'rust',
    testRunners: [rustTestRunner],
    createScorer: ({ provider, logger }) => createRustScorer({ provider, logger }),
    unbuildable: unbuildableRust,
    isSourceFile: isRustSourceFile,
    describeLibrary: describeRustLibrary,
    recorder: createRustRecorder(),
    writer: rustWriter,
    repoTests: rustRepoTests,
    selection: Object.freeze({ settlesAsync: false, receiverInParams: false, staticMarker: 'static' }),
    values: Object.freeze({
      description: 'Every value is a Rust expression as source text, written inside the target\'s module, of its parameter\'s type: "42", "\\"abc\\"" (a &str), "String::from(\\"abc\\")", "vec![1, 2]", "&[1.5, 2.0]", "Some(3)", "Point { x: 1, y: 2 }".',
      isPlainValue: (value: unknown) => typeof value === 'string',
      keywordArguments: false,
    }),
    rootBuildDirs: Object.freeze(['target']),
    leaks: rustLeakRules,
    workspace: Object.freeze({ scrub: () => ({ remove: [], keep: [] }) }),
    dependencies: rustDependencyRules,
  };
  return Object.freeze(plugin);
}
