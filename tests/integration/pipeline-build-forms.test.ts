/**
 * `codemidas build` on the repository forms other than a plain folder, through the CLI as a user
 * runs it (`node bin/codemidas.js build`, real docker engine), each with `--max-tasks 2`:
 * - a git URL (`file://` of a fresh repository holding examples/textkit): the suite records the
 *   commit id, and no `.git` reaches a task's workspace;
 * - a source tarball (`jskit-0.1.0.tar.gz`, examples/jskit under one top folder, as release
 *   tarballs are): the revision is `tarball:sha256:<hex>` of the archive;
 * - a JavaScript workspace monorepo (packages/alpha = examples/jskit, packages/beta =
 *   examples/tskit) built with `--package packages/beta`: every task's unit is under packages/beta,
 *   the rest are `select:outside-package` drops; `--package packages/nope` fails at once, listing
 *   both packages.
 * - a Python `src/` layout (examples/textkit with its package moved to src/textkit): every task
 *   names `tests.importRoots: ["src"]`, none is dropped as not importable from the root;
 * - a Python monorepo (packages/alpha = examples/parsekit, packages/beta = examples/textkit) built
 *   with `--package packages/beta`: tasks import from `packages/beta`, in the whole monorepo.
 * Every task built scores 1.0 with its reference and 0.0 untouched over gRPC. The example code is
 * copied at test time; nothing third-party is committed. Containers of every CLI process are
 * removed in afterAll (by owner pid), and the scoring sandboxes by their server id.
 */
