import { Command, Option } from 'commander';
import { resolveLimits } from '../config/limits.js';
import { assertListenAllowed, DEFAULT_LISTEN, parseListenAddress } from '../config/listen-address.js';
import { createLogger } from '../logging.js';
import { startServer } from '../server/start-server.js';
import { composeRuntime, type SandboxKind } from './compose-runtime.js';
import { installGcSignal } from './gc-signal.js';
import { addIsolationOptions, isolationFromFlags, type IsolationFlags } from './isolation-options.js';
import { addLimitOptions, limitsFromOptions } from './limit-options.js';
import { nonNegativeInt } from './positive-int.js';
import { watchLauncher } from './watch-launcher.js';

interface ServeOptions extends IsolationFlags {
  listen: string;
  environments: string;
  sandbox: SandboxKind;
  authToken?: string;
  graceMs: number;
  warmPool: number;
  exitWithParent: boolean;
  verbose?: boolean;
  [limit: string]: unknown;
}

/** `codemidas serve`: the server's composition root. */
export function createServeCommand(): Command {
  const command = new Command('serve')
    .description('serve the loaded task suites over gRPC (codemidas.v1.Environment)')
    .option('--listen <host:port>', 'address to bind; port 0 picks a free port', DEFAULT_LISTEN)
    .option('--environments <dir>', 'folder of suites', 'environments')
    .addOption(new Option('--sandbox <kind>', 'sandbox adapter').choices(['auto', 'docker', 'local', 'memory']).default('auto'))
    .addOption(new Option('--auth-token <token>', 'bearer token every call must send (required off loopback)').env('CODEMIDAS_AUTH_TOKEN'))
    .option('--grace-ms <ms>', 'how long calls in flight may finish on shutdown', (v) => Number(v), 10_000)
    .option('--warm-pool <n>', 'started sandboxes kept ready per hot task image and scoring image (0: off)', nonNegativeInt('--warm-pool'), 2)
    .option('--no-exit-with-parent', 'keep serving after the process that started the server exits (default: drain and exit, as on SIGTERM)');
  addLimitOptions(command);
  addIsolationOptions(command);
  command.action(async (options: ServeOptions, cmd: Command) => {
    const verbose = Boolean(cmd.optsWithGlobals()['verbose']);
    await serve(options, verbose);
  });
  return command;
}

async function serve(options: ServeOptions, verbose: boolean): Promise<void> {
  // Checked before anything starts, so a refused address costs nothing.
  const listen = parseListenAddress(options.listen);
  assertListenAllowed(listen, options.authToken);
  const limits = resolveLimits(limitsFromOptions(options));
  const logger = createLogger(verbose ? { level: 'debug' } : {});
  const say = (line: string): void => void process.stderr.write(`${line}\n`);
  ignoreBrokenPipes();
  const starting = new AbortController();
  const onEarlySignal = (): void => starting.abort(new Error('interrupted'));
  process.once('SIGINT', onEarlySignal);
  process.once('SIGTERM', onEarlySignal);
  // A launcher that goes away (npx passes no signal on; a supervisor killed) stops the server like
  // SIGTERM does, so no server outlives it with its warm pool.
  let launcherGone: string | null = null;
  let onLauncherGone = (reason: string): void => {
    launcherGone = reason;
    say(`${reason}: stopping`);
    onEarlySignal();
  };
  const launcher = options.exitWithParent ? watchLauncher({ onGone: (reason) => onLauncherGone(reason) }) : null;

  const runtime = await composeRuntime({
    environmentsDir: options.environments,
    sandbox: options.sandbox,
    warmPool: options.warmPool,
    isolation: isolationFromFlags(options),
    limits,
    logger,
    say,
    signal: starting.signal,
  });
  process.removeListener('SIGINT', onEarlySignal);
  process.removeListener('SIGTERM', onEarlySignal);
  let server;
  try {
    server = await startServer({
      manager: runtime.manager,
      catalog: runtime.catalog,
      logger,
      listen,
      authToken: options.authToken,
      limits,
    });
  } catch (err) {
    launcher?.stop();
    await runtime.dispose(0);
    throw err;
  }
  say(`serving ${runtime.catalog.tasks.size} tasks with the ${runtime.provider.kind} sandbox${options.authToken ? ' (bearer token required)' : ''}`);
  installGcSignal(process.env['CODEMIDAS_GC_SIGNAL'], say);
  // The one line on stdout: scripts wait for it.
  process.stdout.write(`codemidas listening on ${server.address}\n`);

  await new Promise<void>((resolve) => {
    let stopping = false;
    const stop = (signal: NodeJS.Signals | null, reason: string = signal ?? ''): void => {
      if (stopping) {
        // A second signal while draining: the sender wants it gone now.
        if (!signal) return;
        say(`${signal} again: exiting now`);
        process.exit(130);
      }
      stopping = true;
      launcher?.stop();
      say(`${reason}: shutting down (calls in flight get ${options.graceMs} ms; ${signal ?? 'SIGTERM'} again to exit now)`);
      void server
        .close({ graceMs: options.graceMs })
        .then(() => runtime.provider.close())
        .catch((err: unknown) => logger.error({ err }, 'shutdown failed'))
        .finally(resolve);
    };
    process.on('SIGINT', stop);
    process.on('SIGTERM', stop);
    onLauncherGone = (reason) => stop(null, reason);
    if (launcherGone) stop(null, launcherGone);
  });
  logger.flush();
}

/**
 * A launcher that went away often took the read end of our stdout and stderr with it; the lines
 * written while draining would then fail with EPIPE and, unhandled, kill the process before its
 * containers are removed. (The logger already drops broken-pipe errors.)
 */
function ignoreBrokenPipes(): void {
  for (const stream of [process.stdout, process.stderr]) {
    stream.on('error', (err: NodeJS.ErrnoException) => {
      if (err.code !== 'EPIPE') throw err;
    });
  }
}
