import { posix } from 'node:path';
import type { Duplex } from 'node:stream';
import type Dockerode from 'dockerode';
import type { Logger } from '../../logging.js';
import { InvalidArgumentError, SandboxAbortedError } from '../../errors.js';
import type { RelayClient } from '../relay/relay-client.js';
import { packEntries, unpackEntries } from '../tar-entries.js';
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
  type SandboxSpec,
} from '../types.js';

/** Tries of a pause the freezer refuses as transient ("unable to freeze"). */
const PAUSE_ATTEMPTS = 4;

/**
 * Lifecycle of a docker sandbox: `running` ⇄ `paused`; `ended` when its relay went away or stopped
 * answering (the container is stopped but kept, so its files can still be read out); `destroyed` is
 * final.
 */
export type DockerSandboxState = 'running' | 'paused' | 'ended' | 'destroyed';

/** How the relay went: the stream or socket closed, or a request went unanswered past its deadline. */
export type RelayLoss = 'exited' | 'hung';

/** Default cap for `getFiles` when the caller names none: 256 MiB. */
export const DEFAULT_GET_FILES_MAX_BYTES = 256 * 1024 * 1024;

export interface DockerSandboxDeps {
  container: Dockerode.Container;
  spec: SandboxSpec;
  relay: RelayClient;
  /** The attached relay stream (stdin of the relay). */
  stream: Duplex;
  owner: { uid: number; gid: number };
  logger: Logger;
  onDestroyed: (sandbox: DockerSandbox) => void;
  /**
   * Thaw a paused container before removing it. runsc does not end a frozen sandbox within the
   * engine's force-remove ("PID … is zombie and can not be killed"); runc does. Default false.
   */
  unpauseBeforeRemove?: boolean;
  /**
   * Finds out who ended the sandbox once its relay is lost, after stopping a container that still
   * runs (a hung relay). Never rejects.
   */
  attributeEnd: (container: Dockerode.Container, loss: RelayLoss, reason: string) => Promise<SandboxEnd>;
}

/**
 * One container with the relay as its main process. exec/readFile/writeFile go through the relay
 * (one attached stream, ~1 ms a call); putFiles/getFiles go through the engine's archive API.
 */
export class DockerSandbox implements Sandbox {
  readonly id: string;
  readonly spec: Readonly<SandboxSpec>;
  private state: DockerSandboxState = 'running';
  private destroying: Promise<void> | undefined;
  private end: Promise<SandboxEnd> | null = null;
  /** Stopped by `pause` because the freezer refused: its relay's end is ours, not the sandbox's. */
  private halted = false;
  private readonly deps: DockerSandboxDeps;

  constructor(deps: DockerSandboxDeps) {
    this.deps = deps;
    this.id = deps.container.id.slice(0, 12);
    this.spec = Object.freeze({ ...deps.spec });
  }

  get containerId(): string {
    return this.deps.container.id;
  }

  /** How requests reach the relay: the per-sandbox Unix socket, or the attached stdin/stdout. */
  get relayChannel(): 'socket' | 'stdio' | undefined {
    return this.deps.relay.channel;
  }

  get currentState(): DockerSandboxState {
    return this.state;
  }

  exec(command: Command, options: ExecOptions): Promise<ExecResult> {
    return this.deps.relay.exec(command, options);
  }

  readFile(path: string, options: { offset: number; limit: number; signal?: AbortSignal }): Promise<ReadFileResult> {
    return this.deps.relay.readFile(path, options);
  }

  writeFile(path: string, content: Buffer, options: { signal?: AbortSignal } = {}): Promise<void> {
    return this.deps.relay.writeFile(path, content, options);
  }

  ended(): Promise<SandboxEnd> | null {
    return this.state === 'destroyed' ? null : this.end;
  }

