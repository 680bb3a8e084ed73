import type { ChatMessage } from '../llm/types.js';
import type { Action, StepResult, ToolSpec } from '../episodes/types.js';

/** What an agent is told about its episode (the Reset answer). */
export interface AgentEpisode {
  episodeId: string;
  taskId: string;
  prompt: string;
  workdir: string;
  tools: readonly ToolSpec[];
  limits: { maxSteps: number; maxWallMs: number };
}

/** How an agent acts: one Step of its episode. Throws when the server refuses the step. */
export interface ActionChannel {
  step(action: Action): Promise<StepResult>;
}

/**
 * How an agent's run ended:
 * - `submitted`: it called submit.
 * - `budget`: a step, turn or time budget ran out (the agent's or the server's).
 * - `no-action`: the model kept answering without a tool call.
 * - `llm-error`: the model endpoint failed (`reason` names the `LlmError` kind and message).
 * - `env-error`: the server refused a step (the episode died, was closed, ...).
 * - `sandbox-ended`: an action of the agent's stopped its own sandbox (it killed the relay, say);
 *   the server ended the episode there and scores the workspace as it stands.
 */
export type AgentStatus = 'submitted' | 'budget' | 'no-action' | 'llm-error' | 'env-error' | 'sandbox-ended';

export interface AgentRun {
  status: AgentStatus;
  /** One sentence on why the run ended. */
  reason: string;
  /** The `LlmError` kind when status is `llm-error`. */
  llmErrorKind: string | null;
  /** The conversation (LLM agents; empty for scripted ones). */
  messages: ChatMessage[];
  llmCalls: number;
  promptTokens: number;
  completionTokens: number;
}

/** A policy that turns observations into actions. `run` never throws: failures end in the status. */
export interface Agent {
  /** `oracle`, `null`, `llm`. */
  readonly name: string;
  /** The model behind an `llm` agent; null otherwise. */
  readonly model: string | null;
  run(episode: AgentEpisode, channel: ActionChannel, signal: AbortSignal): Promise<AgentRun>;
}

/** A run with no conversation, for the scripted agents. */
export function scriptedRun(status: AgentStatus, reason: string): AgentRun {
  return { status, reason, llmErrorKind: null, messages: [], llmCalls: 0, promptTokens: 0, completionTokens: 0 };
}

/** A step failure as one sentence. */
export function describeStepError(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
