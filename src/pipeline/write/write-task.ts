import { compareStrings } from './stable-json.js';
import type { Recording, RecordedCase, RepoSnapshot, Unit } from '../types.js';
import { normaliseCases, renderCasesFile } from './render-cases.js';
import { renderPrompt, taskTitle } from './render-prompt.js';
import { renderReadableTest } from './render-readable-test.js';
import { noopSpecWriter, type SpecWriter } from './spec-writer.js';

/** The parts of a task the write stage produces (before masking and gates). */
export interface WrittenTask {
  name: string;
  unit: Unit;
  title: string;
  prompt: string;
  cases: RecordedCase[];
  /** Files under hidden/: `cases.json`, `readable/test_<name>.py`. */
  hidden: Map<string, Buffer>;
}

/** Task folder name from a unit: `Wrapper.fill` → `wrapper-fill`, `to_roman` → `to-roman`. */
export function taskNameOf(unit: Pick<Unit, 'qualname' | 'module'>, withModule = false): string {
  const raw = withModule ? `${unit.module}.${unit.qualname}` : unit.qualname;
  const name = raw
    .replace(/([a-z0-9])([A-Z])/g, '$1-$2')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
  return /^[a-z0-9]/.test(name) ? name : `t-${name}`;
}

/**
 * Folder names for every unit, unique: the qualname alone when no other unit shares it, else the
 * module-qualified name; names that still collide (`itertoolz._get` and `itertoolz.get` both give
 * `toolz-itertoolz-get`) get `-2`, `-3`, ... in unit-id order, the first keeping the plain name.
 * Deterministic, independent of the order units arrive in. Two units sharing a folder would have
 * one task's drop delete the other's accepted package.
 */
export function assignTaskNames(units: readonly Unit[]): Map<string, string> {
  const counts = new Map<string, number>();
  for (const u of units) counts.set(taskNameOf(u), (counts.get(taskNameOf(u)) ?? 0) + 1);
  const wanted = new Map<string, string>();
  for (const u of units) wanted.set(u.id, (counts.get(taskNameOf(u)) ?? 0) > 1 ? taskNameOf(u, true) : taskNameOf(u));
  const taken = new Set<string>();
  const out = new Map<string, string>();
  const ids = [...wanted.keys()].sort(compareStrings);
  // plain names first, so a numbered name never takes another unit's plain one
  const firstOf = new Map<string, string>();
  for (const id of ids) {
    const name = wanted.get(id) as string;
    if (!firstOf.has(name)) firstOf.set(name, id);
  }
  for (const [name, id] of firstOf) {
    out.set(id, name);
    taken.add(name);
  }
  for (const id of ids) {
    if (out.has(id)) continue;
    const name = wanted.get(id) as string;
    let k = 2;
    while (taken.has(`${name}-${k}`)) k += 1;
    out.set(id, `${name}-${k}`);
    taken.add(`${name}-${k}`);
  }
  return new Map(units.map((u) => [u.id, out.get(u.id) as string]));
}

/** Thrown when a recording cannot become a task; carries the funnel code. */
export class WriteError extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
    this.name = 'WriteError';
  }
}

/**
 * The write stage for one recording: cases.json (sorted, stable ids), the readable pytest rendering,
 * the prompt (through the `SpecWriter` hook, a no-op by default).
 */
export async function writeTask(input: {
  suite: string;
  name: string;
  unit: Unit;
  recording: Recording;
  snapshot: Pick<RepoSnapshot, 'origin' | 'revision'>;
  libraryName: string;
  specWriter?: SpecWriter;
  signal?: AbortSignal;
}): Promise<WrittenTask> {
  const { unit, name } = input;
  const cases = normaliseCases(input.recording.cases, name);
  if (cases.length === 0) throw new WriteError('no-cases', 'the recording holds no usable case');
  const draft = renderPrompt({ unit, cases, libraryName: input.libraryName });
  const specWriter = input.specWriter ?? noopSpecWriter;
  const rewritten = await specWriter.rewrite({ unit, draft, cases, ...(input.signal ? { signal: input.signal } : {}) });
  const prompt = rewritten ?? draft;
  const hidden = new Map<string, Buffer>();
  hidden.set('cases.json', Buffer.from(renderCasesFile(cases)));
  const first = cases[0];
  const target = first?.target ?? unit.qualname;
  const module = first?.module ?? unit.module;
  hidden.set(
    `readable/test_${name.replace(/-/g, '_')}.py`,
    Buffer.from(renderReadableTest({ taskId: `${input.suite}/${name}`, module, target, cases })),
  );
  return { name, unit, title: taskTitle(unit), prompt, cases, hidden };
}

