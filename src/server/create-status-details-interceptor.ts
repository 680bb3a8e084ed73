import { type ServerInterceptor, ServerInterceptingCall, status as Status } from '@grpc/grpc-js';

/** Longest `grpc-message` sent, in characters. Default of `createStatusDetailsInterceptor`. */
export const MAX_STATUS_DETAILS_CHARS = 1024;

/**
 * Bounds and repairs every status message the server sends (Environment, health and reflection
 * alike). Messages name what the client sent (`unknown episode '<id>'`), and what it sent can be
 * megabytes long or hold lone UTF-16 surrogates (protobufjs decodes invalid UTF-8 into them): a
 * trailer of megabytes breaks the client's whole HTTP/2 connection, and grpc-js's `encodeURI` of a
 * lone surrogate throws while the status is being sent.
 *
 * It also gives a unary call sent with no request message, or with two, INVALID_ARGUMENT: grpc-js
 * answers those UNIMPLEMENTED, which tells a client the method does not exist.
 */
export function createStatusDetailsInterceptor(maxChars = MAX_STATUS_DETAILS_CHARS): ServerInterceptor {
  return (_method, call) =>
    new ServerInterceptingCall(call, {
      sendStatus: (status, next) => next(recodeMessageCount({ ...status, details: boundStatusDetails(status.details, maxChars) })),
    });
}

/** The status a server call sends (grpc-js does not export the type by name). */
type SentStatus = Parameters<ServerInterceptingCall['sendStatus']>[0];

/** grpc-js's own wording for a call with the wrong number of request messages (1.14). */
const MESSAGE_COUNT = /^Received (no|a second) request message for/;

function recodeMessageCount(status: SentStatus): SentStatus {
  const match = status.code === Status.UNIMPLEMENTED ? MESSAGE_COUNT.exec(status.details) : null;
  if (!match) return status;
  const got = match[1] === 'no' ? 'none' : 'more than one';
  return { ...status, code: Status.INVALID_ARGUMENT, details: `request: this method takes exactly one request message, got ${got}` };
}

/** The message cut to `maxChars` (saying how much was cut), with lone surrogates replaced by U+FFFD. */
export function boundStatusDetails(details: string, maxChars = MAX_STATUS_DETAILS_CHARS): string {
  let text = details;
  if (text.length > maxChars) {
    const cut = text.length - maxChars;
    text = `${text.slice(0, maxChars)}… (${cut} more characters cut)`;
  }
  return text.replace(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g, '\uFFFD');
}
