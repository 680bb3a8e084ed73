import { type ServerInterceptor, ServerInterceptingCall, status as Status } from '@grpc/grpc-js';
import { RequestDecodeFailure } from './create-lenient-deserializer.js';

/**
 * Answers any request message that a lenient deserializer could not decode with INVALID_ARGUMENT
 * naming the problem, before the method's handler sees it: one place for every service, streaming
 * ones included (health Watch, reflection), whose handlers know nothing of decode failures.
 */
export function createDecodeFailureInterceptor(): ServerInterceptor {
  return (_method, call) =>
    new ServerInterceptingCall(call, {
      start: (next) => {
        next({
          onReceiveMessage: (message, nextMessage) => {
            if (message instanceof RequestDecodeFailure) call.sendStatus({ code: Status.INVALID_ARGUMENT, details: message.problem });
            else nextMessage(message);
          },
        });
      },
    });
}
