import { status } from '@grpc/grpc-js';
import { describe, expect, it } from 'vitest';
import {
  CodeMidasError,
  FailedPreconditionError,
  InvalidArgumentError,
  NotFoundError,
  ResourceExhaustedError,
  SandboxAbortedError,
  UnauthenticatedError,
  UnavailableError,
} from '../../src/errors.js';
import { createSilentLogger } from '../../src/logging.js';
import { createErrorStatus, GRPC_STATUS_BY_ERROR_CODE } from '../../src/server/error-status.js';

describe('error table', () => {
  const logger = createSilentLogger();
  it.each([
    [new InvalidArgumentError('task_id', 'required'), status.INVALID_ARGUMENT, 'task_id: required'],
    [new NotFoundError('episode', 'ep-1'), status.NOT_FOUND, "unknown episode 'ep-1'"],
    [new FailedPreconditionError('closed'), status.FAILED_PRECONDITION, 'closed'],
    [new ResourceExhaustedError('full'), status.RESOURCE_EXHAUSTED, 'full'],
    [new SandboxAbortedError('sb', 'died'), status.ABORTED, 'died'],
    [new UnavailableError('draining'), status.UNAVAILABLE, 'draining'],
    [new UnauthenticatedError(), status.UNAUTHENTICATED, new UnauthenticatedError().message],
    [new CodeMidasError('DEADLINE_EXCEEDED', 'late'), status.DEADLINE_EXCEEDED, 'late'],
  ])('maps %s', (err, code, details) => {
    expect(createErrorStatus(err, logger)).toMatchObject({ code, details });
  });

  it('covers every error code with a distinct status', () => {
    const codes = Object.values(GRPC_STATUS_BY_ERROR_CODE);
    expect(new Set(codes).size).toBe(codes.length);
    expect(codes).not.toContain(status.INTERNAL);
  });

  it('sends anything else as INTERNAL with a generic message', () => {
    const result = createErrorStatus(new TypeError('cannot read x of undefined at /srv/secret.ts'), logger);
    expect(result.code).toBe(status.INTERNAL);
    expect(result.details).not.toMatch(/secret|undefined/);
  });
});
