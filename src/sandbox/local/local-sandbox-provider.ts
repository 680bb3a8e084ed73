import { spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { promises as fs } from 'node:fs';
import { homedir, hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Logger } from '../../logging.js';
import { SandboxAbortedError, UnavailableError } from '../../errors.js';
import { projectRoot } from '../../project-root.js';
import { processAlive } from '../docker/docker-sandbox-provider.js';
import { RELAY_PATH_IN_SANDBOX, RelayClient } from '../relay/relay-client.js';
import { hasDependencies, type RuntimeDependencies } from '../runtime-dependencies.js';
import { assertScrubPaths, normaliseScrubPaths } from '../scrub-paths.js';
import type { Sandbox, SandboxProvider, SandboxSpec } from '../types.js';
import { bwrapArgs } from './bwrap-args.js';
import { LocalSandbox } from './local-sandbox.js';

export interface LocalSandboxProviderOptions {
  logger: Logger;
  serverId: string;
  /** bubblewrap binary. Default `bwrap` on PATH. */
  bwrapPath?: string;
  /** Python that runs the relay (a path on the host, seen read-only in the sandbox). Default `/usr/bin/python3`. */
  pythonPath?: string;
  /** Where per-sandbox host folders go. Default `os.tmpdir()`. */
  tmpRoot?: string;
  /** Default `projectRoot()`: relay.py and src/languages/python/judge are read from there. */
  projectRoot?: string;
  /**
   * Host folders hidden from the sandbox (covered by an empty tmpfs): the host root is otherwise
   * visible read-only. Default: the project root (task suites with hidden tests live there) and
   * the home folder.
   */
  hiddenHostPaths?: string[];
  /** How long create() waits for the relay. Default 15000. */
  readyTimeoutMs?: number;
}

const DIR_PREFIX = 'codemidas-sbx-';
const OWNER_FILE = 'owner.json';
/** Bound over scrubbed files of the host (`SandboxSpec.scrub`). */
const EMPTY_FILE = 'empty';

/** What to tell a user who has neither an engine nor bubblewrap. */
export const BWRAP_FIX = "install bubblewrap ('apt-get install -y bubblewrap' as root, or run 'bash scripts/setup-engine.sh')";

export function createLocalSandboxProvider(options: LocalSandboxProviderOptions): SandboxProvider {
  return new LocalSandboxProvider(options);
}

/** True when bwrap runs here (installed, and the kernel lets it make namespaces). */
export function bwrapAvailable(bwrapPath = 'bwrap'): boolean {
  return probeBwrap(bwrapPath).ok;
}

/** Runs `true` under bwrap the way sandboxes use it; tries twice, since a busy host can fail one clone. */
function probeBwrap(bwrapPath: string): { ok: boolean; detail: string } {
  let detail = '';
  for (let attempt = 0; attempt < 2; attempt++) {
    const probe = spawnSync(bwrapPath, ['--unshare-all', '--ro-bind', '/', '/', 'true'], { encoding: 'utf8', timeout: 15_000 });
    if (probe.status === 0) return { ok: true, detail: '' };
    detail = probe.error?.message ?? (probe.stderr.trim() || `exit ${probe.status ?? probe.signal}`);
  }
  return { ok: false, detail };
}

class LocalSandboxProvider implements SandboxProvider {
  readonly kind = 'local' as const;
  private readonly logger: Logger;
  private readonly live = new Set<LocalSandbox>();
  private readonly bwrap: string;
  private readonly python: string;
  private readonly tmpRoot: string;
  private readonly root: string;

  constructor(private readonly options: LocalSandboxProviderOptions) {
    this.logger = options.logger.child({ component: 'local-sandbox' });
    this.bwrap = options.bwrapPath ?? 'bwrap';
    this.python = options.pythonPath ?? '/usr/bin/python3';
    this.tmpRoot = options.tmpRoot ?? tmpdir();
    this.root = options.projectRoot ?? projectRoot();
  }

  async ping(): Promise<void> {
    const version = spawnSync(this.bwrap, ['--version'], { encoding: 'utf8', timeout: 5000 });
    if (version.error || version.status !== 0) {
      throw new UnavailableError(`bubblewrap ('${this.bwrap}') is missing, so the local sandbox cannot start: ${BWRAP_FIX}`);
    }
    const probe = probeBwrap(this.bwrap);
    if (!probe.ok) {
      throw new UnavailableError(
        `bubblewrap cannot create its namespaces here (${probe.detail}): run as root, enable unprivileged user namespaces (sysctl kernel.unprivileged_userns_clone=1), or start a container engine with 'bash scripts/setup-engine.sh'`,
      );
    }
    const python = spawnSync(this.python, ['-c', 'import json, selectors'], { stdio: 'ignore', timeout: 5000 });
    if (python.status !== 0) throw new UnavailableError(`the local sandbox runs its relay with ${this.python}, which is missing: install python3`);
  }

  imageFor(language: string): string {
    // The local adapter runs the host's own root filesystem; the tag only names the language.
    return `local/${language}`;
  }

  /**
   * Nothing to build: `create` covers the scrub paths of the host's filesystem with empty mounts.
   * Dependencies cannot be installed into the host's filesystem: a task with any is refused.
   */
  async prepareImage(image: string, scrub: readonly string[], options: { dependencies?: RuntimeDependencies | undefined } = {}): Promise<string> {
    assertScrubPaths(scrub);
    if (hasDependencies(options.dependencies)) {
      const { tool, packages } = options.dependencies;
      throw new UnavailableError(
        `this task needs dependencies installed (${tool}: ${packages.join(', ')}); the local sandbox runs the host's own filesystem and installs nothing: use the docker sandbox, which builds an image with them`,
      );
    }
    return image;
  }

  /** Files cannot be baked into an image here: they are copied in after create. */
  async prepareWorkspaceImage(): Promise<string | null> {
    return null;
  }

  async create(spec: SandboxSpec, options: { signal?: AbortSignal } = {}): Promise<Sandbox> {
    options.signal?.throwIfAborted();
    await this.prepareImage(spec.image, spec.scrub ?? [], { dependencies: spec.dependencies });
    const id = `local-${randomBytes(6).toString('hex')}`;
    const hostDir = await fs.mkdtemp(join(this.tmpRoot, DIR_PREFIX));
    await Promise.all([fs.mkdir(join(hostDir, 'workspace')), fs.mkdir(join(hostDir, 'var-lib')), fs.writeFile(join(hostDir, EMPTY_FILE), '', { mode: 0o444 })]);
    await fs.writeFile(
      join(hostDir, OWNER_FILE),
      JSON.stringify({ pid: process.pid, host: hostname(), serverId: this.options.serverId, expiresAt: spec.expiresAt.toISOString(), labels: spec.labels }),
    );
    const args = bwrapArgs({
      hostWorkspace: join(hostDir, 'workspace'),
      hostVarLib: join(hostDir, 'var-lib'),
      hostRelay: join(this.root, 'src', 'sandbox', 'relay', 'relay.py'),
      hostScoring: join(this.root, 'src', 'languages', 'python', 'judge'),
      workdir: spec.workdir,
      role: spec.role,
      scrub: normaliseScrubPaths(spec.scrub ?? []),
      hostEmptyFile: join(hostDir, EMPTY_FILE),
      hiddenHostPaths: this.options.hiddenHostPaths ?? [this.root, homedir()].filter((path) => path !== '/'),
    });
    const log = this.logger.child({ sandboxId: id });
    const child = spawn(this.bwrap, [...args, this.python, '-I', '-S', '-u', RELAY_PATH_IN_SANDBOX], { stdio: ['pipe', 'pipe', 'pipe'] });
    let sandbox: LocalSandbox | undefined;
    const relay = new RelayClient({
      sandboxId: id,
      write: (line) => {
        child.stdin.write(line);
      },
      onHung: (message) => sandbox?.markDead(message),
    });
    child.stdout.on('data', (chunk: Buffer) => relay.feed(chunk));
    let stderrTail = '';
    child.stderr.on('data', (chunk: Buffer) => {
      stderrTail = (stderrTail + chunk.toString('utf8')).slice(-2000);
      log.warn({ relayStderr: chunk.toString('utf8').slice(0, 2000) }, 'relay stderr');
    });
    child.stdin.on('error', () => undefined);
    const onExit = (code: number | null, signal: string | null): void => {
      const reason = `bwrap exited (${signal ?? code})${stderrTail ? `: ${stderrTail.trim()}` : ''}`;
      if (sandbox) sandbox.markDead(reason);
      else relay.fail(new SandboxAbortedError(id, reason));
    };
    child.on('exit', onExit);
    child.on('error', (error) => relay.fail(new UnavailableError(`cannot run bubblewrap: ${error.message}: ${BWRAP_FIX}`, { cause: error })));
    sandbox = new LocalSandbox({
      id,
      spec,
      relay,
      child,
      hostDir,
      sandboxUid: spec.role === 'episode' ? 1000 : 0,
      logger: log,
      onDestroyed: (s) => this.live.delete(s),
    });
    this.live.add(sandbox);
    const timeoutMs = this.options.readyTimeoutMs ?? 15_000;
    let timer: NodeJS.Timeout | undefined;
    try {
      await Promise.race([
        relay.ready,
        new Promise<never>((_, reject) => {
          timer = setTimeout(() => reject(new SandboxAbortedError(id, `the relay did not start within ${timeoutMs} ms under bwrap`)), timeoutMs);
        }),
      ]);
    } catch (error) {
      await sandbox.destroy();
      throw error;
    } finally {
      clearTimeout(timer);
    }
    return sandbox;
  }

  /** Removes host folders of sandboxes whose owner process is gone or whose expiry passed. */
  async reap(): Promise<number> {
    let removed = 0;
    let names: string[];
    try {
      names = await fs.readdir(this.tmpRoot);
    } catch {
      return 0;
    }
    const host = hostname();
    for (const name of names.filter((n) => n.startsWith(DIR_PREFIX))) {
      const dir = join(this.tmpRoot, name);
      try {
        const owner = JSON.parse(await fs.readFile(join(dir, OWNER_FILE), 'utf8')) as { pid?: number; host?: string; expiresAt?: string };
        const expired = Date.parse(owner.expiresAt ?? '') <= Date.now();
        const orphaned = owner.host === host && typeof owner.pid === 'number' && owner.pid !== process.pid && !processAlive(owner.pid);
        if (!expired && !orphaned) continue;
        if (owner.pid === process.pid) continue; // our own live sandboxes are destroyed through close()
        await fs.rm(dir, { recursive: true, force: true });
        removed++;
      } catch {
        // not ours or half-written: leave it
      }
    }
    return removed;
  }

  async close(): Promise<void> {
    await Promise.all([...this.live].map((sandbox) => sandbox.destroy()));
  }
}
