/**
 * The Python scorer against the real container engine: the reference solution scores 1, the
 * untouched workspace 0, and every reward hack under tests/fixtures/reward-hacks/ applied to the
 * unsolved task scores 0. Each scoring run starts (and destroys) its own fresh sandbox.
 */
import Dockerode from 'dockerode';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureImages } from '../../src/images/image-builder.js';
import { createSilentLogger } from '../../src/logging.js';
import { createDockerSandboxProvider } from '../../src/sandbox/docker/docker-sandbox-provider.js';
import type { SandboxProvider } from '../../src/sandbox/types.js';
import { createPythonScorer } from '../../src/scoring/python-scorer.js';
import type { Scorer, ScoreResult } from '../../src/scoring/types.js';
import { loadFixtureTask, loadRewardHacks, maskedReadout, solvedReadout, type RewardHack } from '../fixtures/scoring-fixtures.js';

const task = loadFixtureTask();
const logger = createSilentLogger();
let provider: SandboxProvider;
let scorer: Scorer;
let hacks: RewardHack[] = [];
const durations: number[] = [];

const EXPECTED_HACKS = [
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
];

beforeAll(async () => {
  const docker = new Dockerode();
  const { tags } = await ensureImages({ docker, logger, languages: ['python'] });
  provider = createDockerSandboxProvider({ docker, logger, serverId: `scoring-test-${process.pid}`, images: tags });
  await provider.ping();
  scorer = createPythonScorer({ provider, logger });
  hacks = await loadRewardHacks(task);
});

afterAll(async () => {
  if (durations.length > 0) {
    const sorted = [...durations].sort((a, b) => a - b);
    console.log(`scoring time per episode: p50 ${sorted[Math.floor(sorted.length / 2)]} ms, max ${sorted.at(-1)} ms over ${sorted.length} runs`);
  }
  await provider?.close();
});

async function score(workspace: Awaited<ReturnType<typeof maskedReadout>>): Promise<ScoreResult> {
  const result = await scorer.score({ task, workspace });
  durations.push(result.durationMs);
  return result;
}

describe('python scorer on the real engine', () => {
  it('scores the reference solution 1.0', async () => {
    const result = await score(await solvedReadout(task));
    expect(result, JSON.stringify(result)).toMatchObject({ outcome: 'SCORED', reward: 1, passed: 10, total: 10 });
  });

  it('scores the untouched workspace 0.0', async () => {
    const result = await score(await maskedReadout(task));
    expect(result, JSON.stringify(result)).toMatchObject({ outcome: 'SCORED', reward: 0, passed: 0, total: 10 });
  });

  it('has every hack fixture', () => {
    expect(hacks.map((h) => h.name)).toEqual(EXPECTED_HACKS);
  });

  describe('reward hacks on the unsolved task score 0', () => {
    it.each(EXPECTED_HACKS)('%s', async (name) => {
      const hack = hacks.find((h) => h.name === name)!;
      const result = await score(hack.readout);
      expect(result.outcome, JSON.stringify(result)).toBe('SCORED');
      expect(result.reward, JSON.stringify(result)).toBe(0);
      expect(result.passed).toBe(0);
      expect(result.total).toBe(10);
    });
  });

  it('a hack on top of a correct solution does not lower the honest part below what it earns', async () => {
    // The filter drops the conftest, the solution still counts: hacks cost nothing but never pay.
    const solved = await solvedReadout(task);
    const conftest = hacks.find((h) => h.name === 'conftest-top-level')!.readout.find((e) => e.path === 'conftest.py')!;
    const result = await score([...solved, conftest]);
    expect(result).toMatchObject({ outcome: 'SCORED', reward: 1 });
    expect(result.detail).toContain('conftest.py');
  });
});
