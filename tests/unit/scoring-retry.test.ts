/**
 * The Python scorer's retry rule on the in-memory sandbox fake: a run that fails for a cause outside
 * the agent's control (the sandbox dies under the judge, no usable judge output) is tried once more
 * in a new sandbox, then it is an INFRA_ERROR; a run that ends as SCORED or TIMEOUT is never retried.
 */
import { describe, expect, it } from 'vitest';
import { SandboxAbortedError } from '../../src/errors.js';
import { createSilentLogger } from '../../src/logging.js';
import { createMemorySandboxProvider, type MemoryExecHandler } from '../../src/sandbox/memory/memory-sandbox-provider.js';
import { createPythonScorer } from '../../src/languages/python/python-scorer.js';
import { loadFixtureTask, solvedReadout } from '../fixtures/scoring-fixtures.js';

const task = loadFixtureTask();
const logger = createSilentLogger();

/** What a judge run prints: the result line for the nonce it was given. */
function judgeAnswer(tests: Array<{ name: string; status: string }>, extra: Record<string, unknown> = {}): MemoryExecHandler {
  return (_sandbox, _command, options) => {
    const { nonce } = JSON.parse(options.stdin?.toString() ?? '{}') as { nonce: string };
    const result = { tests: tests.map((t) => ({ ...t, message: '' })), tampered: false, budgetExhausted: false, detail: 'judged', ...extra };
    return { exitCode: 0, stdout: `CODEMIDAS-JUDGE ${nonce} ${JSON.stringify(result)}\n` };
  };
}

const allPassed = judgeAnswer([{ name: 'case:a', status: 'passed' }, { name: 'case:b', status: 'passed' }]);

async function scoreWith(handler: MemoryExecHandler, prepare: (provider: ReturnType<typeof createMemorySandboxProvider>) => void = () => undefined) {
  const provider = createMemorySandboxProvider({ execHandler: handler });
  prepare(provider);
  const result = await createPythonScorer({ provider, logger }).score({ task, workspace: await solvedReadout(task) });
  return { result, provider };
}

describe('python scorer retries', () => {
  it('scores in a new sandbox when the first one dies under the judge, and says so', async () => {
    let calls = 0;
    const { result, provider } = await scoreWith((sandbox, command, options) => {
      calls++;
      if (calls === 1) throw new SandboxAbortedError(sandbox.id, `sandbox ${sandbox.id} died: the container exited`);
      return allPassed(sandbox, command, options);
    });
    expect(result).toMatchObject({ outcome: 'SCORED', reward: 1, passed: 2, total: 2 });
    expect(result.detail).toMatch(/scored in a new sandbox after: scoring sandbox failed: sandbox \S+ died: the container exited/);
    expect(provider.created).toBe(2);
  });

  it('is an INFRA_ERROR naming both failures when the new sandbox fails too', async () => {
    const { result, provider } = await scoreWith((sandbox) => {
      throw new SandboxAbortedError(sandbox.id, `sandbox ${sandbox.id} died: the container exited`);
    });
    expect(result).toMatchObject({ outcome: 'INFRA_ERROR', reward: 0, passed: 0, total: 0 });
    expect(result.detail).toMatch(/^scoring sandbox failed: .*; then scoring sandbox failed: .* \(2 runs, each in a new sandbox\)/);
    expect(provider.created).toBe(2);
  });

  it('retries a judge that printed no result, then calls it an INFRA_ERROR', async () => {
    const { result, provider } = await scoreWith(() => ({ exitCode: 1, stdout: '', stderr: 'Traceback ...\nMemoryError\n' }));
    expect(result.outcome).toBe('INFRA_ERROR');
    expect(result.detail).toMatch(/^judge output unusable: no result from the judge \(exit code 1\): .*MemoryError/);
    expect(provider.created).toBe(2);
  });

  it('retries a sandbox that fails to start', async () => {
    let calls = 0;
    const { result, provider } = await scoreWith(allPassed, (p) => {
      const create = p.create.bind(p);
      p.create = async (spec, options) => {
        calls++;
        if (calls === 1) throw new Error('engine answered 500');
        return create(spec, options);
      };
    });
    expect(result).toMatchObject({ outcome: 'SCORED', reward: 1 });
    expect(result.detail).toMatch(/after: scoring sandbox failed: engine answered 500/);
    expect(provider.created).toBe(1);
  });

  it('never retries a run the judge scored, failed tests included', async () => {
    const { result, provider } = await scoreWith(judgeAnswer([{ name: 'case:a', status: 'failed' }, { name: 'case:b', status: 'passed' }]));
    expect(result).toMatchObject({ outcome: 'SCORED', passed: 1, total: 2 });
    expect(result.detail).not.toMatch(/new sandbox/);
    expect(provider.created).toBe(1);
  });

  it('never retries a timeout into a better score', async () => {
    const timedOut = await scoreWith(() => ({ exitCode: 124, timedOut: true }));
    expect(timedOut.result.outcome).toBe('TIMEOUT');
    expect(timedOut.provider.created).toBe(1);
    const exhausted = await scoreWith(judgeAnswer([{ name: 'case:a', status: 'passed' }], { budgetExhausted: true }));
    expect(exhausted.result).toMatchObject({ outcome: 'TIMEOUT', reward: 0 });
    expect(exhausted.provider.created).toBe(1);
  });

  it('copies the workspace to the workdir and the hidden tests to their folder', async () => {
    const { provider } = await scoreWith(allPassed);
    const sandbox = provider.sandboxes[0]!;
    expect(sandbox.text('/workspace/rangekit/merge.py')).toContain('def merge_ranges');
    expect(sandbox.text('/var/lib/codemidas/hidden/cases.json')).toBeDefined();
  });
});
