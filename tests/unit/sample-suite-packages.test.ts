/**
 * The committed sample suite (environments/sample, built by scripts/make-sample-suite.py): it loads
 * cleanly, it is what the generator makes today, and for every task the hidden tests and recorded
 * cases pass against the reference solution and all fail against the masked workspace. Runs the
 * host's /usr/bin/python3 (with pytest) on copies in a temporary folder, never in the suite itself.
 */
import { spawn } from 'node:child_process';
import { cp, mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { pythonTestsOf } from '../../src/languages/python/python-tests.js';
import { listWorkspaceFiles } from '../../src/tasks/list-workspace-files.js';
import { loadCatalog } from '../../src/tasks/load-catalog.js';
import type { LoadedTask } from '../../src/tasks/types.js';

const PYTHON = '/usr/bin/python3';
const REPO_ROOT = fileURLToPath(new URL('../..', import.meta.url));
const SUITE_DIR = path.join(REPO_ROOT, 'environments', 'sample');
const GENERATOR = path.join(REPO_ROOT, 'scripts', 'make-sample-suite.py');

const catalog = await loadCatalog(path.join(REPO_ROOT, 'environments'));
const tasks = catalog.list({ suite: 'sample' });
const scratch = await mkdtemp(path.join(tmpdir(), 'codemidas-sample-suite-'));

afterAll(async () => {
  await rm(scratch, { recursive: true, force: true });
});

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

function run(command: string, args: string[], options: { cwd?: string; env?: Record<string, string> } = {}): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, {
      cwd: options.cwd ?? REPO_ROOT,
      env: { PATH: process.env['PATH'] ?? '/usr/bin:/bin', PYTHONDONTWRITEBYTECODE: '1', ...options.env },
      stdio: ['ignore', 'pipe', 'pipe'],
      timeout: 120_000,
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

async function filesUnder(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  return entries
    .filter((e) => e.isFile())
    .map((e) => path.relative(dir, path.join(e.parentPath, e.name)))
    .sort();
}

/** A fresh copy of the task's workspace, optionally with the solution laid over it. */
async function workspaceCopy(task: LoadedTask, withSolution: boolean): Promise<string> {
  const dir = await mkdtemp(path.join(scratch, `${task.name}-${withSolution ? 'solved' : 'masked'}-`));
  for (const e of await listWorkspaceFiles(task)) {
    if (e.type === 'directory') await mkdir(path.join(dir, e.path), { recursive: true });
    else if (e.type === 'file') await writeFile(path.join(dir, e.path), e.content ?? Buffer.alloc(0));
  }
  if (withSolution) await cp(task.solutionDir, dir, { recursive: true });
  return dir;
}

type Outcome = 'passed' | 'failed' | 'error' | 'skipped';

/** Runs the task's hidden pytest scripts from a folder outside the workspace; outcome per test name. */
async function runHiddenTests(task: LoadedTask, workspace: string): Promise<Map<string, Outcome>> {
  const work = await mkdtemp(path.join(scratch, `${task.name}-pytest-`));
  await cp(path.join(task.hiddenDir, 'tests'), path.join(work, 'tests'), { recursive: true });
  await writeFile(path.join(work, 'pytest.ini'), '[pytest]\n');
  const report = path.join(work, 'report.xml');
  const scripts = pythonTestsOf(task.file.tests).scripts.map((s) => path.join(work, s));
  const result = await run(
    PYTHON,
    ['-B', '-m', 'pytest', '-q', '-p', 'no:cacheprovider', '-c', path.join(work, 'pytest.ini'), '--rootdir', work, '--junitxml', report, ...scripts],
    { cwd: work, env: { PYTHONPATH: workspace } },
  );
  const xml = await readFile(report, 'utf8').catch(() => {
    throw new Error(`pytest wrote no report (exit ${result.code}): ${result.stdout}\n${result.stderr}`);
  });
  const outcomes = new Map<string, Outcome>();
  for (const match of xml.matchAll(/<testcase\b([^>]*?)(?:\/>|>([\s\S]*?)<\/testcase>)/g)) {
    const name = /\bname="([^"]+)"/.exec(match[1] ?? '')?.[1] ?? '?';
    const body = match[2] ?? '';
    const outcome: Outcome = body.includes('<failure') ? 'failed' : body.includes('<error') ? 'error' : body.includes('<skipped') ? 'skipped' : 'passed';
    outcomes.set(name, outcome);
  }
  return outcomes;
}

interface CaseResult {
  id: string;
  passed: boolean;
  detail: string;
}

