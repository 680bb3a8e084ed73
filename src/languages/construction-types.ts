/**
 * The data every language plugin and the construction pipeline share (src/pipeline/types.ts
 * re-exports them for the pipeline): a repository snapshot, the units a plugin's parser finds, the
 * cases its harness records. Contracts of the construction pipeline (`codemidas build`): repository in, gated task packages out.
 * Stages: ingest → analyze → select → record → write → mask → audit → gate → package.
 * Every stage keeps a record of what it dropped and why (the funnel).
 */

/** A repository copied to a private folder the pipeline may read freely (never the user's checkout). */
export interface RepoSnapshot {
  /** Absolute path of the copy. */
  dir: string;
  /** What the user passed: a path or a git URL. */
  origin: string;
  /** Commit id when the origin is a git repository, else `working-tree`. */
  revision: string;
  /** Repository-relative POSIX paths of every file kept in the snapshot, sorted. */
  files: string[];
}

export interface Param {
  name: string;
  /** `positional` | `keyword` | `var-positional` (*args) | `var-keyword` (**kwargs) | `positional-only` | `keyword-only` */
  kind: 'positional' | 'positional-only' | 'keyword-only' | 'var-positional' | 'var-keyword';
  /** Annotation source text, or null. */
  annotation: string | null;
  /** Default value source text, or null. */
  defaultValue: string | null;
}

/** A call of some unit from somewhere in the repository, with its literal arguments when all are literals. */
export interface CallSite {
  file: string;
  line: number;
  /** Qualified name of the enclosing function/method, or `<module>`. */
  caller: string;
  /** Argument source texts, as written (`[ '3', "'abc'", 'width=10' ]`). */
  argumentTexts: string[];
  /** True when every argument is a Python literal (numbers, strings, bytes, tuples/lists/dicts/sets of literals, None/True/False). */
  allLiteral: boolean;
}

/** A function, method or class found by the analyzer. */
export interface Unit {
  /** Stable id: `<module>:<qualname>`, e.g. `pkg.text:wrap` or `pkg.text:Wrapper.fill`. */
  id: string;
  kind: 'function' | 'method' | 'class';
  /** Dotted module name importable from the repository root (or its `src/` root), e.g. `pkg.text`. */
  module: string;
  /** `wrap`, `Wrapper.fill`. */
  qualname: string;
  /** Repository-relative file path. */
  file: string;
  /** 1-based inclusive line range of the whole definition (decorators included). */
  startLine: number;
  endLine: number;
  /** 1-based inclusive line range of the body after the docstring (what masking replaces). */
  bodyStartLine: number;
  bodyEndLine: number;
  /** The `def ...:` line(s) as written. */
  signature: string;
  params: Param[];
  returnAnnotation: string | null;
  docstring: string | null;
  decorators: string[];
  /** Statements in the body (nested blocks counted), excluding the docstring. */
  statementCount: number;
  /** Lines of the body holding code (comments, blank lines and the docstring left out): its size. */
  codeLines: number;
  /** Names this unit calls (`foo`, `self.bar`, `mod.baz`), in order of first appearance. */
  calls: string[];
  /** Where this unit is called from in the repository. */
  callSites: CallSite[];
  isAsync: boolean;
  isGenerator: boolean;
  /** Names in the body that suggest the network, clock, randomness, files, processes or global state (`time.time`, `random`, `socket`, `global x`, ...). */
  impurities: string[];
  /**
   * Set when the harness cannot call this unit itself (a function its module does not export): the
   * unit of the same module, reachable by the harness, whose calls reach it. Its cases call that
   * entry; masking, the leak audit and the mutants work on this unit's own body.
   */
  via?: UnitEntry;
}

/** The callable unit a module-internal unit is recorded and judged through (`Unit.via`). */
export type UnitEntry = Pick<Unit, 'id' | 'kind' | 'qualname' | 'signature' | 'params' | 'returnAnnotation' | 'docstring' | 'decorators' | 'isAsync' | 'callSites'>;

export type DropStage = 'ingest' | 'analyze' | 'select' | 'record' | 'write' | 'mask' | 'audit' | 'gate';

export interface Drop {
  unitId: string;
  stage: DropStage;
  /** A stable short code (`too-small`, `private`, `impure:clock`, `no-cases`, `mutation-score`, `leak`, `timeout`, ...). */
  code: string;
  /** One line for people. */
  reason: string;
}

