import { join } from 'node:path';
import * as grpc from '@grpc/grpc-js';
import * as protoLoader from '@grpc/proto-loader';
import { projectRoot } from '../project-root.js';

/** The few wire messages the bench uses, as proto-loader decodes them (`keepCase`, longs as strings). */
export interface WireTaskInfo {
  task_id: string;
  suite: string;
  language: string;
}
export interface WireResetResponse {
  episode_id: string;
  task_id: string;
  limits: { max_steps: number } | null;
}
export interface WireStepResponse {
  observation: { stdout: string; stderr: string; exit_code: number; timed_out: boolean; duration_ms: number } | null;
  terminated: boolean;
  truncated: boolean;
  step_index: number;
}

type Unary = (request: object, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<unknown>) => void;

/**
 * A minimal promise-based client of `codemidas.v1.Environment` for the bench, loaded from the
 * proto at run time (no generated code), so it measures what any grpc-js client would see.
 */
export class EnvironmentGrpcClient {
  readonly #client: grpc.Client;
  readonly #metadata = new grpc.Metadata();

  constructor(address: string, token?: string) {
    const definition = protoLoader.loadSync(join(projectRoot(), 'proto', 'codemidas', 'v1', 'environment.proto'), {
      keepCase: true,
      longs: String,
      enums: String,
      defaults: true,
      oneofs: true,
    });
    const loaded = grpc.loadPackageDefinition(definition) as unknown as {
      codemidas: { v1: { Environment: grpc.ServiceClientConstructor } };
    };
    this.#client = new loaded.codemidas.v1.Environment(address, grpc.credentials.createInsecure(), { 'grpc.enable_channelz': 0 });
    if (token) this.#metadata.set('authorization', `Bearer ${token}`);
  }

  call<T>(method: string, request: object, deadlineMs = 60_000): Promise<T> {
    const rpc = (this.#client as unknown as Record<string, Unary>)[method];
    if (!rpc) throw new Error(`no RPC ${method}`);
    return new Promise<T>((resolve, reject) => {
      rpc.call(this.#client, request, this.#metadata, { deadline: Date.now() + deadlineMs }, (err, value) => {
        if (err) reject(err);
        else resolve(value as T);
      });
    });
  }

  async waitReady(timeoutMs: number): Promise<void> {
    await new Promise<void>((resolve, reject) => {
      this.#client.waitForReady(Date.now() + timeoutMs, (err) => (err ? reject(err) : resolve()));
    });
  }

  close(): void {
    // The generated class also has a lowerCamel alias per RPC, so `close` there is the Close RPC:
    // call the channel's close from the base class.
    grpc.Client.prototype.close.call(this.#client);
  }
}
