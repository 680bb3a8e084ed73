import { randomBytes } from 'node:crypto';
import { chmodSync, mkdirSync, rmSync } from 'node:fs';
import { createServer as createNetServer, type Server as NetServer, type Socket } from 'node:net';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough, type Duplex } from 'node:stream';
import Dockerode from 'dockerode';
import type { Logger } from '../../logging.js';
import { SandboxAbortedError, UnavailableError } from '../../errors.js';
import type { ImageResolver } from '../image-resolver.js';
import { RELAY_BYTECODE_PATH_IN_SANDBOX, RelayClient } from '../relay/relay-client.js';
import { assertRuntimeDependencies, hasDependencies, type RuntimeDependencies } from '../runtime-dependencies.js';
import { assertScrubPaths, normaliseScrubPaths } from '../scrub-paths.js';
import type { FileEntry, Sandbox, SandboxProvider, SandboxSpec } from '../types.js';
import { resolveDockerIsolation, type DockerIsolation, type DockerIsolationWanted } from './docker-isolation.js';
import { attributeEnd } from './attribute-end.js';
import { DockerSandbox, statusOf } from './docker-sandbox.js';
import { createLoopDisk, loopDiskHostConfig, removeLoopDisks, type LoopDisk } from './loop-disk.js';

export const LABEL_MANAGED = 'codemidas.managed';
export const LABEL_SERVER = 'codemidas.server';
export const LABEL_OWNER_PID = 'codemidas.owner-pid';
export const LABEL_OWNER_HOST = 'codemidas.owner-host';
export const LABEL_EXPIRES_AT = 'codemidas.expires-at';
export const LABEL_ROLE = 'codemidas.role';
export const LABEL_RELAY_DIR = 'codemidas.relay-dir';

/** Where the relay finds the host's socket inside the sandbox (a read-only bind mount). */
const RELAY_SOCKET_DIR_IN_SANDBOX = '/run/codemidas-relay';

/** The `HostConfig` fields a sandbox's runtime and disk cap add. */
type IsolationHostConfig = { Runtime?: string; StorageOpt?: Record<string, string>; Mounts?: Dockerode.MountSettings[]; Tmpfs?: Record<string, string> };

/** The unprivileged user every episode runs as (the images' `agent`). */
const AGENT = { uid: 1000, gid: 1000 };

/** Capabilities the scoring role keeps, so its judge can drop to the agent user and guard hidden tests. */
export const SCORING_CAPABILITIES = ['SETUID', 'SETGID', 'CHOWN', 'FOWNER', 'DAC_OVERRIDE', 'KILL'];

export interface DockerSandboxProviderOptions {
  /** Engine client; default `new Dockerode()` (DOCKER_HOST or /var/run/docker.sock). */
  docker?: Dockerode;
  logger: Logger;
  /** Written into every container's `codemidas.server` label. */
  serverId: string;
  /**
   * Where the sandboxes' images come from: the tag of each runtime image by name, and the scrubbed
   * and workspace images built on them (`createDockerImageResolver` in `src/images/`).
   */
  images: ImageResolver;
  /** Size of the /tmp tmpfs in bytes. Default 256 MiB. */
  tmpfsBytes?: number;
  /** How long the relay may take to answer first; past it the sandbox is marked dead. Default 30000. */
  readyTimeoutMs?: number;
  /**
   * create() returns once the relay answers, rather than once the container is started (its first
   * requests then wait for the relay). Default false.
   */
  waitForRelay?: boolean;
  /** Extra time the relay gets past an exec's timeoutMs before the sandbox counts as hung. Default 5000. */
  watchdogGraceMs?: number;
  /**
   * Host folder under which each sandbox gets a Unix socket its relay connects to, so a call skips
   * the engine's attach path (~0.7 ms a round trip). Default `<tmpdir>/codemidas-relay`. `null`
   * turns the socket off: requests then travel over the attached stdin/stdout.
   */
  relaySocketRoot?: string | null;
  /**
   * Runtime and disk cap of every sandbox, episode and scoring alike (see `DockerIsolationWanted`):
   * checked against the engine once, before the first sandbox (`checkIsolation`). Default: the
   * engine's default runtime, no disk cap.
   */
  isolation?: DockerIsolationWanted;
}

