import { spawn } from 'node:child_process';
import { createWriteStream, type WriteStream } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { projectRoot } from '../project-root.js';

/** Options of {@link startServerProcess}. */
export interface ServerProcessOptions {
  /** Suites folder to serve. Default `<project>/environments`. */
  environmentsDir?: string;
  /** Address to bind. Default `127.0.0.1:0` (a free port). */
  listen?: string;
  /** Extra arguments after `serve ...`. */
  extraArgs?: readonly string[];
  /** How long to wait for the `codemidas listening on` line. Default 180 000 ms. */
  readyTimeoutMs?: number;
  /** When set, the server's stdout and stderr are appended to this file. */
  logFile?: string;
  env?: NodeJS.ProcessEnv;
}

/** A `codemidas serve` child process that has printed its listening line. */
export interface ServerProcess extends AsyncDisposable {
  /** `host:port` the server listens on. */
  readonly address: string;
  readonly pid: number;
  /** The last output lines of the server, for error messages. */
  outputTail(): string;
  /** SIGTERM, then SIGKILL after `graceMs` (default 15 000). Idempotent. */
  stop(graceMs?: number): Promise<void>;
}

const LISTENING = /codemidas listening on (\S+)/;
const TAIL_LINES = 60;

/**
 * Starts `node bin/codemidas.js serve --listen <addr> --environments <dir>` and resolves once it
 * prints `codemidas listening on <host:port>`. Rejects (after killing it) if the server exits or
 * stays silent past the timeout, with its last output in the message.
 */
export async function startServerProcess(options: ServerProcessOptions = {}): Promise<ServerProcess> {
  const root = projectRoot();
  const args = [
    join(root, 'bin', 'codemidas.js'),
    'serve',
    '--listen',
    options.listen ?? '127.0.0.1:0',
    '--environments',
    options.environmentsDir ?? join(root, 'environments'),
    ...(options.extraArgs ?? []),
  ];
  const child = spawn(process.execPath, args, {
    cwd: root,
    env: options.env ?? process.env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const tail: string[] = [];
  const log: WriteStream | undefined = options.logFile ? createWriteStream(options.logFile, { flags: 'a' }) : undefined;
  const remember = (line: string): void => {
    tail.push(line);
    if (tail.length > TAIL_LINES) tail.shift();
    log?.write(`${line}\n`);
  };
  // Both pipes are always drained: a full pipe would block the server.
  createInterface({ input: child.stderr }).on('line', remember);
  const stdout = createInterface({ input: child.stdout });

  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  let stopping: Promise<void> | undefined;
  const stop = (graceMs = 15_000): Promise<void> => {
    stopping ??= (async () => {
      if (child.exitCode === null && child.signalCode === null) {
        child.kill('SIGTERM');
        const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
        await exited;
        clearTimeout(timer);
      }
      log?.end();
    })();
    return stopping;
  };
  const outputTail = (): string => tail.join('\n');

  const address = await new Promise<string>((resolve, reject) => {
    const timeoutMs = options.readyTimeoutMs ?? 180_000;
    const timer = setTimeout(() => {
      reject(new Error(`codemidas serve printed no listening line within ${timeoutMs} ms; last output:\n${outputTail()}`));
    }, timeoutMs);
    stdout.on('line', (line) => {
      remember(line);
      const match = LISTENING.exec(line);
      if (match?.[1]) {
        clearTimeout(timer);
        resolve(match[1]);
      }
    });
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      reject(new Error(`codemidas serve exited (${signal ?? `code ${code}`}) before listening; last output:\n${outputTail()}`));
    });
    child.once('error', (err) => {
      clearTimeout(timer);
      reject(err);
    });
  }).catch(async (err: unknown) => {
    await stop(2_000);
    throw err;
  });

  return {
    address,
    pid: child.pid ?? -1,
    outputTail,
    stop,
    [Symbol.asyncDispose]: () => stop(),
  };
}

