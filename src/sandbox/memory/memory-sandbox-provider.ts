import { randomBytes } from 'node:crypto';
import { posix } from 'node:path';
import { InvalidArgumentError, SandboxAbortedError } from '../../errors.js';
import { capOutput } from '../output-cap.js';
import { normalizeEntryPath } from '../tar-entries.js';
import {
  SandboxFileError,
  type Command,
  type ExecOptions,
  type ExecResult,
  type FileEntry,
  type GetFilesOptions,
  type ReadFileResult,
  type Sandbox,
  type SandboxEnd,
  type SandboxProvider,
  type SandboxSpec,
} from '../types.js';

/** Answers `exec` in the fake; may return a partial result (missing fields get defaults). */
export type MemoryExecHandler = (
  sandbox: MemorySandbox,
  command: Command,
  options: ExecOptions,
) => Partial<ExecResult> | Promise<Partial<ExecResult>>;

export interface MemorySandboxProviderOptions {
  /** Default: `true` exits 0, anything else exits 127 with "command not found". */
  execHandler?: MemoryExecHandler;
}

/** The default handler: only `true` exists. */
export const defaultMemoryExecHandler: MemoryExecHandler = (_sandbox, command) => {
  const name = 'argv' in command ? command.argv[0] : command.shell.trim();
  if (name === 'true') return { exitCode: 0 };
  return { exitCode: 127, stderr: `${name ?? ''}: command not found\n` };
};

export function createMemorySandboxProvider(options: MemorySandboxProviderOptions = {}): MemorySandboxProvider {
  return new MemorySandboxProvider(options);
}

/**
 * An in-memory fake behind the sandbox interface, for unit tests: a Map file system, exec answered
 * by a handler, injectable failures, and counts to assert on.
 */
export class MemorySandboxProvider implements SandboxProvider {
  readonly kind = 'memory' as const;
  /** Every sandbox ever created, in order. */
  readonly sandboxes: MemorySandbox[] = [];
  created = 0;
  destroyed = 0;
  reaped = 0;
  execHandler: MemoryExecHandler;
  private createFailures: Error[] = [];
  private pingFailure: Error | undefined;

  constructor(options: MemorySandboxProviderOptions = {}) {
    this.execHandler = options.execHandler ?? defaultMemoryExecHandler;
  }

  /** Sandboxes created and not destroyed. */
  get live(): MemorySandbox[] {
    return this.sandboxes.filter((sandbox) => !sandbox.isDestroyed);
  }

  /** The next create() rejects with `error` (default: a SandboxAbortedError). */
  failNextCreate(error: Error = new SandboxAbortedError('memory', 'injected create failure')): void {
    this.createFailures.push(error);
  }

  /** ping() rejects with `error` until called again with undefined. */
  failPing(error: Error | undefined): void {
    this.pingFailure = error;
  }

  async ping(): Promise<void> {
    if (this.pingFailure) throw this.pingFailure;
  }

  imageFor(language: string): string {
    return `memory/${language}`;
  }

  /** Nothing to build: the memory sandbox has no image filesystem (the spec's `scrub` and `dependencies` are kept for tests to read). */
  async prepareImage(image: string): Promise<string> {
    return image;
  }

  /** Files cannot be baked into an image here: they are copied in after create. */
  async prepareWorkspaceImage(): Promise<string | null> {
    return null;
  }

  async create(spec: SandboxSpec, options: { signal?: AbortSignal } = {}): Promise<Sandbox> {
    options.signal?.throwIfAborted();
    const failure = this.createFailures.shift();
    if (failure) throw failure;
    const sandbox = new MemorySandbox(`mem-${randomBytes(4).toString('hex')}`, spec, this);
    this.sandboxes.push(sandbox);
    this.created++;
    return sandbox;
  }

  async reap(): Promise<number> {
    const expired = this.live.filter((sandbox) => sandbox.spec.expiresAt.getTime() <= Date.now());
    await Promise.all(expired.map((sandbox) => sandbox.destroy()));
    this.reaped += expired.length;
    return expired.length;
  }

