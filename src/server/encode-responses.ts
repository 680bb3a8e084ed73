import type { Limits } from '../config/limits.js';
import type { ResetResult, RewardResult, StepResult } from '../episodes/types.js';
import type { LoadedTask } from '../tasks/types.js';

/** Domain results → proto message objects (snake_case, as the loader's keepCase expects). */

export function encodeTaskInfo(task: LoadedTask): Record<string, unknown> {
  return {
    task_id: task.id,
    suite: task.suite,
    language: task.file.language,
    title: task.file.title,
    difficulty: task.file.difficulty ?? -1,
    reward_mode: task.file.rewardMode,
  };
}

export function encodeLimits(limits: Readonly<Limits>): Record<string, unknown> {
  return {
    max_steps: limits.maxSteps,
    max_wall_ms: limits.maxWallMs,
    max_command_ms: limits.maxCommandMs,
    max_output_bytes: limits.maxOutputBytes,
    max_file_bytes: limits.maxFileBytes,
  };
}

/** Encoded tool lists by spec list: the manager hands every episode of a task the same frozen one. */
const encodedTools = new WeakMap<ResetResult['tools'], Record<string, unknown>[]>();

function encodeTools(tools: ResetResult['tools']): Record<string, unknown>[] {
  let encoded = encodedTools.get(tools);
  if (!encoded) {
    encoded = tools.map((t) => ({ name: t.name, description: t.description, parameters_json: JSON.stringify(t.parameters) }));
    encodedTools.set(tools, encoded);
  }
  return encoded;
}

export function encodeReset(result: ResetResult): Record<string, unknown> {
  return {
    episode_id: result.episodeId,
    prompt: result.prompt,
    workdir: result.workdir,
    tools: encodeTools(result.tools),
    task_id: result.taskId,
    limits: encodeLimits(result.limits),
  };
}

export function encodeStep(result: StepResult): Record<string, unknown> {
  const o = result.observation;
  return {
    observation: {
      stdout: o.stdout,
      stderr: o.stderr,
      exit_code: o.exitCode,
      timed_out: o.timedOut,
      truncated: o.truncated,
      duration_ms: Math.max(0, Math.round(o.durationMs)),
    },
    terminated: result.terminated,
    truncated: result.truncated,
    step_index: result.stepIndex,
  };
}

export function encodeReward(result: RewardResult): Record<string, unknown> {
  return {
    episode_id: result.episodeId,
    reward: result.reward,
    outcome: result.outcome,
    passed: result.passed,
    total: result.total,
    tests: result.tests.map((t) => ({ name: t.name, status: t.status, message: t.message })),
    detail: result.detail,
    duration_ms: Math.max(0, Math.round(result.durationMs)),
  };
}
