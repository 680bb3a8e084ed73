/**
 * The chat-completions contract CodeMidas uses, in its own types (no `openai` type crosses it): the
 * rollout agent's tool-calling loop and the LLM hooks of construction both talk to a `ChatClient`.
 * The real one (`createOpenAiChatClient`) speaks to any OpenAI-compatible endpoint (vLLM, SGLang,
 * hosted APIs); unit tests pass a scripted fake behind the same interface.
 */

/** One tool call the model asked for; `arguments` is the raw JSON text the model wrote (may be malformed). */
export interface ChatToolCall {
  id: string;
  name: string;
  arguments: string;
}

export type ChatMessage =
  | { role: 'system'; content: string }
  | { role: 'user'; content: string }
  | { role: 'assistant'; content: string | null; toolCalls?: ChatToolCall[] }
  | { role: 'tool'; toolCallId: string; content: string };

/** A function the model may call: `parameters` is a JSON Schema object. */
export interface ChatTool {
  name: string;
  description: string;
  parameters: Record<string, unknown>;
}

export interface ChatRequest {
  messages: readonly ChatMessage[];
  /** Offered functions; absent or empty: a plain completion. */
  tools?: readonly ChatTool[];
  /** Sampling temperature; default: the endpoint's. */
  temperature?: number;
  /** Completion token cap; default: the endpoint's. */
  maxTokens?: number;
  /** Sampling seed, where the endpoint honours one. */
  seed?: number;
}

export interface ChatResponse {
  message: { role: 'assistant'; content: string | null; toolCalls: ChatToolCall[] };
  /** `stop`, `tool_calls`, `length`, ... as the endpoint reports it. */
  finishReason: string;
  usage: { promptTokens: number; completionTokens: number } | null;
}

export interface ChatClient {
  /** The model name sent with every request. */
  readonly model: string;
  /**
   * One chat completion. Retries 429 and 5xx with backoff inside; throws `LlmError` (src/llm/errors.ts)
   * with a `kind` that says what went wrong and a message that says what to do.
   */
  complete(request: ChatRequest, signal?: AbortSignal): Promise<ChatResponse>;
}
