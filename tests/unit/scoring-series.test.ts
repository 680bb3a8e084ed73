/**
 * `scoreSeries` on the in-memory sandbox fake: several read-outs of one task scored in one fresh
 * sandbox (the build's gates), each run on a fresh copy of its tree with its own judge and nonce; a
 * run the sandbox fails, and every run after it, is scored in sandboxes of its own.
 */
import { describe, expect, it } from 'vitest';
import { SandboxAbortedError } from '../../src/errors.js';
import { createSilentLogger } from '../../src/logging.js';
import type { Command } from '../../src/sandbox/types.js';
import { createMemorySandboxProvider, type MemoryExecHandler } from '../../src/sandbox/memory/memory-sandbox-provider.js';
import { createPythonScorer } from '../../src/languages/python/python-scorer.js';
import { HIDDEN_DIR_IN_SANDBOX } from '../../src/scoring/sandbox-scorer.js';
import { loadFixtureTask, maskedReadout, solvedReadout } from '../fixtures/scoring-fixtures.js';

const task = loadFixtureTask();
const logger = createSilentLogger();
const argvOf = (command: Command): string[] => ('argv' in command ? [...command.argv] : []);

/** A judge that passes runs on the series' first tree (copy 0) and fails the rest; nonces collected. */
function judgeByCopy(nonces: string[]): MemoryExecHandler {
  return (_sandbox, command, options) => {
    const { nonce } = JSON.parse(options.stdin?.toString() ?? '{}') as { nonce: string };
    nonces.push(nonce);
    const copy = argvOf(command)[5] ?? '';
    const status = copy.endsWith('/0') ? 'passed' : 'failed';
    const result = { tests: [{ name: 'case:a', status, message: '' }], tampered: false, budgetExhausted: false, detail: 'judged' };
    return { exitCode: 0, stdout: `CODEMIDAS-JUDGE ${nonce} ${JSON.stringify(result)}\n` };
  };
}

describe('scoreSeries', () => {
  it('scores every read-out in one sandbox, each run from a fresh copy of its own tree, in the order asked', async () => {
    const nonces: string[] = [];
    const provider = createMemorySandboxProvider({ execHandler: judgeByCopy(nonces) });
    const scorer = createPythonScorer({ provider, logger });
    const solved = await solvedReadout(task);
    const masked = await maskedReadout(task);
    const requests = [solved, solved, solved, solved, masked, masked].map((workspace) => ({ task, workspace }));

    const results = await scorer.scoreSeries!(requests);

    expect(results.map((r) => [r.outcome, r.reward])).toEqual([...Array(4).fill(['SCORED', 1]), ...Array(2).fill(['SCORED', 0])]);
    expect(provider.created).toBe(1);
    const sandbox = provider.sandboxes[0]!;
    const runs = sandbox.commands.map(argvOf);
    expect(runs).toHaveLength(6);
    for (const [i, argv] of runs.entries()) {
      // sh -c <fresh-run script> fresh-run <workdir> <copy> <judge argv…>
      expect(argv.slice(0, 2)).toEqual(['sh', '-c']);
      expect(argv[2]).toMatch(/find "\$w" -mindepth 1 -delete[\s\S]*cp -a "\$copy"\/\. "\$w"\/[\s\S]*exec "\$@"/);
      expect(argv.slice(4, 6)).toEqual([task.file.workdir, `/var/lib/codemidas/series/${i < 4 ? 0 : 1}`]);
      expect(argv.slice(6)).toEqual(['python3', '-I', '-S', expect.stringContaining('judge.py')]);
    }
    expect(new Set(nonces).size).toBe(6);

    // one put: the hidden tests once, one root-only copy per distinct read-out, each owned by the agent user
    const series = sandbox.files.get('/var/lib/codemidas/series');
    expect(series).toMatchObject({ type: 'directory', mode: 0o700, uid: 0 });
    const solution = solved.find((e) => e.path === 'rangekit/merge.py')!.content!;
    expect(sandbox.files.get('/var/lib/codemidas/series/0/rangekit/merge.py')).toMatchObject({ content: solution, uid: 1000 });
    expect(sandbox.files.get('/var/lib/codemidas/series/1/rangekit/merge.py')?.content?.equals(solution)).toBe(false);
    expect(sandbox.files.has('/var/lib/codemidas/series/2')).toBe(false);
    expect([...sandbox.files.keys()].some((p) => p.startsWith(`${HIDDEN_DIR_IN_SANDBOX}/`))).toBe(true);
  });

  it('scores the run the sandbox failed, and every run after it, in sandboxes of their own', async () => {
    let execs = 0;
    const nonces: string[] = [];
    const answer = judgeByCopy(nonces);
    const provider = createMemorySandboxProvider({
      execHandler: (sandbox, command, options) => {
        execs++;
        if (execs === 3) throw new SandboxAbortedError(sandbox.id, `sandbox ${sandbox.id} died: the container exited`);
        // runs on their own get the judge alone, with the tree already in the workdir
        if (argvOf(command)[0] !== 'sh') return answer(sandbox, { argv: ['sh', '-c', '', '', '', '/0'] }, options);
        return answer(sandbox, command, options);
      },
    });
    const scorer = createPythonScorer({ provider, logger });
    const solved = await solvedReadout(task);
    const results = await scorer.scoreSeries!([solved, solved, solved, solved].map((workspace) => ({ task, workspace })));

    expect(results.map((r) => [r.outcome, r.reward])).toEqual(Array(4).fill(['SCORED', 1]));
    // the series' sandbox, then one for each of the two runs left
    expect(provider.created).toBe(3);
    expect(provider.sandboxes.slice(1).every((s) => s.commands.every((c) => argvOf(c)[0] === 'python3'))).toBe(true);
  });

  it('scores the runs after one that timed out in sandboxes of their own (its processes may outlive it)', async () => {
    let execs = 0;
    const answer = judgeByCopy([]);
    const provider = createMemorySandboxProvider({
      execHandler: (sandbox, command, options) => {
        execs++;
        if (execs === 2) return { exitCode: 137, timedOut: true };
        if (argvOf(command)[0] !== 'sh') return answer(sandbox, { argv: ['sh', '-c', '', '', '', '/0'] }, options);
        return answer(sandbox, command, options);
      },
    });
    const scorer = createPythonScorer({ provider, logger });
    const solved = await solvedReadout(task);
    const results = await scorer.scoreSeries!([solved, solved, solved, solved].map((workspace) => ({ task, workspace })));

    expect(results.map((r) => r.outcome)).toEqual(['SCORED', 'TIMEOUT', 'SCORED', 'SCORED']);
    expect(provider.created).toBe(3);
    expect(provider.sandboxes[0]!.commands).toHaveLength(2);
  });

  it('refuses read-outs of several tasks', async () => {
    const provider = createMemorySandboxProvider();
    const scorer = createPythonScorer({ provider, logger });
    const other = { ...task, dir: `${task.dir}-other` };
    await expect(scorer.scoreSeries!([{ task, workspace: [] }, { task: other, workspace: [] }])).rejects.toThrow(/one task/);
    expect(provider.created).toBe(0);
  });
});
