import type { RecordedCase, Unit } from '../types.js';

/**
 * Hooks where an LLM plugs into construction (a later issue fills them; the default build needs
 * none and stays deterministic for a given repository and seed).
 *
 * - `SpecWriter` rewrites the prompt written from the signature, docstring and recorded examples.
 * - `InputProposer` proposes extra inputs for a candidate, recorded by running the original code
 *   like every other input (source `llm`); the record stage consumes it.
 *
 * An implementation must be deterministic for a fixed seed (cache its answers by input hash) or the
 * same-seed, byte-identical guarantee of `codemidas build` no longer holds.
 */
export interface SpecWriterInput {
  unit: Unit;
  /** The deterministic prompt, written without an LLM. */
  draft: string;
  /** The cases the hidden tests hold (the prompt must not reveal more than a few). */
  cases: readonly RecordedCase[];
  signal?: AbortSignal;
}

export interface SpecWriter {
  /** Returns the prompt to use, or null to keep the draft. */
  rewrite(input: SpecWriterInput): Promise<string | null>;
}

export interface InputProposal {
  args: unknown[];
  kwargs: Record<string, unknown>;
  init: { args: unknown[]; kwargs: Record<string, unknown> } | null;
}

export interface InputProposer {
  /** Tagged inputs (docs/task-format.md) to try on the original code. */
  propose(input: { unit: Unit; existing: readonly RecordedCase[]; seed: number; signal?: AbortSignal }): Promise<InputProposal[]>;
}

/** The default: keeps the deterministic prompt. */
export const noopSpecWriter: SpecWriter = Object.freeze({
  rewrite: async (): Promise<string | null> => null,
});

/** The default: proposes nothing. */
export const noopInputProposer: InputProposer = Object.freeze({
  propose: async (): Promise<InputProposal[]> => [],
});
