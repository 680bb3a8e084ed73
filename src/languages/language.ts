import type { DependencyInstaller } from '../images/dependency-image.js';
import type { ImageLanguage } from '../images/image-builder.js';
import type { Logger } from '../logging.js';
import type { Candidate, RecordedCase, TaskShape, Unit } from './construction-types.js';
import type { InputProposal } from './construction-types.js';
import type { FileEntry, SandboxProvider } from '../sandbox/types.js';
import type { Scorer } from '../scoring/types.js';
import type { LanguageAdapter } from './language-adapter.js';
import type { TaskTests } from '../tasks/task-schema.js';
import type { TestRunner } from '../tasks/test-runner.js';

/**
 * One language as a plugin: what construction and scoring need to know about it, so that the
 * generic code (build driver, record and mutation driver, write, mask, audit, episode manager,
 * server) names no language. The composition root builds a `LanguageRegistry` of plugins
 * (`src/cli/languages.ts`) and hands each task the plugin of its task.json `language`.
 *
 * A plugin is one folder, `src/languages/<id>/`, holding its TypeScript and the real source files of
 * the language that run in the sandbox (record harness, judge, templates), plus its image recipe
 * `sandbox-images/<image>/`.
 */
export interface LanguagePlugin extends LanguageAdapter {
  /** The task.json `language` values whose tasks this plugin builds and scores; the first is `language`. */
  readonly taskLanguages: readonly string[];
  /** The runtime image its tasks run on (`sandbox-images/<image>/`). */
  readonly image: ImageLanguage;
  /**
   * The task.json `tests.runner` values its scorer judges, each with the schema of its `tests`; the
   * catalog loader validates a task's `tests` with it and skips a task whose runner no plugin has.
   */
  readonly testRunners: readonly TestRunner[];
  /** The scorer of its tasks: a fresh sandbox of the task's image, its judge, the reward. */
  createScorer(deps: { provider: SandboxProvider; logger: Logger }): Scorer;
  /**
   * Why `unit` cannot become a task in the workspace layout this language's scorer runs (a funnel
   * drop code and a reason), or null when it can (Python: `not-importable`, a module name no import
   * statement can spell).
   */
  unbuildable(unit: Unit): { code: string; reason: string } | null;
  /** The language as people name it (`Python`), for prompts to models. */
  readonly displayName: string;
  /** The info string of its Markdown code fences (`python`). */
  readonly codeFence: string;
  /** True for the language's source files (which files ingest left out matter to the funnel). */
  isSourceFile(path: string): boolean;
  /** The library as the prompt names it, from its units: ``the Python package `textkit` ``. */
  describeLibrary(units: readonly Unit[]): string;
  /** The record harness: what the generic record and mutation driver runs in the record sandbox. */
  readonly recorder: RecordHarness;
  /** The write stage's language-specific rendering: prompt, examples, readable tests. */
  readonly writer: TaskWriter;
  /** The repository's own tests, which masking thins out (a test of the target gives it back). */
  readonly repoTests: RepoTests;
  /** What the leak audit reads and how it cuts code into tokens. */
  readonly leaks: LeakRules;
  /** What the select stage may keep of this language's units. */
  readonly selection: SelectionHints;
  /** The tagged value format of its recorded cases, as a model writing inputs must use it. */
  readonly values: ValueFormat;
  /** What a task's workspace keeps of the snapshot, beyond the generic scrub (built copies of the sources go). */
  readonly workspace: WorkspaceRules;
  /**
   * Folders at the repository root that ingest leaves out as build output (Python: `build`, `dist`
   * of setuptools). Empty for a language whose plugin tells built copies from sources itself
   * (JavaScript: a package may ship only `dist/`).
   */
  readonly rootBuildDirs: readonly string[];
  /** The repository's declared dependencies, and how this language installs them into its image. */
  readonly dependencies: DependencyRules;
}

/**
 * A repository's declared dependencies as a language reads them (never by running its files), and
 * the tool that installs them on the language image (DESIGN.md, Construction: real repositories).
 */
