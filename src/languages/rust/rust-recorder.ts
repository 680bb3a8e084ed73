import { join } from 'node:path';
import { projectRoot } from '../../project-root.js';
import type { Candidate, InputProposal, Unit } from '../construction-types.js';
import type { FileEntry } from '../../sandbox/types.js';
import { compiledHarnessEntries } from '../compiled-harness-entries.js';
import { paramTypesOf, rustInputs } from './rust-inputs.js';

/** Where the Rust record harness's files go in the record sandbox. */
export const RUST_HARNESS_DIR_IN_SANDBOX = '/var/lib/codemidas/rust-harness';

/** The harness's files (runtime/): the record and mutate drivers, the judge's comparison they share, and the codec each driver module starts with. */
const HARNESS_FILES = ['record_driver.py', 'mutate_driver.py', 'judge.py', 'codemidas_codec.rs.txt'];

/** How many inputs a target gets before the driver runs them (it keeps at most the config's maxCases). */
const INPUTS_PER_TARGET = 60;

/** The decorator a struct's class unit carries for each receiver expression found for it (rust-plugin.ts sets them). */
export const RECEIVER_DECORATOR = 'receiver-expr:';

export async function rustHarnessEntries(runtimeDir = join(projectRoot(), 'src', 'languages', 'rust', 'runtime')): Promise<FileEntry[]> {
  return compiledHarnessEntries(RUST_HARNESS_DIR_IN_SANDBOX, runtimeDir, HARNESS_FILES);
}

/** A method's type (`impl:Point`) and how it takes its receiver (`self:&mut self`; null for an associated function). */
export function methodOwner(unit: Unit): { type: string | null; self: string | null } {
  const type = unit.decorators.find((d) => d.startsWith('impl:'))?.slice('impl:'.length) ?? null;
  const self = unit.decorators.find((d) => d.startsWith('self:'))?.slice('self:'.length) ?? null;
  return { type, self };
}

/**
 * One candidate as record_driver.py takes it: its module file, its parameters' Rust types, a
 * method's receivers (the struct's `receiver-expr:` decorators) and its inputs (rust-inputs.ts), all
 * Rust source. `classes`: the repository's struct units by id.
 */
export function rustTarget(candidate: Candidate, classes: ReadonlyMap<string, Unit>, seed: number): Record<string, unknown> {
  const u = candidate.unit;
  const owner = methodOwner(u);
  const struct = owner.type === null ? undefined : [...classes.values()].find((c) => c.qualname === owner.type);
  const types = paramTypesOf(u);
  return {
    unitId: u.id,
    module: u.module,
    target: u.qualname,
    kind: u.kind,
    // where the mutate run's mutants go
    file: u.file,
    bodyStartLine: u.bodyStartLine,
    bodyEndLine: u.bodyEndLine,
    params: u.params.map((p, k) => ({ name: p.name, type: types[k] ?? p.annotation })),
    ...(owner.self !== null ? { selfKind: owner.self, selfType: owner.type, receivers: (struct?.decorators ?? []).filter((d) => d.startsWith(RECEIVER_DECORATOR)).map((d) => d.slice(RECEIVER_DECORATOR.length)) } : {}),
    inputs: rustInputs(u, seed, INPUTS_PER_TARGET, structValues(classes)),
  };
}

/** The crate's structs by name, each with its receiver expressions: what a parameter of that type is given. */
function structValues(classes: ReadonlyMap<string, Unit>): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const c of classes.values()) {
    const values = c.decorators.filter((d) => d.startsWith(RECEIVER_DECORATOR)).map((d) => d.slice(RECEIVER_DECORATOR.length));
    if (values.length > 0 && !out.has(c.qualname)) out.set(c.qualname, values);
  }
  return out;
}

/**
 * Rust's record harness (`runtime/record_driver.py` and `runtime/mutate_driver.py`, run with the
 * image's python3): targets grouped by crate, a generated driver module compiled into each module
 * file with `cargo test --lib --no-run`; the mutate run is bounded and has no mutant-guided search.
 */
export function createRustRecorder(options: { runtimeDir?: string; seed?: number } = {}): {
  entries: () => Promise<FileEntry[]>;
  command: (script: 'record' | 'mutate') => string[];
  config: () => Record<string, unknown>;
  target: (candidate: Candidate, classes: ReadonlyMap<string, Unit>, proposals: readonly InputProposal[]) => Record<string, unknown>;
} {
  return Object.freeze({
    entries: () => rustHarnessEntries(options.runtimeDir),
    command: (script: 'record' | 'mutate') => ['python3', `${RUST_HARNESS_DIR_IN_SANDBOX}/${script}_driver.py`],
    config: () => ({}),
    target: (candidate: Candidate, classes: ReadonlyMap<string, Unit>) => rustTarget(candidate, classes, options.seed ?? 0),
  });
}
