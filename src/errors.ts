/**
 * The project's one error taxonomy. Every error the application raises on purpose is a
 * `CodeMidasError` with a stable `code`; the server maps codes to gRPC status in one table
 * (`server/error-status.ts`). Anything else reaches a client as INTERNAL with a generic message.
 * Messages say what went wrong and what to do next.
 */
export type ErrorCode =
  | 'INVALID_ARGUMENT'
  | 'NOT_FOUND'
  | 'FAILED_PRECONDITION'
  | 'RESOURCE_EXHAUSTED'
  | 'ABORTED'
  | 'UNAVAILABLE'
  | 'UNAUTHENTICATED'
  | 'DEADLINE_EXCEEDED';

export class CodeMidasError extends Error {
  readonly code: ErrorCode;
  constructor(code: ErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.code = code;
    this.name = new.target.name;
  }
}

/** A request or file is malformed; `field` names the offending field (dotted path). */
export class InvalidArgumentError extends CodeMidasError {
  readonly field: string;
  constructor(field: string, message: string) {
    super('INVALID_ARGUMENT', field ? `${field}: ${message}` : message);
    this.field = field;
  }
}

/** An unknown task, episode or group. */
export class NotFoundError extends CodeMidasError {
  readonly kind: 'task' | 'episode' | 'group' | 'file';
  readonly key: string;
  constructor(kind: 'task' | 'episode' | 'group' | 'file', key: string, hint = '') {
    super('NOT_FOUND', `unknown ${kind} '${key}'${hint ? `: ${hint}` : ''}`);
    this.kind = kind;
    this.key = key;
  }
}

/** The call is well formed but illegal in the current state (closed episode, step gap, ...). */
export class FailedPreconditionError extends CodeMidasError {
  constructor(message: string) {
    super('FAILED_PRECONDITION', message);
  }
}

/** A capacity limit (episodes at once) is reached. */
export class ResourceExhaustedError extends CodeMidasError {
  constructor(message: string) {
    super('RESOURCE_EXHAUSTED', message);
  }
}

/** The sandbox behind an episode died or stopped answering; the episode cannot go on. */
export class SandboxAbortedError extends CodeMidasError {
  readonly sandboxId: string;
  constructor(sandboxId: string, message: string, options?: { cause?: unknown }) {
    super('ABORTED', message, options);
    this.sandboxId = sandboxId;
  }
}

/** The container engine does not answer, or the server is draining. */
export class UnavailableError extends CodeMidasError {
  constructor(message: string, options?: { cause?: unknown }) {
    super('UNAVAILABLE', message, options);
  }
}

/** A bearer token is required and missing or wrong. */
export class UnauthenticatedError extends CodeMidasError {
  constructor(message = 'missing or wrong bearer token: send metadata "authorization: Bearer <token>"') {
    super('UNAUTHENTICATED', message);
  }
}
