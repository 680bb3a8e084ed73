import type { RepoSnapshot, Unit } from './construction-types.js';

/** What `detect` found: the language's source files in the snapshot, and why it thinks so. */
export interface DetectResult {
  language: string;
  /** True when the snapshot holds at least one source file of the language. */
  detected: boolean;
  /** Repository-relative paths of the language's source files, sorted. */
  files: string[];
  /** One line for people: `42 Python files (30 outside tests)` or `no .py files`. */
  reason: string;
}

/** A file the adapter could not use; the rest of the repository goes on. */
export interface ParseProblem {
  file: string;
  /**
   * The funnel's drop code: `syntax-error` (Python would refuse to import the file), `not-utf8`,
   * `not-importable` (no module name from an import root), `redefined` (a name defined twice, so
   * none of its copies is a unit). Absent: `parse-error`.
   */
  code?: ParseProblemCode;
  message: string;
}

export type ParseProblemCode = 'syntax-error' | 'not-utf8' | 'not-importable' | 'redefined' | 'parse-error';

export interface ParseResult {
  /** Units sorted by (file, startLine, qualname), each with its call sites across the repository. */
  units: Unit[];
  /** Files that do not parse or cannot be imported, sorted by file. */
  problems: ParseProblem[];
}

export interface ParseOptions {
  /** Checked between files; aborting rejects with the signal's reason. */
  signal?: AbortSignal;
}

/**
 * A unit whose body cannot be masked (Python: a one-line `def f(): return 1`, a range that does not
 * fit the file): a `MaskBody` throws it and the build drops the unit with `code`.
 */
export class MaskBodyError extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
    this.name = 'MaskBodyError';
  }
}

/**
 * Replaces the body of `unit` (lines `bodyStartLine..bodyEndLine` of `source`) so that the
 * implementation is gone while the signature and docstring stay. Returns the whole new file text.
 */
export type MaskBody = (source: string, unit: Unit) => string;

/**
 * Everything the construction pipeline needs to know about one language. Each adapter is an object
 * composed from functions in separate files (detect and parse here; masking, harness and runner by
 * their own stages), built by a `createXAdapter` factory at the composition root.
 */
export interface LanguageAdapter {
  /** `python`, later `javascript`, `go`, ... */
  readonly language: string;
  /** Looks at the snapshot's file list only; never reads file contents. */
  detect(snapshot: RepoSnapshot): DetectResult;
  /** Parses every source file; a file that does not parse becomes a problem, never an exception. */
  parseUnits(snapshot: RepoSnapshot, options?: ParseOptions): Promise<ParseResult>;
  /** Absolute path of the folder holding the adapter's sandbox-side source files (record harness, test templates). */
  readonly harnessDir: string;
  readonly maskBody: MaskBody;
  /** Name of the runtime sandbox image the language's code runs in (`python`). */
  readonly runnerImage: string;
}
