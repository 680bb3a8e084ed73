import type { ChildProcess } from 'node:child_process';
import { promises as fs } from 'node:fs';
import { join, posix } from 'node:path';
import type { Logger } from '../../logging.js';
import { InvalidArgumentError, SandboxAbortedError } from '../../errors.js';
import type { RelayClient } from '../relay/relay-client.js';
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
  type SandboxSpec,
} from '../types.js';
import { LOCAL_VAR_LIB } from './bwrap-args.js';

export interface LocalSandboxDeps {
  id: string;
  spec: SandboxSpec;
  relay: RelayClient;
  child: ChildProcess;
  /** Host folder holding `workspace/` and `var-lib/`; removed on destroy. */
  hostDir: string;
  /** uid the sandbox user has inside (reported for host-owned files). */
  sandboxUid: number;
  logger: Logger;
  onDestroyed: (sandbox: LocalSandbox) => void;
}

/** Default cap for `getFiles`: 256 MiB. */
const DEFAULT_MAX_TOTAL_BYTES = 256 * 1024 * 1024;

/**
 * A bubblewrap sandbox: the relay runs under bwrap; files move through the host folders bound at
 * the workdir and /var/lib/codemidas (the only writable places besides the /tmp tmpfs).
 */
export class LocalSandbox implements Sandbox {
  readonly id: string;
  readonly spec: Readonly<SandboxSpec>;
  private destroying: Promise<void> | undefined;
  private end: Promise<SandboxEnd> | null = null;

  constructor(private readonly deps: LocalSandboxDeps) {
    this.id = deps.id;
    this.spec = Object.freeze({ ...deps.spec });
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
    return this.destroying ? null : this.end;
  }

  async putFiles(dir: string, entries: FileEntry[], options: { signal?: AbortSignal } = {}): Promise<void> {
    this.assertAlive();
    if (this.end) throw new SandboxAbortedError(this.id, `sandbox ${this.id} has ended`);
    const base = this.hostPath(dir);
    await fs.mkdir(base.path, { recursive: true });
    for (const entry of entries) {
      options.signal?.throwIfAborted();
      const rel = normalizeEntryPath(entry.path);
      const target = join(base.path, rel);
      await this.ensureNoSymlinkOnTheWay(base.root, target);
      await fs.mkdir(posix.dirname(target), { recursive: true });
      switch (entry.type) {
        case 'directory':
          await fs.mkdir(target, { recursive: true });
          await fs.chmod(target, entry.mode & 0o7777);
          break;
        case 'file':
          await fs.rm(target, { force: true });
          await fs.writeFile(target, entry.content ?? Buffer.alloc(0), { mode: entry.mode & 0o7777, flag: 'wx' });
          await fs.chmod(target, entry.mode & 0o7777);
          break;
        case 'symlink':
          await fs.rm(target, { force: true });
          await fs.symlink(requireLink(entry), target);
          break;
        case 'hardlink': {
          const source = join(base.path, normalizeEntryPath(requireLink(entry)));
          await this.ensureNoSymlinkOnTheWay(base.root, source);
          await fs.rm(target, { force: true });
          await fs.link(source, target);
          break;
        }
        default:
          throw new InvalidArgumentError('type', `cannot put '${entry.path}': entries of type '${entry.type}' are not supported`);
      }
    }
  }