  async putFiles(dir: string, entries: FileEntry[], options: { signal?: AbortSignal } = {}): Promise<void> {
    this.assertRunning();
    const target = checkEngineDir(dir);
    const archive = await packEntries(entries, this.deps.owner);
    const put = (): Promise<unknown> =>
      this.deps.container.putArchive(archive, { path: target, ...(options.signal ? { abortSignal: options.signal } : {}) });
    try {
      await put();
    } catch (error) {
      if (statusOf(error) !== 404) throw this.engineError('putFiles', error);
      // The engine only extracts into an existing folder: create it as the sandbox user, then retry.
      const made = await this.exec({ argv: ['mkdir', '-p', '--', target] }, { timeoutMs: 10_000, maxOutputBytes: 4096, ...(options.signal ? { signal: options.signal } : {}) });
      if (made.exitCode !== 0) throw new SandboxFileError(target, 'denied', `cannot create ${target}: ${made.stderr.trim()}`);
      try {
        await put();
      } catch (retryError) {
        throw this.engineError('putFiles', retryError);
      }
    }
  }

  /** Works on an ended sandbox too: the engine reads a stopped container's filesystem. */
  async getFiles(dir: string, options: GetFilesOptions = {}): Promise<FileEntry[]> {
    this.assertAlive();
    const target = checkEngineDir(dir);
    let stream: NodeJS.ReadableStream;
    try {
      stream = await this.deps.container.getArchive({ path: target, ...(options.signal ? { abortSignal: options.signal } : {}) });
    } catch (error) {
      if (statusOf(error) === 404) throw new SandboxFileError(target, 'not-found', `${target}: no such file or directory in sandbox ${this.id}`);
      throw this.engineError('getFiles', error);
    }
    return unpackEntries(stream, {
      stripPrefix: posix.basename(target),
      maxTotalBytes: options.maxTotalBytes ?? DEFAULT_GET_FILES_MAX_BYTES,
      ...(options.maxFileBytes !== undefined ? { maxFileBytes: options.maxFileBytes } : {}),
      dir: target,
    });
  }

  async pause(): Promise<void> {
    this.assertAlive();
    if (this.state === 'paused' || this.state === 'ended') return;
    // A sandbox handed out before its relay finished starting may still be mid-start-up, and the
    // freezer cannot freeze a process in the middle of exec or a page fault: let the relay come up
    // first (a relay that never does has marked the sandbox dead), then retry a transient refusal.
    await this.deps.relay.ready.catch(() => undefined);
    this.assertAlive();
    for (let attempt = 1; ; attempt++) {
      if (this.hasEnded()) return; // its relay went meanwhile: nothing runs to freeze
      try {
        await this.deps.container.pause();
        break;
      } catch (error) {
        const message = error instanceof Error ? error.message : String(error);
        if (statusOf(error) === 409 && /is not running/i.test(message)) {
          // Its processes ended a moment ago; the relay's stream may not have told us yet.
          this.markDead('the container exited');
          return;
        }
        const transient = /unable to freeze/i.test(message);
        if (!transient) throw this.engineError('pause', error);
        if (attempt >= PAUSE_ATTEMPTS) {
          // The freezer keeps refusing (a process stuck in the kernel, e.g. a writer the disk holds
          // up): stop every process instead. Nothing runs during the read-out all the same, and the
          // engine reads a stopped container's files.
          await this.halt(message);
          return;
        }
        await new Promise((resolve) => setTimeout(resolve, 100 * attempt));
      }
    }
    this.transition('paused');
  }

  /**
   * Kills the container's processes for a read-out the freezer refused. The relay's stream then ends;
   * `halted` keeps that from being taken for an end of the sandbox (the sandbox did not end: it was
   * stopped here, for scoring).
   */
  private async halt(freezeRefusal: string): Promise<void> {
    this.deps.logger.warn({ containerId: this.containerId, freezeRefusal }, 'the freezer refused; stopping the sandbox for its read-out');
    this.halted = true;
    this.transition('paused');
    try {
      await this.deps.container.kill({ signal: 'SIGKILL' });
    } catch (error) {
      // 409: it is not running any more, which is what the kill was for.
      if (statusOf(error) !== 409) throw this.engineError('pause', error);
    }
    await this.deps.container.wait({ condition: 'not-running', abortSignal: AbortSignal.timeout(10_000) } as Dockerode.ContainerWaitOptions).catch(() => undefined);
    this.dropRelay('was stopped for its read-out');
  }

