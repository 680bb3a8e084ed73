import { compareStrings } from './stable-json.js';
import type { Recording, RecordedCase, RepoSnapshot, Unit } from '../types.js';
import { normaliseCases, renderCasesFile } from './render-cases.js';
import type { TaskWriter } from '../../languages/language.js';
import { noopAssertionReviewer, noopSpecWriter, type AssertionReviewer, type ReferenceCode, type SpecWriter } from './spec-writer.js';

/** The parts of a task the write stage produces (before masking and gates). */
export interface WrittenTask {
  name: string;
  unit: Unit;
  title: string;
  prompt: string;
  cases: RecordedCase[];
  /** Cases the assertion reviewer dropped (0 without one). */
  reviewDropped: number;
  /** Files under hidden/: `cases.json`, the readable test (`readable/test_<name>.py` for Python). */
  hidden: Map<string, Buffer>;
}

/** The prompt's count of hidden cases (`writeTask` updates it when a review drops cases). */
export function hiddenCasesSentence(count: number): string {
  return `Hidden tests check ${count} recorded cases`;
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
 * How far an `AssertionReviewer` may thin a task's cases. A review that would leave fewer than
 * `minCases` cases, or less than `minShare` of them, is ignored as a whole (every case kept, the
 * fallback `review-below-minimum` reported): a task is never dropped on a model's opinion alone, and
 * a review that flags most cases says more about the spec (or the model) than about the cases.
 * The cases the prompt shows as examples are never dropped: the spec promises them by showing them.
 */
export interface ReviewBounds {
  /** Default 5. */
  minCases: number;
  /** Default 0.5. */
  minShare: number;
}

export const DEFAULT_REVIEW_BOUNDS: Readonly<ReviewBounds> = Object.freeze({ minCases: 5, minShare: 0.5 });

/** Which LLM hook of the write stage fell back, and why. */
export type WriteFallbackListener = (hook: 'spec-writer' | 'assertion-reviewer', reason: string) => void;

/**
 * The write stage for one recording: cases.json (sorted, stable ids), the language's readable test
 * rendering, the prompt (the language's `TaskWriter`, then the `SpecWriter` hook, a no-op by
 * default), then the `AssertionReviewer`
 * (a no-op by default) on the final prompt, before the hidden tests are rendered.
 */
export async function writeTask(input: {
  suite: string;
  name: string;
  unit: Unit;
  recording: Recording;
  snapshot: Pick<RepoSnapshot, 'origin' | 'revision'>;
  libraryName: string;
  /** The language's prompt and readable-test rendering (its plugin's `writer`). */
  writer: TaskWriter;
  /** A class or module task's methods or functions (the first is `unit`): the prompt describes each. */
  methods?: readonly Unit[];
  /** What `methods` are: a class's (default) or a module's. */
  shape?: 'class' | 'module';
  specWriter?: SpecWriter;
  assertionReviewer?: AssertionReviewer;
  /** Default `DEFAULT_REVIEW_BOUNDS`. */
  reviewBounds?: Partial<ReviewBounds>;
  /** The unit's code, for the LLM hooks. */
  reference?: ReferenceCode;
  onLlmFallback?: WriteFallbackListener;
  signal?: AbortSignal;
}): Promise<WrittenTask> {
  const { unit, name, writer } = input;
  let cases = normaliseCases(input.recording.cases, name);
  if (cases.length === 0) throw new WriteError('no-cases', 'the recording holds no usable case');
  const common = {
    unit,
    ...(input.reference ? { reference: input.reference } : {}),
    ...(input.signal ? { signal: input.signal } : {}),
  };
  const draft = writer.renderPrompt({ unit, cases, libraryName: input.libraryName, ...(input.methods ? { methods: input.methods, shape: input.shape ?? 'class' } : {}) });
  const specWriter = input.specWriter ?? noopSpecWriter;
  const rewritten = await specWriter.rewrite({ ...common, draft, cases, onFallback: (reason) => input.onLlmFallback?.('spec-writer', reason) });
  let prompt = rewritten ?? draft;

  const reviewer = input.assertionReviewer ?? noopAssertionReviewer;
  const flagged = new Set(await reviewer.review({ ...common, spec: prompt, cases, onFallback: (reason) => input.onLlmFallback?.('assertion-reviewer', reason) }));
  let reviewDropped = 0;
  if (flagged.size > 0) {
    const shown = new Set(writer.pickExamples(cases).map((c) => c.id));
    const kept = cases.filter((c) => shown.has(c.id) || !flagged.has(c.id));
    const bounds = { ...DEFAULT_REVIEW_BOUNDS, ...input.reviewBounds };
    if (kept.length < bounds.minCases || kept.length < cases.length * bounds.minShare) {
      input.onLlmFallback?.('assertion-reviewer', 'review-below-minimum');
    } else if (kept.length < cases.length) {
      reviewDropped = cases.length - kept.length;
      // the prompt's count of hidden cases follows (it was written before the review)
      prompt = prompt.replace(hiddenCasesSentence(cases.length), hiddenCasesSentence(kept.length));
      cases = normaliseCases(kept, name);
    }
  }

  const hidden = new Map<string, Buffer>();
  hidden.set('cases.json', Buffer.from(renderCasesFile(cases)));
  const readable = writer.readableTest({ taskId: `${input.suite}/${name}`, taskName: name, cases, unit });
  hidden.set(readable.path, Buffer.from(readable.content));
  return { name, unit, title: writer.title(unit), prompt, cases, reviewDropped, hidden };
}