export interface DependencyRules {
  /** Installs what `declared` asks for (`DeclaredDependency.install`) into a layer on the image. */
  readonly installer: DependencyInstaller;
  /**
   * What the repository declares its code needs at run time (`files`: every file of the snapshot,
   * by repository-relative path), sorted by name, one entry per name. Never throws on a malformed
   * manifest: what cannot be read is left out.
   */
  declared(files: ReadonlyMap<string, Buffer>): DeclaredDependency[];
  /**
   * The file names that make a folder one package of a monorepo (`pyproject.toml`, `package.json`):
   * what `build --package` lists when the folder it names is no package.
   */
  readonly packageManifests: readonly string[];
  /** The module a record error says could not be found (`six` of "No module named 'six'"), or null. */
  missingModule(message: string): string | null;
  /**
   * The dependency providing `module`, which the code imports but no manifest declares (Debian's
   * python3-isodate imports `six` and its metadata lists nothing), as the installer would be asked
   * for it; null when `module` is the repository's own (`files`: every file of the snapshot) or no
   * package could provide it.
   */
  forModule(module: string, files: ReadonlyMap<string, Buffer>): DeclaredDependency | null;
}

/** One declared dependency. */
export interface DeclaredDependency {
  /** As the repository names it: `python-dateutil`, `is-mergeable-object`. */
  name: string;
  /** Where it is declared: `pyproject.toml`, `package.json devDependencies`. */
  from: string;
  /**
   * What the installer is asked for: `python3-dateutil` (apt), `is-mergeable-object@1.1.1` or
   * `ms@^2.1.0` (npm; the installer pins ranges); null when nothing installs it (`why` says so).
   */
  install: string | null;
  /** Set when `install` is null: why nothing installs it, and what the user can do. */
  why?: string;
  /** The names code imports it by (`dateutil`): a record error naming one of them blames this dependency. */
  modules: string[];
  /** Set when only the repository's tests need it (a test requirement list, a test file's import). */
  forTests?: true;
}

/**
 * The language's tagged value format (`{"t": <tag>, "v": <payload>}`, its codec), as far as inputs
 * proposed by a model may use it: plain data only, never a form the recorder evaluates as code.
 */
export interface ValueFormat {
  /** The format for a model: one paragraph naming every tag a proposal may use and its payload. */
  readonly description: string;
  /** True for a well-formed tagged value of plain data (nothing else is run). */
  isPlainValue(value: unknown): boolean;
  /** True when calls take keyword arguments (Python); false when `kwargs` must stay empty. */
  readonly keywordArguments: boolean;
}

/** What the select stage needs to know about a language (the rest of its rules are the same for all). */
export interface SelectionHints {
  /**
   * True when the record harness and the judge settle what an `async` unit returns (JavaScript
   * awaits the promise); false drops async units with code `async`.
   */
  readonly settlesAsync: boolean;
  /** True when a method's parameters start with its receiver (Python's `self`/`cls`); false when they do not (JavaScript). */
  readonly receiverInParams: boolean;
  /** The decorator (`Unit.decorators`) that marks a static method: `staticmethod` (Python), `static` (JavaScript). */
  readonly staticMarker: string;
}

/**
 * The language's part of the workspace scrub: files the generic rules do not know to be copies of
 * the sources (a package's built twins, its minified bundles), and sources that sit where the
 * generic rules scrub (a package that ships only `dist/`). The mask stage asks once per workspace.
 */
export interface WorkspaceRules {
  /** The scrub of a snapshot (`files`: every file, by repository-relative path), knowing its `units`. */
  scrub(snapshot: { files: ReadonlyMap<string, Buffer>; units: readonly Unit[] }): WorkspaceScrub;
}

export interface WorkspaceScrub {
  /**
   * Files the workspace loses, sorted by path, each with its rule (report.json `mask.scrubbed`) and,
   * where the package names the file as an entry point, the file written in its place (a shim that
   * loads the source and holds none of its code), else null.
   */
  remove: { path: string; rule: string; replacement: Buffer | null }[];
  /** Files the generic scrub would remove that the workspace keeps: they are the sources. */
  keep: string[];
}

/**
 * The sandbox side of recording, as the language's own source files. The generic driver
 * (`src/pipeline/record/record-candidates.ts`) starts one sandbox of the plugin's image with the
 * repository at `/workspace`, puts `entries()` at `/`, then runs `command('record')` and
 * `command('mutate')`, each with a JSON config on stdin, and reads one JSON document from stdout
 * (the shapes of `src/pipeline/record/harness-result-schema.ts`).
 */
export interface RecordHarness {
  /** Files for the sandbox, relative to `/` (the harness, its codec), with their folders. */
  entries(): Promise<FileEntry[]>;
  /** The argv of one harness run. */
  command(script: 'record' | 'mutate'): string[];
  /**
   * Config fields of both runs beyond the generic ones (repoRoot, seed, workDir, callTimeoutMs and
   * the targets): Python's `sysPath`, the import roots of the candidates.
   */
  config(candidates: readonly Candidate[], workspace: string): Record<string, unknown>;
  /** One candidate as the harness takes it. `classes`: the repository's class units by id. */
  target(candidate: Candidate, classes: ReadonlyMap<string, Unit>, proposals: readonly InputProposal[]): Record<string, unknown>;
  /**
   * True when its mutate run takes `mutantOf: { module, qualname }` on a target: the target's cases
   * are run with the mutants of that other unit's body (a helper they reach), for the entry pass of
   * record-candidates.ts. A harness without it never gets such a target.
   */
  readonly mutatesThroughEntries?: boolean;
}

