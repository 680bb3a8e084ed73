import { LlmError } from '../../llm/errors.js';
import type { ChatClient, ChatMessage } from '../../llm/types.js';
import type { FallbackListener } from '../write/spec-writer.js';

/** Sampling settings shared by the construction hooks. */
export interface AskOptions {
  /** Sent as the request's seed (the build's seed), so a different seed is a different cache key. */
  seed: number;
  /** Default 0: construction wants the model's most likely answer, not variety. */
  temperature?: number;
  /** Completion token cap. Default: the hook's. */
  maxTokens: number;
}

/**
 * One completion for a construction hook: the answer's text, or null when the client failed, after
 * telling `onFallback` why (`llm-error:<kind>`). A build never stops because a model did not answer;
 * only the build's own abort goes through.
 */
export async function askModel(
  client: ChatClient,
  messages: ChatMessage[],
  options: AskOptions & { signal?: AbortSignal; onFallback?: FallbackListener },
): Promise<string | null> {
  try {
    const response = await client.complete({ messages, temperature: options.temperature ?? 0, maxTokens: options.maxTokens, seed: options.seed }, options.signal);
    return response.message.content ?? '';
  } catch (err) {
    if (options.signal?.aborted) throw err;
    options.onFallback?.(err instanceof LlmError ? `llm-error:${err.kind}` : 'llm-error:unexpected');
    return null;
  }
}
