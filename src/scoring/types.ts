import type { FileEntry, SandboxProvider } from '../sandbox/types.js';
import type { LoadedTask } from '../tasks/types.js';

export type TestStatus = 'passed' | 'failed' | 'error' | 'skipped' | 'missing';

export interface TestOutcome {
  /** `case:<id>` for recorded cases, `<file>::<test>` for test scripts, `canary` for the canary. */
  name: string;
  status: TestStatus;
  message: string;
}

/** How a scoring run ended. `TIMEOUT` and `SCORED` count in group statistics; `INFRA_ERROR` does not. */
export type ScoreOutcome = 'SCORED' | 'TIMEOUT' | 'INFRA_ERROR';

export interface ScoreResult {
  reward: number;
  outcome: ScoreOutcome;
  passed: number;
  total: number;
  tests: TestOutcome[];
  /** One line on what happened (tampering found, files dropped, infra error text). */
  detail: string;
  durationMs: number;
}

export interface ScoreRequest {
  task: LoadedTask;
  /**
   * The episode's workspace as read out through the engine (`Sandbox.getFiles(workdir)`), unfiltered;
   * the scorer filters it. Paths relative to the workspace root.
   */
  workspace: FileEntry[];
  signal?: AbortSignal;
}

export interface Scorer {
  score(request: ScoreRequest): Promise<ScoreResult>;
  /**
   * Several read-outs of one task scored one after another in one fresh sandbox, each run on a
   * fresh copy of its tree (the build's gates; never an episode's Reward, which gets its own
   * sandbox). Results in the order asked. Scorers without it are asked `score` once per read-out.
   */
  scoreSeries?(requests: readonly ScoreRequest[], options?: { signal?: AbortSignal }): Promise<ScoreResult[]>;
}

export interface ScorerDeps {
  provider: SandboxProvider;
}