import { execFileSync, spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { cp, mkdir, mkdtemp, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Dockerode from 'dockerode';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLanguages, dependencyInstallers } from '../../src/cli/languages.js';
import { createDockerImageResolver } from '../../src/images/docker-image-resolver.js';
import { ensureImages } from '../../src/images/image-builder.js';
import { createLanguageScorer } from '../../src/languages/language-scorer.js';
import { createSilentLogger } from '../../src/logging.js';
import { projectRoot } from '../../src/project-root.js';
import { createDockerSandboxProvider } from '../../src/sandbox/docker/docker-sandbox-provider.js';
import type { SandboxProvider } from '../../src/sandbox/types.js';
import { listWorkspaceFiles } from '../../src/tasks/list-workspace-files.js';
import { loadCatalog } from '../../src/tasks/load-catalog.js';
import type { TaskCatalog } from '../../src/tasks/types.js';
import { removeLeftoverContainers } from '../fixtures/leftover-containers.js';
import { scoresOracleAndNull } from '../fixtures/oracle-and-null.js';

const root = projectRoot();
const CLI = join(root, 'bin/codemidas.js');
const SERVER_ID = `itest-forms-${process.pid}-${Date.now()}`;
const logger = createSilentLogger();
const docker = new Dockerode();
const languages = createLanguages();
/** The scoring side (this process): its sandboxes are labelled with SERVER_ID. */
let provider: SandboxProvider;

/** Pids of every CLI process started here: their containers carry `codemidas.owner-pid=<pid>`. */
const pids: number[] = [];

interface CliRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

function cli(args: string[]): Promise<CliRun> {
  const child = spawn(process.execPath, [CLI, 'build', ...args, '--sandbox', 'docker', '--max-tasks', '2'], { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
  if (child.pid !== undefined) pids.push(child.pid);
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

interface FunnelJson {
  source: { repo: string; revision: string; package?: string };
  funnel: { drops: { unitId: string; stage: string; code: string; reason?: string }[] };
  tasks: { name: string; unitId: string }[];
}

interface Built {
  run: CliRun;
  funnel: FunnelJson;
  catalog: TaskCatalog;
}

/** Builds `repo` into `<work>/<suite>-out` and reads back the funnel and the suite. */
async function build(work: string, repo: string, suite: string, extra: string[] = []): Promise<Built> {
  const out = join(work, `${suite}-out`);
  const run = await cli([repo, '--suite', suite, '--out', out, ...extra]);
  if (run.code !== 0) throw new Error(`build of ${repo} exited ${run.code}:\n${run.stdout}\n${run.stderr}`);
  const funnel = JSON.parse(await readFile(join(out, suite, 'funnel.json'), 'utf8')) as FunnelJson;
  const catalog = await loadCatalog(out, { languages: languages.taskLanguages(), runners: languages.list().flatMap((p) => p.testRunners) });
  return { run, funnel, catalog };
}

function git(cwd: string, ...args: string[]): string {
  return execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@example.invalid', '-c', 'init.defaultBranch=main', ...args], { cwd, encoding: 'utf8' }).trim();
}

/** Over gRPC: each task's reference scores 1.0 and its untouched workspace 0.0. */
async function scoresEveryTask(catalog: TaskCatalog): Promise<void> {
  await scoresOracleAndNull({ catalog, taskIds: [...catalog.tasks.keys()], provider, scorer: createLanguageScorer(languages, { provider, logger }), logger });
}

let work: string;

beforeAll(async () => {
  const { tags } = await ensureImages({ docker, logger, languages: ['python', 'node'] });
  provider = createDockerSandboxProvider({ docker, logger, serverId: SERVER_ID, images: createDockerImageResolver({ docker, logger, tags, installers: dependencyInstallers(languages) }) });
  work = await mkdtemp(join(tmpdir(), 'codemidas-forms-itest-'));
}, 900_000);

afterAll(async () => {
  const left: string[] = [];
  for (const pid of pids) {
    left.push(...execFileSync('docker', ['ps', '-aq', '--filter', `label=codemidas.owner-pid=${pid}`], { encoding: 'utf8' }).split('\n').filter(Boolean));
  }
  if (left.length) execFileSync('docker', ['rm', '-f', ...left], { stdio: 'ignore' });
  await provider?.close();
  removeLeftoverContainers(SERVER_ID);
  if (work) await rm(work, { recursive: true, force: true });
});

describe('codemidas build on a git URL (file:// of a fresh repository)', () => {
  it('records the commit id as the revision and keeps .git out of every task workspace', async () => {
    const repo = join(work, 'textkit-git');
    await cp(join(root, 'examples/textkit'), repo, { recursive: true });
    git(repo, 'init', '-q');
    git(repo, 'add', '.');
    git(repo, 'commit', '-q', '-m', 'textkit');
    const head = git(repo, 'rev-parse', 'HEAD');

    const { funnel, catalog } = await build(work, `file://${repo}`, 'textkit-git');
    expect(funnel.source).toEqual({ repo: `file://${repo}`, revision: head });
    expect(catalog.problems).toEqual([]);
    expect(catalog.tasks.size).toBeGreaterThanOrEqual(1);
    for (const task of catalog.tasks.values()) {
      expect(task.file.source.revision).toBe(head);
      const paths = (await listWorkspaceFiles(task)).map((e) => e.path);
      expect(paths).toContain('textkit/__init__.py');
      expect(paths.filter((p) => p === '.git' || p.startsWith('.git/'))).toEqual([]);
    }
    await scoresEveryTask(catalog);
  });
});

describe('codemidas build on a source tarball', () => {
  it('builds from the single top folder and records the sha256 of the archive as the revision', async () => {
    const staging = join(work, 'tarball-staging');
    await cp(join(root, 'examples/jskit'), join(staging, 'jskit-0.1.0'), { recursive: true });
    const archive = join(work, 'jskit-0.1.0.tar.gz');
    execFileSync('tar', ['czf', archive, '-C', staging, 'jskit-0.1.0']);
    const sha256 = createHash('sha256').update(await readFile(archive)).digest('hex');

    const { funnel, catalog } = await build(work, archive, 'jskit-tarball');
    expect(funnel.source.revision).toBe(`tarball:sha256:${sha256}`);
    expect(catalog.problems).toEqual([]);
    expect(catalog.tasks.size).toBeGreaterThanOrEqual(1);
    for (const task of catalog.tasks.values()) {
      expect(task.file.source.revision).toBe(`tarball:sha256:${sha256}`);
      // the top folder is the repository root: paths do not start with it
      expect(task.file.source.path).toMatch(/^src\//);
      expect((await listWorkspaceFiles(task)).map((e) => e.path)).toContain('package.json');
    }
    await scoresEveryTask(catalog);
  });

  it('refuses an archive that is not one at once, saying what to pass, and creates nothing under --out', async () => {
    const bogus = join(work, 'bogus-1.0.tar.gz');
    await writeFile(bogus, 'not an archive');
    const out = join(work, 'bogus-out');
    const run = await cli([bogus, '--suite', 'bogus', '--out', out]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(`repository: '${bogus}' was refused as a source tarball: it could not be read as a gzip-compressed tar archive`);
    expect(run.stderr).toMatch(/pass a local directory, a source tarball/);
    expect(await stat(out).catch(() => null)).toBeNull();
  });
});

describe('codemidas build --package on a JavaScript workspace monorepo', () => {
  let repo: string;
  beforeAll(async () => {
    repo = join(work, 'monorepo');
    await mkdir(join(repo, 'packages'), { recursive: true });
    await cp(join(root, 'examples/jskit'), join(repo, 'packages/alpha'), { recursive: true });
    await cp(join(root, 'examples/tskit'), join(repo, 'packages/beta'), { recursive: true });
    await writeFile(join(repo, 'package.json'), `${JSON.stringify({ name: 'mono', private: true, workspaces: ['packages/*'] }, null, 2)}\n`);
  });

  it('refuses a package folder that is not there at once, listing the folders that are packages', async () => {
    const out = join(work, 'nope-out');
    const run = await cli([repo, '--suite', 'nope', '--out', out, '--package', 'packages/nope']);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain("package: 'packages/nope' is not a folder of the repository; folders that look like packages (holding package.json): packages/alpha, packages/beta");
    expect(await stat(out).catch(() => null)).toBeNull();
  });

  it('makes tasks only of units under the package, in a workspace that is the whole monorepo', async () => {
    const { funnel, catalog } = await build(work, repo, 'mono-beta', ['--package', 'packages/beta']);
    expect(funnel.source.package).toBe('packages/beta');
    expect(catalog.problems).toEqual([]);
    expect(catalog.tasks.size).toBeGreaterThanOrEqual(1);
    for (const task of catalog.tasks.values()) {
      expect(task.file.source.path).toMatch(/^packages\/beta\//);
      const paths = (await listWorkspaceFiles(task)).map((e) => e.path);
      expect(paths).toContain('packages/alpha/package.json');
      expect(paths).toContain('package.json');
    }
    await scoresEveryTask(catalog);
    const outside = funnel.funnel.drops.filter((d) => d.code === 'outside-package');
    expect(outside.length).toBeGreaterThan(0);
    expect(outside.every((d) => d.stage === 'select' && !d.unitId.startsWith('packages/beta/'))).toBe(true);
  });
});

describe('codemidas build on Python packages below the repository root', () => {
  /** What the write stage turned away: a module the scorer cannot import was dropped there (`import-root`). */
  const writeDrops = (funnel: FunnelJson): FunnelJson['funnel']['drops'] => funnel.funnel.drops.filter((d) => d.stage === 'write');

  it('builds a src/ layout: each task imports its module from src/ and scores over gRPC', async () => {
    const repo = join(work, 'textkit-src');
    await cp(join(root, 'examples/textkit'), repo, { recursive: true });
    await mkdir(join(repo, 'src'));
    await rename(join(repo, 'textkit'), join(repo, 'src/textkit'));

    const { funnel, catalog } = await build(work, repo, 'textkit-src');
    expect(catalog.problems).toEqual([]);
    expect(catalog.tasks.size).toBeGreaterThanOrEqual(1);
    expect(writeDrops(funnel)).toEqual([]);
    for (const task of catalog.tasks.values()) {
      expect(task.file.source.path).toMatch(/^src\/textkit\//);
      expect(task.file.tests).toMatchObject({ runner: 'python', importRoots: ['src'] });
      expect(task.file.prompt).toContain('with `src/` on the import path');
    }
    await scoresEveryTask(catalog);
  });

  it('builds one package of a Python monorepo with --package: its tasks import from that package folder', async () => {
    const repo = join(work, 'python-monorepo');
    await mkdir(join(repo, 'packages'), { recursive: true });
    await cp(join(root, 'examples/parsekit'), join(repo, 'packages/alpha'), { recursive: true });
    await cp(join(root, 'examples/textkit'), join(repo, 'packages/beta'), { recursive: true });

    const { funnel, catalog } = await build(work, repo, 'py-mono-beta', ['--package', 'packages/beta']);
    expect(funnel.source.package).toBe('packages/beta');
    expect(catalog.problems).toEqual([]);
    expect(catalog.tasks.size).toBeGreaterThanOrEqual(1);
    expect(writeDrops(funnel)).toEqual([]);
    for (const task of catalog.tasks.values()) {
      expect(task.file.source.path).toMatch(/^packages\/beta\/textkit\//);
      expect(task.file.tests).toMatchObject({ importRoots: ['packages/beta'] });
      expect((await listWorkspaceFiles(task)).map((e) => e.path)).toContain('packages/alpha/parsekit/__init__.py');
    }
    await scoresEveryTask(catalog);
  });
});
