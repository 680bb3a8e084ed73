/**
 * `scoreSeries` on the in-memory sandbox fake: several read-outs of one task scored in one exec of
 * one fresh sandbox (the build's gates), each run on a fresh copy of its tree with its own judge,
 * config and nonce; the first run without a result, and every run after it (or after one that
 * timed out), is scored in sandboxes of its own.
 */
import { describe, expect, it } from 'vitest';
import { SandboxAbortedError } from '../../src/errors.js';
import { createSilentLogger } from '../../src/logging.js';
import type { Command, ExecResult } from '../../src/sandbox/types.js';
import { createMemorySandboxProvider, type MemoryExecHandler } from '../../src/sandbox/memory/memory-sandbox-provider.js';
import { createPythonScorer } from '../../src/languages/python/python-scorer.js';
import { HIDDEN_DIR_IN_SANDBOX } from '../../src/scoring/sandbox-scorer.js';
import { loadFixtureTask, maskedReadout, solvedReadout } from '../fixtures/scoring-fixtures.js';

const task = loadFixtureTask();
const logger = createSilentLogger();
const argvOf = (command: Command): string[] => ('argv' in command ? [...command.argv] : []);

/** How the fake judge ends a run of a series: a result (passed on copy 0, failed on the others), none, or its budget exhausted. */
type RunEnd = 'result' | 'none' | 'exhausted';

/** One judge result line for `nonce`. */
function resultLine(nonce: string, status: 'passed' | 'failed', budgetExhausted = false): string {
  const result = { tests: [{ name: 'case:a', status, message: '' }], tampered: false, budgetExhausted, detail: 'judged' };
  return `CODEMIDAS-JUDGE ${nonce} ${JSON.stringify(result)}\n`;
}

/**
 * The engine's side of a series: its one exec (`sh -c <script> series <workdir> <series folder>
 * <copy numbers> <judge argv…>`) answered run by run from the configs the scorer put in the series
 * folder, each run ended as `end(i)` says; a run scored on its own (the judge alone, its tree in
 * the workdir) passes. Nonces collected in run order.
 */
function seriesJudge(nonces: string[], end: (run: number) => RunEnd = () => 'result', extra: Partial<ExecResult> = {}): MemoryExecHandler {
  return (sandbox, command, options) => {
    const argv = argvOf(command);
    if (argv[0] !== 'sh') {
      const { nonce } = JSON.parse(options.stdin?.toString() ?? '{}') as { nonce: string };
      return { exitCode: 0, stdout: resultLine(nonce, 'passed') };
    }
    const [seriesDir, copies] = [argv[5] ?? '', (argv[6] ?? '').split(' ')];
    let stdout = '';
    for (const [i, k] of copies.entries()) {
      const { nonce } = JSON.parse(sandbox.files.get(`${seriesDir}/run-${i}.json`)?.content?.toString() ?? '{}') as { nonce: string };
      nonces.push(nonce);
      const how = end(i);
      if (how !== 'none') stdout += resultLine(nonce, k === '0' ? 'passed' : 'failed', how === 'exhausted');
    }
    return { exitCode: 0, stdout, ...extra };
  };
}