  async close(): Promise<void> {
    await Promise.all(this.live.map((sandbox) => sandbox.destroy()));
  }

  /** @internal */
  noteDestroyed(): void {
    this.destroyed++;
  }
}

interface StoredEntry {
  type: FileEntry['type'];
  mode: number;
  content?: Buffer;
  linkTarget?: string;
  uid: number;
  gid: number;
}

export class MemorySandbox implements Sandbox {
  /** Absolute path → entry. Directories are implied by their children or stored explicitly. */
  readonly files = new Map<string, StoredEntry>();
  /** Every command run, in order. */
  readonly commands: Command[] = [];
  paused = false;
  private destroyedFlag = false;
  private deadReason: string | undefined;
  private end: Promise<SandboxEnd> | null = null;
  private execFailures: Error[] = [];

  constructor(
    readonly id: string,
    readonly spec: Readonly<SandboxSpec>,
    private readonly provider: MemorySandboxProvider,
  ) {}

  get isDestroyed(): boolean {
    return this.destroyedFlag;
  }

  /**
   * The sandbox "dies": every later call rejects with SandboxAbortedError, like a dead container,
   * except `getFiles`, which still reads what it held (a stopped container's filesystem). `by` is
   * who ended it, as `ended()` reports.
   */
  kill(reason = 'killed by the test', by: SandboxEnd['by'] = 'inside'): void {
    this.deadReason = reason;
    this.end = Promise.resolve({ by, reason });
  }

  ended(): Promise<SandboxEnd> | null {
    return this.destroyedFlag ? null : this.end;
  }

  /** The next exec() rejects with `error`. */
  failNextExec(error: Error = new SandboxAbortedError(this.id, 'injected exec failure')): void {
    this.execFailures.push(error);
  }

  /** Test helper: a file's content as UTF-8, or undefined. */
  text(path: string): string | undefined {
    return this.files.get(this.resolve(path))?.content?.toString('utf8');
  }

  async exec(command: Command, options: ExecOptions): Promise<ExecResult> {
    this.assertAlive();
    options.signal?.throwIfAborted();
    const failure = this.execFailures.shift();
    if (failure) throw failure;
    this.commands.push(command);
    const started = performance.now();
    const partial = await this.provider.execHandler(this, command, options);
    const stdout = capOutput(Buffer.from(partial.stdout ?? ''), options.maxOutputBytes);
    const stderr = capOutput(Buffer.from(partial.stderr ?? ''), options.maxOutputBytes);
    return {
      exitCode: partial.exitCode ?? 0,
      stdout: stdout.text,
      stderr: stderr.text,
      timedOut: partial.timedOut ?? false,
      truncated: (partial.truncated ?? false) || stdout.truncated || stderr.truncated,
      durationMs: partial.durationMs ?? performance.now() - started,
    };
  }

  async readFile(path: string, options: { offset: number; limit: number; signal?: AbortSignal }): Promise<ReadFileResult> {
    this.assertAlive();
    const full = this.resolve(path);
    const entry = this.files.get(full);
    if (!entry) {
      if (this.isDirectory(full)) throw new SandboxFileError(path, 'is-directory', `${path}: is a directory`);
      throw new SandboxFileError(path, 'not-found', `${path}: no such file or directory`);
    }
    if (entry.type === 'directory') throw new SandboxFileError(path, 'is-directory', `${path}: is a directory`);
    const content = entry.content ?? Buffer.alloc(0);
    const slice = content.subarray(options.offset, options.offset + options.limit);
    return { content: Buffer.from(slice), size: content.length, truncated: options.offset + slice.length < content.length };
  }

  async writeFile(path: string, content: Buffer): Promise<void> {
    this.assertAlive();
    const full = this.resolve(path);
    if (this.isDirectory(full)) throw new SandboxFileError(path, 'is-directory', `${path}: is a directory`);
    const owner = this.owner();
    this.files.set(full, { type: 'file', mode: 0o644, content: Buffer.from(content), ...owner });
  }

