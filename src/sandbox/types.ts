/**
 * The sandbox interface, owned by the project: no engine type (dockerode, child_process) crosses it.
 * Adapters: docker (`docker/`), local bubblewrap (`local/`), in-memory fake for unit tests (`memory/`).
 */
import type { RuntimeDependencies } from './runtime-dependencies.js';

/** A file tree entry moved in or out of a sandbox. Paths are POSIX, relative to the directory named in the call. */
export interface FileEntry {
  path: string;
  type: 'file' | 'directory' | 'symlink' | 'hardlink' | 'other';
  /** Permission bits, e.g. 0o644. */
  mode: number;
  /** File content; present for `file` entries. */
  content?: Buffer;
  /** Link target for `symlink` / `hardlink` entries. */
  linkTarget?: string;
  /** Owner inside the sandbox; defaults to the sandbox's user. */
  uid?: number;
  gid?: number;
  /**
   * Size in bytes of a `file` entry read out without its content: `getFiles` leaves out the bytes of
   * a file over its `maxFileBytes`, or past its `maxTotalBytes`, and says how big the file was.
   */
  size?: number;
}

export interface SandboxResources {
  /** Memory limit in bytes. Default 1 GiB. */
  memoryBytes: number;
  /** CPU limit in cores (may be fractional). Default 1. */
  cpus: number;
  /** Max processes. Default 256. */
  pids: number;
}

export interface SandboxSpec {
  /** Image reference (docker); the local adapter runs the host's root filesystem read-only instead. */
  image: string;
  /**
   * `episode`: runs as the unprivileged agent user (uid 1000), every capability dropped.
   * `scoring`: runs as root with only the capabilities needed to drop to the agent user
   * (SETUID, SETGID, CHOWN, FOWNER, DAC_OVERRIDE, KILL), so the judge can keep the hidden tests
   * out of the agent code's reach.
   */
  role: 'episode' | 'scoring';
  /** Working directory inside the sandbox; `/workspace` by convention. */
  workdir: string;
  resources: SandboxResources;
  /** Extra labels (docker) for bookkeeping, e.g. `codemidas.episode`. */
  labels: Record<string, string>;
  /** When the reaper may remove this sandbox even if its owner never did. */
  expiresAt: Date;
  /**
   * Absolute paths of the image this sandbox must not contain (task.json `runtime.scrub`: copies of
   * the library under construction; see scrub-paths.ts). Docker runs the sandbox on a derived image
   * with them deleted (`prepareImage`); the local adapter covers them with empty mounts.
   */
  scrub?: readonly string[];
  /**
   * Packages the image gets on top of it (task.json `runtime.dependencies`: the repository's declared
   * dependencies). Docker runs the sandbox on a derived image with them installed (`prepareImage`);
   * the local adapter runs the host's filesystem and refuses a spec with any.
   */
  dependencies?: RuntimeDependencies;
}

export type Command = { argv: string[] } | { shell: string };

export interface ExecOptions {
  /** Wall-clock limit; the command's whole process group is killed when it runs out. */
  timeoutMs: number;
  /** Cap on stdout and stderr each, in bytes; beyond it head and tail are kept. */
  maxOutputBytes: number;
  signal?: AbortSignal;
  /** Relative to the sandbox's workdir, or absolute. Default: the workdir. */
  cwd?: string;
  env?: Record<string, string>;
  /** Bytes fed to the command's stdin, then closed. */
  stdin?: Buffer;
  /**
   * Run in the sandbox's persistent shell: cwd and exported variables carry over between calls like
   * a terminal, and builtins cost no process start. The command's stdin is empty; processes it leaves
   * in the background keep running and their later output may appear in a later session call.
   * `exit`, a timeout, an abort or an output overflow ends the shell (and everything started in it);
   * the next session call gets a fresh one in the workdir (see `ExecResult.sessionRestarted`).
   * With `cwd` or `env` the command runs in a subshell, so they do not carry over. A call made while
   * another session call is running, or with `stdin`, runs as its own process instead. Default false.
   */
  session?: boolean;
}

export interface ExecResult {
  exitCode: number;
  stdout: string;
  stderr: string;
  timedOut: boolean;
  truncated: boolean;
  durationMs: number;
  /**
   * Session calls only: the persistent shell's state (cwd, variables, background processes) was lost,
   * because this command ended the shell (`exit`, timeout, abort, overflow, a fatal shell error) or
   * the shell had died since the previous call and this one ran in a fresh shell in the workdir.
   */
  sessionRestarted?: boolean;
}

export interface GetFilesOptions {
  signal?: AbortSignal;
  /** Files larger than this come back without content (their `size` set). Default: no cap. */
  maxFileBytes?: number;
  /** Once this many content bytes were read, later files come back without content. Default 256 MiB. */
  maxTotalBytes?: number;
}

export interface ReadFileResult {
  content: Buffer;
  /** Total size of the file in bytes. */
  size: number;
  /** True when [offset, offset+limit) did not reach the end of the file. */
  truncated: boolean;
}

