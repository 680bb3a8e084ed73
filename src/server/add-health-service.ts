import { type handleServerStreamingCall, type handleUnaryCall, type Server, type ServiceDefinition, status as Status } from '@grpc/grpc-js';
import type { HealthImplementation } from 'grpc-health-check';
import protobuf from 'protobufjs';
import { createLenientDeserializer, RequestDecodeFailure } from './create-lenient-deserializer.js';

/** grpc.health.v1's request, as protobufjs needs it to name a badly typed field. */
const HEALTH_CHECK_REQUEST = protobuf
  .parse('syntax = "proto3"; package grpc.health.v1; message HealthCheckRequest { string service = 1; }')
  .root.lookupType('grpc.health.v1.HealthCheckRequest');

/**
 * Adds standard health checking (`grpc-health-check`'s implementation) with the same request
 * decoding as the Environment service: a request that does not decode is INVALID_ARGUMENT naming
 * the field, where grpc-js alone would answer INTERNAL ("Error deserializing request").
 */
export function addHealthService(server: Server, health: HealthImplementation): void {
  // The implementation registers itself through `addService`; wrap what it registers.
  const registrar = {
    addService(service: ServiceDefinition, implementation: Record<string, (...args: never[]) => void>): void {
      const wrappedService: ServiceDefinition = Object.fromEntries(
        Object.entries(service).map(([name, def]) => [
          name,
          { ...def, requestDeserialize: createLenientDeserializer(HEALTH_CHECK_REQUEST, def.requestDeserialize) as typeof def.requestDeserialize },
        ]),
      );
      const check = implementation['check'] as unknown as handleUnaryCall<unknown, unknown>;
      const watch = implementation['watch'] as unknown as handleServerStreamingCall<unknown, unknown>;
      server.addService(wrappedService, {
        check: ((call, callback) => {
          if (call.request instanceof RequestDecodeFailure) callback({ code: Status.INVALID_ARGUMENT, details: call.request.problem });
          else check(call, callback);
        }) satisfies handleUnaryCall<unknown, unknown>,
        watch: ((call) => {
          if (call.request instanceof RequestDecodeFailure) call.emit('error', { code: Status.INVALID_ARGUMENT, details: call.request.problem });
          else watch(call);
        }) satisfies handleServerStreamingCall<unknown, unknown>,
      });
    },
  };
  health.addToServer(registrar as unknown as Server);
}
