/**
 * Small fakes behind the real interfaces for the episode and server unit tests: an in-memory sandbox
 * provider with an injectable exec handler, a catalog of one task, and a scorer that counts calls.
 */
import { SandboxAbortedError } from '../../src/errors.js';
import {
  type Command,
  type ExecOptions,
  type ExecResult,
  type FileEntry,
  type Sandbox,
  type SandboxEnd,
  type SandboxProvider,
  type SandboxSpec,
  SandboxFileError,
} from '../../src/sandbox/types.js';
import type { ScoreRequest, ScoreResult, Scorer } from '../../src/scoring/types.js';
import { taskFileSchema } from '../../src/tasks/task-schema.js';
import type { LoadedTask, TaskCatalog } from '../../src/tasks/types.js';

export type ExecHandler = (command: Command, options: ExecOptions, sandbox: FakeSandbox) => Promise<ExecResult>;

const ok = (stdout = '', exitCode = 0, durationMs = 1): ExecResult => ({ exitCode, stdout, stderr: '', timedOut: false, truncated: false, durationMs });

/**
 * `true`, `echo x`, `sleep <s>` (honours timeout and signal), `yes` (capped output), `die` (the
 * sandbox is stopped from outside, as by `docker kill`), `die-inside` (what ran in it stopped it,
 * as `kill -9 -1` does: its files stay readable).
 */
export const defaultExecHandler: ExecHandler = async (command, options, sandbox) => {
  const line = 'shell' in command ? command.shell : command.argv.join(' ');
  if (line === 'die' || line === 'die-inside') {
    sandbox.end = line === 'die' ? { by: 'outside', reason: 'killed from outside by the test' } : { by: 'inside', reason: 'its processes ended (exit code 137)' };
    sandbox.dead = true;
    throw new SandboxAbortedError(sandbox.id, 'container is gone');
  }
  if (line === 'true') return ok();
  if (line.startsWith('echo ')) return ok(`${line.slice(5)}\n`);
  if (line === 'yes') {
    return { exitCode: 124, stdout: 'y\n'.repeat(options.maxOutputBytes / 2), stderr: '', timedOut: true, truncated: true, durationMs: options.timeoutMs };
  }
  const sleep = /^sleep (\d+(?:\.\d+)?)$/.exec(line);
  if (sleep) {
    const wantMs = Number(sleep[1]) * 1000;
    const waitMs = Math.min(wantMs, options.timeoutMs);
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(resolve, waitMs);
      options.signal?.addEventListener('abort', () => {
        clearTimeout(timer);
        reject(options.signal?.reason ?? new Error('aborted'));
      });
    });
    return wantMs > options.timeoutMs
      ? { exitCode: 124, stdout: '', stderr: '', timedOut: true, truncated: false, durationMs: waitMs }
      : ok('', 0, waitMs);
  }
  return { exitCode: 127, stdout: '', stderr: `fake: ${line}: command not found\n`, timedOut: false, truncated: false, durationMs: 1 };
};

export class FakeSandbox implements Sandbox {
  readonly files = new Map<string, Buffer>();
  dead = false;
  /** How it ended, once `dead`. */
  end: SandboxEnd | null = null;
  destroyed = false;
  paused = false;
  execCount = 0;
  constructor(
    readonly id: string,
    readonly spec: Readonly<SandboxSpec>,
    private readonly handler: ExecHandler,
  ) {}
  /** The next exec rejects with this (as the relay refuses a request). */
  failNextExec: Error | null = null;
  async exec(command: Command, options: ExecOptions): Promise<ExecResult> {
    this.assertAlive();
    this.execCount++;
    const failure = this.failNextExec;
    this.failNextExec = null;
    if (failure) throw failure;
    return this.handler(command, options, this);
  }
  async readFile(path: string, options: { offset: number; limit: number }) {
    this.assertAlive();
    const content = this.files.get(path);
    if (!content) throw new SandboxFileError(path, 'not-found', `${path}: no such file`);
    const slice = content.subarray(options.offset, options.offset + options.limit);
    return { content: Buffer.from(slice), size: content.length, truncated: options.offset + slice.length < content.length };
  }
  async writeFile(path: string, content: Buffer) {
    this.assertAlive();
    this.files.set(path, Buffer.from(content));
  }
  async putFiles(dir: string, entries: FileEntry[]) {
    this.assertAlive();
    for (const e of entries) if (e.type === 'file' && e.content) this.files.set(`${dir}/${e.path}`, e.content);
  }
  ended(): Promise<SandboxEnd> | null {
    return this.dead && !this.destroyed && this.end ? Promise.resolve(this.end) : null;
  }
  async getFiles(dir: string): Promise<FileEntry[]> {
    // A stopped sandbox's files can still be read (the engine reads a stopped container's layer).
    if (this.destroyed || (this.dead && this.end?.by !== 'inside')) throw new SandboxAbortedError(this.id, `sandbox ${this.id} is gone`);
    return [...this.files]
      .filter(([p]) => p.startsWith(`${dir}/`))
      .map(([p, content]) => ({ path: p.slice(dir.length + 1), type: 'file' as const, mode: 0o644, content }));
  }
  async pause() {
    if (this.dead) return;
    this.paused = true;
  }
  async destroy() {
    this.destroyed = true;
  }
  async [Symbol.asyncDispose]() {
    await this.destroy();
  }
  private assertAlive() {
    if (this.dead || this.destroyed) throw new SandboxAbortedError(this.id, `sandbox ${this.id} is gone`);
  }
}

