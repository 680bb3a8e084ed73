import type { Candidate, Drop, Param, Unit } from '../types.js';
import { seededShuffle } from './seeded-order.js';

/** What the caller may set; see `resolveSelectOptions` for defaults. */
export interface SelectOptions {
  /** Keep at most this many candidates, picked by a seeded shuffle. Default: no limit. */
  maxCandidates?: number;
  /** Seed of the pick when `maxCandidates` cuts. Default: 0. */
  seed?: number | string;
  /** Fewest body statements (nested ones counted, docstring not) for enough substance. Default: 3. */
  minStatements?: number;
  /** Most lines of code in the body (comments, blank lines and the docstring not counted). Default: 120. */
  maxLines?: number;
  /**
   * Keep private units (`_helper`, `_Cls.run`): they are reachable as `module._helper` and hold much
   * of a real library's logic; `false` drops them with code `private`. Default: true.
   */
  includePrivate?: boolean;
  /** Keep `async` units: the language's harness and judge settle the promise they return (its plugin's `selection`). Default: false. */
  settlesAsync?: boolean;
  /** A method's parameters start with its receiver (`self`, `cls`), as in Python (its plugin's `selection`). Default: true. */
  receiverInParams?: boolean;
  /** The decorator that marks a static method (its plugin's `selection`). Default: `staticmethod`. */
  staticMarker?: string;
}

export interface ResolvedSelectOptions {
  readonly maxCandidates: number;
  readonly seed: number | string;
  readonly minStatements: number;
  readonly maxLines: number;
  readonly includePrivate: boolean;
  readonly settlesAsync: boolean;
  readonly receiverInParams: boolean;
  readonly staticMarker: string;
}

export function resolveSelectOptions(options: SelectOptions = {}): ResolvedSelectOptions {
  return Object.freeze({
    maxCandidates: options.maxCandidates ?? Number.POSITIVE_INFINITY,
    seed: options.seed ?? 0,
    minStatements: options.minStatements ?? 3,
    maxLines: options.maxLines ?? 120,
    includePrivate: options.includePrivate ?? true,
    settlesAsync: options.settlesAsync ?? false,
    receiverInParams: options.receiverInParams ?? true,
    staticMarker: options.staticMarker ?? 'staticmethod',
  });
}

export interface Selection {
  /** Sorted by (file, startLine). */
  candidates: Candidate[];
  /** One per unit not kept, in unit order; `over-limit` ones last. */
  drops: Drop[];
}

/** A property's setter or deleter (a getter is judged on the attribute of a built instance). */
const PROPERTY_DECORATOR = /^\w+\.(setter|deleter)$/;
const ACCESSOR_NAME = /^(get|set|is|has)_/;
const ABSTRACT_BASE = /\b(ABC|ABCMeta|Protocol)\b/;
/** Bases that make a class a test suite (unittest, pytest helpers, Django, twisted.trial). */
const TEST_BASE = /\b(TestCase|IsolatedAsyncioTestCase|SimpleTestCase|TransactionTestCase)\b|\bunittest\./;
/**
 * Special methods whose behaviour is not a return value (allocation, attribute and item
 * assignment, descriptors, context managers, pickling): nothing a recorded case could judge. Every
 * other dunder (`__eq__`, `__getitem__`, `__repr__`, `__iter__`, `__contains__`, `__hash__`, ...) is
 * called through its instance like any method (a hash that varies with the hash seed is dropped by
 * the recorder as non-deterministic: each input runs under two seeds), and `__init__` is judged by
 * the state it leaves (`vars(<Class>(<args>))`, see record/README.md).
 */
const UNJUDGEABLE_DUNDERS = new Set([
  '__new__', '__del__', '__init_subclass__', '__class_getitem__', '__set_name__',
  '__getattr__', '__getattribute__', '__setattr__', '__delattr__', '__dir__',
  '__get__', '__set__', '__delete__', '__setitem__', '__delitem__',
  '__enter__', '__exit__', '__aenter__', '__aexit__', '__await__', '__aiter__', '__anext__',
  '__reduce__', '__reduce_ex__', '__getstate__', '__setstate__', '__getnewargs__', '__getnewargs_ex__',
  '__copy__', '__deepcopy__', '__sizeof__', '__subclasshook__', '__instancecheck__', '__subclasscheck__',
]);

/**
 * `*args`/`**kwargs` names that say nothing of what is passed: a function taking only such
 * parameters forwards them (a `__call__` of a wrapper) and, without docstring examples, has no
 * interface a task could describe. `*seqs`, `*dicts`, `*funcs`, `**parts` do say (the recorder builds
 * their elements from the name, see harness variations.name_pool).
 */
