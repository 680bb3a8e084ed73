/**
 * The Python scorer's outcomes other than SCORED, against the real engine: a run past the task's
 * limit is a TIMEOUT with reward 0, an engine failure is an INFRA_ERROR, and no scoring sandbox
 * outlives its run.
 */
import Dockerode from 'dockerode';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureImages } from '../../src/images/image-builder.js';
import { createDockerImageResolver } from '../../src/images/docker-image-resolver.js';
import { createSilentLogger } from '../../src/logging.js';
import { createDockerSandboxProvider } from '../../src/sandbox/docker/docker-sandbox-provider.js';
import type { FileEntry, SandboxProvider } from '../../src/sandbox/types.js';
import { createPythonScorer } from '../../src/languages/python/python-scorer.js';
import type { LoadedTask } from '../../src/tasks/types.js';
import { loadFixtureTask, maskedReadout, overlay, solvedReadout } from '../fixtures/scoring-fixtures.js';

const logger = createSilentLogger();
const docker = new Dockerode();
const serverId = `scoring-outcomes-${process.pid}`;
let provider: SandboxProvider;

beforeAll(async () => {
  const { tags } = await ensureImages({ docker, logger, languages: ['python'] });
  provider = createDockerSandboxProvider({ docker, logger, serverId, images: createDockerImageResolver({ docker, logger, tags }) });
});

afterAll(async () => {
  await provider?.close();
});

async function leftoverScoringContainers(): Promise<number> {
  const list = await docker.listContainers({ all: true, filters: { label: ['codemidas.purpose=scoring', `codemidas.server=${serverId}`] } });
  return list.length;
}

/** A scoring sandbox is removed after the answer: its removal gets up to 10 s. */
const REMOVAL_POLL = { timeout: 10_000, interval: 100 };

describe('python scorer outcomes', () => {
  it('drops privileges in the scoring sandbox and leaves no container behind', async () => {
    const task = loadFixtureTask();
    const result = await createPythonScorer({ provider, logger }).score({ task, workspace: await solvedReadout(task) });
    expect(result.reward).toBe(1);
    expect(result.detail).not.toContain('privileges not dropped');
    await expect.poll(leftoverScoringContainers, REMOVAL_POLL).toBe(0);
  });

  it('calls a run past the task limit a TIMEOUT with reward 0, even when some cases passed', async () => {
    const base = loadFixtureTask();
    const task: LoadedTask = { ...base, file: { ...base.file, tests: { ...base.file.tests, timeoutMs: 4000, caseTimeoutMs: 1500 } } };
    const solved = await solvedReadout(task);
    const solution = solved.find((e) => e.path === 'rangekit/merge.py')!.content!.toString();
    const slow = solution.replace('def merge_ranges(ranges):', 'def merge_ranges(ranges):\n    if not ranges:\n        import time\n        time.sleep(600)');
    const readout = overlay(await maskedReadout(task), [{ path: 'rangekit/merge.py', type: 'file', mode: 0o644, content: Buffer.from(slow) }]);
    const started = Date.now();
    const result = await createPythonScorer({ provider, logger }).score({ task, workspace: readout });
    expect(result, JSON.stringify(result)).toMatchObject({ outcome: 'TIMEOUT', reward: 0 });
    expect(Date.now() - started).toBeLessThan(30_000);
    await expect.poll(leftoverScoringContainers, REMOVAL_POLL).toBe(0);
  });

  it('scores a series in one sandbox, each run on a fresh workspace and an empty /tmp', async () => {
    const task = loadFixtureTask();
    const solved = await solvedReadout(task);
    const solution = solved.find((e) => e.path === 'rangekit/merge.py')!.content!.toString();
    const withPrologue = (lines: string[]): FileEntry[] =>
      overlay(masked, [{ path: 'rangekit/merge.py', type: 'file', mode: 0o644, content: Buffer.from([...lines, solution].join('\n')) }]);
    const masked = await maskedReadout(task);
    const marks = ['import os as _os', "_marks = ['/tmp/codemidas-series-mark', _os.path.join(_os.path.dirname(__file__), 'mark')]"];
    // the solution that leaves a mark in the workspace and in /tmp, and the one that fails where it finds one
    const marking = withPrologue([...marks, 'for _m in _marks:', "    open(_m, 'w').close()"]);
    const checking = withPrologue([...marks, 'if any(_os.path.exists(_m) for _m in _marks):', "    raise RuntimeError('a mark left by an earlier run')"]);
    const scorer = createPythonScorer({ provider, logger });
    const results = await scorer.scoreSeries!([marking, checking, masked, marking, checking].map((workspace) => ({ task, workspace })));
    expect(results.map((r) => r.outcome)).toEqual(Array(5).fill('SCORED'));
    expect(results.map((r) => r.reward), JSON.stringify(results.map((r) => r.detail))).toEqual([1, 1, 0, 1, 1]);
    await expect.poll(leftoverScoringContainers, REMOVAL_POLL).toBe(0);
  });

  it('keeps a series run that times out as TIMEOUT and scores the runs after it in sandboxes of their own', async () => {
    const base = loadFixtureTask();
    const task: LoadedTask = { ...base, file: { ...base.file, tests: { ...base.file.tests, timeoutMs: 4000, caseTimeoutMs: 1500 } } };
    const solved = await solvedReadout(task);
    const solution = solved.find((e) => e.path === 'rangekit/merge.py')!.content!.toString();
    const slow = overlay(await maskedReadout(task), [
      { path: 'rangekit/merge.py', type: 'file', mode: 0o644, content: Buffer.from(solution.replace('def merge_ranges(ranges):', 'def merge_ranges(ranges):\n    if not ranges:\n        import time\n        time.sleep(600)')) },
    ]);
    let created = 0;
    const counting: SandboxProvider = Object.assign(Object.create(provider) as SandboxProvider, {
      create: (...args: Parameters<SandboxProvider['create']>) => {
        created += 1;
        return provider.create(...args);
      },
    });
    const results = await createPythonScorer({ provider: counting, logger }).scoreSeries!([solved, slow, solved, solved].map((workspace) => ({ task, workspace })));
    expect(results.map((r) => r.outcome), JSON.stringify(results.map((r) => r.detail))).toEqual(['SCORED', 'TIMEOUT', 'SCORED', 'SCORED']);
    expect(results.map((r) => r.reward)).toEqual([1, 0, 1, 1]);
    // the series' sandbox, then one for each run after the timeout
    expect(created).toBe(3);
    await expect.poll(leftoverScoringContainers, REMOVAL_POLL).toBe(0);
  });

  it('reports an engine failure as INFRA_ERROR, not as a zero score', async () => {
    const task = loadFixtureTask();
    const broken: SandboxProvider = Object.assign(Object.create(provider) as SandboxProvider, {
      imageFor: () => 'codemidas/does-not-exist:nope',
    });
    const result = await createPythonScorer({ provider: broken, logger }).score({ task, workspace: await solvedReadout(task) });
    expect(result.outcome).toBe('INFRA_ERROR');
    expect(result.reward).toBe(0);
    expect(result.detail).toMatch(/scoring sandbox failed/);
  });
});
