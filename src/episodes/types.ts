import type { Limits } from '../config/limits.js';
import type { ScoreResult } from '../scoring/types.js';

/** One agent action; mirrors the proto's `Action` oneof. */
export type Action =
  | { kind: 'shell'; command: string; timeoutMs: number }
  | { kind: 'read_file'; path: string; offset: number; limit: number }
  | { kind: 'write_file'; path: string; content: string }
  | { kind: 'edit'; path: string; oldText: string; newText: string }
  | { kind: 'submit' };

export type ActionKind = Action['kind'];

export interface Observation {
  stdout: string;
  stderr: string;
  exitCode: number;
  timedOut: boolean;
  /** Output was cut (head and tail kept). */
  truncated: boolean;
  durationMs: number;
}

export interface StepResult {
  observation: Observation;
  /** The agent submitted. */
  terminated: boolean;
  /** A step or time budget ran out; further steps are refused. */
  truncated: boolean;
  stepIndex: number;
}

/** A tool offered to the agent, with its arguments as a JSON Schema. */
export interface ToolSpec {
  name: ActionKind;
  description: string;
  parameters: Record<string, unknown>;
}

export interface ResetResult {
  episodeId: string;
  taskId: string;
  prompt: string;
  workdir: string;
  tools: readonly ToolSpec[];
  limits: Readonly<Limits>;
}

export interface ResetGroupResult {
  groupId: string;
  episodes: ResetResult[];
}

export interface RewardResult extends ScoreResult {
  episodeId: string;
}

export interface RewardGroupResult {
  groupId: string;
  rewards: RewardResult[];
  advantages: number[];
  mask: boolean[];
}

/** Per-call options: the call's cancellation and deadline. */
export interface CallOptions {
  signal?: AbortSignal;
  /** The caller's deadline; command limits are kept under it so the answer arrives in time. */
  deadline?: Date;
}
