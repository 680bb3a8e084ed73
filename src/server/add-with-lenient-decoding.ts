import type { Server, ServiceDefinition } from '@grpc/grpc-js';
import type protobuf from 'protobufjs';
import { createLenientDeserializer } from './create-lenient-deserializer.js';

/**
 * Lets a library's service (health checking, reflection) register itself on `server`, with each
 * method's request deserializer made lenient: a request that does not decode reaches the
 * decode-failure interceptor, which answers INVALID_ARGUMENT, where grpc-js alone would answer
 * INTERNAL ("Error deserializing request"). `requestType` (when known) names a badly typed field.
 */
export function addWithLenientDecoding(
  server: Server,
  register: (registrar: Server) => void,
  requestType: (methodName: string) => protobuf.Type | null = () => null,
): void {
  // The libraries register through `addService` alone; hand them a server that wraps what they add.
  const registrar = {
    addService(service: ServiceDefinition, implementation: object): void {
      const lenient: ServiceDefinition = Object.fromEntries(
        Object.entries(service).map(([name, def]) => [
          name,
          { ...def, requestDeserialize: createLenientDeserializer(requestType(name), def.requestDeserialize) as typeof def.requestDeserialize },
        ]),
      );
      server.addService(lenient, implementation as Parameters<Server['addService']>[1]);
    },
  };
  register(registrar as unknown as Server);
}