  destroy(): Promise<void> {
    this.destroying ??= this.doDestroy();
    return this.destroying;
  }

  async [Symbol.asyncDispose](): Promise<void> {
    await this.destroy();
  }

  /**
   * Called by the provider when the relay is lost (its stream ended, or it missed a deadline): every
   * call in flight fails, and the container is kept, stopped, so its workspace can still be scored.
   * Who ended it is found out in the background (`ended()`).
   */
  markDead(reason: string, loss: RelayLoss = 'exited'): void {
    if (this.state === 'destroyed' || this.state === 'ended' || this.halted) return;
    this.deps.logger.warn({ containerId: this.containerId, reason }, 'sandbox ended');
    this.transition('ended');
    this.dropRelay(`ended: ${reason}`);
    this.end = this.deps.attributeEnd(this.deps.container, loss, reason);
    void this.end.then((end) => this.deps.logger.info({ containerId: this.containerId, by: end.by, reason: end.reason }, 'sandbox end attributed'));
  }

  private async doDestroy(): Promise<void> {
    const wasPaused = this.state === 'paused';
    this.transition('destroyed');
    this.dropRelay('was destroyed');
    try {
      if (wasPaused && this.deps.unpauseBeforeRemove) await this.deps.container.unpause().catch(() => undefined);
      await this.deps.container.remove({ force: true, v: true });
    } catch (error) {
      const status = statusOf(error);
      // 404: already gone; 409: removal already in progress. Both mean the goal is reached.
      if (status !== 404 && status !== 409) {
        this.deps.logger.error({ err: error, containerId: this.containerId }, 'could not remove sandbox container; the reaper will retry');
      }
    } finally {
      this.deps.onDestroyed(this);
    }
  }

  /** Fails every relay call in flight with "sandbox <id> <what>" and closes the relay's stream. */
  private dropRelay(what: string): void {
    this.deps.relay.fail(new SandboxAbortedError(this.id, `sandbox ${this.id} ${what}`));
    this.deps.stream.destroy();
  }

  private transition(next: DockerSandboxState): void {
    if (this.state === next) return;
    this.deps.logger.debug({ containerId: this.containerId, from: this.state, to: next }, 'sandbox state');
    this.state = next;
  }

  private assertAlive(): void {
    if (this.state === 'destroyed') throw new SandboxAbortedError(this.id, `sandbox ${this.id} was destroyed`);
  }

  /** A method, not a field read, so a check after an await is not narrowed away by the compiler. */
  private hasEnded(): boolean {
    return this.state === 'ended';
  }

  private assertRunning(): void {
    this.assertAlive();
    if (this.state === 'ended') throw new SandboxAbortedError(this.id, `sandbox ${this.id} has ended`);
  }

  private engineError(what: string, error: unknown): Error {
    if (this.state === 'destroyed' || statusOf(error) === 404) {
      return new SandboxAbortedError(this.id, `sandbox ${this.id} is gone (${what})`, { cause: error });
    }
    return error instanceof Error ? error : new Error(String(error));
  }
}

/** The engine's archive API needs an absolute folder; a tmpfs folder (/tmp) silently drops puts. */
function checkEngineDir(dir: string): string {
  if (!dir.startsWith('/')) throw new InvalidArgumentError('dir', `'${dir}' must be an absolute path`);
  const normal = posix.normalize(dir);
  if (normal === '/tmp' || normal.startsWith('/tmp/')) {
    throw new InvalidArgumentError('dir', `'${dir}' is on a tmpfs where the engine's archive API does not work; use a folder such as /workspace or /var/lib/codemidas`);
  }
  return normal.length > 1 ? normal.replace(/\/+$/, '') : normal;
}

export function statusOf(error: unknown): number | undefined {
  if (typeof error === 'object' && error !== null && 'statusCode' in error) {
    const code = (error as { statusCode?: unknown }).statusCode;
    return typeof code === 'number' ? code : undefined;
  }
  return undefined;
}
