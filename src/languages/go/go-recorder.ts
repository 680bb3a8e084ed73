import { join } from 'node:path';
import { projectRoot } from '../../project-root.js';
import type { Candidate, InputProposal, Unit } from '../construction-types.js';
import type { FileEntry } from '../../sandbox/types.js';
import { compiledHarnessEntries } from '../compiled-harness-entries.js';
import { goInputs, structLiterals } from './go-inputs.js';

/** Where the Go record harness's files go in the record sandbox. */
export const GO_HARNESS_DIR_IN_SANDBOX = '/var/lib/codemidas/go-harness';

/** The harness's files (runtime/): the record and mutate drivers, the judge's comparison they share, and the codec compiled into the package. */
const HARNESS_FILES = ['record_driver.py', 'mutate_driver.py', 'search_inputs.py', 'judge.py', 'codemidas_codec.go.txt'];

/** How many inputs a target gets before the driver runs them (it keeps at most the config's maxCases). */
const INPUTS_PER_TARGET = 60;

export async function goHarnessEntries(runtimeDir = join(projectRoot(), 'src', 'languages', 'go', 'runtime')): Promise<FileEntry[]> {
  return compiledHarnessEntries(GO_HARNESS_DIR_IN_SANDBOX, runtimeDir, HARNESS_FILES);
}

/** The receiver type a method is called on (`*Point` → `Point`, `Pair[K, V]` → `Pair`), from its `receiver:` decorator. */
function receiverType(unit: Unit): string | null {
  const written = unit.decorators.find((d) => d.startsWith('receiver:'))?.slice('receiver:'.length);
  return written === undefined ? null : written.replace(/^\*/, '').replace(/\[.*$/, '');
}

/**
 * One candidate as record_driver.py takes it: its package folder, its parameters' Go types, a
 * method's receivers (composite literals of its struct type: the zero
 * value, then fields given values) and its inputs (go-inputs.ts), all Go source. `structs`: the
 * package's struct types by name (units of kind `class` of the same package).
 */
export function goTarget(candidate: Candidate, structs: ReadonlyMap<string, Unit>, seed: number): Record<string, unknown> {
  const u = candidate.unit;
  const receiver = u.kind === 'method' ? receiverType(u) : null;
  return {
    unitId: u.id,
    package: u.module,
    target: u.qualname,
    kind: u.kind,
    // where the mutate run's mutants go
    file: u.file,
    startLine: u.startLine,
    endLine: u.endLine,
    bodyStartLine: u.bodyStartLine,
    bodyEndLine: u.bodyEndLine,
    params: u.params.map((p) => ({ name: p.name, type: p.annotation, variadic: p.kind === 'var-positional' })),
    ...(receiver !== null ? { receiverType: receiver, receivers: structLiterals(receiver, structs) } : {}),
    inputs: goInputs(u, structs, seed, INPUTS_PER_TARGET),
  };
}

/** The struct types of `unit`'s package by name, from the repository's class units. */
export function packageStructs(unit: Unit, classes: ReadonlyMap<string, Unit>): Map<string, Unit> {
  const out = new Map<string, Unit>();
  for (const c of classes.values()) if (c.module === unit.module) out.set(c.qualname, c);
  return out;
}

/**
 * Go's record harness (`runtime/record_driver.py` and `runtime/mutate_driver.py`, run with the
 * image's python3): targets grouped by package, a generated driver compiled into each with `go test`;
 * the mutate run hunts survivors with calls near the recorded ones (search_inputs.py).
 */
export function createGoRecorder(options: { runtimeDir?: string; seed?: number } = {}): {
  entries: () => Promise<FileEntry[]>;
  command: (script: 'record' | 'mutate') => string[];
  config: () => Record<string, unknown>;
  target: (candidate: Candidate, classes: ReadonlyMap<string, Unit>, proposals: readonly InputProposal[]) => Record<string, unknown>;
} {
  return Object.freeze({
    entries: () => goHarnessEntries(options.runtimeDir),
    command: (script: 'record' | 'mutate') => ['python3', `${GO_HARNESS_DIR_IN_SANDBOX}/${script}_driver.py`],
    config: () => ({}),
    target: (candidate: Candidate, classes: ReadonlyMap<string, Unit>) => goTarget(candidate, packageStructs(candidate.unit, classes), options.seed ?? 0),
  });
}
