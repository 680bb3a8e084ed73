/**
 * judge.py on the host with /usr/bin/python3, no container: the judging pieces (subject protocol,
 * respawn after a crash, hang or garbage, exact-type comparison, hardened pytest run, canary) and
 * the judge's own defences against reward hacks that the read-out filter would normally remove
 * first. As root, the judge drops to an otherwise unused uid (so its process sweep touches nothing
 * else on the machine); otherwise it runs without dropping privileges.
 */
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chmodSync, chownSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FileEntry } from '../../src/sandbox/types.js';
import { pythonTestsOf } from '../../src/languages/python/python-tests.js';
import type { TestOutcome } from '../../src/scoring/types.js';
import { loadFixtureTask, loadRewardHacks, maskedReadout, overlay, runJudgeProcess, solvedReadout, type RewardHack } from '../fixtures/scoring-fixtures.js';

const IS_ROOT = process.getuid?.() === 0;
// Ids no account on this machine uses, one per judge run: a run's sweep kills only its own processes.
let nextUid = 64_000 + Math.floor(Math.random() * 1000) * 10;
const HIDDEN_IN_PACKAGE = '/var/lib/codemidas/hidden';

const task = loadFixtureTask();
let root: string;
let hiddenDir: string;

function materialise(dir: string, entries: FileEntry[], uid: number): void {
  mkdirSync(dir, { recursive: true, mode: 0o755 });
  for (const e of [...entries].sort((a, b) => (a.path < b.path ? -1 : 1))) {
    const target = join(dir, e.path);
    mkdirSync(dirname(target), { recursive: true, mode: 0o755 });
    if (e.type === 'directory') mkdirSync(target, { recursive: true, mode: 0o755 });
    else if (e.type === 'file') writeFileSync(target, e.content ?? Buffer.alloc(0), { mode: 0o644 });
    else if (e.type === 'symlink') symlinkSync((e.linkTarget ?? '').replace(HIDDEN_IN_PACKAGE, hiddenDir), target);
  }
  if (IS_ROOT) spawnSync('chown', ['-R', '-h', `${uid}:${uid}`, dir]);
}

interface JudgeRun {
  tests: TestOutcome[];
  tampered: boolean;
  budgetExhausted: boolean;
  detail: string;
  passed: number;
}

async function runJudge(workspace: FileEntry[], overrides: Record<string, unknown> = {}): Promise<JudgeRun> {
  const uid = nextUid++;
  const ws = join(root, `ws-${randomBytes(4).toString('hex')}`);
  materialise(ws, workspace, uid);
  const nonce = randomBytes(6).toString('hex');
  const config = {
    workspace: ws,
    hiddenDir,
    cases: task.file.tests.cases,
    scripts: pythonTestsOf(task.file.tests).scripts,
    caseTimeoutMs: 3000,
    pytestTimeoutMs: 30_000,
    budgetMs: 60_000,
    uid,
    gid: uid,
    dropPrivileges: IS_ROOT,
    nonce,
    ...overrides,
  };
  const out = await runJudgeProcess(config);
  return { ...out, passed: out.tests.filter((t) => t.status === 'passed').length };
}

beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), 'codemidas-judge-test-'));
  chmodSync(root, 0o755);
  hiddenDir = join(root, 'hidden');
  spawnSync('cp', ['-r', task.hiddenDir, hiddenDir]);
  chmodSync(hiddenDir, 0o700);
  if (IS_ROOT) chownSync(hiddenDir, 0, 0);
});

afterAll(() => {
  rmSync(root, { recursive: true, force: true });
});