async function runCases(task: LoadedTask, workspace: string): Promise<CaseResult[]> {
  const cases = path.join(task.hiddenDir, task.file.tests.cases ?? 'cases.json');
  const result = await run(PYTHON, ['-I', '-B', GENERATOR, 'check-cases', '--workspace', workspace, '--cases', cases, '--case-timeout-ms', String(task.file.tests.caseTimeoutMs)]);
  expect(result.code, result.stderr).toBe(0);
  return (JSON.parse(result.stdout) as { results: CaseResult[] }).results;
}

async function expectedTestNames(task: LoadedTask): Promise<string[]> {
  const names: string[] = [];
  for (const script of pythonTestsOf(task.file.tests).scripts) {
    const text = await readFile(path.join(task.hiddenDir, script), 'utf8');
    names.push(...[...text.matchAll(/^def (test_\w+)\(/gm)].map((m) => m[1]!));
  }
  return names.sort();
}

async function caseCount(task: LoadedTask): Promise<number> {
  const text = await readFile(path.join(task.hiddenDir, task.file.tests.cases ?? 'cases.json'), 'utf8');
  return (JSON.parse(text) as { cases: unknown[] }).cases.length;
}

describe('the committed sample suite', () => {
  it('loads with no problems and at least 6 tasks', () => {
    expect(catalog.problems.filter((p) => p.suite === 'sample')).toEqual([]);
    expect(tasks.length).toBeGreaterThanOrEqual(6);
    for (const task of tasks) {
      expect(task.file.language).toBe('python');
      expect(task.file.tests.cases).toBe('cases.json');
      expect(pythonTestsOf(task.file.tests).scripts).toEqual([`tests/test_${task.file.source.symbol}.py`]);
    }
  });

  it('holds no bytecode or test caches', async () => {
    const files = await filesUnder(SUITE_DIR);
    expect(files.filter((f) => /__pycache__|\.pyc$|\.pytest_cache/.test(f))).toEqual([]);
  });

  it('is exactly what the generator makes', async () => {
    const out = path.join(scratch, 'regenerated');
    const result = await run(PYTHON, [GENERATOR, '--out', out, '--no-verify']);
    expect(result.code, result.stderr).toBe(0);
    const committed = await filesUnder(SUITE_DIR);
    expect(await filesUnder(out)).toEqual(committed);
    for (const file of committed) {
      const same = (await readFile(path.join(out, file))).equals(await readFile(path.join(SUITE_DIR, file)));
      expect(same, `${file} differs from a fresh run of scripts/make-sample-suite.py`).toBe(true);
    }
  });
});

describe.each(tasks.map((task) => [task.id, task] as const))('%s', (_id, task) => {
  it('masks only the target: its module differs from the solution and raises NotImplementedError', async () => {
    const relative = task.file.source.path;
    const masked = (await listWorkspaceFiles(task)).find((e) => e.path === relative)?.content?.toString('utf8');
    const original = await readFile(path.join(task.solutionDir, relative), 'utf8');
    expect(masked).not.toBe(original);
    expect(masked).toContain('raise NotImplementedError');
    expect(await filesUnder(task.solutionDir)).toEqual([relative]);
    expect(await caseCount(task)).toBeGreaterThanOrEqual(12);
    expect(await caseCount(task)).toBeLessThanOrEqual(30);
  });

  it('passes every hidden test and case against the solution', async () => {
    const workspace = await workspaceCopy(task, true);
    const expected = await expectedTestNames(task);
    expect(expected.length).toBeGreaterThanOrEqual(3);
    expect(expected.length).toBeLessThanOrEqual(6);

    const tests = await runHiddenTests(task, workspace);
    expect([...tests.keys()].sort()).toEqual(expected);
    expect([...tests.entries()].filter(([, outcome]) => outcome !== 'passed')).toEqual([]);

    const cases = await runCases(task, workspace);
    expect(cases).toHaveLength(await caseCount(task));
    expect(cases.filter((c) => !c.passed)).toEqual([]);
  });

  it('fails every hidden test and case against the masked workspace', async () => {
    const workspace = await workspaceCopy(task, false);

    const tests = await runHiddenTests(task, workspace);
    expect([...tests.keys()].sort()).toEqual(await expectedTestNames(task));
    expect([...tests.entries()].filter(([, outcome]) => outcome === 'passed')).toEqual([]);

    const cases = await runCases(task, workspace);
    expect(cases).toHaveLength(await caseCount(task));
    expect(cases.filter((c) => c.passed)).toEqual([]);
  });
});