  /** Works on an ended sandbox too: its folders stay on the host until `destroy`. */
  async getFiles(dir: string, options: GetFilesOptions = {}): Promise<FileEntry[]> {
    this.assertAlive();
    const base = this.hostPath(dir);
    // The folder itself must not be a link either: check it as a parent of a name inside it.
    await this.ensureNoSymlinkOnTheWay(base.root, `${base.path}/-`);
    const max = options.maxTotalBytes ?? DEFAULT_MAX_TOTAL_BYTES;
    const maxFile = options.maxFileBytes ?? Number.POSITIVE_INFINITY;
    const entries: FileEntry[] = [];
    const seen = new Map<string, string>(); // dev:ino -> first path, for hard links
    const hostUid = process.getuid?.() ?? -1;
    const hostGid = process.getgid?.() ?? -1;
    let total = 0;
    const walk = async (hostDir: string, rel: string): Promise<void> => {
      let names: string[];
      try {
        names = (await fs.readdir(hostDir)).sort();
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT' && rel === '') {
          throw new SandboxFileError(dir, 'not-found', `${dir}: no such file or directory in sandbox ${this.id}`);
        }
        throw error;
      }
      for (const name of names) {
        options.signal?.throwIfAborted();
        const host = join(hostDir, name);
        const path = rel ? `${rel}/${name}` : name;
        const stat = await fs.lstat(host);
        const entry: FileEntry = {
          path,
          type: 'other',
          mode: stat.mode & 0o7777,
          uid: stat.uid === hostUid ? this.deps.sandboxUid : stat.uid,
          gid: stat.gid === hostGid ? this.deps.sandboxUid : stat.gid,
        };
        if (stat.isSymbolicLink()) {
          entry.type = 'symlink';
          entry.linkTarget = await fs.readlink(host);
        } else if (stat.isDirectory()) {
          entry.type = 'directory';
        } else if (stat.isFile()) {
          const key = `${stat.dev}:${stat.ino}`;
          const first = stat.nlink > 1 ? seen.get(key) : undefined;
          if (first !== undefined) {
            entry.type = 'hardlink';
            entry.linkTarget = first;
          } else {
            if (stat.nlink > 1) seen.set(key, path);
            entry.type = 'file';
            if (stat.size > maxFile || total + stat.size > max) {
              entry.size = stat.size;
            } else {
              total += stat.size;
              entry.content = await fs.readFile(host);
            }
          }
        }
        entries.push(entry);
        if (entry.type === 'directory') await walk(host, path);
      }
    };
    await walk(base.path, '');
    return entries;
  }

  /** No-op: bubblewrap has no freezer; the relay keeps answering. */
  async pause(): Promise<void> {
    this.assertAlive();
  }

  destroy(): Promise<void> {
    this.destroying ??= this.doDestroy();
    return this.destroying;
  }

  async [Symbol.asyncDispose](): Promise<void> {
    await this.destroy();
  }

  /**
   * Called when bwrap exits on its own or the relay hung: calls fail, the folders stay for a
   * read-out. Only what ran inside can end a bubblewrap sandbox (there is no engine).
   */
  markDead(reason: string): void {
    if (this.destroying || this.end) return;
    this.deps.logger.warn({ sandboxId: this.id, reason }, 'sandbox ended');
    this.deps.relay.fail(new SandboxAbortedError(this.id, `sandbox ${this.id} ended: ${reason}`));
    const child = this.deps.child;
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    this.end = Promise.resolve({ by: 'inside', reason: `its processes ended or stopped answering (${reason})` });
  }

  private async doDestroy(): Promise<void> {
    this.deps.relay.fail(new SandboxAbortedError(this.id, `sandbox ${this.id} was destroyed`));
    const child = this.deps.child;
    if (child.exitCode === null && child.signalCode === null) {
      const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
      child.kill('SIGKILL');
      await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 2000))]);
    }
    await fs.rm(this.deps.hostDir, { recursive: true, force: true }).catch((error: unknown) => {
      this.deps.logger.warn({ err: error, sandboxId: this.id }, 'could not remove the sandbox folder');
    });
    this.deps.onDestroyed(this);
  }

  private assertAlive(): void {
    if (this.destroying) throw new SandboxAbortedError(this.id, `sandbox ${this.id} was destroyed`);
  }

  /** Maps a sandbox folder onto its host folder; only the workdir and /var/lib/codemidas are shared. */
  private hostPath(dir: string): { root: string; path: string } {
    if (!dir.startsWith('/')) throw new InvalidArgumentError('dir', `'${dir}' must be an absolute path`);
    const normal = posix.normalize(dir).replace(/(.)\/+$/, '$1');
    const shared: [string, string][] = [
      [posix.normalize(this.spec.workdir), join(this.deps.hostDir, 'workspace')],
      [LOCAL_VAR_LIB, join(this.deps.hostDir, 'var-lib')],
    ];
    for (const [inside, host] of shared) {
      if (normal === inside) return { root: host, path: host };
      if (normal.startsWith(`${inside}/`)) return { root: host, path: join(host, normal.slice(inside.length + 1)) };
    }
    throw new InvalidArgumentError(
      'dir',
      `the local sandbox can only move files under ${this.spec.workdir} or ${LOCAL_VAR_LIB}, not '${dir}'`,
    );
  }

  /**
   * Agent code may have planted symlinks in the shared folders; following one would let a host-side
   * write or read escape the sandbox, so every folder on the way must be a real folder.
   */
  private async ensureNoSymlinkOnTheWay(root: string, target: string): Promise<void> {
    const rel = target.slice(root.length).split('/').filter(Boolean);
    let current = root;
    for (const part of rel.slice(0, -1)) {
      current = join(current, part);
      const stat = await fs.lstat(current).catch(() => undefined);
      if (!stat) return;
      if (stat.isSymbolicLink() || !stat.isDirectory()) {
        throw new SandboxFileError(target, 'denied', `${current.slice(root.length) || '/'} is not a real folder; refusing to follow it`);
      }
    }
  }
}

function requireLink(entry: FileEntry): string {
  if (!entry.linkTarget) throw new InvalidArgumentError('linkTarget', `${entry.type} '${entry.path}' needs a linkTarget`);
  return entry.linkTarget;
}