const GENERIC_VARIADIC_NAMES = new Set(['args', 'argv', 'arguments', 'a', 'kwargs', 'kw', 'kwds', 'kwarg', 'options', 'opts', 'params']);

function hasExamples(unit: Unit): boolean {
  return unit.docstring !== null && /^\s*>>>/m.test(unit.docstring);
}

type Verdict = { code: string; reason: string } | { reasons: string[] };

/**
 * Chooses the units worth a task: substantive, callable through a module attribute (private helpers
 * and special methods with a judgeable result included), free of detected impurities, synchronous,
 * within the size bound and not tests. Generators are kept: the recorder collects their first items
 * (`list(itertools.islice(gen(...), N))`, see record/README.md). Every unit ends as
 * either a candidate with the reasons it was kept or a drop with a stable code and a reason.
 */
export function selectCandidates(units: readonly Unit[], options: SelectOptions = {}): Selection {
  const resolved = resolveSelectOptions(options);
  const classes = new Map<string, Unit>();
  for (const unit of units) if (unit.kind === 'class') classes.set(`${unit.module}:${unit.qualname}`, unit);

  const ordered = [...units].sort((a, b) => compare(a.file, b.file) || a.startLine - b.startLine || compare(a.qualname, b.qualname));
  const kept: Candidate[] = [];
  const drops: Drop[] = [];
  for (const unit of ordered) {
    const verdict = judge(unit, classes, resolved);
    if ('code' in verdict) drops.push({ unitId: unit.id, stage: 'select', code: verdict.code, reason: verdict.reason });
    else kept.push({ unit, reasons: verdict.reasons });
  }
  if (kept.length <= resolved.maxCandidates) return { candidates: kept, drops };

  const chosen = new Set(seededShuffle(kept, resolved.seed).slice(0, resolved.maxCandidates));
  const candidates = kept.filter((c) => chosen.has(c));
  for (const c of kept) {
    if (!chosen.has(c)) {
      drops.push({
        unitId: c.unit.id,
        stage: 'select',
        code: 'over-limit',
        reason: `not among the ${resolved.maxCandidates} candidates picked with seed ${String(resolved.seed)} from ${kept.length}`,
      });
    }
  }
  return { candidates, drops };
}

/**
 * A method of a `Test*` class is a test unless the class is known and derives from no test base:
 * junit-xml's library classes are named `TestCase` and `TestSuite` (test files are left out before
 * select; a test class in a library file derives from `unittest.TestCase` or the like).
 */
function isTestClassMember(unit: Unit, segments: readonly string[], classes: ReadonlyMap<string, Unit>): boolean {
  return segments.slice(0, -1).some((segment, i) => {
    if (!/^Test/.test(segment)) return false;
    const owner = classes.get(`${unit.module}:${segments.slice(0, i + 1).join('.')}`);
    return owner === undefined || TEST_BASE.test(/\((.*)\)/.exec(owner.signature)?.[1] ?? '');
  });
}