  async putFiles(dir: string, entries: FileEntry[]): Promise<void> {
    this.assertAlive();
    if (!dir.startsWith('/')) throw new InvalidArgumentError('dir', `'${dir}' must be an absolute path`);
    const owner = this.owner();
    for (const entry of entries) {
      const full = posix.join(dir, normalizeEntryPath(entry.path));
      const stored: StoredEntry = { type: entry.type, mode: entry.mode, uid: entry.uid ?? owner.uid, gid: entry.gid ?? owner.gid };
      if (entry.content) stored.content = Buffer.from(entry.content);
      if (entry.linkTarget !== undefined) stored.linkTarget = entry.linkTarget;
      this.files.set(full, stored);
    }
  }

  async getFiles(dir: string, options: GetFilesOptions = {}): Promise<FileEntry[]> {
    if (this.destroyedFlag) throw new SandboxAbortedError(this.id, `sandbox ${this.id} was destroyed`);
    const base = posix.normalize(dir).replace(/(.)\/+$/, '$1');
    const prefix = base === '/' ? '/' : `${base}/`;
    const out: FileEntry[] = [];
    const dirs = new Set<string>();
    let total = 0;
    for (const [path, entry] of [...this.files].sort(([a], [b]) => a.localeCompare(b))) {
      if (!path.startsWith(prefix)) continue;
      const rel = path.slice(prefix.length);
      const parts = rel.split('/');
      for (let i = 1; i < parts.length; i++) {
        const parent = parts.slice(0, i).join('/');
        if (!dirs.has(parent) && !this.files.has(posix.join(base, parent))) {
          dirs.add(parent);
          out.push({ path: parent, type: 'directory', mode: 0o755, ...this.owner() });
        }
      }
      const result: FileEntry = { path: rel, type: entry.type, mode: entry.mode, uid: entry.uid, gid: entry.gid };
      const size = entry.content?.length ?? 0;
      const over = size > (options.maxFileBytes ?? Number.POSITIVE_INFINITY) || total + size > (options.maxTotalBytes ?? Number.POSITIVE_INFINITY);
      if (entry.content && over) result.size = size;
      else if (entry.content) {
        total += size;
        result.content = Buffer.from(entry.content);
      }
      if (entry.linkTarget !== undefined) result.linkTarget = entry.linkTarget;
      out.push(result);
    }
    if (out.length === 0 && !this.isDirectory(base) && base !== posix.normalize(this.spec.workdir)) {
      throw new SandboxFileError(dir, 'not-found', `${dir}: no such file or directory`);
    }
    return out;
  }

  async pause(): Promise<void> {
    if (this.end) return;
    this.assertAlive();
    this.paused = true;
  }

  async destroy(): Promise<void> {
    if (this.destroyedFlag) return;
    this.destroyedFlag = true;
    this.provider.noteDestroyed();
  }

  async [Symbol.asyncDispose](): Promise<void> {
    await this.destroy();
  }

  private resolve(path: string): string {
    return posix.normalize(posix.isAbsolute(path) ? path : posix.join(this.spec.workdir, path));
  }

  private isDirectory(full: string): boolean {
    const entry = this.files.get(full);
    if (entry) return entry.type === 'directory';
    const prefix = full.endsWith('/') ? full : `${full}/`;
    for (const key of this.files.keys()) if (key.startsWith(prefix)) return true;
    return false;
  }

  private owner(): { uid: number; gid: number } {
    return this.spec.role === 'episode' ? { uid: 1000, gid: 1000 } : { uid: 0, gid: 0 };
  }

  private assertAlive(): void {
    if (this.destroyedFlag) throw new SandboxAbortedError(this.id, `sandbox ${this.id} was destroyed`);
    if (this.deadReason) throw new SandboxAbortedError(this.id, `sandbox ${this.id} died: ${this.deadReason}`);
  }
}