/** What to tell a user whose engine does not answer. */
export const ENGINE_FIX =
  "start the container engine: run 'bash scripts/setup-engine.sh' (as root; it installs and starts dockerd), or start dockerd yourself";

export function createDockerSandboxProvider(options: DockerSandboxProviderOptions): SandboxProvider {
  return new DockerSandboxProvider(options);
}

class DockerSandboxProvider implements SandboxProvider {
  readonly kind = 'docker' as const;
  private readonly docker: Dockerode;
  private readonly logger: Logger;
  private readonly live = new Set<DockerSandbox>();
  /** Derived images with dependencies installed and scrubbed paths deleted, by image, paths and dependencies (`prepareImage`). */
  private readonly prepared = new Map<string, Promise<string>>();
  /** What the engine enforces, read once (`checkIsolation`). */
  private isolation: Promise<DockerIsolation> | undefined;
  /** Tags this provider's loop disks (`<pid>-<tag>-<random>`), so close() and the reaper tell them apart. */
  private readonly diskTag = randomBytes(4).toString('hex');
  /** Loop disks of sandboxes not yet destroyed. */
  private readonly disks = new Set<LoopDisk>();

  constructor(private readonly options: DockerSandboxProviderOptions) {
    this.docker = options.docker ?? new Dockerode();
    this.logger = options.logger.child({ component: 'docker-sandbox' });
  }

  async ping(signal?: AbortSignal): Promise<void> {
    const timeout = AbortSignal.timeout(5000);
    const combined = signal ? AbortSignal.any([signal, timeout]) : timeout;
    try {
      // @types/dockerode lags dockerode 5: ping takes options with an abortSignal.
      await (this.docker.ping as unknown as (options: { abortSignal: AbortSignal }) => Promise<unknown>)({ abortSignal: combined });
    } catch (error) {
      throw new UnavailableError(`the container engine does not answer (${describe(error)}): ${ENGINE_FIX}`, { cause: error });
    }
  }

  imageFor(language: string): string {
    return this.options.images.imageFor(language);
  }

  /**
   * Reads once what the engine enforces (runtime, disk cap; `resolveDockerIsolation`), probing with
   * `image`; every create waits for it. Throws `UnavailableError` naming the fix when a runtime or a
   * refused disk cap is missing; a failed check is retried by the next call.
   */
  checkIsolation(image: string, options: { signal?: AbortSignal } = {}): Promise<DockerIsolation> {
    if (!this.isolation) {
      const checking = resolveDockerIsolation(this.docker, image, this.options.isolation ?? {}, this.logger, options.signal);
      this.isolation = checking;
      checking.then(
        (found) => this.logger.info({ runtime: found.runtimeName, diskBytes: found.diskBytes, storageDriver: found.storageDriver }, found.summary),
        () => {
          if (this.isolation === checking) this.isolation = undefined;
        },
      );
    }
    return this.isolation;
  }

  /**
   * `HostConfig` fields of the runtime and the disk cap, and the loop disk made for this sandbox when
   * the cap is enforced with one (the caller disposes of it once the container is gone).
   */
  private async isolationFor(image: string, workdir: string, signal?: AbortSignal): Promise<{
    hostConfig: IsolationHostConfig;
    disk: LoopDisk | null;
  }> {
    const wanted = this.options.isolation;
    if (!wanted?.runtime && !wanted?.diskBytes) return { hostConfig: {}, disk: null };
    const isolation = await this.checkIsolation(image, signal ? { signal } : {});
    const hostConfig: IsolationHostConfig = {};
    if (isolation.runtime) hostConfig.Runtime = isolation.runtime;
    if (isolation.diskBytes === null) return { hostConfig, disk: null };
    if (isolation.diskEnforcement === 'engine') {
      hostConfig.StorageOpt = { size: String(isolation.diskBytes) };
      return { hostConfig, disk: null };
    }
    const disk = await createLoopDisk(isolation.loopDiskRoot!, this.diskTag, isolation.diskBytes, signal);
    const fields = loopDiskHostConfig(disk, workdir, AGENT);
    hostConfig.Mounts = fields.Mounts;
    hostConfig.Tmpfs = fields.Tmpfs;
    return { hostConfig, disk };
  }

