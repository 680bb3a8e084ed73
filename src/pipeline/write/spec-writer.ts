import type { InputProposal, RecordedCase, Unit } from '../types.js';

/**
 * Hooks where an LLM plugs into construction (src/pipeline/llm/ holds the LLM-backed ones; the
 * default build needs none and stays deterministic for a given repository and seed).
 *
 * - `SpecWriter` rewrites the prompt written from the signature, docstring and recorded examples.
 * - `InputProposer` proposes extra inputs for a candidate, recorded by running the original code
 *   like every other input (source `llm`); the record stage consumes them. What a model says a
 *   call returns is never asked for nor used: only the inputs travel.
 * - `AssertionReviewer` names the cases that check behaviour the final spec does not promise;
 *   write drops them, within the bounds of `DEFAULT_REVIEW_BOUNDS` (write-task.ts).
 *
 * An implementation must be deterministic for a fixed seed (cache its answers by input hash) or the
 * same-seed, byte-identical guarantee of `codemidas build` no longer holds. When it cannot do its
 * part (the endpoint is down, the answer is unusable) it keeps the deterministic behaviour and says
 * why through `onFallback`, which the build counts in the funnel report (`llm.fallbacks`).
 */

/** The unit's code as the repository has it (the reference the task was recorded from). */
export interface ReferenceCode {
  /** The whole definition, decorators and docstring included. */
  definition: string;
  /** The body after the docstring: what masking removes and the leak audit searches for. */
  body: string;
}

/** Called by a hook that kept the deterministic behaviour, with a short stable reason (`leak`, `llm-error:endpoint-down`). */
export type FallbackListener = (reason: string) => void;

export interface SpecWriterInput {
  unit: Unit;
  /** The deterministic prompt, written without an LLM. */
  draft: string;
  /** The cases the hidden tests hold (the prompt must not reveal more than a few). */
  cases: readonly RecordedCase[];
  /** The unit's code; absent when the build could not read it. */
  reference?: ReferenceCode;
  onFallback?: FallbackListener;
  signal?: AbortSignal;
}

export interface SpecWriter {
  /** Returns the prompt to use, or null to keep the draft. */
  rewrite(input: SpecWriterInput): Promise<string | null>;
}

export type { InputProposal } from '../../languages/construction-types.js';

export interface InputProposerInput {
  unit: Unit;
  /**
   * Cases already recorded for the unit. The build asks before the record stage (so the proposals
   * are recorded in the same run as every other input), where this is empty.
   */
  existing: readonly RecordedCase[];
  seed: number;
  reference?: ReferenceCode;
  onFallback?: FallbackListener;
  signal?: AbortSignal;
}

export interface InputProposer {
  /** Tagged inputs (docs/task-format.md) to try on the original code. */
  propose(input: InputProposerInput): Promise<InputProposal[]>;
}

export interface AssertionReviewInput {
  unit: Unit;
  /** The final prompt the agent reads. */
  spec: string;
  /** The cases the hidden tests would hold, with their ids. */
  cases: readonly RecordedCase[];
  reference?: ReferenceCode;
  onFallback?: FallbackListener;
  signal?: AbortSignal;
}

export interface AssertionReviewer {
  /** Ids of the cases that check behaviour the spec does not promise (to drop); [] keeps every case. */
  review(input: AssertionReviewInput): Promise<string[]>;
}

/** The default: keeps the deterministic prompt. */
export const noopSpecWriter: SpecWriter = Object.freeze({
  rewrite: async (): Promise<string | null> => null,
});

/** The default: proposes nothing. */
export const noopInputProposer: InputProposer = Object.freeze({
  propose: async (): Promise<InputProposal[]> => [],
});

/** The default: keeps every case. */
export const noopAssertionReviewer: AssertionReviewer = Object.freeze({
  review: async (): Promise<string[]> => [],
});
