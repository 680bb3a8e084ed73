import { InvalidArgumentError, SandboxAbortedError } from '../../errors.js';
import { SandboxFileError, type Command, type ExecOptions, type ExecResult, type ReadFileResult } from '../types.js';

/** Where the relay lives inside every sandbox (baked into the images; bind-mounted by the local adapter). */
export const RELAY_PATH_IN_SANDBOX = '/opt/codemidas/relay.py';

/**
 * The relay compiled to bytecode when the image is built; images start it from there, since
 * compiling the source at every start leaves ~1.9 MB behind per sandbox. The local adapter, which
 * binds the host's relay.py, runs the source.
 */
export const RELAY_BYTECODE_PATH_IN_SANDBOX = '/opt/codemidas/relay.pyc';

export interface RelayClientOptions {
  sandboxId: string;
  /** Sends one request line (already ending in `\n`) to the relay's stdin. */
  write: (line: string) => void;
  /**
   * Called once when the relay missed a deadline: the sandbox must be destroyed, since a relay that
   * does not answer cannot be trusted with the next call.
   */
  onHung: (message: string) => void;
  /** Extra time the relay gets past an exec's `timeoutMs` before it counts as hung. Default 5000. */
  graceMs?: number;
  /** Deadline for read/write/ping answers. Default 30000. */
  fileOpTimeoutMs?: number;
}

interface Pending {
  resolve: (value: unknown) => void;
  reject: (error: Error) => void;
  timer: NodeJS.Timeout;
  cleanup: () => void;
}

interface RelayAnswer {
  id?: unknown;
  ok?: boolean;
  result?: unknown;
  error?: { reason?: string; message?: string };
  event?: string;
}

/** A relay's error: `reason` as the relay names it. */
class RelayRequestError extends Error {
  constructor(
    readonly reason: string,
    message: string,
  ) {
    super(message);
  }
}

/**
 * The host side of the relay protocol (see relay.py): newline-delimited JSON over one stream,
 * requests matched to answers by id, every call under a deadline so a stuck sandbox is noticed.
 */
export class RelayClient {
  readonly ready: Promise<void>;
  /** The channel the relay announced when ready: the host's Unix socket, or its stdin/stdout. */
  channel: 'socket' | 'stdio' | undefined;
  private readonly options: Required<Omit<RelayClientOptions, 'write' | 'onHung' | 'sandboxId'>> & RelayClientOptions;
  private readonly pending = new Map<number, Pending>();
  private nextId = 1;
  private buffered: Buffer[] = [];
  private isReady = false;
  private queued: string[] = [];
  private failure: Error | undefined;
  private resolveReady!: () => void;
  private rejectReady!: (error: Error) => void;

  constructor(options: RelayClientOptions) {
    this.options = { graceMs: 5000, fileOpTimeoutMs: 30_000, ...options };
    this.ready = new Promise<void>((resolve, reject) => {
      this.resolveReady = resolve;
      this.rejectReady = reject;
    });
    // A failure before anyone awaits `ready` must not become an unhandled rejection.
    this.ready.catch(() => undefined);
  }

  /** Feeds bytes from the relay's stdout. */
  feed(chunk: Buffer): void {
    let start = 0;
    for (;;) {
      const newline = chunk.indexOf(0x0a, start);
      if (newline < 0) break;
      const piece = chunk.subarray(start, newline);
      const line = this.buffered.length ? Buffer.concat([...this.buffered, piece]) : piece;
      this.buffered = [];
      this.onLine(line.toString('utf8'));
      start = newline + 1;
    }
    if (start < chunk.length) this.buffered.push(Buffer.from(chunk.subarray(start)));
  }

  /** Rejects every pending and future call with `error` (the sandbox died or was destroyed). */
  fail(error: Error): void {
    if (this.failure) return;
    this.failure = error;
    this.rejectReady(error);
    for (const [id, entry] of this.pending) {
      this.pending.delete(id);
      entry.cleanup();
      entry.reject(error);
    }
  }

  get failed(): boolean {
    return this.failure !== undefined;
  }

  async exec(command: Command, options: ExecOptions): Promise<ExecResult> {
    const request: Record<string, unknown> = {
      op: 'exec',
      timeoutMs: options.timeoutMs,
      maxOutputBytes: options.maxOutputBytes,
    };
    if ('argv' in command) request['argv'] = command.argv;
    else request['shell'] = command.shell;
    if (options.cwd !== undefined) request['cwd'] = options.cwd;
    if (options.env !== undefined) request['env'] = options.env;
    if (options.stdin !== undefined) request['stdin'] = options.stdin.toString('base64');
    if (options.session === true) request['session'] = true;
    try {
      return (await this.request(request, options.timeoutMs + this.options.graceMs, options.signal, true)) as ExecResult;
    } catch (error) {
      if (error instanceof RelayRequestError) throw new InvalidArgumentError('command', error.message);
      throw error;
    }
  }