  async prepareImage(image: string, scrub: readonly string[], options: { signal?: AbortSignal; dependencies?: RuntimeDependencies | undefined } = {}): Promise<string> {
    const dependencies = hasDependencies(options.dependencies) ? options.dependencies : null;
    if (scrub.length === 0 && !dependencies) return image;
    assertScrubPaths(scrub);
    if (dependencies) assertRuntimeDependencies(dependencies);
    options.signal?.throwIfAborted();
    const paths = normaliseScrubPaths(scrub);
    // once per provider: a Reset of a scrubbed task then costs no engine round trip for it
    const key = JSON.stringify([image, paths, dependencies]);
    let prepared = this.prepared.get(key);
    if (!prepared) {
      const { images } = this.options;
      prepared = (async () => {
        const installed = dependencies ? await images.prepareDependencyImage(image, dependencies) : image;
        return paths.length > 0 ? images.prepareScrubbedImage(installed, paths) : installed;
      })();
      this.prepared.set(key, prepared);
      prepared.catch(() => this.prepared.delete(key));
    }
    return prepared;
  }

  async prepareWorkspaceImage(image: string, workdir: string, files: readonly FileEntry[], options: { signal?: AbortSignal } = {}): Promise<string | null> {
    options.signal?.throwIfAborted();
    return this.options.images.prepareWorkspaceImage(image, workdir, files);
  }

