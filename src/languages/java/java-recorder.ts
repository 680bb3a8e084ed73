import { join } from 'node:path';
import { projectRoot } from '../../project-root.js';
import type { Candidate, InputProposal, Unit } from '../construction-types.js';
import type { FileEntry } from '../../sandbox/types.js';
import { compiledHarnessEntries } from '../compiled-harness-entries.js';
import { concreteType, constructed, javaInputs, typeVarsOf, warmed } from './java-inputs.js';
import { CONSTRUCTOR_NAME, isJavaTestFile } from './parse-java-units.js';

/** Where the Java record harness's files go in the record sandbox. */
export const JAVA_HARNESS_DIR_IN_SANDBOX = '/var/lib/codemidas/java-harness';

/** The harness's files (runtime/): the record and mutate drivers, the judge's comparison they share, the driver template and the mutants' compiler. */
const HARNESS_FILES = ['record_driver.py', 'mutate_driver.py', 'judge.py', 'codemidas_driver.java.txt', 'CodemidasJavac.java.txt'];

/** How many inputs a target gets before the driver runs them (it keeps at most the config's maxCases). */
const INPUTS_PER_TARGET = 60;

/** How many receivers an instance method's inputs are each run on; a method without parameters gets more (they alone tell its cases apart). */
const RECEIVERS_PER_TARGET = 4;
const RECEIVERS_WITHOUT_PARAMETERS = 16;

export async function javaHarnessEntries(runtimeDir = join(projectRoot(), 'src', 'languages', 'java', 'runtime')): Promise<FileEntry[]> {
  return compiledHarnessEntries(JAVA_HARNESS_DIR_IN_SANDBOX, runtimeDir, HARNESS_FILES);
}

/** The repository's class units by simple name (the harness builds arguments and receivers from their constructors). */
export function classesByName(classes: ReadonlyMap<string, Unit>): Map<string, Unit> {
  const out = new Map<string, Unit>();
  for (const c of classes.values()) if (!out.has(c.qualname)) out.set(c.qualname, c);
  return out;
}

/**
 * Up to `count` receivers of an instance method: from its class's constructors, and (half of them
 * at most, when the class has void methods) instances warmed by calling those first.
 */
function receiversOf(owner: Unit, classes: ReadonlyMap<string, Unit>, count: number, seed: number): string[] {
  const warm = warmed(owner, classes, Math.floor(count / 2));
  const plain = constructed(owner, classes, 0, count - warm.length, seed).slice(0, count - warm.length);
  return [...plain, ...warm];
}

/**
 * One candidate as record_driver.py takes it: its package, file, class and member, whether it is
 * static, a constructor, returns nothing, or is private (called through reflection), its parameters' Java types, an instance method's
 * receivers (`new C(…)` from its class's constructors) and its inputs (java-inputs.ts), all Java
 * source.
 */
export function javaTarget(candidate: Candidate, classes: ReadonlyMap<string, Unit>, seed: number): Record<string, unknown> {
  const u = candidate.unit;
  const [cls = '', rawMember = ''] = u.qualname.split('.');
  const member = rawMember.replace(/~\d+$/, '');
  const isStatic = u.decorators.includes('static');
  const byName = classesByName(classes);
  const owner = classes.get(`${u.module}:${cls}`) ?? byName.get(cls);
  return {
    unitId: u.id,
    package: u.module,
    file: u.file,
    cls,
    member,
    target: u.qualname,
    static: isStatic,
    ctor: member === CONSTRUCTOR_NAME,
    void: u.returnAnnotation === 'void',
    // a private member: the driver's class cannot name it, so it calls it through reflection
    reflect: u.decorators.includes('private'),
    bodyStartLine: u.bodyStartLine,
    bodyEndLine: u.bodyEndLine,
    // a generic member's type variables given concrete types (`List<T>` → `List<Integer>`)
    params: u.params.map((p) => ({ name: p.name, type: p.annotation === null ? null : concreteType(p.annotation, typeVarsOf(u)) })),
    ...(isStatic ? {} : { receivers: owner === undefined ? [] : receiversOf(owner, byName, u.params.length === 0 ? RECEIVERS_WITHOUT_PARAMETERS : RECEIVERS_PER_TARGET, seed) }),
    inputs: javaInputs(u, byName, seed, INPUTS_PER_TARGET, isJavaTestFile),
  };
}

/** Java's record harness (`runtime/record_driver.py` and `runtime/mutate_driver.py`, run with the image's python3): no mutant-guided search yet. */
export function createJavaRecorder(options: { runtimeDir?: string; seed?: number } = {}): {
  entries: () => Promise<FileEntry[]>;
  command: (script: 'record' | 'mutate') => string[];
  config: () => Record<string, unknown>;
  target: (candidate: Candidate, classes: ReadonlyMap<string, Unit>, proposals: readonly InputProposal[]) => Record<string, unknown>;
} {
  return Object.freeze({
    entries: () => javaHarnessEntries(options.runtimeDir),
    command: (script: 'record' | 'mutate') => ['python3', `${JAVA_HARNESS_DIR_IN_SANDBOX}/${script}_driver.py`],
    config: () => ({}),
    target: (candidate: Candidate, classes: ReadonlyMap<string, Unit>) => javaTarget(candidate, classes, options.seed ?? 0),
  });
}