  async readFile(path: string, options: { offset: number; limit: number; signal?: AbortSignal }): Promise<ReadFileResult> {
    try {
      const result = (await this.request(
        { op: 'read', path, offset: options.offset, limit: options.limit },
        this.options.fileOpTimeoutMs,
        options.signal,
        false,
      )) as { content: string; size: number; truncated: boolean };
      return { content: Buffer.from(result.content, 'base64'), size: result.size, truncated: result.truncated };
    } catch (error) {
      throw toFileError(path, error);
    }
  }

  async writeFile(path: string, content: Buffer, options: { signal?: AbortSignal } = {}): Promise<void> {
    try {
      await this.request({ op: 'write', path, content: content.toString('base64') }, this.options.fileOpTimeoutMs, options.signal, false);
    } catch (error) {
      throw toFileError(path, error);
    }
  }

  async ping(signal?: AbortSignal): Promise<{ pid: number; uid: number; gid: number; workdir: string }> {
    return (await this.request({ op: 'ping' }, this.options.fileOpTimeoutMs, signal, false)) as {
      pid: number;
      uid: number;
      gid: number;
      workdir: string;
    };
  }

  private request(body: Record<string, unknown>, deadlineMs: number, signal: AbortSignal | undefined, cancellable: boolean): Promise<unknown> {
    if (this.failure) return Promise.reject(this.failure);
    signal?.throwIfAborted();
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      const onAbort = (): void => {
        const entry = this.pending.get(id);
        if (!entry) return;
        this.pending.delete(id);
        entry.cleanup();
        // Stop the command inside the sandbox too; its late answer is dropped.
        if (cancellable) this.send({ id: this.nextId++, op: 'cancel', target: id });
        reject(signal?.reason instanceof Error ? signal.reason : new Error('aborted'));
      };
      const timer = setTimeout(() => {
        if (!this.pending.has(id)) return;
        const message = `sandbox ${this.options.sandboxId} did not answer '${String(body['op'])}' within ${deadlineMs} ms`;
        this.options.onHung(message);
        // onHung normally fails every call; make sure this one is answered either way.
        const entry = this.pending.get(id);
        if (entry) {
          this.pending.delete(id);
          entry.cleanup();
          entry.reject(new SandboxAbortedError(this.options.sandboxId, message));
        }
      }, deadlineMs);
      timer.unref?.();
      signal?.addEventListener('abort', onAbort, { once: true });
      this.pending.set(id, {
        resolve,
        reject,
        timer,
        cleanup: () => {
          clearTimeout(timer);
          signal?.removeEventListener('abort', onAbort);
        },
      });
      try {
        this.send({ id, ...body });
      } catch (error) {
        this.pending.delete(id);
        clearTimeout(timer);
        signal?.removeEventListener('abort', onAbort);
        reject(new SandboxAbortedError(this.options.sandboxId, `cannot write to sandbox ${this.options.sandboxId}`, { cause: error }));
      }
    });
  }

  private send(message: Record<string, unknown>): void {
    const line = `${JSON.stringify(message)}\n`;
    // Requests made while the relay starts wait for its ready line, then go over the channel it announced.
    if (this.isReady) this.options.write(line);
    else this.queued.push(line);
  }

  private onLine(line: string): void {
    if (line.trim() === '') return;
    let answer: RelayAnswer;
    try {
      answer = JSON.parse(line) as RelayAnswer;
    } catch {
      return; // not ours (the relay only prints JSON); ignore rather than crash
    }
    if (answer.event === 'ready') {
      this.channel = (answer as { channel?: unknown }).channel === 'socket' ? 'socket' : 'stdio';
      this.isReady = true;
      this.resolveReady();
      for (const queued of this.queued.splice(0)) this.options.write(queued);
      return;
    }
    if (typeof answer.id !== 'number') return;
    const entry = this.pending.get(answer.id);
    if (!entry) return;
    this.pending.delete(answer.id);
    entry.cleanup();
    if (answer.ok) entry.resolve(answer.result);
    else entry.reject(new RelayRequestError(answer.error?.reason ?? 'other', answer.error?.message ?? 'relay error'));
  }
}

function toFileError(path: string, error: unknown): unknown {
  if (!(error instanceof RelayRequestError)) return error;
  const reason =
    error.reason === 'not-found' || error.reason === 'is-directory' || error.reason === 'denied' ? error.reason : 'other';
  return new SandboxFileError(path, reason, error.message);
}
