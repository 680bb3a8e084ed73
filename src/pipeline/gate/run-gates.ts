import type { Logger } from '../../logging.js';
import type { FileEntry } from '../../sandbox/types.js';
import { listWorkspaceFiles } from '../../tasks/list-workspace-files.js';
import type { LoadedTask } from '../../tasks/types.js';
import type { Scorer, ScoreRequest, ScoreResult } from '../../scoring/types.js';
import type { MutationResult } from '../types.js';

/** Thresholds and run counts of the gates (DESIGN.md, Construction). */
export interface GateOptions {
  /** Fresh scoring runs of the reference; all must score 1.0. Default 4. */
  referenceRuns: number;
  /** Fresh scoring runs of the masked workspace; all must score below 1.0. Default 2. */
  maskedRuns: number;
  /** Minimum mutation kill rate of the recorded cases. Default 0.8. */
  minKillRate: number;
  /**
   * Each scoring run in a sandbox of its own. Default false: a task's runs share one fresh sandbox,
   * each on a fresh copy of its workspace (`Scorer.scoreSeries`), for a sixth of the engine's work.
   */
  sandboxPerRun: boolean;
}

export const DEFAULT_GATE_OPTIONS: Readonly<GateOptions> = Object.freeze({ referenceRuns: 4, maskedRuns: 2, minKillRate: 0.8, sandboxPerRun: false });

/** One scoring run as kept in report.json: no timings and no messages, so the file is reproducible. */
export interface GateRun {
  reward: number;
  outcome: ScoreResult['outcome'];
  passed: number;
  total: number;
  /** Cases that did not pass, with their status. */
  notPassed: { name: string; status: string }[];
}

export interface GateReport {
  passed: boolean;
  /** The first gate that failed, as a funnel drop code and reason. */
  failure: { code: string; reason: string } | null;
  mutation: MutationResult & { threshold: number; passed: boolean };
  reference: { runs: GateRun[]; required: string; passed: boolean } | null;
  masked: { runs: GateRun[]; required: string; passed: boolean } | null;
  /**
   * The run of the prompt's examples on the reference, its tests by name (null: no check, or an
   * earlier gate failed); `firstFailure`, the first failing test's message, is for the build's
   * drop reason and stays out of report.json.
   */
  examples: { passed: string[]; notPassed: { name: string; status: string }[]; firstFailure?: string } | null;
}

function toRun(result: ScoreResult): GateRun {
  return {
    reward: result.reward,
    outcome: result.outcome,
    passed: result.passed,
    total: result.total,
    notPassed: result.tests.filter((t) => t.status !== 'passed').map((t) => ({ name: t.name, status: t.status })),
  };
}

/**
 * Every read-out scored: one after another in one fresh sandbox where the scorer can
 * (`scoreSeries`), else at once, a fresh sandbox each.
 */
async function scoreAll(scorer: Scorer, requests: ScoreRequest[], sandboxPerRun: boolean, signal: { signal?: AbortSignal }): Promise<ScoreResult[]> {
  if (!sandboxPerRun && scorer.scoreSeries) return scorer.scoreSeries(requests, signal);
  return Promise.all(requests.map((r) => scorer.score(r)));
}

/**
 * The gates of one staged task, cheapest first, stopping at the first failure: the mutation kill
 * rate (from the recording), then `referenceRuns` fresh runs of the reference (reward 1.0 each),
 * then `maskedRuns` fresh runs of the untouched masked workspace (reward < 1 each), then, given an
 * `examplesTask`, one run of the prompt's examples on the reference (`examples`); the runs are
 * scored together (`scoreAll`), the masked ones reported only when the reference passed. The leak
 * audit runs before, at the audit stage. Infra errors fail the gate with `gate-infra`.
 */