export class FakeProvider implements SandboxProvider {
  readonly kind = 'memory' as const;
  readonly sandboxes: FakeSandbox[] = [];
  reaps = 0;
  /** Makes the n-th create (1-based) fail. */
  failCreateAt: number | null = null;
  createDelayMs = 0;
  pingError: Error | null = null;
  constructor(public handler: ExecHandler = defaultExecHandler) {}
  async ping() {
    if (this.pingError) throw this.pingError;
  }
  async create(spec: SandboxSpec): Promise<FakeSandbox> {
    const n = this.sandboxes.length + 1;
    if (this.createDelayMs) await new Promise((r) => setTimeout(r, this.createDelayMs));
    const sandbox = new FakeSandbox(`fake-${n}`, spec, this.handler);
    this.sandboxes.push(sandbox);
    if (this.failCreateAt === n) {
      sandbox.destroyed = true;
      throw new Error('engine said no');
    }
    return sandbox;
  }
  async reap() {
    this.reaps++;
    return 0;
  }
  imageFor(language: string) {
    return `codemidas/${language}:fake`;
  }
  async prepareImage(image: string) {
    return image;
  }
  /** Set to a tag to play an adapter that bakes workspaces into images. */
  workspaceImage: string | null = null;
  workspaceImageCalls = 0;
  async prepareWorkspaceImage() {
    this.workspaceImageCalls++;
    return this.workspaceImage;
  }
  async close() {}
  get live(): FakeSandbox[] {
    return this.sandboxes.filter((s) => !s.destroyed);
  }
}

export function makeTask(name = 'add', overrides: Record<string, unknown> = {}): LoadedTask {
  const file = taskFileSchema.parse({
    schemaVersion: 1,
    id: `sample/${name}`,
    title: `Task ${name}`,
    language: 'python',
    source: { repo: 'r', revision: 'v', path: 'p.py', symbol: name },
    prompt: `Implement ${name}.`,
    runtime: { image: 'python' },
    tests: { cases: 'cases.json', scripts: [] },
    ...overrides,
  });
  return { id: file.id, suite: 'sample', name, dir: '/nowhere', workspace: { layout: 'folder', dir: '/nowhere/workspace' }, hiddenDir: '/nowhere/hidden', solutionDir: '/nowhere/solution', file };
}

export function makeCatalog(tasks: LoadedTask[] = [makeTask()]): TaskCatalog {
  const map = new Map(tasks.map((t) => [t.id, t]));
  return {
    tasks: map,
    problems: [],
    get: (id) => map.get(id),
    list: (filter) => tasks.filter((t) => (!filter?.suite || t.suite === filter.suite) && (!filter?.language || t.file.language === filter.language)),
  };
}

export const WORKSPACE: FileEntry[] = [
  { path: 'pkg', type: 'directory', mode: 0o755 },
  { path: 'pkg/add.py', type: 'file', mode: 0o644, content: Buffer.from('def add(a, b):\n    raise NotImplementedError\n') },
];

/** Scores by whether `pkg/add.py` contains "return a + b"; counts calls. */
export class FakeScorer implements Scorer {
  calls = 0;
  delayMs = 0;
  next: Partial<ScoreResult> | null = null;
  async score(request: ScoreRequest): Promise<ScoreResult> {
    this.calls++;
    if (this.delayMs) await new Promise((r) => setTimeout(r, this.delayMs));
    const file = request.workspace.find((e) => e.path === 'pkg/add.py');
    const solved = file?.content?.toString().includes('return a + b') ?? false;
    return {
      reward: solved ? 1 : 0,
      outcome: 'SCORED',
      passed: solved ? 2 : 0,
      total: 2,
      tests: [
        { name: 'case:1', status: solved ? 'passed' : 'failed', message: '' },
        { name: 'case:2', status: solved ? 'passed' : 'failed', message: '' },
      ],
      detail: '',
      durationMs: 3,
      ...this.next,
    };
  }
}
