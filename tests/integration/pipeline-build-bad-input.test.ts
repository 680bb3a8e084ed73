/**
 * `codemidas build` on bad input, through the CLI as a user runs it (`node bin/codemidas.js build`,
 * real docker engine): a path that is a file or is missing, a folder with no Python or with no usable
 * Python, and tests/fixtures/pipeline/badrepo (a syntax error, non-UTF-8 and binary files, functions
 * that hang, read the clock or the network, or print without end, next to two good ones). Each bad
 * part is skipped with its stage and reason in the funnel and the run goes on; a build killed with
 * SIGKILL part-way leaves the previous suite exactly as it was, and the next build clears what the
 * killed one left behind. Containers of every CLI process are removed in afterAll (by owner pid).
 */
import { spawn, execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { cp, mkdir, mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import Dockerode from 'dockerode';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureImages } from '../../src/images/image-builder.js';
import { createSilentLogger } from '../../src/logging.js';
import { projectRoot } from '../../src/project-root.js';
import { loadCatalog } from '../../src/tasks/load-catalog.js';

const root = projectRoot();
const CLI = join(root, 'bin/codemidas.js');
const FIXTURE = join(root, 'tests/fixtures/pipeline/badrepo');
const SUITE = 'badrepo';

interface CliRun {
  pid: number;
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
  ms: number;
}

/** Pids of every CLI process started here: their containers carry `codemidas.owner-pid=<pid>`. */
const pids: number[] = [];

/**
 * Runs `codemidas build <repo> --suite <suite> --out <out> --sandbox docker`; `killWhen` is polled
 * every 50 ms while it runs and SIGKILLs the process the first time it returns true.
 */
function build(repo: string, out: string, options: { suite?: string; killWhen?: () => Promise<boolean> } = {}): Promise<CliRun> {
  const started = Date.now();
  const child = spawn(process.execPath, [CLI, 'build', repo, '--suite', options.suite ?? SUITE, '--out', out, '--sandbox', 'docker'], {
    cwd: root,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  if (child.pid !== undefined) pids.push(child.pid);
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  let poll: NodeJS.Timeout | undefined;
  if (options.killWhen) {
    const killWhen = options.killWhen;
    let busy = false;
    poll = setInterval(() => {
      if (busy) return;
      busy = true;
      void killWhen()
        .then((yes) => {
          if (yes && child.exitCode === null) {
            clearInterval(poll);
            child.kill('SIGKILL');
          }
        })
        .finally(() => (busy = false));
    }, 50);
  }
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code, signal) => {
      clearInterval(poll);
      resolve({ pid: child.pid ?? -1, code, signal, stdout, stderr, ms: Date.now() - started });
    });
  });
}

/** Every file under `dir`, relative path → sha256. */
async function hashTree(dir: string): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  const walk = async (d: string): Promise<void> => {
    for (const name of (await readdir(d)).sort()) {
      const full = join(d, name);
      if ((await stat(full)).isDirectory()) await walk(full);
      else out.set(relative(dir, full), createHash('sha256').update(await readFile(full)).digest('hex'));
    }
  };
  await walk(dir);
  return out;
}

async function exists(path: string): Promise<boolean> {
  return (await stat(path).catch(() => null)) !== null;
}

interface FunnelJson {
  funnel: { units: number; candidates: number; recorded: number; gated: number; drops: { unitId: string; stage: string; code: string; reason: string }[] };
  tasks: { name: string; unitId: string; cases: number; mutationScore: number }[];
  timings?: { totalMs: number };
}

async function readFunnel(path: string): Promise<FunnelJson> {
  return JSON.parse(await readFile(path, 'utf8')) as FunnelJson;
}

