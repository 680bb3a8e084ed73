/**
 * runGates with fake scorers: a task's reference and masked runs go to `scoreSeries` in one call
 * (4 of the reference's tree, then 2 of the masked one), or to `score` once each with
 * `sandboxPerRun`; a reference that fails ends the gates without a masked report.
 */
import { describe, expect, it } from 'vitest';
import { createSilentLogger } from '../../src/logging.js';
import { runGates } from '../../src/pipeline/gate/run-gates.js';
import type { ScoreRequest, ScoreResult, Scorer } from '../../src/scoring/types.js';
import { loadFixtureTask } from '../fixtures/scoring-fixtures.js';

const task = loadFixtureTask();
const solution = new Map([['rangekit/merge.py', Buffer.from('def merge_ranges(ranges):\n    return sorted(ranges)\n')]]);
const mutation = { total: 10, killed: 10, score: 1, survivors: [] };
const logger = createSilentLogger();

/** Reward 1.0 where the read-out holds the solution's text, else `maskedReward`. */
function rewardOf(request: ScoreRequest, maskedReward = 0): ScoreResult {
  const merge = request.workspace.find((e) => e.path === 'rangekit/merge.py');
  const solved = merge?.content?.equals(solution.get('rangekit/merge.py')!) ?? false;
  const reward = solved ? 1 : maskedReward;
  return { reward, outcome: 'SCORED', passed: reward === 1 ? 2 : 0, total: 2, tests: [], detail: '', durationMs: 1 };
}

describe('runGates', () => {
  it('scores the reference 4 times and the masked workspace twice in one series, when the scorer has one', async () => {
    const series: ScoreRequest[][] = [];
    let single = 0;
    const scorer: Scorer = {
      score: async (r) => {
        single++;
        return rewardOf(r);
      },
      scoreSeries: async (requests) => {
        series.push([...requests]);
        return requests.map((r) => rewardOf(r));
      },
    };
    const report = await runGates({ task, solution, mutation, scorer, logger });
    expect(report.passed).toBe(true);
    expect(single).toBe(0);
    expect(series).toHaveLength(1);
    const [runs] = series;
    expect(runs!.map((r) => rewardOf(r).reward)).toEqual([1, 1, 1, 1, 0, 0]);
    // one array per tree: the series puts each tree once
    expect(new Set(runs!.map((r) => r.workspace)).size).toBe(2);
    expect(report.reference?.runs).toHaveLength(4);
    expect(report.masked?.runs).toHaveLength(2);
  });

  it('scores each run in a sandbox of its own with sandboxPerRun', async () => {
    let single = 0;
    const scorer: Scorer = {
      score: async (r) => {
        single++;
        return rewardOf(r);
      },
      scoreSeries: async () => {
        throw new Error('not with sandboxPerRun');
      },
    };
    const report = await runGates({ task, solution, mutation, scorer, logger, options: { sandboxPerRun: true } });
    expect(report.passed).toBe(true);
    expect(single).toBe(6);
  });

  it('fails at the reference and reports no masked runs when one reference run does not score 1.0', async () => {
    const scorer: Scorer = {
      score: async (r) => rewardOf(r),
      scoreSeries: async (requests) => requests.map((r, i) => (i === 2 ? { ...rewardOf(r), reward: 0.5, passed: 1 } : rewardOf(r))),
    };
    const report = await runGates({ task, solution, mutation, scorer, logger });
    expect(report.passed).toBe(false);
    expect(report.failure).toMatchObject({ code: 'reference-fails' });
    expect(report.failure?.reason).toMatch(/1\.00, 1\.00, 0\.50, 1\.00/);
    expect(report.masked).toBeNull();
  });

  it('fails at the masked gate when the untouched workspace scores 1.0', async () => {
    const scorer: Scorer = { score: async (r) => rewardOf(r, 1), scoreSeries: async (requests) => requests.map((r) => rewardOf(r, 1)) };
    const report = await runGates({ task, solution, mutation, scorer, logger });
    expect(report.failure).toMatchObject({ code: 'masked-passes' });
    expect(report.masked?.runs.map((r) => r.reward)).toEqual([1, 1]);
  });

  it("scores the prompt's examples on the reference's tree last in the same series, and reports them by test name", async () => {
    const examplesTask = { ...task, file: { ...task.file, tests: { ...task.file.tests, cases: null, scripts: ['examples/test_prompt_examples.py'] } } };
    const series: ScoreRequest[][] = [];
    const examplesResult: ScoreResult = {
      reward: 0.5,
      outcome: 'SCORED',
      passed: 1,
      total: 2,
      tests: [
        { name: 'examples/test_prompt_examples.py::test_example_e1', status: 'passed', message: '' },
        { name: 'examples/test_prompt_examples.py::test_example_e2', status: 'failed', message: 'Expected 2, got 3' },
      ],
      detail: '',
      durationMs: 1,
    };
    const scorer: Scorer = {
      score: async (r) => rewardOf(r),
      scoreSeries: async (requests) => {
        series.push([...requests]);
        return requests.map((r) => (r.task === examplesTask ? examplesResult : rewardOf(r)));
      },
    };
    const report = await runGates({ task, solution, mutation, scorer, logger, examplesTask });
    // a failing example does not fail the gates: the build cuts it out of the prompt
    expect(report.passed).toBe(true);
    const [runs] = series;
    expect(runs).toHaveLength(7);
    expect(runs![6]!.task).toBe(examplesTask);
    expect(runs![6]!.workspace).toBe(runs![0]!.workspace);
    expect(report.examples).toEqual({
      passed: ['examples/test_prompt_examples.py::test_example_e1'],
      notPassed: [{ name: 'examples/test_prompt_examples.py::test_example_e2', status: 'failed' }],
      firstFailure: 'examples/test_prompt_examples.py::test_example_e2: Expected 2, got 3',
    });
  });

  it("fails with gate-infra when the run of the prompt's examples is an infra error", async () => {
    const examplesTask = { ...task, file: { ...task.file, tests: { ...task.file.tests, cases: null, scripts: ['examples/test_prompt_examples.py'] } } };
    const scorer: Scorer = {
      score: async (r) => rewardOf(r),
      scoreSeries: async (requests) =>
        requests.map((r) => (r.task === examplesTask ? { reward: 0, outcome: 'INFRA_ERROR', passed: 0, total: 0, tests: [], detail: 'engine gone', durationMs: 1 } : rewardOf(r))),
    };
    const report = await runGates({ task, solution, mutation, scorer, logger, examplesTask });
    expect(report.passed).toBe(false);
    expect(report.failure).toEqual({ code: 'gate-infra', reason: "the run of the prompt's examples failed: engine gone" });
  });
});
