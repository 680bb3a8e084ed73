import { randomUUID } from 'node:crypto';
import { type StatusObject, Metadata, status as Status } from '@grpc/grpc-js';
import { CodeMidasError, type ErrorCode } from '../errors.js';
import type { Logger } from '../logging.js';

/** The one mapping from the project's error codes to gRPC status codes. */
export const GRPC_STATUS_BY_ERROR_CODE: Readonly<Record<ErrorCode, Status>> = Object.freeze({
  INVALID_ARGUMENT: Status.INVALID_ARGUMENT,
  NOT_FOUND: Status.NOT_FOUND,
  FAILED_PRECONDITION: Status.FAILED_PRECONDITION,
  RESOURCE_EXHAUSTED: Status.RESOURCE_EXHAUSTED,
  ABORTED: Status.ABORTED,
  UNAVAILABLE: Status.UNAVAILABLE,
  UNAUTHENTICATED: Status.UNAUTHENTICATED,
  DEADLINE_EXCEEDED: Status.DEADLINE_EXCEEDED,
});

/**
 * Turns anything a handler threw into the status the client sees. A `CodeMidasError` keeps its
 * message; anything else is INTERNAL with a generic message and an incident id, and its stack goes
 * to the log (never to the client).
 */
export function createErrorStatus(err: unknown, logger: Logger): Pick<StatusObject, 'code' | 'details' | 'metadata'> {
  if (err instanceof CodeMidasError) {
    return { code: GRPC_STATUS_BY_ERROR_CODE[err.code], details: err.message, metadata: new Metadata() };
  }
  const incident = randomUUID().slice(0, 8);
  logger.error({ err, incident }, 'unexpected error in a call');
  return {
    code: Status.INTERNAL,
    details: `internal error (incident ${incident}); the server log has the details`,
    metadata: new Metadata(),
  };
}
