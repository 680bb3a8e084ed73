import OpenAI from 'openai';
import { LlmError } from './errors.js';
import { toWireMessages } from './wire-messages.js';
import type { ChatClient, ChatRequest, ChatResponse, ChatToolCall } from './types.js';

export interface OpenAiChatClientOptions {
  /** The endpoint's base URL, up to and including `/v1` (`http://127.0.0.1:8000/v1`). */
  baseUrl: string;
  model: string;
  /** Sent as the bearer token; local servers (vLLM, SGLang) accept any. Default: `"none"`. */
  apiKey?: string | undefined;
  /** Per-request limit. Default 120000. */
  timeoutMs?: number;
  /**
   * Retries of 429, 5xx and connection failures, with the client's exponential backoff (0.5 s
   * doubling to 8 s, with jitter, honouring `retry-after` / `retry-after-ms`). Default 4.
   */
  maxRetries?: number;
}

/** What `probe` found: the models the endpoint lists (empty when it has no /models route). */
export interface ProbeResult {
  models: string[];
}

export interface OpenAiChatClient extends ChatClient {
  /**
   * Checks, before any episode starts, that the endpoint answers and serves the model; throws
   * `LlmError` (`endpoint-down`, `model-not-served`, `auth`) otherwise.
   */
  probe(signal?: AbortSignal): Promise<ProbeResult>;
}

const CONTEXT_OVERFLOW = /context[ _-]?(length|window)|maximum (context|input)|too many tokens|prompt is too long|exceeds? the (model's )?max/i;
const UNKNOWN_MODEL = /model.*(does not exist|not found|not served|unknown|no such)|(unknown|invalid) model/i;

/**
 * A `ChatClient` over the `openai` package's HTTP client, for any OpenAI-compatible chat-completions
 * endpoint. Its errors become `LlmError`s whose messages say what to check.
 */
export function createOpenAiChatClient(options: OpenAiChatClientOptions): OpenAiChatClient {
  const baseUrl = options.baseUrl.replace(/\/+$/, '');
  const openai = new OpenAI({
    baseURL: baseUrl,
    apiKey: options.apiKey || 'none',
    timeout: options.timeoutMs ?? 120_000,
    maxRetries: options.maxRetries ?? 4,
  });
  const model = options.model;
  const describe = (err: unknown): LlmError => toLlmError(err, baseUrl, model);

  return {
    model,
    async complete(request: ChatRequest, signal?: AbortSignal): Promise<ChatResponse> {
      let completion: OpenAI.Chat.Completions.ChatCompletion;
      try {
        completion = await openai.chat.completions.create(
          {
            model,
            messages: toWireMessages(request.messages) as OpenAI.Chat.Completions.ChatCompletionMessageParam[],
            ...(request.tools && request.tools.length > 0
              ? {
                  tools: request.tools.map((t) => ({
                    type: 'function' as const,
                    function: { name: t.name, description: t.description, parameters: t.parameters },
                  })),
                  tool_choice: 'auto' as const,
                }
              : {}),
            ...(request.temperature !== undefined ? { temperature: request.temperature } : {}),
            ...(request.maxTokens !== undefined ? { max_tokens: request.maxTokens } : {}),
            ...(request.seed !== undefined ? { seed: request.seed } : {}),
          },
          signal ? { signal } : {},
        );
      } catch (err) {
        throw describe(err);
      }
      const choice = Array.isArray(completion?.choices) ? completion.choices[0] : undefined;
      if (!choice || typeof choice.message !== 'object' || choice.message === null) {
        throw new LlmError('bad-response', `the endpoint ${baseUrl} answered without a choice: not an OpenAI-compatible chat completion`);
      }
      const toolCalls: ChatToolCall[] = (choice.message.tool_calls ?? []).flatMap((call, index) =>
        call.type === 'function'
          ? [{ id: call.id || `call_${index}`, name: call.function?.name ?? '', arguments: call.function?.arguments ?? '' }]
          : [],
      );
      const usage = completion.usage ? { promptTokens: completion.usage.prompt_tokens, completionTokens: completion.usage.completion_tokens } : null;
      return {
        message: { role: 'assistant', content: choice.message.content ?? null, toolCalls },
        finishReason: choice.finish_reason ?? 'stop',
        usage,
      };
    },
    async probe(signal?: AbortSignal): Promise<ProbeResult> {
      let models: string[];
      try {
        const page = await openai.models.list(signal ? { signal, maxRetries: 1 } : { maxRetries: 1 });
        models = page.data.map((m) => m.id);
      } catch (err) {
        // Some servers have no /models route; the first completion will tell.
        if (err instanceof OpenAI.APIError && err.status === 404) return { models: [] };
        throw describe(err);
      }
      if (models.length > 0 && !models.includes(model)) {
        throw new LlmError(
          'model-not-served',
          `the endpoint ${baseUrl} does not serve model '${model}'; it serves: ${models.slice(0, 20).join(', ')}. Pass one of them with --model`,
        );
      }
      return { models };
    },
  };
}

/** One table from the HTTP client's failures to `LlmError` kinds, with what to do next. */
export function toLlmError(err: unknown, baseUrl: string, model: string): LlmError {
  if (err instanceof LlmError) return err;
  if (err instanceof OpenAI.APIUserAbortError) return new LlmError('aborted', 'the request to the LLM endpoint was aborted', { cause: err });
  if (err instanceof OpenAI.APIConnectionError) {
    const cause = err.cause instanceof Error ? `${err.cause.message}${codeOf(err.cause)}` : err.message;
    return new LlmError(
      'endpoint-down',
      `cannot reach the LLM endpoint ${baseUrl} (${cause}); is the server running and is --base-url right (it ends in /v1)?`,
      { cause: err },
    );
  }
  if (err instanceof OpenAI.APIError) {
    const status = err.status ?? null;
    const said = err.message.replace(/\s+/g, ' ').slice(0, 300);
    const options = { status, cause: err };
    if (status === 429) return new LlmError('rate-limited', `the LLM endpoint ${baseUrl} kept answering 429 (rate limited) after every retry: ${said}`, options);
    if (status !== null && status >= 500) return new LlmError('server-error', `the LLM endpoint ${baseUrl} failed with ${status} after every retry: ${said}`, options);
    if (status === 401 || status === 403) {
      return new LlmError('auth', `the LLM endpoint ${baseUrl} refused the API key (${status}); set CODEMIDAS_LLM_API_KEY (or OPENAI_API_KEY)`, options);
    }
    if ((status === 400 || status === 413) && CONTEXT_OVERFLOW.test(said)) {
      return new LlmError('context-overflow', `the conversation no longer fits the context window of '${model}': ${said}`, options);
    }
    if (status === 404 || ((status === 400 || status === 422) && UNKNOWN_MODEL.test(said))) {
      return new LlmError(
        'model-not-served',
        `the LLM endpoint ${baseUrl} does not serve model '${model}' (${status}: ${said}); list its models with GET ${baseUrl}/models and pass one with --model`,
        options,
      );
    }
    return new LlmError('bad-request', `the LLM endpoint ${baseUrl} refused the request (${status}): ${said}`, options);
  }
  const message = err instanceof Error ? err.message : String(err);
  return new LlmError('bad-response', `the LLM endpoint ${baseUrl} gave an unusable answer: ${message}`, { cause: err });
}

function codeOf(err: Error): string {
  const code = (err as { code?: unknown }).code ?? ((err as { cause?: { code?: unknown } }).cause?.code);
  return typeof code === 'string' ? ` ${code}` : '';
}
