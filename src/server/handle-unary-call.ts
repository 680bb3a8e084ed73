import { type handleUnaryCall as GrpcUnaryHandler, status as Status } from '@grpc/grpc-js';
import type { z } from 'zod';
import { InvalidArgumentError } from '../errors.js';
import type { Logger } from '../logging.js';
import { type CallContext, createCallContext } from './create-call-context.js';
import { RequestDecodeFailure } from './create-lenient-deserializer.js';
import { createErrorStatus } from './error-status.js';
import { describeZodError } from './request-schemas.js';

/** One unary method: its request schema and a handler that only calls inward and encodes. */
export interface UnaryMethod<Request, Response> {
  name: string;
  schema: z.ZodType<Request, unknown>;
  handler: (request: Request, context: CallContext) => Promise<Response>;
}

/**
 * Adapts a method to grpc-js: validates the decoded request (INVALID_ARGUMENT naming the field),
 * gives the handler an AbortSignal for cancellation and deadline, maps whatever it throws through
 * the one error table, and logs the call once.
 */
export function handleUnaryCall<Request, Response>(
  method: UnaryMethod<Request, Response>,
  logger: Logger,
): GrpcUnaryHandler<unknown, Response> {
  return (call, callback) => {
    const started = performance.now();
    const { context, dispose } = createCallContext(call);
    const finish = (code: Status): void => {
      dispose();
      logger.debug({ method: method.name, code: Status[code], ms: Math.round(performance.now() - started) }, 'call');
    };
    void (async () => {
      try {
        const request = parseRequest(method.schema, call.request);
        const response = await method.handler(request, context);
        finish(Status.OK);
        callback(null, response);
      } catch (err) {
        const statusObject = createErrorStatus(err, logger.child({ method: method.name }));
        finish(statusObject.code);
        callback(statusObject);
      }
    })();
  };
}

function parseRequest<Request>(schema: z.ZodType<Request, unknown>, raw: unknown): Request {
  if (raw instanceof RequestDecodeFailure) {
    const at = raw.problem.indexOf(': ');
    throw new InvalidArgumentError(raw.problem.slice(0, at), raw.problem.slice(at + 2));
  }
  const parsed = schema.safeParse(raw);
  if (!parsed.success) {
    const { field, message } = describeZodError(parsed.error);
    throw new InvalidArgumentError(field, message);
  }
  return parsed.data;
}
