import { fileURLToPath } from 'node:url';
import * as protoLoader from '@grpc/proto-loader';
import protobuf from 'protobufjs';

/** `proto/codemidas/v1/environment.proto`; the same two levels up from `src/server` and `dist/server`. */
export const ENVIRONMENT_PROTO_PATH = fileURLToPath(new URL('../../proto/codemidas/v1/environment.proto', import.meta.url));

export const ENVIRONMENT_SERVICE_NAME = 'codemidas.v1.Environment';

/**
 * Decoding options: field names as in the proto (snake_case), 64-bit integers as decimal strings
 * (exact: a number would round every uint64 above 2^53; the request schemas make them bigints), enums as
 * their names, unset fields with their defaults, and each oneof's set member named in a `kind` field.
 */
export const PROTO_LOADER_OPTIONS: protoLoader.Options = {
  keepCase: true,
  longs: String,
  enums: String,
  defaults: true,
  oneofs: true,
};

export interface EnvironmentProto {
  packageDefinition: protoLoader.PackageDefinition;
  service: protoLoader.ServiceDefinition;
  /** The same file as protobufjs types, for checking wire types field by field. */
  root: protobuf.Root;
}

/** Loads the wire contract. */
export function loadEnvironmentProto(protoPath: string = ENVIRONMENT_PROTO_PATH): EnvironmentProto {
  const packageDefinition = protoLoader.loadSync(protoPath, PROTO_LOADER_OPTIONS);
  const service = packageDefinition[ENVIRONMENT_SERVICE_NAME];
  if (!service || !('Reset' in service)) throw new Error(`${protoPath} does not define ${ENVIRONMENT_SERVICE_NAME}`);
  const root = new protobuf.Root().loadSync(protoPath, { keepCase: true });
  root.resolveAll();
  return { packageDefinition, service: service as protoLoader.ServiceDefinition, root };
}
