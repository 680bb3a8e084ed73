import { type ServerInterceptor, Server } from '@grpc/grpc-js';
import type { ServiceDefinition } from '@grpc/proto-loader';
import { ReflectionService } from '@grpc/reflection';
import { HealthImplementation } from 'grpc-health-check';
import protobuf from 'protobufjs';
import { DEFAULT_LIMITS, type Limits } from '../config/limits.js';
import type { EpisodeManager } from '../episodes/episode-manager.js';
import type { Logger } from '../logging.js';
import type { TaskCatalog } from '../tasks/types.js';
import { addWithLenientDecoding } from './add-with-lenient-decoding.js';
import { createAuthInterceptor } from './create-auth-interceptor.js';
import { createDecodeFailureInterceptor } from './create-decode-failure-interceptor.js';
import { createEnvironmentMethods } from './create-environment-methods.js';
import { createLenientDeserializer } from './create-lenient-deserializer.js';
import { createStatusDetailsInterceptor } from './create-status-details-interceptor.js';
import { handleUnaryCall } from './handle-unary-call.js';
import { ENVIRONMENT_SERVICE_NAME, loadEnvironmentProto } from './load-environment-proto.js';

export interface CreateServerOptions {
  manager: EpisodeManager;
  catalog: TaskCatalog;
  logger: Logger;
  /** When set, every call but health checks needs metadata `authorization: Bearer <token>`. */
  authToken?: string | undefined;
  /** Sizes the message limits (a write_file carries up to maxFileBytes). Default `DEFAULT_LIMITS`. */
  limits?: Readonly<Limits>;
}

export interface EnvironmentServer {
  server: Server;
  health: HealthImplementation;
}

/** grpc.health.v1's request, so a badly typed field is named. */
const HEALTH_CHECK_REQUEST = protobuf
  .parse('syntax = "proto3"; package grpc.health.v1; message HealthCheckRequest { string service = 1; }')
  .root.lookupType('grpc.health.v1.HealthCheckRequest');

/** Python and grpc-js clients refuse answers over 4 MiB by default: stay under that when sending. */
const MAX_SEND_BYTES = 4 * 1024 * 1024;

/**
 * Builds (does not bind) a grpc-js server with the Environment service, health checking (NOT_SERVING
 * until `startServer` sees the engine answer) and reflection.
 */
export function createServer(options: CreateServerOptions): EnvironmentServer {
  const logger = options.logger.child({ component: 'server' });
  const limits = options.limits ?? DEFAULT_LIMITS;
  const proto = loadEnvironmentProto();
  const interceptors: ServerInterceptor[] = [
    createStatusDetailsInterceptor(),
    ...(options.authToken ? [createAuthInterceptor(options.authToken)] : []),
    createDecodeFailureInterceptor(),
  ];
  const server = new Server({
    interceptors,
    // An edit carries old and new text, each up to a file.
    'grpc.max_receive_message_length': Math.max(MAX_SEND_BYTES, 2 * limits.maxFileBytes + 64 * 1024),
    'grpc.max_send_message_length': MAX_SEND_BYTES,
    // Channelz bookkeeping costs a measurable share of a millisecond-scale Step; nothing here reads it.
    'grpc.enable_channelz': 0,
  });
  server.addService(withLenientDecoding(proto.service, proto.root), implementation(options, logger));
  const health = new HealthImplementation({ '': 'NOT_SERVING', [ENVIRONMENT_SERVICE_NAME]: 'NOT_SERVING' });
  addWithLenientDecoding(server, (registrar) => health.addToServer(registrar), () => HEALTH_CHECK_REQUEST);
  const reflection = new ReflectionService(proto.packageDefinition);
  addWithLenientDecoding(server, (registrar) => reflection.addToServer(registrar));
  return { server, health };
}

function implementation(options: CreateServerOptions, logger: Logger): Record<string, ReturnType<typeof handleUnaryCall>> {
  const methods = createEnvironmentMethods(options.manager, options.catalog);
  return Object.fromEntries(Object.entries(methods).map(([name, method]) => [name, handleUnaryCall(method, logger)]));
}

function withLenientDecoding(service: ServiceDefinition, root: protobuf.Root): ServiceDefinition {
  const rpc = root.lookupService(ENVIRONMENT_SERVICE_NAME);
  const wrapped: ServiceDefinition = {};
  for (const [name, def] of Object.entries(service)) {
    const requestType = rpc.methods[name]?.resolvedRequestType;
    wrapped[name] = requestType
      ? { ...def, requestDeserialize: createLenientDeserializer(requestType, def.requestDeserialize) as typeof def.requestDeserialize }
      : def;
  }
  return wrapped;
}