  async create(spec: SandboxSpec, options: { signal?: AbortSignal } = {}): Promise<Sandbox> {
    const signal = options.signal;
    signal?.throwIfAborted();
    const image =
      spec.scrub?.length || hasDependencies(spec.dependencies) ? await this.prepareImage(spec.image, spec.scrub ?? [], { ...options, dependencies: spec.dependencies }) : spec.image;
    const owner = spec.role === 'episode' ? AGENT : { uid: 0, gid: 0 };
    const started = performance.now();
    let isolated: IsolationHostConfig;
    let disk: LoopDisk | null;
    try {
      ({ hostConfig: isolated, disk } = await this.isolationFor(image, spec.workdir, signal));
    } catch (error) {
      throw this.createError(spec, error);
    }
    if (disk) this.disks.add(disk);
    const disposeDisk = (): void => {
      if (!disk || !this.disks.delete(disk)) return;
      disk.dispose().catch((error: unknown) => this.logger.warn({ err: error, dir: disk.dir }, 'could not remove a loop disk; the reaper retries'));
    };
    // Engine events carry whole seconds: a second early, so the sandbox's own are never missed.
    const createdAtMs = Date.now() - 1000;
    const channel = await this.openRelaySocket();
    let container: Dockerode.Container;
    try {
      container = await this.docker.createContainer({
        Image: image,
        // -I -S: no user site, no PYTHON* variables, no site import (~20 ms less to start).
        Cmd: ['python3', '-I', '-S', '-u', RELAY_BYTECODE_PATH_IN_SANDBOX],
        User: `${owner.uid}:${owner.gid}`,
        WorkingDir: spec.workdir,
        Env: [`CODEMIDAS_WORKDIR=${spec.workdir}`, ...(channel ? [`CODEMIDAS_RELAY_SOCKET=${RELAY_SOCKET_DIR_IN_SANDBOX}/relay.sock`] : [])],
        Labels: {
          ...spec.labels,
          [LABEL_MANAGED]: 'true',
          [LABEL_SERVER]: this.options.serverId,
          [LABEL_OWNER_PID]: String(process.pid),
          [LABEL_OWNER_HOST]: hostname(),
          [LABEL_EXPIRES_AT]: spec.expiresAt.toISOString(),
          [LABEL_ROLE]: spec.role,
          ...(channel ? { [LABEL_RELAY_DIR]: channel.dir } : {}),
        },
        AttachStdin: true,
        AttachStdout: true,
        AttachStderr: true,
        OpenStdin: true,
        StdinOnce: false,
        Tty: false,
        // Both: with NetworkMode 'none' alone a start costs ~220 ms instead of ~90 ms.
        NetworkDisabled: true,
        HostConfig: {
          NetworkMode: 'none',
          Init: true,
          Memory: spec.resources.memoryBytes,
          MemorySwap: spec.resources.memoryBytes,
          NanoCpus: Math.round(spec.resources.cpus * 1e9),
          PidsLimit: spec.resources.pids,
          CapDrop: ['ALL'],
          CapAdd: spec.role === 'scoring' ? SCORING_CAPABILITIES : [],
          SecurityOpt: ['no-new-privileges'],
          ...isolated,
          Tmpfs: { ...isolated.Tmpfs, '/tmp': `rw,nosuid,nodev,size=${this.options.tmpfsBytes ?? 256 * 1024 * 1024},mode=1777` },
          ...(channel ? { Binds: [`${channel.dir}:${RELAY_SOCKET_DIR_IN_SANDBOX}:ro`] } : {}),
          // What the container prints lands nowhere on the host's disk: the relay's output is read
          // through the attached stream, and a json-file log would grow without bound with anything
          // the agent writes to the init's stdout.
          LogConfig: { Type: 'none', Config: {} },
        },
        ...(signal ? { abortSignal: signal } : {}),
      });
    } catch (error) {
      channel?.dispose();
      disposeDisk();
      throw this.createError(spec, error);
    }
    const log = this.logger.child({ containerId: container.id.slice(0, 12) });
    let sandbox: DockerSandbox | undefined;
    try {
      const stream = (await container.attach({ stream: true, stdin: true, stdout: true, stderr: true, hijack: true })) as Duplex;
      let socket: Socket | undefined;
      const relay = new RelayClient({
        sandboxId: container.id.slice(0, 12),
        write: (line) => {
          (socket ?? stream).write(line);
        },
        onHung: (message) => {
          log.error({ reason: message }, 'relay hung; stopping the sandbox');
          sandbox?.markDead(message, 'hung');
        },
        ...(this.options.watchdogGraceMs !== undefined ? { graceMs: this.options.watchdogGraceMs } : {}),
      });
      const stdout = new PassThrough();
      const stderr = new PassThrough();
      stdout.on('data', (chunk: Buffer) => relay.feed(chunk));
      stderr.on('data', (chunk: Buffer) => log.warn({ relayStderr: chunk.toString('utf8').slice(0, 2000) }, 'relay stderr'));
      this.docker.modem.demuxStream(stream, stdout, stderr);
      const ended = (): void => {
        if (sandbox) sandbox.markDead('the container exited');
        else relay.fail(new SandboxAbortedError(container.id.slice(0, 12), 'the sandbox exited while starting'));
      };
      stream.on('end', ended);
      stream.on('close', ended);
      stream.on('error', ended);
      channel?.server.once('connection', (accepted) => {
        // One connection, the relay's: stop listening (which removes the socket file) at once.
        channel.server.close();
        socket = accepted;
        socket.setNoDelay(true);
        socket.on('data', (chunk: Buffer) => relay.feed(chunk));
        socket.on('close', ended);
        socket.on('error', ended);
      });
      sandbox = new DockerSandbox({
        container,
        spec,
        relay,
        stream,
        owner,
        logger: log,
        unpauseBeforeRemove: isolated.Runtime !== undefined,
        onDestroyed: (s) => {
          this.live.delete(s);
          socket?.destroy();
          channel?.dispose();
          disposeDisk();
        },
        attributeEnd: (c, loss, reason) => attributeEnd({ docker: this.docker, container: c, loss, reason, createdAtMs, memoryBytes: spec.resources.memoryBytes, logger: log }),
      });
      this.live.add(sandbox);
      await container.start();
      const relayStarted = withTimeout(relay.ready, this.options.readyTimeoutMs ?? 30_000, this.options.waitForRelay ? signal : undefined, () =>
        new SandboxAbortedError(sandbox?.id ?? '', `the relay in ${spec.image} did not start; rebuild the images with 'codemidas images build'`),
      );
      if (this.options.waitForRelay) {
        await relayStarted;
      } else {
        // The container is started: hand it out now, like the engine's own start does. The relay
        // comes up meanwhile (tens of ms of python3 start-up); requests made before it is ready wait
        // for it, and a relay that never comes up marks the sandbox dead, so they fail as ABORTED.
        const live = sandbox;
        relayStarted.catch((err: unknown) => {
          // Destroyed on purpose (closed, or the server stopping) before its relay was up: nothing failed.
          if (live.currentState === 'destroyed') return;
          log.error({ err, image: spec.image }, 'the relay did not start; destroying the sandbox');
          live.markDead(err instanceof Error ? err.message : String(err));
        });
      }
      log.debug({ image: spec.image, role: spec.role, startMs: Math.round(performance.now() - started) }, 'sandbox started');
      return sandbox;
    } catch (error) {
      if (sandbox) await sandbox.destroy();
      else {
        channel?.dispose();
        await container.remove({ force: true, v: true }).catch(() => undefined);
        disposeDisk();
      }
      throw this.createError(spec, error);
    }
  }

