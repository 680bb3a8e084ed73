import { spawn } from 'node:child_process';
import { closeSync, openSync, readFileSync } from 'node:fs';
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
  /**
   * When set, the server's log (its stderr) is appended to this file by the server itself, instead of
   * through a pipe this process reads: a bench's client then does none of the server's log work.
   */
  logFile?: string;
  env?: NodeJS.ProcessEnv;
  /** Checkout whose `bin/codemidas.js` is started (built). Default: this project's root. */
  root?: string;
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
  const root = options.root ?? projectRoot();
  const args = [
    join(root, 'bin', 'codemidas.js'),
    'serve',
    '--listen',
    options.listen ?? '127.0.0.1:0',
    '--environments',
    options.environmentsDir ?? join(root, 'environments'),
    ...(options.extraArgs ?? []),
  ];
  const logFd = options.logFile ? openSync(options.logFile, 'a') : undefined;
  const child = spawn(process.execPath, args, {
    cwd: root,
    env: options.env ?? process.env,
    stdio: ['ignore', 'pipe', logFd ?? 'pipe'],
  });
  // The child holds its own copy of the descriptor.
  if (logFd !== undefined) closeSync(logFd);
  const tail: string[] = [];
  const remember = (line: string): void => {
    tail.push(line);
    if (tail.length > TAIL_LINES) tail.shift();
  };
  // Every pipe is always drained: a full pipe would block the server.
  if (child.stderr) createInterface({ input: child.stderr }).on('line', remember);
  if (!child.stdout) throw new Error('codemidas serve was started without a stdout pipe');
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
    })();
    return stopping;
  };
  const outputTail = (): string => [...tail, ...(options.logFile ? fileTail(options.logFile) : [])].join('\n');

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

/** The last lines of a log file, or a line saying why it could not be read. */
function fileTail(file: string): string[] {
  try {
    return readFileSync(file, 'utf8').trimEnd().split('\n').slice(-TAIL_LINES);
  } catch (err) {
    return [`(the server log ${file} could not be read: ${err instanceof Error ? err.message : String(err)})`];
  }
}