/** The write stage's language-specific part: how a task's cases read to the agent and to people. */
export interface TaskWriter {
  /**
   * The deterministic prompt (Markdown) for `unit`: signature, behaviour, examples, what is compared.
   * With `methods` (a class or module task, as `shape` says; the first is `unit`), the prompt of the
   * class or module: each method's or function's signature, documentation and examples (a language
   * without it writes `unit`'s prompt).
   */
  renderPrompt(input: { unit: Unit; cases: readonly RecordedCase[]; libraryName: string; methods?: readonly Unit[]; shape?: 'class' | 'module' }): string;
  /** The cases the prompt shows as examples (an assertion review never drops them). */
  pickExamples(cases: readonly RecordedCase[]): RecordedCase[];
  /** One case as the language's REPL shows it (the LLM assertion reviewer reads cases this way). */
  exampleBlock(unit: Unit, c: RecordedCase): string;
  /** The lines of a prompt that are examples (an LLM rewrite may not add any). */
  exampleLines(prompt: string): string[];
  /** The task's title: the documentation's first line, else `Implement <qualname>`. */
  title(unit: Unit): string;
  /** The prompt with a note naming the units masked besides the target; unchanged when none. */
  withCoMaskedNote(prompt: string, coMasked: readonly Unit[]): string;
  /** The cases as a test file for people (hidden/, never run by scoring), and its path under hidden/. */
  readableTest(input: { taskId: string; taskName: string; cases: readonly RecordedCase[]; unit: Unit }): { path: string; content: string };
  /** The task shapes its prompts describe. Default `function` and `feature` (a class or module task needs `renderPrompt`'s `methods`). */
  shapes?: readonly TaskShape[];
  /**
   * The check that runs every example `prompt` shows on the reference (the build's examples gate),
   * or null when the prompt shows none. Absent: the language's examples are not checked.
   */
  examplesCheck?(input: { taskId: string; prompt: string; unit: Unit; tests: TaskTests }): ExamplesCheck | null;
}

/** One example a prompt shows, where it sits in the prompt. */
export interface PromptExample {
  /** `e1`, `e2`, … in the prompt's order. */
  id: string;
  /** True for an example of the prompt's own examples section; false for one a quoted docstring brings. */
  own: boolean;
  /** Its span in the prompt, [start, end) in characters: its comment lines (and a blank line before it) included. */
  start: number;
  end: number;
}

/** The examples of a prompt as a test run on the reference: one test per example. */
export interface ExamplesCheck {
  examples: PromptExample[];
  /** Files the check adds under hidden/ for the gate's run (removed again after it). */
  files: Map<string, Buffer>;
  /** task.json `tests` of that run. */
  tests: TaskTests;
  /** The id of the example a test result names; null for a result of no example. */
  exampleOf(testName: string): string | null;
}

/** The repository's own tests, as masking sees them. */
export interface RepoTests {
  /** True for a file whose tests masking may thin out. */
  isTestFile(path: string): boolean;
  /** The file without its tests of `unit` (`source` null: no test left, the file goes). */
  removeTestsOf(source: string, unit: Unit): { source: string | null; removed: string[] };
}

/** Tokens of a source text with their 1-based lines. */
export interface Tokens {
  tokens: string[];
  lines: number[];
}

/** What the leak audit needs of a language. */
export interface LeakRules {
  /**
   * Cuts source into tokens, comments and whitespace dropped; never throws (other languages' files,
   * broken code). The removed body is searched for as runs of these tokens.
   */
  tokenize(source: string): Tokens;
  /** True for the image files the audit indexes (the language's source files). */
  indexesImageFile(path: string): boolean;
  /**
   * Copies of the library under construction among `imagePaths` (indexed image files): the roots to
   * delete from the image for its tasks (task.json `runtime.scrub`), sorted.
   */
  findLibraryCopies(imagePaths: readonly string[], library: { units: readonly Unit[]; files: ReadonlySet<string> }): string[];
  /**
   * The folders of a root filesystem where the language's installed libraries live (`usr/lib/python3`),
   * relative to `/`: the local sandbox runs on the host's own, and the audit reads these of it.
   */
  hostLibraryFolders(): string[];
}