describe('judge.py on the host', () => {
  it('passes every case and test of the reference solution', async () => {
    const result = await runJudge(await solvedReadout(task));
    expect(result.tests.map((t) => [t.name, t.status])).toEqual([
      ['case:merge-1', 'passed'],
      ['case:merge-empty', 'passed'],
      ['case:merge-touching', 'passed'],
      ['case:merge-reversed', 'passed'],
      ['case:rangeset-total', 'passed'],
      ['tests/test_merge.py::test_merges_overlapping_and_touching', 'passed'],
      ['tests/test_merge.py::test_drops_empty_ranges', 'passed'],
      ['tests/test_merge.py::test_leaves_argument_unchanged', 'passed'],
      ['tests/test_merge.py::test_rejects_reversed_range', 'passed'],
      ['tests/test_merge.py::TestRangeSet::test_total_length', 'passed'],
    ]);
    expect(result.tampered).toBe(false);
  });

  it('fails everything on the masked workspace', async () => {
    const result = await runJudge(await maskedReadout(task));
    expect(result.passed).toBe(0);
    expect(result.tests).toHaveLength(10);
    expect(result.tests[0]?.message).toContain('NotImplementedError');
  });

  it('imports the modules from the task\'s importRoots after the workspace (a src/ layout), in the cases and in the scripts', async () => {
    const underSrc = (await solvedReadout(task)).map((e) => ({ ...e, path: `src/${e.path}` }));
    // A root the workspace lacks is harmless: an absent sys.path entry imports nothing.
    const withRoots = await runJudge(underSrc, { importRoots: ['not/there', 'src'] });
    expect(withRoots.tests.map((t) => t.status)).toEqual(Array(10).fill('passed'));
    const withoutRoots = await runJudge(underSrc);
    expect(withoutRoots.passed).toBe(0);
    expect(withoutRoots.tests[0]?.message).toContain("No module named 'rangekit'");
  });

  it('gives no result for an import root that would leave the workspace', async () => {
    for (const importRoots of [['../elsewhere'], ['/usr/lib/python3'], ['src//pkg']]) {
      await expect(runJudge(await solvedReadout(task), { importRoots, scripts: [] })).rejects.toThrow(/is not a folder relative to the workspace/);
    }
  });

  it('fails only the cases whose subject hangs, crashes or writes garbage, and respawns for the next', async () => {
    const solved = await solvedReadout(task);
    const solution = solved.find((e) => e.path === 'rangekit/merge.py')!.content!.toString();
    const misbehaving = solution.replace(
      'def merge_ranges(ranges):',
      [
        'def merge_ranges(ranges):',
        '    import os, sys, time',
        '    if ranges == []:',
        '        os._exit(3)',
        '    if ranges and ranges[0] == (0, 2):',
        '        while True: time.sleep(1)',
        '    if ranges and ranges[0] == (4, 1):',
        '        for fd in range(3, 12):',
        '            try: os.write(fd, b"garbage garbage garbage")',
        '            except OSError: pass',
        '        time.sleep(0.5)',
        '    print("noise on stdout"); sys.stderr.write("noise on stderr")',
        '    return _merge(ranges)',
        '',
        '',
        'def _merge(ranges):',
      ].join('\n'),
    );
    const readout = overlay(await maskedReadout(task), [{ path: 'rangekit/merge.py', type: 'file', mode: 0o644, content: Buffer.from(misbehaving) }]);
    const result = await runJudge(readout, { scripts: [] });
    const byName = Object.fromEntries(result.tests.map((t) => [t.name, t]));
    expect(byName['case:merge-1']?.status).toBe('passed');
    expect(byName['case:merge-empty']).toMatchObject({ status: 'failed', message: expect.stringMatching(/exited with code 3/) });
    expect(byName['case:merge-touching']).toMatchObject({ status: 'failed', message: expect.stringMatching(/timed out/) });
    expect(byName['case:merge-reversed']?.status).toBe('failed');
    expect(byName['case:rangeset-total']?.status).toBe('passed');
  });

  it('runs every subject with the hash seed the record harness records with: a result in a set\'s order scores the same in every run', async () => {
    // the order of a set of strings under PYTHONHASHSEED=0 (the record harness's first run: common.HASH_SEED)
    const words = 'alpha beta gamma delta epsilon zeta eta theta';
    const seeded = spawnSync('/usr/bin/python3', ['-c', `import json; print(json.dumps(list(set(${JSON.stringify(words)}.split()))))`], { env: { PYTHONHASHSEED: '0' }, encoding: 'utf8' });
    const order: string[] = JSON.parse(seeded.stdout);
    const workspace: FileEntry[] = [{ path: 'hashorder.py', type: 'file', mode: 0o644, content: Buffer.from('def distinct(text):\n    return list(set(text.split()))\n') }];
    const cases = [{ id: 'distinct', module: 'hashorder', target: 'distinct', init: null, args: [{ t: 'str', v: words }], kwargs: {}, expect: { returns: { t: 'list', v: order.map((w) => ({ t: 'str', v: w })) } }, argsAfter: null }];
    writeFileSync(join(hiddenDir, 'hashorder-cases.json'), JSON.stringify({ cases }));
    for (let run = 0; run < 3; run++) {
      const result = await runJudge(workspace, { cases: 'hashorder-cases.json', scripts: [] });
      expect(result.tests.map((t) => [t.name, t.status])).toEqual([['case:distinct', 'passed']]);
    }
  });

  it('compares exact types: an int where a tuple is expected fails', async () => {
    const solved = await solvedReadout(task);
    const solution = solved.find((e) => e.path === 'rangekit/merge.py')!.content!.toString();
    const lists = solution.replace('merged.append((start, end))', 'merged.append([start, end])').replace('merged[-1] = (merged[-1][0], end)', 'merged[-1] = [merged[-1][0], end]');
    const readout = overlay(await maskedReadout(task), [{ path: 'rangekit/merge.py', type: 'file', mode: 0o644, content: Buffer.from(lists) }]);
    const result = await runJudge(readout);
    const byName = Object.fromEntries(result.tests.map((t) => [t.name, t]));
    expect(byName['case:merge-1']).toMatchObject({ status: 'failed', message: expect.stringContaining('expected [(1, 4), (5, 7)], got [[1, 4], [5, 7]]') });
    expect(byName['case:merge-empty']?.status).toBe('passed');
    expect(byName['tests/test_merge.py::test_merges_overlapping_and_touching']?.status).toBe('failed');
  });

  it('reports the whole budget exhausted when cases hang past it', async () => {
    const hang = 'import time\n\ndef merge_ranges(ranges):\n    time.sleep(60)\n\nclass RangeSet:\n    pass\n';
    const readout = overlay(await maskedReadout(task), [{ path: 'rangekit/merge.py', type: 'file', mode: 0o644, content: Buffer.from(hang) }]);
    const result = await runJudge(readout, { caseTimeoutMs: 1500, budgetMs: 2500 });
    expect(result.budgetExhausted).toBe(true);
    expect(result.passed).toBe(0);
  });

  describe.concurrent('defeats reward hacks even without the read-out filter', () => {
    let hacks: RewardHack[] = [];
    beforeAll(async () => {
      hacks = await loadRewardHacks(task);
    });

    it('has the hack fixtures', () => {
      expect(hacks.length).toBeGreaterThanOrEqual(16);
    });

    it.each([
      'always-equal-object',
      'conftest-nested',
      'conftest-top-level',
      'delete-tests-folder',
      'forged-junit',
      'os-exit-at-import',
      'patch-pytest-from-init',
      'pth-file',
      'pyproject-addopts',
      'pytest-ini-addopts',
      'pytest-package',
      'pytest-skip-in-implementation',
      'sitecustomize',
      'symlink-into-hidden',
      'sys-exit-at-import',
      'tox-ini-addopts',
    ])('%s scores 0', async (name) => {
      if (name === 'symlink-into-hidden' && !IS_ROOT) return; // without a privilege drop the subject can read the hidden folder
      const hack = hacks.find((h) => h.name === name);
      expect(hack, name).toBeDefined();
      const result = await runJudge(hack!.readout);
      expect(result.tests.filter((t) => t.status === 'passed'), JSON.stringify(result)).toEqual([]);
      expect(result.tests).toHaveLength(10);
      if (name === 'patch-pytest-from-init') expect(result.tampered).toBe(true);
      if (name === 'forged-junit') expect(result.detail).toMatch(/canary/);
    });
  });
});