/**
 * How a sandbox ended without `destroy` being called: its main process (the relay) went away, or
 * stopped answering and was stopped. `by` says who may be held to account, which decides whether
 * the episode is still scored (DESIGN.md, Scoring point 6):
 *  - `inside`: what ran in the sandbox ended it (its processes were killed or exited from inside,
 *    it ran out of memory, its relay stopped answering). The sandbox's filesystem stays readable
 *    with `getFiles` until `destroy`.
 *  - `outside`: the engine went away or restarted, or the sandbox was killed or removed by someone
 *    other than its owner. Nothing the agent ran can cause this.
 */
export interface SandboxEnd {
  by: 'inside' | 'outside';
  /** What happened, for a person, e.g. "its processes ended (exit code 137)". */
  reason: string;
}

export interface Sandbox extends AsyncDisposable {
  readonly id: string;
  readonly spec: Readonly<SandboxSpec>;
  exec(command: Command, options: ExecOptions): Promise<ExecResult>;
  /** Reads a file as the sandbox user. Errors (missing, directory, denied) throw `SandboxFileError`. */
  readFile(path: string, options: { offset: number; limit: number; signal?: AbortSignal }): Promise<ReadFileResult>;
  /** Writes a file as the sandbox user, creating parent directories. */
  writeFile(path: string, content: Buffer, options?: { signal?: AbortSignal }): Promise<void>;
  /** Copies entries into the sandbox under `dir` (absolute), through the engine, not the user. */
  putFiles(dir: string, entries: FileEntry[], options?: { signal?: AbortSignal }): Promise<void>;
  /**
   * Reads the tree under `dir` (absolute) through the engine; links and special files reported, not
   * followed. Works on a sandbox that ended by itself (`ended`). A file over `maxFileBytes`, or one
   * that would take the total past `maxTotalBytes`, comes back without `content`, with its `size`:
   * a huge file never fails the read-out. Defaults: no per-file cap, 256 MiB in all.
   */
  getFiles(dir: string, options?: GetFilesOptions): Promise<FileEntry[]>;
  /** Freezes every process (so a read-out is consistent); no-op where unsupported or once ended. */
  pause(): Promise<void>;
  /**
   * Null while the sandbox runs or after `destroy`. Once it ended by itself (see `SandboxEnd`): a
   * promise of how, settled once the adapter has found out who ended it (docker asks the engine).
   */
  ended(): Promise<SandboxEnd> | null;
  /** Idempotent; safe to call on a dead sandbox. */
  destroy(): Promise<void>;
}

export interface SandboxProvider {
  readonly kind: 'docker' | 'local' | 'memory';
  /** Checks the engine answers; throws `UnavailableError` with what to do otherwise. */
  ping(signal?: AbortSignal): Promise<void>;
  create(spec: SandboxSpec, options?: { signal?: AbortSignal }): Promise<Sandbox>;
  /**
   * Removes sandboxes this project started that are past their expiry or whose owning server process
   * is gone (labels `codemidas.managed`, `codemidas.owner-pid`, `codemidas.owner-host`, `codemidas.expires-at`).
   * Returns how many were removed.
   */
  reap(): Promise<number>;
  /** Image tag to use for a language (`python`, `node`), after `images build`. */
  imageFor(language: string): string;
  /**
   * The image that sandboxes of `image` with `scrub` (and `options.dependencies`) run on, made
   * ready: docker builds the derived image with the dependencies installed
   * (`<repository>-deps:<hash>`), then that with the scrub paths deleted
   * (`<repository>-scrubbed:<hash>`), each once, cached by content; `create` calls it too, so calling
   * it ahead only moves the cost. Returns `image` when there is nothing to scrub or install.
   */
  prepareImage(image: string, scrub: readonly string[], options?: { signal?: AbortSignal; dependencies?: RuntimeDependencies | undefined }): Promise<string>;
  /**
   * An image that is `image` with `files` at `workdir`, owned by the agent user, so an episode's
   * sandbox starts with its codebase copy-on-write instead of having it uploaded: docker builds it
   * once, cached by content (`codemidas/workspace:<hash>`). Returns null where the adapter cannot
   * bake files into an image (local, memory): the caller copies them in after `create`.
   */
  prepareWorkspaceImage(image: string, workdir: string, files: readonly FileEntry[], options?: { signal?: AbortSignal }): Promise<string | null>;
  /**
   * What confines every sandbox beyond its spec (runtime, disk cap), checked against the engine once
   * with `image`; docker only. Throws `UnavailableError` naming the fix when something asked for is
   * missing (a runtime, or a disk cap under the `refuse` policy).
   */
  checkIsolation?(image: string, options?: { signal?: AbortSignal }): Promise<SandboxIsolation>;
  close(): Promise<void>;
}

/** What the engine enforces on each sandbox beyond its spec (`SandboxProvider.checkIsolation`). */
export interface SandboxIsolation {
  /** The runtime sandboxes run under (`runc`, `runsc`). */
  runtimeName: string;
  /** Cap on what one sandbox writes to disk, in bytes; null: not capped. */
  diskBytes: number | null;
  /** One line for a person: runtime, disk cap, and how it is enforced or why not. */
  summary: string;
}

/** A file operation inside the sandbox failed for a reason the agent should see. */
export class SandboxFileError extends Error {
  readonly path: string;
  readonly reason: 'not-found' | 'is-directory' | 'denied' | 'too-large' | 'other';
  constructor(path: string, reason: SandboxFileError['reason'], message: string) {
    super(message);
    this.path = path;
    this.reason = reason;
    this.name = 'SandboxFileError';
  }
}
