/** Runs a harness script of the Python adapter on the host with Debian's python3, config on stdin. */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { projectRoot } from '../../src/project-root.js';

export const root = projectRoot();
export const FIXTURE = join(root, 'tests', 'fixtures', 'record');
export const PYTHON = '/usr/bin/python3';

export function runHarness(script: 'record.py' | 'mutate.py', config: Record<string, unknown>): any {
  const workDir = mkdtempSync(join(tmpdir(), 'codemidas-harness-'));
  const full = { repoRoot: FIXTURE, sysPath: [FIXTURE], seed: 7, workDir, callTimeoutMs: 1000, ...config };
  try {
    const result = spawnSync(PYTHON, ['-I', '-B', join(root, 'src', 'languages', 'python', 'harness', script)], {
      input: JSON.stringify(full),
      encoding: 'utf8',
      maxBuffer: 256 * 1024 * 1024,
      timeout: 300_000,
    });
    if (result.status !== 0) throw new Error(`${script} exited ${result.status}: ${result.stderr}`);
    return JSON.parse(result.stdout);
  } finally {
    rmSync(workDir, { recursive: true, force: true });
  }
}

export function target(qualname: string, module = 'recfix.core', extra: Record<string, unknown> = {}): Record<string, unknown> {
  return { unitId: `${module}:${qualname}`, module, qualname, kind: qualname.includes('.') ? 'method' : 'function', ...extra };
}

/**
 * Runs `body` (Python lines) with Debian's python3 and `source` on stdin, after loading the harness
 * module `module` (worker, mutants, ...) as the harness loads its siblings, bound to that name.
 * Returns the JSON the script prints.
 */
export function runWithHarnessModule(module: string, body: string[], source: string): any {
  const script = [
    'import ast, importlib.util, json, sys',
    `spec = importlib.util.spec_from_file_location("_codemidas__load", ${JSON.stringify(join(root, 'src/languages/python/harness/_load.py'))})`,
    '_load = importlib.util.module_from_spec(spec); sys.modules["_codemidas__load"] = _load; spec.loader.exec_module(_load)',
    `${module} = _load.load(${JSON.stringify(module)})`,
    ...body,
  ].join('\n');
  const run = spawnSync(PYTHON, ['-I', '-c', script], { input: source, encoding: 'utf8' });
  if (run.status !== 0) throw new Error(`python exited ${run.status}: ${run.stderr}`);
  return JSON.parse(run.stdout);
}

/**
 * Each case run by the real subject (src/languages/python/judge/subject.py) and judged by the real judge,
 * with `fixture` on sys.path (default: the recorder fixture): [ok, detail] per case.
 */
export function judgeCases(cases: unknown[], fixture: string = FIXTURE): [boolean, string][] {
  const scoring = join(root, 'src', 'languages', 'python', 'judge');
  const script = `
import importlib.util, json, sys
sys.path.insert(0, ${JSON.stringify(fixture)})
def load(name, path):
    spec = importlib.util.spec_from_file_location(name, path)
    mod = importlib.util.module_from_spec(spec); spec.loader.exec_module(mod); return mod
subject = load("s", ${JSON.stringify(join(scoring, 'subject.py'))})
judge = load("j", ${JSON.stringify(join(scoring, 'judge.py'))})
print(json.dumps([list(judge.judge_answer(case, subject.run_case(case))) for case in json.loads(sys.stdin.read())]))
`;
  const run = spawnSync(PYTHON, ['-I', '-B', '-c', script], { input: JSON.stringify(cases), encoding: 'utf8', timeout: 120_000, maxBuffer: 64 * 1024 * 1024 });
  if (run.status !== 0) throw new Error(`the subject or the judge failed: ${run.stderr}`);
  return JSON.parse(run.stdout);
}