describe('scoreSeries', () => {
  it('scores every read-out in one exec of one sandbox, each run from a fresh copy of its own tree with its own config, in the order asked', async () => {
    const nonces: string[] = [];
    const provider = createMemorySandboxProvider({ execHandler: seriesJudge(nonces) });
    const scorer = createPythonScorer({ provider, logger });
    const solved = await solvedReadout(task);
    const masked = await maskedReadout(task);
    const requests = [solved, solved, solved, solved, masked, masked].map((workspace) => ({ task, workspace }));

    const results = await scorer.scoreSeries!(requests);

    expect(results.map((r) => [r.outcome, r.reward])).toEqual([...Array(4).fill(['SCORED', 1]), ...Array(2).fill(['SCORED', 0])]);
    expect(provider.created).toBe(1);
    const sandbox = provider.sandboxes[0]!;
    const runs = sandbox.commands.map(argvOf);
    expect(runs).toHaveLength(1);
    const [argv] = runs as [string[]];
    // sh -c <series script> series <workdir> <series folder> <copy of each run> <judge argv…>
    expect(argv.slice(0, 2)).toEqual(['sh', '-c']);
    expect(argv[2]).toMatch(/for k in \$trees[\s\S]*find "\$w" -mindepth 1 -delete[\s\S]*cp -a "\$series\/\$k"\/\. "\$w"\/[\s\S]*"\$@" < "\$series\/run-\$i\.json"/);
    expect(argv.slice(4, 7)).toEqual([task.file.workdir, '/var/lib/codemidas/series', '0 0 0 0 1 1']);
    expect(argv.slice(7)).toEqual(['python3', '-I', '-S', expect.stringContaining('judge.py')]);
    expect(new Set(nonces).size).toBe(6);

    // one put: the hidden tests once, one root-only copy per distinct read-out (owned by the agent
    // user), and each run's config, root-only
    const series = sandbox.files.get('/var/lib/codemidas/series');
    expect(series).toMatchObject({ type: 'directory', mode: 0o700, uid: 0 });
    const solution = solved.find((e) => e.path === 'rangekit/merge.py')!.content!;
    expect(sandbox.files.get('/var/lib/codemidas/series/0/rangekit/merge.py')).toMatchObject({ content: solution, uid: 1000 });
    expect(sandbox.files.get('/var/lib/codemidas/series/1/rangekit/merge.py')?.content?.equals(solution)).toBe(false);
    expect(sandbox.files.has('/var/lib/codemidas/series/2')).toBe(false);
    expect(sandbox.files.get('/var/lib/codemidas/series/run-5.json')).toMatchObject({ type: 'file', mode: 0o600, uid: 0 });
    expect(sandbox.files.has('/var/lib/codemidas/series/run-6.json')).toBe(false);
    expect([...sandbox.files.keys()].some((p) => p.startsWith(`${HIDDEN_DIR_IN_SANDBOX}/`))).toBe(true);
  });

  it('scores every run in a sandbox of its own when the series sandbox fails', async () => {
    const provider = createMemorySandboxProvider({
      execHandler: (sandbox, command, options) => {
        if (argvOf(command)[0] === 'sh') throw new SandboxAbortedError(sandbox.id, `sandbox ${sandbox.id} died: the container exited`);
        return seriesJudge([])(sandbox, command, options);
      },
    });
    const scorer = createPythonScorer({ provider, logger });
    const solved = await solvedReadout(task);
    const results = await scorer.scoreSeries!([solved, solved, solved, solved].map((workspace) => ({ task, workspace })));

    expect(results.map((r) => [r.outcome, r.reward])).toEqual(Array(4).fill(['SCORED', 1]));
    expect(provider.created).toBe(5);
    expect(provider.sandboxes.slice(1).every((s) => s.commands.every((c) => argvOf(c)[0] === 'python3'))).toBe(true);
  });

  it('keeps the runs before the first without a result, and scores that run and every run after it in sandboxes of their own', async () => {
    const provider = createMemorySandboxProvider({ execHandler: seriesJudge([], (i) => (i === 2 ? 'none' : 'result')) });
    const scorer = createPythonScorer({ provider, logger });
    const solved = await solvedReadout(task);
    const results = await scorer.scoreSeries!([solved, solved, solved, solved].map((workspace) => ({ task, workspace })));

    expect(results.map((r) => [r.outcome, r.reward])).toEqual(Array(4).fill(['SCORED', 1]));
    // the series' sandbox, then one for each of the two runs from the one without a result
    expect(provider.created).toBe(3);
  });

  it('keeps a run whose budget ran out as TIMEOUT and scores the runs after it in sandboxes of their own (its processes may outlive it)', async () => {
    const provider = createMemorySandboxProvider({ execHandler: seriesJudge([], (i) => (i === 1 ? 'exhausted' : 'result')) });
    const scorer = createPythonScorer({ provider, logger });
    const solved = await solvedReadout(task);
    const results = await scorer.scoreSeries!([solved, solved, solved, solved].map((workspace) => ({ task, workspace })));

    expect(results.map((r) => r.outcome)).toEqual(['SCORED', 'TIMEOUT', 'SCORED', 'SCORED']);
    expect(provider.created).toBe(3);
  });

  it('calls the first run without a result a TIMEOUT when the series outlasted its limit, and scores the runs after it on their own', async () => {
    const provider = createMemorySandboxProvider({ execHandler: seriesJudge([], (i) => (i >= 1 ? 'none' : 'result'), { exitCode: 137, timedOut: true }) });
    const scorer = createPythonScorer({ provider, logger });
    const solved = await solvedReadout(task);
    const results = await scorer.scoreSeries!([solved, solved, solved, solved].map((workspace) => ({ task, workspace })));

    expect(results.map((r) => [r.outcome, r.reward])).toEqual([['SCORED', 1], ['TIMEOUT', 0], ['SCORED', 1], ['SCORED', 1]]);
    expect(provider.created).toBe(3);
  });

  it('refuses read-outs of several tasks', async () => {
    const provider = createMemorySandboxProvider();
    const scorer = createPythonScorer({ provider, logger });
    const other = { ...task, dir: `${task.dir}-other` };
    await expect(scorer.scoreSeries!([{ task, workspace: [] }, { task: other, workspace: [] }])).rejects.toThrow(/one task/);
    expect(provider.created).toBe(0);
  });
});