  /**
   * A per-sandbox folder holding a Unix socket the host listens on; the sandbox sees the folder
   * read-only. Null when turned off or when the folder cannot be made (the stdio channel still works).
   */
  private relaySocketRoot(): string | null {
    return this.options.relaySocketRoot === undefined ? join(tmpdir(), 'codemidas-relay') : this.options.relaySocketRoot;
  }

  /** Only folders this provider's root holds are ever removed on the word of a label. */
  private ownsRelayDir(dir: string): boolean {
    const root = this.relaySocketRoot();
    return root !== null && /^[0-9a-f]{16}$/.test(dir.slice(root.length + 1)) && dir.startsWith(`${root}/`);
  }

  private async openRelaySocket(): Promise<{ dir: string; server: NetServer; dispose: () => void } | null> {
    const root = this.relaySocketRoot();
    if (root === null) return null;
    const dir = join(root, randomBytes(8).toString('hex'));
    const server = createNetServer();
    const dispose = (): void => {
      server.close();
      rmSync(dir, { recursive: true, force: true });
    };
    try {
      mkdirSync(dir, { recursive: true, mode: 0o755 });
      chmodSync(dir, 0o755);
      const path = join(dir, 'relay.sock');
      await new Promise<void>((resolve, reject) => {
        server.once('error', reject);
        server.listen(path, () => {
          server.off('error', reject);
          resolve();
        });
      });
      // The relay may run as the unprivileged agent user.
      chmodSync(path, 0o666);
      return { dir, server, dispose };
    } catch (error) {
      dispose();
      this.logger.warn({ err: error, dir }, 'no relay socket; requests go over the attached stream');
      return null;
    }
  }

