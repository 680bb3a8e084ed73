/**
 * Post-rollout filtering on a copy of the sample suite: the pass-rate band, the verdicts written into
 * task.json / suite.json / funnel.json, retired tasks hidden from serving, and re-admission.
 */
import { cp, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { projectRoot } from '../../src/project-root.js';
import { applyVerdicts, judgeTask, MIXED_BAND, parsePassRateBand } from '../../src/rollouts/filter-suite.js';
import type { TaskTally } from '../../src/rollouts/run-rollouts.js';
import { loadCatalog } from '../../src/tasks/load-catalog.js';
import type { RolloutVerdict } from '../../src/tasks/task-schema.js';

const agent = { name: 'llm', model: 'm' };
const tally = (solved: number, failed: number, infra = 0): TaskTally => ({ task: 'sample/x', episodes: solved + failed + infra, solved, failed, infra, agentErrors: 0, rewardSum: solved });

describe('the pass-rate band', () => {
  it('mixed keeps a task with at least one pass and one fail, and names why it retires the others', () => {
    expect(judgeTask(tally(1, 3), MIXED_BAND, agent, 'r').verdict).toBe('kept');
    expect(judgeTask(tally(4, 0), MIXED_BAND, agent, 'r')).toMatchObject({ verdict: 'retired', passRate: 1, reason: 'all-pass: 4 of 4 attempts solved it' });
    expect(judgeTask(tally(0, 4), MIXED_BAND, agent, 'r')).toMatchObject({ verdict: 'retired', passRate: 0, reason: 'all-fail: 0 of 4 attempts solved it' });
  });

  it('lo..hi keeps pass rates inside, inclusive; infrastructure errors do not count as fails', () => {
    const band = parsePassRateBand('0.25..0.75');
    expect(judgeTask(tally(1, 3), band, agent, 'r').verdict).toBe('kept');
    expect(judgeTask(tally(1, 9), band, agent, 'r')).toMatchObject({ verdict: 'retired', reason: 'too-hard: pass rate 0.10 < 0.25' });
    expect(judgeTask(tally(9, 1), band, agent, 'r')).toMatchObject({ verdict: 'retired', reason: 'too-easy: pass rate 0.90 > 0.75' });
    expect(judgeTask(tally(1, 1, 6), band, agent, 'r')).toMatchObject({ verdict: 'kept', passRate: 0.5, infra: 6 });
    expect(judgeTask(tally(0, 0, 4), band, agent, 'r')).toMatchObject({ verdict: 'unscored', passRate: null });
  });

  it('refuses a band that is not one, naming the flag', () => {
    for (const bad of ['0.9..0.1', '1.5..2', 'half', '0.1-0.9']) {
      expect(() => parsePassRateBand(bad)).toThrow(/--keep-pass-rate: .* is not a band/);
    }
  });
});

describe('verdicts written into a suite', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'codemidas-filter-'));
    await cp(join(projectRoot(), 'environments', 'sample'), join(dir, 'sample'), { recursive: true });
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  const verdictsOf = (entries: Record<string, [number, number]>): Map<string, RolloutVerdict> =>
    new Map(Object.entries(entries).map(([name, [s, f]]) => [name, judgeTask({ ...tally(s, f), task: `sample/${name}` }, MIXED_BAND, agent, 'run-1')]));

  it('retires all-pass and all-fail tasks from serving, records difficulty and reasons, and re-admits on a later run', async () => {
    const suiteDir = join(dir, 'sample');
    const first = await applyVerdicts(suiteDir, verdictsOf({ slugify: [2, 2], 'to-roman': [4, 0], 'from-roman': [0, 4] }));
    expect(first).toMatchObject({ kept: ['slugify'], retired: ['from-roman', 'to-roman'], newlyRetired: ['to-roman', 'from-roman'], readmitted: [] });

    const suite = JSON.parse(await readFile(join(suiteDir, 'suite.json'), 'utf8'));
    expect(suite.tasks).toEqual(['wrap-text', 'slugify', 'format-table', 'merge-intervals', 'compare-versions']);
    expect(suite.retired).toEqual(['to-roman', 'from-roman']);
    const slug = JSON.parse(await readFile(join(suiteDir, 'slugify', 'task.json'), 'utf8'));
    expect(slug.difficulty).toBe(0.5);
    expect(slug.rollouts).toMatchObject({ verdict: 'kept', solved: 2, failed: 2, band: 'mixed', runId: 'run-1', agent: 'llm', model: 'm' });
    const funnel = JSON.parse(await readFile(join(suiteDir, 'funnel.json'), 'utf8'));
    expect(funnel.rollouts.dropCounts).toEqual({ 'rollouts:all-fail': 1, 'rollouts:all-pass': 1 });
    expect(funnel.rollouts.drops.map((d: { task: string; reason: string }) => `${d.task}: ${d.reason}`)).toEqual([
      'from-roman: all-fail: 0 of 4 attempts solved it',
      'to-roman: all-pass: 4 of 4 attempts solved it',
    ]);

    // Served: retired tasks are gone; the filter's view still has them, so it can attempt them again.
    const served = await loadCatalog(dir);
    expect(served.problems).toEqual([]);
    expect(served.list({ suite: 'sample' }).map((t) => t.name)).not.toContain('to-roman');
    const all = await loadCatalog(dir, { includeRetired: true });
    expect(all.list({ suite: 'sample' }).map((t) => t.name).sort()).toContain('to-roman');
    expect(all.get('sample/slugify')?.file.difficulty).toBe(0.5);

    // A stronger policy's run: to-roman is mixed now (re-admitted), slugify all-pass (retired).
    const second = await applyVerdicts(suiteDir, verdictsOf({ slugify: [4, 0], 'to-roman': [3, 1], 'from-roman': [0, 4] }));
    expect(second.readmitted).toEqual(['to-roman']);
    expect(second.newlyRetired).toEqual(['slugify']);
    const again = JSON.parse(await readFile(join(suiteDir, 'suite.json'), 'utf8'));
    expect(again.tasks).toEqual(['wrap-text', 'format-table', 'merge-intervals', 'compare-versions', 'to-roman']);
    expect(again.retired).toEqual(['from-roman', 'slugify']);
    expect(JSON.parse(await readFile(join(suiteDir, 'to-roman', 'task.json'), 'utf8')).difficulty).toBe(0.75);
  });

  it('leaves tasks without a verdict, and unscored ones, where they were', async () => {
    const suiteDir = join(dir, 'sample');
    const before = await readFile(join(suiteDir, 'wrap-text', 'task.json'), 'utf8');
    const verdicts = new Map([['slugify', judgeTask(tally(0, 0, 3), MIXED_BAND, agent, 'r')]]);
    const outcome = await applyVerdicts(suiteDir, verdicts);
    expect(outcome.unscored).toEqual(['slugify']);
    const suite = JSON.parse(await readFile(join(suiteDir, 'suite.json'), 'utf8'));
    expect(suite.tasks).toContain('slugify');
    expect(suite.retired).toEqual([]);
    expect(await readFile(join(suiteDir, 'wrap-text', 'task.json'), 'utf8')).toBe(before);
    const slug = JSON.parse(await readFile(join(suiteDir, 'slugify', 'task.json'), 'utf8'));
    expect(slug.difficulty ?? null).toBeNull();
    expect(slug.rollouts).toMatchObject({ verdict: 'unscored', infra: 3, passRate: null });
  });
});
