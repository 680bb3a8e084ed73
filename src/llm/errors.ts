/**
 * Why a chat completion failed, as one small taxonomy:
 *
 * - `endpoint-down`: nothing answers at the base URL (connection refused, DNS, timeout).
 * - `model-not-served`: the endpoint answers but does not serve the model (404 / "model not found").
 * - `rate-limited`: 429 after every retry.
 * - `server-error`: 5xx after every retry.
 * - `context-overflow`: the conversation no longer fits the model's context window.
 * - `auth`: the API key is missing or refused (401/403).
 * - `bad-request`: any other 4xx.
 * - `aborted`: the caller's signal fired.
 * - `bad-response`: a 200 whose body is not a chat completion.
 */
export type LlmErrorKind =
  | 'endpoint-down'
  | 'model-not-served'
  | 'rate-limited'
  | 'server-error'
  | 'context-overflow'
  | 'auth'
  | 'bad-request'
  | 'aborted'
  | 'bad-response';

export class LlmError extends Error {
  readonly kind: LlmErrorKind;
  /** The HTTP status, where there was one. */
  readonly status: number | null;
  constructor(kind: LlmErrorKind, message: string, options?: { status?: number | null; cause?: unknown }) {
    super(message, options?.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'LlmError';
    this.kind = kind;
    this.status = options?.status ?? null;
  }
}