  async reap(): Promise<number> {
    const containers = await this.docker.listContainers({ all: true, filters: { label: [`${LABEL_MANAGED}=true`] } });
    const now = Date.now();
    const host = hostname();
    let removed = 0;
    for (const info of containers) {
      const labels = info.Labels ?? {};
      const expiresAt = Date.parse(labels[LABEL_EXPIRES_AT] ?? '');
      const expired = Number.isFinite(expiresAt) && expiresAt <= now;
      const pid = Number(labels[LABEL_OWNER_PID]);
      const orphaned = labels[LABEL_OWNER_HOST] === host && Number.isInteger(pid) && pid > 0 && !processAlive(pid);
      if (!expired && !orphaned) continue;
      try {
        await this.docker.getContainer(info.Id).remove({ force: true, v: true });
        const relayDir = labels[LABEL_RELAY_DIR];
        if (relayDir && labels[LABEL_OWNER_HOST] === host && this.ownsRelayDir(relayDir)) rmSync(relayDir, { recursive: true, force: true });
        removed++;
        this.logger.info({ containerId: info.Id.slice(0, 12), expired, orphaned }, 'reaped sandbox');
      } catch (error) {
        const status = statusOf(error);
        if (status !== 404 && status !== 409) this.logger.warn({ err: error, containerId: info.Id.slice(0, 12) }, 'could not reap sandbox');
      }
    }
    const root = await this.loopDiskRoot();
    if (root) {
      // Disks whose owner process is gone (their containers were removed just above, or never made).
      const disks = await removeLoopDisks(root, (pid) => pid !== process.pid && !processAlive(pid), this.logger);
      if (disks > 0) this.logger.info({ disks }, 'removed loop disks of servers that are gone');
    }
    return removed;
  }

  /** Root of this provider's loop disks once the isolation check chose them; else null. */
  private async loopDiskRoot(): Promise<string | null> {
    if (!this.isolation) return null;
    try {
      return (await this.isolation).loopDiskRoot;
    } catch {
      return null;
    }
  }

  async close(): Promise<void> {
    await Promise.all([...this.live].map((sandbox) => sandbox.destroy()));
    // A removal that failed (the engine away or restarting at the time) left its container behind,
    // and the reaper spares a live owner's: remove whatever still carries this provider's label.
    try {
      const left = await this.docker.listContainers({ all: true, filters: { label: [`${LABEL_SERVER}=${this.options.serverId}`] } });
      await Promise.all(left.map((info) => this.docker.getContainer(info.Id).remove({ force: true, v: true }).catch(() => undefined)));
    } catch (error) {
      this.logger.warn({ err: error }, 'could not list this server\'s containers at close; the reaper removes them once this process is gone');
    }
    // Disks of sandboxes whose removal is still settling, and any a failed create left behind.
    await Promise.all([...this.disks].map((disk) => disk.dispose().catch(() => undefined)));
    this.disks.clear();
    const root = await this.loopDiskRoot();
    if (root) await removeLoopDisks(root, (pid, tag) => pid === process.pid && tag === this.diskTag, this.logger);
  }

  private createError(spec: SandboxSpec, error: unknown): Error {
    if (error instanceof SandboxAbortedError || error instanceof UnavailableError) return error;
    if (error instanceof Error && error.name === 'AbortError') return error;
    const status = statusOf(error);
    if (status === 404) {
      return new UnavailableError(`sandbox image ${spec.image} is missing: build it with 'codemidas images build'`, { cause: error });
    }
    const code = (error as { code?: unknown } | null)?.code;
    if (code === 'ENOENT' || code === 'ECONNREFUSED' || code === 'EACCES') {
      return new UnavailableError(`the container engine does not answer (${describe(error)}): ${ENGINE_FIX}`, { cause: error });
    }
    return error instanceof Error ? error : new Error(String(error));
  }
}

/** True while a process with this pid exists (EPERM: it exists but belongs to someone else). */
export function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

async function withTimeout<T>(promise: Promise<T>, ms: number, signal: AbortSignal | undefined, onTimeout: () => Error): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  let onAbort: (() => void) | undefined;
  try {
    return await Promise.race([
      promise,
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(onTimeout()), ms);
        if (signal) {
          onAbort = () => reject(signal.reason instanceof Error ? signal.reason : new Error('aborted'));
          signal.addEventListener('abort', onAbort, { once: true });
        }
      }),
    ]);
  } finally {
    clearTimeout(timer);
    if (signal && onAbort) signal.removeEventListener('abort', onAbort);
  }
}