/** Counts per stage, with every drop and its reason. */
export interface Funnel {
  units: number;
  candidates: number;
  recorded: number;
  written: number;
  gated: number;
  drops: Drop[];
}

/** A target chosen by `select`, with the reasons it was kept. */
export interface Candidate {
  unit: Unit;
  reasons: string[];
}

/** One recorded case, as in docs/task-format.md (hidden/cases.json). */
export interface RecordedCase {
  id: string;
  module: string;
  target: string;
  /** `restore` (Python, record stage only): the receiver rebuilt from its attributes, see harness-result-schema.ts. */
  init: { args: unknown[]; kwargs: Record<string, unknown>; restore?: { type: string; attrs: Record<string, unknown>; slots?: boolean | undefined } | undefined } | null;
  args: unknown[];
  kwargs: Record<string, unknown>;
  /** `aliases` (JavaScript, runtime/aliases.mjs): the objects of the arguments a returned object is or holds. */
  expect: { returns: unknown; aliases?: unknown[] | undefined } | { raises: string };
  argsAfter: unknown[] | null;
  /** Python: what the REPL prints for the case's example (the result's repr; then the state's, for a stated case), for the prompt only. */
  shown?: string[] | undefined;
  /** Python: the line the target's call ended on (`line 12`: a return, or where an exception came out); with its outcome, the case's behaviour class (the prompt shows one example of each). */
  path?: string | undefined;
  /** Where the input came from: `repo-test`, `doctest`, `call-site`, `inner-call` (a call another target's case made), `result-flow` (another target's result as an argument), `type-hint`, `constructed`, `mutant-search`, `llm`. */
  source: string;
}

export interface MutationResult {
  total: number;
  killed: number;
  /** killed / total, or 1 when total is 0. */
  score: number;
  /** Short descriptions of the mutants that survived (`line 12: < → <=`). */
  survivors: string[];
}

/** What `record` produced for one candidate. */
export interface Recording {
  unitId: string;
  cases: RecordedCase[];
  mutation: MutationResult;
  /** The mutation result on the cases recorded before the mutant-guided search (absent when no search ran). */
  mutationBeforeSearch?: MutationResult;
  /** Per source, how many inputs were tried and how many became cases. */
  sources: Record<string, { tried: number; kept: number }>;
  /** Why inputs were dropped (non-deterministic, unserialisable, timeout, ...), counted. */
  rejected: Record<string, number>;
  /**
   * Set when the cases call another unit that reaches this one (`Unit.via`), because calling it
   * directly did not pin its body down (record-candidates.ts, the entry pass): its cases are the
   * entry's, its mutants this unit's own.
   */
  via?: UnitEntry;
  /**
   * A feature-level task's recording (issue 19, part 1): its cases call `entry` (`unitId` is
   * `<entry>#feature`), whose body and those of `helpers` (the private units only it reaches) are
   * removed together; `mutation` is over all of their bodies. With `shape: 'class'`, `entry` and
   * `helpers` are the methods of one class, each recorded on its own (`unitId` is
   * `<module>:<Class>#class`): the cases call every one of them. With `shape: 'module'`, they are
   * the module-level functions of one module, each recorded on its own (`unitId` is
   * `<module>#module`).
   */
  feature?: { entry: string; helpers: string[]; shape?: 'feature' | 'class' | 'module' };
}

/**
 * The shapes of task a build proposes: one function; a feature (a public entry with the private
 * helpers only it reaches); a class (its methods recorded on their own, removed together); a
 * module (its module-level functions recorded on their own, removed together).
 */
export type TaskShape = 'function' | 'feature' | 'class' | 'module';

/** What `--task-shapes` accepts, in order; a build proposes all of them unless told otherwise. */
export const TASK_SHAPES: readonly TaskShape[] = Object.freeze(['function', 'feature', 'class', 'module']);

/** A class recording's unit id: `<module>:<Class>#class`. */
export function classUnitId(module: string, owner: string): string {
  return `${module}:${owner}#class`;
}

/** A module recording's unit id: `<module>#module`. */
export function moduleUnitId(module: string): string {
  return `${module}#module`;
}

/** A feature recording's unit id: `<entry unit id>#feature`. */
export function featureUnitId(entryId: string): string {
  return `${entryId}#feature`;
}

/** An extra input for a candidate (an `InputProposer`'s), in the language's tagged value form. */
export interface InputProposal {
  args: unknown[];
  kwargs: Record<string, unknown>;
  init: { args: unknown[]; kwargs: Record<string, unknown> } | null;
}