export async function runGates(input: {
  task: LoadedTask;
  solution: ReadonlyMap<string, Buffer>;
  mutation: MutationResult;
  scorer: Scorer;
  logger: Logger;
  options?: Partial<GateOptions>;
  /**
   * The task with `tests` that run the prompt's examples (the language's `examplesCheck`): scored on
   * the reference in the same series; which examples held is the caller's to read from the run.
   */
  examplesTask?: LoadedTask;
  signal?: AbortSignal;
}): Promise<GateReport> {
  const options = { ...DEFAULT_GATE_OPTIONS, ...input.options };
  const log = input.logger.child({ component: 'gates', taskId: input.task.id });
  const mutationPassed = input.mutation.score >= options.minKillRate;
  const report: GateReport = {
    passed: false,
    failure: null,
    mutation: { ...input.mutation, threshold: options.minKillRate, passed: mutationPassed },
    reference: null,
    masked: null,
    examples: null,
  };
  if (!mutationPassed) {
    report.failure = {
      code: 'mutation-score',
      reason: `the recorded cases kill ${input.mutation.killed}/${input.mutation.total} mutants (${input.mutation.score.toFixed(3)} < ${options.minKillRate})`,
    };
    return report;
  }
  const signal = input.signal ? { signal: input.signal } : {};
  const masked = await listWorkspaceFiles(input.task, signal);
  const solved: FileEntry[] = masked.map((e) =>
    e.type === 'file' && input.solution.has(e.path) ? { ...e, content: input.solution.get(e.path) ?? Buffer.alloc(0) } : e,
  );

  const requests: ScoreRequest[] = [
    ...Array.from({ length: options.referenceRuns }, () => ({ task: input.task, workspace: solved, ...signal })),
    ...Array.from({ length: options.maskedRuns }, () => ({ task: input.task, workspace: masked, ...signal })),
    ...(input.examplesTask ? [{ task: input.examplesTask, workspace: solved, ...signal }] : []),
  ];
  const results = await scoreAll(input.scorer, requests, options.sandboxPerRun, signal);
  const referenceResults = results.slice(0, options.referenceRuns);
  const referenceRuns = referenceResults.map(toRun);
  const referencePassed = referenceResults.every((r) => r.outcome === 'SCORED' && r.reward === 1);
  report.reference = { runs: referenceRuns, required: `${options.referenceRuns}/${options.referenceRuns} runs score 1.0`, passed: referencePassed };
  if (!referencePassed) {
    const infra = referenceResults.find((r) => r.outcome === 'INFRA_ERROR');
    const bad = referenceResults.find((r) => r.reward !== 1);
    const firstFail = bad?.tests.find((t) => t.status !== 'passed');
    report.failure = infra
      ? { code: 'gate-infra', reason: `a reference scoring run failed: ${infra.detail}` }
      : {
          code: 'reference-fails',
          reason: `the original scored ${referenceResults.map((r) => r.reward.toFixed(2)).join(', ')}${firstFail ? `; ${firstFail.name}: ${firstFail.message.split('\n')[0]?.slice(0, 160)}` : ''}`,
        };
    log.info({ failure: report.failure }, 'reference gate failed');
    return report;
  }

  const maskedResults = results.slice(options.referenceRuns, options.referenceRuns + options.maskedRuns);
  const maskedPassed = maskedResults.every((r) => r.outcome !== 'INFRA_ERROR' && r.reward < 1);
  report.masked = { runs: maskedResults.map(toRun), required: `${options.maskedRuns}/${options.maskedRuns} runs score below 1.0`, passed: maskedPassed };
  if (!maskedPassed) {
    const infra = maskedResults.find((r) => r.outcome === 'INFRA_ERROR');
    report.failure = infra
      ? { code: 'gate-infra', reason: `a masked scoring run failed: ${infra.detail}` }
      : { code: 'masked-passes', reason: `the masked workspace scored ${maskedResults.map((r) => r.reward.toFixed(2)).join(', ')}: the tests do not need the body` };
    return report;
  }
  const examples = results[options.referenceRuns + options.maskedRuns];
  if (input.examplesTask && examples) {
    if (examples.outcome === 'INFRA_ERROR') {
      report.failure = { code: 'gate-infra', reason: `the run of the prompt's examples failed: ${examples.detail}` };
      return report;
    }
    const failure = examples.tests.find((t) => t.status !== 'passed');
    report.examples = {
      passed: examples.tests.filter((t) => t.status === 'passed').map((t) => t.name),
      notPassed: toRun(examples).notPassed,
      ...(failure ? { firstFailure: `${failure.name}: ${failure.message}` } : {}),
    };
  }
  report.passed = true;
  return report;
}