describe('codemidas build on bad input (CLI, docker)', () => {
  let work: string;
  /** Python files, but none usable: one does not parse, one is not UTF-8. */
  let unusable: string;

  beforeAll(async () => {
    await ensureImages({ docker: new Dockerode(), logger: createSilentLogger(), languages: ['python'] });
    work = await mkdtemp(join(tmpdir(), 'codemidas-bad-input-'));
    unusable = join(work, 'no-usable-python');
    await mkdir(join(unusable, 'pkg'), { recursive: true });
    await writeFile(join(unusable, 'pkg/__init__.py'), '');
    await cp(join(FIXTURE, 'badkit/broken.py'), join(unusable, 'pkg/broken.py'));
    await cp(join(FIXTURE, 'badkit/latin.py'), join(unusable, 'pkg/latin.py'));
  });

  afterAll(async () => {
    const left: string[] = [];
    for (const pid of pids) {
      const ids = execFileSync('docker', ['ps', '-aq', '--filter', `label=codemidas.owner-pid=${pid}`], { encoding: 'utf8' }).split('\n').filter(Boolean);
      left.push(...ids);
    }
    if (left.length) execFileSync('docker', ['rm', '-f', ...left], { stdio: 'ignore' });
    if (work) await rm(work, { recursive: true, force: true });
  });

  it('refuses a path that is a file or does not exist at once, naming the problem, and creates nothing under --out', async () => {
    const file = join(work, 'setup.py');
    await writeFile(file, 'print("not a folder")\n');
    const out = join(work, 'out-refused');
    const notADir = await build(file, out);
    expect(notADir.code).toBe(2);
    expect(notADir.stderr).toContain(`'${file}' is not a directory`);
    const missing = await build(join(work, 'no-such-repo'), out);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain(`'${join(work, 'no-such-repo')}' does not exist`);
    for (const run of [notADir, missing]) {
      expect(run.stderr).toContain('pass a local directory, a source tarball (.tar.gz, .tgz, .tar.xz, .tar.bz2 or .tar) or a git URL');
      expect(run.stderr).not.toContain('images:'); // failed before any image or container was touched
    }
    expect(await exists(out)).toBe(false);
  });

  it('says so when a folder has no Python, or no usable Python, and writes no suite', async () => {
    const empty = join(work, 'no-python');
    await mkdir(empty);
    await writeFile(join(empty, 'README.md'), '# nothing to see\n');
    const out = join(work, 'out-empty');
    const none = await build(empty, out);
    expect(none.code).toBe(2);
    expect(none.stderr).toMatch(/no supported language found in .*no-python \(python: no \.py files; javascript: no \.js\/\.ts files and no package\.json; go: no \.go files; rust: no \.rs files; java: no \.java files\)/);
    expect(none.stderr).toContain('name one with --language');
    expect(await exists(out)).toBe(false);

    const nothing = await build(unusable, out);
    expect(nothing.code).toBe(1);
    expect(nothing.stderr).toContain('found no function or method to build a task from');
    expect(nothing.stderr).toContain('2 of them skipped (1 not-utf8, 1 syntax-error)');
    expect(nothing.stderr).toContain('no suite was written');
    expect(nothing.stdout).toContain('skipped pkg/broken.py at analyze (syntax-error): syntax error at line 6');
    expect(nothing.stdout).toContain('skipped pkg/latin.py at analyze (not-utf8)');
    // the funnel, and nothing else: no suite, no temporary folder
    expect(await readdir(out)).toEqual([`${SUITE}.funnel.json`]);
    const funnel = await readFunnel(join(out, `${SUITE}.funnel.json`));
    expect(funnel.funnel).toMatchObject({ units: 0, gated: 0 });
    expect(funnel.funnel.drops.map((d) => [d.unitId, d.stage, d.code])).toEqual([
      ['pkg/broken.py', 'analyze', 'syntax-error'],
      ['pkg/latin.py', 'analyze', 'not-utf8'],
    ]);
  });

  describe('on tests/fixtures/pipeline/badrepo', () => {
    let out: string;
    let run: CliRun;
    let funnel: FunnelJson;

    beforeAll(async () => {
      out = join(work, 'out');
      run = await build(FIXTURE, out);
      if (run.code !== 0) throw new Error(`build failed (exit ${run.code}):\n${run.stdout}\n${run.stderr}`);
      funnel = await readFunnel(join(out, `${SUITE}.funnel.json`));
      console.log(`badrepo build: ${(run.ms / 1000).toFixed(1)} s\n${run.stdout}`);
    }, 600_000);

    it('skips every bad file and function with its stage, code and reason, and goes on', () => {
      const drops = funnel.funnel.drops;
      const expected: [string, string, string, RegExp][] = [
        ['badkit/blob.py', 'analyze', 'not-utf8', /not valid UTF-8/],
        ['badkit/broken.py', 'analyze', 'syntax-error', /syntax error at line 6/],
        ['badkit/latin.py', 'analyze', 'not-utf8', /re-save it as UTF-8/],
        ['badkit.clock:stamp', 'select', 'impure:clock', /clock:time\.time/],
        ['badkit.net:fetch_title', 'select', 'impure:network', /network:urllib\.request\.urlopen/],
        ['badkit.noisy:shout', 'select', 'impure:io', /io:print/],
        ['badkit.clock:elapsed_label', 'record', 'impure:clock', /clock/],
        ['badkit.net:can_reach', 'record', 'impure:network', /network/],
        ['badkit.noisy:chatter', 'record', 'timeout', /ran past \d+ ms/],
        ['badkit.slow:spin', 'record', 'timeout', /ran past \d+ ms/],
      ];
      for (const [unitId, stage, code, reason] of expected) {
        const drop = drops.find((d) => d.unitId === unitId);
        expect(drop, unitId).toMatchObject({ stage, code });
        expect(drop?.reason, unitId).toMatch(reason);
      }
      // nothing else was dropped, and every drop says why
      expect(drops.map((d) => d.unitId).sort()).toEqual(expected.map((e) => e[0]).sort());
      for (const d of drops) expect(d.reason.length, d.unitId).toBeGreaterThan(10);
      expect(funnel.funnel).toMatchObject({ units: 9, candidates: 6, recorded: 2, gated: 2 });
      // the printed summary names the skipped files and the dropped functions
      expect(run.stdout).toContain('skipped badkit/broken.py at analyze (syntax-error)');
      expect(run.stdout).toContain('dropped badkit.slow:spin at record (timeout)');
      expect(run.stdout).toContain('3 select drops: see the funnel JSON');
    });

    it('accepts the good functions as tasks, in a suite that loads with no problem', async () => {
      expect(funnel.tasks.map((t) => [t.unitId, t.name])).toEqual([
        ['badkit.digits:digit_sum', 'digit-sum'],
        ['badkit.text:run_length', 'run-length'],
      ]);
      const catalog = await loadCatalog(out);
      expect(catalog.problems).toEqual([]);
      expect([...catalog.tasks.keys()].sort()).toEqual([`${SUITE}/digit-sum`, `${SUITE}/run-length`]);
      for (const task of catalog.tasks.values()) expect(task.file.gates).toMatchObject({ referencePasses: '4/4', maskedFails: '2/2', leakAudit: 'clean' });
      // both kept their doctest examples: the endless printers' and the endless loop's doctests,
      // which run first, did not take the tracer down (doctest buffers printed output in memory)
      for (const name of ['digit-sum', 'run-length']) {
        const cases = JSON.parse(await readFile(join(out, SUITE, name, 'hidden', 'cases.json'), 'utf8')).cases as { source: string }[];
        expect(cases.filter((c) => c.source === 'doctest').length, name).toBeGreaterThan(0);
      }
      // the suite's own funnel is the sidecar's, without the timings
      const inside = await readFunnel(join(out, SUITE, 'funnel.json'));
      expect(inside.timings).toBeUndefined();
      expect(inside.funnel).toEqual(funnel.funnel);
      expect((await readdir(out)).sort()).toEqual([SUITE, `${SUITE}.funnel.json`]);
    });

    it('leaves the previous suite intact when a build is killed part-way, and the next build clears the leftovers', async () => {
      const before = await hashTree(out);
      // A smaller repository (the good modules only) reaches the write/gate stages sooner.
      const good = join(work, 'good');
      await mkdir(join(good, 'badkit'), { recursive: true });
      for (const name of ['__init__.py', 'digits.py', 'text.py']) await cp(join(FIXTURE, 'badkit', name), join(good, 'badkit', name));

      const workRoots = async (): Promise<string[]> => (await readdir(tmpdir())).filter((n) => n.startsWith('codemidas-build-'));
      const rootsBefore = new Set(await workRoots());
      let staged = '';
      const killed = await build(good, out, {
        // killed once the new suite is being written into its temporary folder: the worst moment
        killWhen: async () => {
          for (const name of await readdir(out)) {
            if (name.startsWith(`.${SUITE}.building-`) && (await readdir(join(out, name)).catch(() => [])).length > 0) {
              staged = name;
              return true;
            }
          }
          return false;
        },
      });
      // The killed build's snapshot folder under the OS temp folder is left behind: remove it (only
      // one holding this test's repository, since other builds may be running).
      for (const name of await workRoots()) {
        if (rootsBefore.has(name)) continue;
        const snapshots = await readdir(join(tmpdir(), name)).catch(() => []);
        if (snapshots.some((d) => d.startsWith('snapshot-')) && (await Promise.all(snapshots.map((d) => exists(join(tmpdir(), name, d, 'badkit/digits.py'))))).some(Boolean)) {
          await rm(join(tmpdir(), name), { recursive: true, force: true });
        }
      }
      expect(killed.signal, `${killed.stdout}\n${killed.stderr}`).toBe('SIGKILL');
      expect(killed.stderr).toContain('record:');
      expect(staged).not.toBe('');

      // the previous suite and its funnel, byte for byte; the half-built one only under its temporary name
      const leftovers = (await readdir(out)).filter((n) => n.startsWith('.'));
      expect(leftovers.length).toBeGreaterThan(0);
      for (const name of leftovers) expect(name).toMatch(new RegExp(`^\\.${SUITE}\\.building-.+-${killed.pid}-[0-9a-f]{8}$`));
      expect(await hashTree(out).then((t) => new Map([...t].filter(([p]) => !p.startsWith('.'))))).toEqual(before);
      const catalog = await loadCatalog(out);
      expect(catalog.problems).toEqual([]);
      expect(catalog.tasks.size).toBe(2);

      // The next build of the suite (here one that fails fast: no usable Python) removes the
      // killed build's folder, and being a failed build, leaves the suite as it was.
      const next = await build(unusable, out);
      expect(next.code).toBe(1);
      expect(next.stderr).toContain('removed what a killed build left behind');
      expect((await readdir(out)).sort()).toEqual([SUITE, `${SUITE}.funnel.json`]);
      const after = await hashTree(join(out, SUITE));
      expect(after).toEqual(new Map([...before].filter(([p]) => p.startsWith(`${SUITE}/`)).map(([p, h]) => [p.slice(SUITE.length + 1), h])));
    }, 600_000);
  });
});
