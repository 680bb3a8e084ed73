import { ServerCredentials } from '@grpc/grpc-js';
import { assertListenAllowed, formatListenAddress, type ListenAddress } from '../config/listen-address.js';
import { ENVIRONMENT_SERVICE_NAME } from './load-environment-proto.js';
import { type CreateServerOptions, createServer } from './create-server.js';

export interface StartServerOptions extends CreateServerOptions {
  listen: ListenAddress;
  /** How often the engine is pinged to keep the health status true. Default 10 s. */
  healthIntervalMs?: number;
}

export interface CloseOptions {
  /** How long calls in flight may finish before they are aborted. Default 10 s. */
  graceMs?: number;
}

export interface RunningServer {
  host: string;
  /** The bound port (the real one when 0 was asked for). */
  port: number;
  /** `host:port` as a client dials it. */
  address: string;
  /**
   * Graceful shutdown: health NOT_SERVING, new episodes refused (UNAVAILABLE), calls in flight
   * finish within the grace period (then are aborted), every sandbox destroyed, the server stopped.
   * Idempotent.
   */
  close(options?: CloseOptions): Promise<void>;
}

/**
 * Binds the server and starts serving. Refuses a non-loopback address without an auth token.
 * Health turns SERVING once the sandbox engine answers and follows it afterwards.
 */
export async function startServer(options: StartServerOptions): Promise<RunningServer> {
  assertListenAllowed(options.listen, options.authToken);
  const logger = options.logger.child({ component: 'server' });
  const { server, health } = createServer(options);
  const port = await new Promise<number>((resolve, reject) => {
    server.bindAsync(formatListenAddress(options.listen), ServerCredentials.createInsecure(), (err, bound) =>
      err ? reject(new Error(`cannot listen on ${formatListenAddress(options.listen)}: ${err.message}`)) : resolve(bound),
    );
  });
  const address = formatListenAddress({ host: options.listen.host, port });

  let closing = false;
  let serving: boolean | null = null;
  const setServing = (next: boolean): void => {
    if (closing || serving === next) return;
    serving = next;
    const status = next ? 'SERVING' : 'NOT_SERVING';
    health.setStatus('', status);
    health.setStatus(ENVIRONMENT_SERVICE_NAME, status);
    logger.info({ status }, 'health');
  };
  const checkEngine = async (): Promise<void> => {
    try {
      await options.manager.ping(AbortSignal.timeout(5_000));
      setServing(true);
    } catch (err) {
      if (serving !== false) logger.warn({ err }, 'the sandbox engine does not answer');
      setServing(false);
    }
  };
  await checkEngine();
  const healthTimer = setInterval(() => void checkEngine(), options.healthIntervalMs ?? 10_000);
  healthTimer.unref();

  let closePromise: Promise<void> | null = null;
  return {
    host: options.listen.host,
    port,
    address,
    close(closeOptions = {}) {
      closePromise ??= (async () => {
        clearInterval(healthTimer);
        health.setStatus('', 'NOT_SERVING');
        health.setStatus(ENVIRONMENT_SERVICE_NAME, 'NOT_SERVING');
        closing = true;
        const graceMs = closeOptions.graceMs ?? 10_000;
        await options.manager.shutdown({ graceMs });
        // tryShutdown waits for open calls and streams (health Watch among them): bound it.
        await new Promise<void>((resolve) => {
          const timer = setTimeout(() => {
            server.forceShutdown();
            resolve();
          }, 2_000);
          server.tryShutdown(() => {
            clearTimeout(timer);
            resolve();
          });
        });
        logger.info('server stopped');
      })();
      return closePromise;
    },
  };
}
