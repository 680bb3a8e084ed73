import type protobuf from 'protobufjs';
import { findWireTypeProblem } from './check-wire-types.js';

/** A request that could not be decoded; the call handler answers it with INVALID_ARGUMENT. */
export class RequestDecodeFailure {
  constructor(readonly problem: string) {}
}

/**
 * Wraps a method's request deserializer so a malformed message becomes INVALID_ARGUMENT naming the
 * field (grpc-js would answer a throwing deserializer with a bare INTERNAL). The call handler, or
 * the decode-failure interceptor for services that are not ours, answers the failure.
 */
export function createLenientDeserializer(
  type: protobuf.Type | null,
  deserialize: (bytes: Buffer) => unknown,
): (bytes: Buffer) => unknown {
  return (bytes) => {
    // Without the type (a library's own service), decoding errors are caught but fields not named.
    const problem = type ? findWireTypeProblem(type, bytes) : null;
    if (problem) return new RequestDecodeFailure(problem);
    try {
      return deserialize(bytes);
    } catch (err) {
      return new RequestDecodeFailure(`request: could not decode ${type?.name ?? 'the request message'} (${err instanceof Error ? err.message : String(err)})`);
    }
  };
}