function judge(unit: Unit, classes: ReadonlyMap<string, Unit>, options: ResolvedSelectOptions): Verdict {
  const segments = unit.qualname.split('.');
  const name = segments.at(-1) ?? unit.qualname;
  const lines = unit.codeLines;

  if (unit.kind === 'class') {
    return { code: 'class', reason: 'a class is a target through its methods; its unit only describes the constructor' };
  }
  if (/^test/.test(name) || isTestClassMember(unit, segments, classes)) {
    return { code: 'test', reason: `'${unit.qualname}' looks like a test, not library code` };
  }
  if (isDunder(name) && (unit.kind !== 'method' || UNJUDGEABLE_DUNDERS.has(name))) {
    return { code: 'dunder', reason: `special method '${name}' has no result a recorded case could judge (construction, assignment, protocol plumbing)` };
  }
  const privateSegment = segments.find((s) => s.startsWith('_') && !isDunder(s));
  if (privateSegment !== undefined && !options.includePrivate) return { code: 'private', reason: `'${privateSegment}' is private (leading underscore)` };

  let interfaceReason = 'interface: public module-level function';
  let ownParams = unit.params;
  if (unit.kind === 'method') {
    const classQualname = segments.slice(0, -1).join('.');
    const owner = classes.get(`${unit.module}:${classQualname}`);
    if (owner === undefined) return { code: 'no-class', reason: `the class '${classQualname}' of this method was not found` };
    if (unit.decorators.some((d) => /\babstractmethod$/.test(d))) return { code: 'abstract', reason: 'an abstract method has no behaviour to record' };
    if (ABSTRACT_BASE.test(owner.signature)) {
      return { code: 'abstract-class', reason: `'${classQualname}' is abstract (${owner.signature}); it cannot be constructed as it is` };
    }
    const isStatic = unit.decorators.includes(options.staticMarker);
    const isClassMethod = unit.decorators.includes('classmethod');
    if (!isStatic && options.receiverInParams) ownParams = unit.params.slice(1);
    if (isStatic || isClassMethod) {
      interfaceReason = `interface: ${isStatic ? 'static' : 'class'} method of public class ${classQualname}`;
    } else {
      const required = owner.params.slice(options.receiverInParams ? 1 : 0).filter(isRequired).length;
      const built = owner.callSites.length > 0 ? `; ${owner.callSites.length} constructor call sites` : '';
      interfaceReason = `interface: method of public class ${classQualname} (constructor takes ${required} required arguments${built})`;
    }
  }

  if (unit.decorators.some((d) => PROPERTY_DECORATOR.test(d))) return { code: 'property', reason: 'a property setter or deleter: its effect is an assignment, not a result' };
  if (ACCESSOR_NAME.test(name) && unit.kind === 'method' && unit.statementCount <= 2) {
    return { code: 'accessor', reason: `'${name}' is a getter/setter of ${unit.statementCount} statement(s)` };
  }
  if (unit.statementCount <= 1 && unit.calls.length === 1) {
    return { code: 'wrapper', reason: `a one-statement wrapper around ${unit.calls[0] ?? 'another function'}` };
  }
  if (unit.statementCount < options.minStatements) {
    return { code: 'too-small', reason: `${unit.statementCount} statement(s), fewer than ${options.minStatements}` };
  }
  if (lines > options.maxLines) return { code: 'too-large', reason: `${lines} lines of code, more than ${options.maxLines}` };
  if (unit.isAsync && !options.settlesAsync) return { code: 'async', reason: 'async functions are not supported yet' };
  const impurity = unit.impurities[0];
  if (impurity !== undefined) {
    const kind = impurity.includes(':') ? impurity.slice(0, impurity.indexOf(':')) : impurity;
    return { code: `impure:${kind}`, reason: `depends on the world outside its arguments: ${unit.impurities.join(', ')}` };
  }
  const variadicOnly = ownParams.length > 0 && ownParams.every((p) => p.kind === 'var-positional' || p.kind === 'var-keyword');
  // a constructor taking only `*args` (`numeric_range(*args)`, like `range`): built from small ints
  // and judged by the state it leaves
  const rangeLike = name === '__init__' && ownParams.length === 1 && ownParams[0]?.kind === 'var-positional';
  if (variadicOnly && !rangeLike && ownParams.every((p) => GENERIC_VARIADIC_NAMES.has(p.name)) && !hasExamples(unit)) {
    return { code: 'varargs-only', reason: `takes only ${ownParams.map((p) => (p.kind === 'var-positional' ? `*${p.name}` : `**${p.name}`)).join(', ')}: no interface to describe` };
  }

  const reasons = [
    `substance: ${unit.statementCount} statements (at least ${options.minStatements})`,
    interfaceReason,
    'pure: no clock, randomness, environment, network, filesystem, process, stream or global-state use detected',
    `size: ${lines} lines of code (at most ${options.maxLines})`,
  ];
  if (unit.callSites.length > 0) {
    const literal = unit.callSites.filter((s) => s.allLiteral).length;
    reasons.push(`inputs: ${unit.callSites.length} call sites, ${literal} with literal arguments`);
  }
  if (variadicOnly) reasons.push(`variadic: only ${ownParams.map((p) => (p.kind === 'var-positional' ? `*${p.name}` : `**${p.name}`)).join(', ')}; inputs from the parameter names and the docstring's examples`);
  if (privateSegment !== undefined) reasons.push(`private: '${privateSegment}' has a leading underscore; reachable as a module attribute all the same`);
  if (unit.isGenerator) reasons.push('generator: judged on list(itertools.islice(result, 100))');
  if (unit.docstring !== null) reasons.push('spec: has a docstring');
  return { reasons };
}

function isRequired(param: Param): boolean {
  return param.defaultValue === null && param.kind !== 'var-positional' && param.kind !== 'var-keyword';
}

function isDunder(name: string): boolean {
  return name.length > 4 && name.startsWith('__') && name.endsWith('__');
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
