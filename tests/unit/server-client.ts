/**
 * A real grpc-js client for the server tests: the Environment service loaded from the same .proto,
 * a reflection client built from @grpc/reflection's own proto (no project code), and health.
 */
import { createRequire } from 'node:module';
import * as grpc from '@grpc/grpc-js';
import * as protoLoader from '@grpc/proto-loader';
import { service as healthService } from 'grpc-health-check';
import { ENVIRONMENT_PROTO_PATH, PROTO_LOADER_OPTIONS } from '../../src/server/load-environment-proto.js';

const require = createRequire(import.meta.url);

export interface CallOptions {
  deadlineMs?: number;
  token?: string;
}

export interface EnvironmentClient {
  call<T = Record<string, any>>(method: string, request: Record<string, unknown>, options?: CallOptions): Promise<T>;
  /** Sends raw bytes as the request of `method` (for malformed-message tests). */
  callRaw(method: string, bytes: Buffer, options?: CallOptions): Promise<Buffer>;
  listServices(options?: CallOptions): Promise<string[]>;
  health(service?: string): Promise<string>;
  close(): void;
}

export function createEnvironmentClient(address: string, defaults: CallOptions = {}): EnvironmentClient {
  const def = protoLoader.loadSync(ENVIRONMENT_PROTO_PATH, PROTO_LOADER_OPTIONS);
  const loaded = grpc.loadPackageDefinition(def) as any;
  const credentials = grpc.credentials.createInsecure();
  const env = new loaded.codemidas.v1.Environment(address, credentials) as grpc.Client & Record<string, Function>;

  const reflectionProto = require.resolve('@grpc/reflection/build/proto/grpc/reflection/v1/reflection.proto');
  const reflectionDef = protoLoader.loadSync(reflectionProto, { keepCase: true, defaults: true, oneofs: true });
  const Reflection = (grpc.loadPackageDefinition(reflectionDef) as any).grpc.reflection.v1.ServerReflection;
  const reflection = new Reflection(address, credentials) as grpc.Client & Record<string, Function>;

  const Health = grpc.makeClientConstructor(healthService as grpc.ServiceDefinition, 'Health');
  const health = new Health(address, credentials) as grpc.Client & Record<string, Function>;

  const metaFor = (options: CallOptions): grpc.Metadata => {
    const md = new grpc.Metadata();
    const token = options.token ?? defaults.token;
    if (token) md.set('authorization', `Bearer ${token}`);
    return md;
  };
  const callOpts = (options: CallOptions): grpc.CallOptions => {
    const ms = options.deadlineMs ?? defaults.deadlineMs ?? 30_000;
    return { deadline: Date.now() + ms };
  };

  return {
    call(method, request, options = {}) {
      return new Promise((resolve, reject) => {
        const fn = env[method];
        if (!fn) throw new Error(`no method ${method}`);
        fn.call(env, request, metaFor(options), callOpts(options), (err: grpc.ServiceError | null, res: any) => (err ? reject(err) : resolve(res)));
      });
    },
    callRaw(method, bytes, options = {}) {
      return new Promise((resolve, reject) => {
        env.makeUnaryRequest(
          `/codemidas.v1.Environment/${method}`,
          (b: Buffer) => b,
          (b: Buffer) => b,
          bytes,
          metaFor(options),
          callOpts(options),
          (err: grpc.ServiceError | null, res?: Buffer) => (err ? reject(err) : resolve(res ?? Buffer.alloc(0))),
        );
      });
    },
    listServices(options = {}) {
      return new Promise((resolve, reject) => {
        const stream = reflection['ServerReflectionInfo']!.call(reflection, metaFor(options), callOpts(options)) as grpc.ClientDuplexStream<any, any>;
        stream.on('data', (res: any) => {
          if (res.error_response) reject(new Error(res.error_response.error_message));
          else resolve((res.list_services_response?.service ?? []).map((s: { name: string }) => s.name));
          stream.end();
        });
        stream.on('error', reject);
        stream.write({ list_services: '' });
      });
    },
    health(service = '') {
      return new Promise((resolve, reject) => {
        health['check']!.call(health, { service }, { deadline: Date.now() + 5_000 }, (err: grpc.ServiceError | null, res: any) =>
          err ? reject(err) : resolve(String(res.status)),
        );
      });
    },
    close() {
      // The service's own Close method shadows Client.close on the generated client.
      grpc.Client.prototype.close.call(env);
      reflection.close();
      health.close();
    },
  };
}

/** The gRPC status of a rejected call, with its details. */
export async function callError(promise: Promise<unknown>): Promise<{ code: string; details: string }> {
  try {
    await promise;
  } catch (err) {
    const e = err as grpc.ServiceError;
    return { code: grpc.status[e.code] ?? String(e.code), details: e.details };
  }
  throw new Error('expected the call to fail');
}
