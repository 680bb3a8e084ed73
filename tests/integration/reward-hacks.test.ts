/**
 * The red-team suite at the scorer (docs/red-team.md): the Python scorer against the real container
 * engine. The reference solution scores 1, the untouched workspace 0, every reward hack under
 * tests/fixtures/reward-hacks/ applied to the unsolved task scores 0 (never INFRA_ERROR), and each
 * hack that is harmless on its own, applied to the solved task, still scores 1.0. Each scoring run
 * starts (and destroys) its own fresh sandbox; independent runs go at a few at a time.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import Dockerode from 'dockerode';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureImages } from '../../src/images/image-builder.js';
import { createDockerImageResolver } from '../../src/images/docker-image-resolver.js';
import { createSilentLogger } from '../../src/logging.js';
import { createDockerSandboxProvider } from '../../src/sandbox/docker/docker-sandbox-provider.js';
import type { SandboxProvider } from '../../src/sandbox/types.js';
import { createPythonScorer } from '../../src/languages/python/python-scorer.js';
import type { Scorer, ScoreResult } from '../../src/scoring/types.js';
import type { LoadedTask } from '../../src/tasks/types.js';
import { loadFixtureTask, loadRewardHacks, maskedReadout, REWARD_HACKS_DIR, solvedReadout, type RewardHack } from '../fixtures/scoring-fixtures.js';

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
  // Added for issue 16, item 5.
  'close-fds-at-import',
  'daemon-outlives-case',
  'fake-judge-result-line',
  'forged-subject-frames',
  'fork-bomb-at-import',
  'fork-bomb-never-returns',
  'git-history-plant',
  'hidden-path-read',
  'hidden-path-write',
  'ignore-sigterm',
  'kill-all-at-import',
  'kill-judge-by-pid',
  'memory-fill-at-import',
  'plant-tmp-home-at-scoring',
  'proc-judge-memory',
  'proc-pid1-root',
  'pycache-planted',
  'pytest-cache-planted',
  'pytest-patch-spares-canaries',
  'sleep-past-case-timeout',
  'sleep-past-pytest-timeout',
  'thread-outlives-case',
  'tmp-fill-at-import',
].sort();

/** Scoring runs at once: each scoring sandbox gets one CPU, and this machine has few. */
const CONCURRENT_RUNS = 4;

beforeAll(async () => {
  const docker = new Dockerode();
  const { tags } = await ensureImages({ docker, logger, languages: ['python'] });
  provider = createDockerSandboxProvider({ docker, logger, serverId: `scoring-test-${process.pid}`, images: createDockerImageResolver({ docker, logger, tags }) });
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

let running = 0;
const waiting: Array<() => void> = [];

async function score(workspace: Awaited<ReturnType<typeof maskedReadout>>, against: LoadedTask = task): Promise<ScoreResult> {
  while (running >= CONCURRENT_RUNS) await new Promise<void>((resolve) => waiting.push(resolve));
  running += 1;
  try {
    const result = await scorer.score({ task: against, workspace });
    durations.push(result.durationMs);
    return result;
  } finally {
    running -= 1;
    waiting.shift()?.();
  }
}

function hack(name: string): RewardHack {
  const found = hacks.find((h) => h.name === name);
  if (!found) throw new Error(`no fixture tests/fixtures/reward-hacks/${name}`);
  return found;
}

const HARMLESS = EXPECTED_HACKS.filter((name) => existsSync(join(REWARD_HACKS_DIR, name, 'hack.json')) && JSON.parse(readFileSync(join(REWARD_HACKS_DIR, name, 'hack.json'), 'utf8')).harmless === true);

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

  describe.concurrent('reward hacks on the unsolved task score 0, never INFRA_ERROR', () => {
    it.each(EXPECTED_HACKS)('%s', async (name) => {
      const { readout, task: against, expectedOutcomes } = hack(name);
      const result = await score(readout, against);
      expect(expectedOutcomes, JSON.stringify(result)).toContain(result.outcome);
      expect(result.reward, JSON.stringify(result)).toBe(0);
      expect(result.tests.filter((t) => t.status === 'passed'), JSON.stringify(result)).toEqual([]);
      if (result.outcome === 'SCORED') expect(result.total).toBe(10);
    });
  });

  describe.concurrent('hacks harmless on their own still let the solved task score 1.0', () => {
    it('has the harmless hacks docs/red-team.md lists', () => {
      // daemon-outlives-case left this list: it can forge the report after pytest writes it (docs/red-team.md).
      expect(HARMLESS).toEqual(['fake-judge-result-line', 'git-history-plant', 'hidden-path-write', 'kill-judge-by-pid', 'plant-tmp-home-at-scoring', 'pycache-planted', 'pytest-cache-planted']);
    });

    it.each(HARMLESS)('%s', async (name) => {
      const { solvedReadout, task: against } = hack(name);
      expect(solvedReadout).toBeDefined();
      const result = await score(solvedReadout!, against);
      expect(result, JSON.stringify(result)).toMatchObject({ outcome: 'SCORED', reward: 1, passed: 10, total: 10 });
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
