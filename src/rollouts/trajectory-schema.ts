import { z } from 'zod';

/** Bumped on any change a reader could notice; docs/trajectory-format.md describes each version. */
export const TRAJECTORY_SCHEMA_VERSION = 2;

/** A message as OpenAI's chat format writes it, so a trainer can feed `messages` to a tokenizer's chat template. */
const wireMessage = z.union([
  z.object({ role: z.enum(['system', 'user']), content: z.string() }).strict(),
  z
    .object({
      role: z.literal('assistant'),
      content: z.string().nullable(),
      tool_calls: z
        .array(z.object({ id: z.string(), type: z.literal('function'), function: z.object({ name: z.string(), arguments: z.string() }).strict() }).strict())
        .optional(),
    })
    .strict(),
  z.object({ role: z.literal('tool'), tool_call_id: z.string(), content: z.string() }).strict(),
]);

const action = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('shell'), command: z.string(), timeoutMs: z.number().int().nonnegative() }).strict(),
  z.object({ kind: z.literal('read_file'), path: z.string(), offset: z.number().int().nonnegative(), limit: z.number().int().nonnegative() }).strict(),
  z.object({ kind: z.literal('write_file'), path: z.string(), content: z.string() }).strict(),
  z.object({ kind: z.literal('edit'), path: z.string(), oldText: z.string(), newText: z.string() }).strict(),
  z.object({ kind: z.literal('submit') }).strict(),
]);

const observation = z
  .object({
    stepIndex: z.number().int().nonnegative(),
    stdout: z.string(),
    stderr: z.string(),
    exitCode: z.number().int(),
    timedOut: z.boolean(),
    truncated: z.boolean(),
    durationMs: z.number().nonnegative(),
    /** The episode ended with this step (submit). */
    terminated: z.boolean(),
    /** A budget ran out with this step. */
    episodeTruncated: z.boolean(),
    /** The server refused the step (the observation fields are then empty). */
    error: z.string().nullable(),
  })
  .strict();

/** One line of a trajectories file: one episode, start to score. */
export const trajectorySchema = z
  .object({
    schema: z.literal('codemidas.trajectory'),
    // Version 1 lines read as well: version 2 only added the `sandbox-ended` agent status.
    schemaVersion: z.union([z.literal(1), z.literal(TRAJECTORY_SCHEMA_VERSION)]),
    runId: z.string().min(1),
    task: z.string().min(1),
    suite: z.string(),
    episodeId: z.string(),
    group: z.object({ id: z.string(), index: z.number().int().nonnegative(), size: z.number().int().positive(), member: z.number().int().nonnegative() }).strict(),
    seed: z.number().int().nonnegative(),
    agent: z.object({ name: z.string(), model: z.string().nullable() }).strict(),
    prompt: z.string(),
    messages: z.array(wireMessage),
    actions: z.array(action),
    /** `observations[i]` answers `actions[i]`. */
    observations: z.array(observation),
    agentStatus: z.enum(['submitted', 'budget', 'no-action', 'llm-error', 'env-error', 'sandbox-ended']),
    agentReason: z.string(),
    llmErrorKind: z.string().nullable(),
    usage: z.object({ llmCalls: z.number().int().nonnegative(), promptTokens: z.number().int().nonnegative(), completionTokens: z.number().int().nonnegative() }).strict(),
    reward: z.number().min(0).max(1),
    outcome: z.enum(['SCORED', 'TIMEOUT', 'INFRA_ERROR']),
    /** Every hidden test passed (reward 1 and SCORED). */
    solved: z.boolean(),
    testsPassed: z.number().int().nonnegative(),
    testsTotal: z.number().int().nonnegative(),
    scoreDetail: z.string(),
    /** GRPO advantage from RewardGroup; 0 where masked. */
    advantage: z.number(),
    /** false: left out of the group statistics (INFRA_ERROR). */
    mask: z.boolean(),
    timings: z
      .object({
        /** The group's ResetGroup, shared by its members. */
        resetMs: z.number().nonnegative(),
        agentMs: z.number().nonnegative(),
        /** The group's RewardGroup, shared by its members. */
        rewardMs: z.number().nonnegative(),
        totalMs: z.number().nonnegative(),
      })
      .strict(),
    startedAt: z.string(),
  })
  .strict();

export type Trajectory = z.infer<typeof trajectorySchema>;
export type TrajectoryAction = Trajectory['actions'][number];
export type TrajectoryObservation = Trajectory['observations'][number];

/** Parses a trajectories file (JSON lines); throws naming the line and the field of the first bad one. */
export function parseTrajectories(text: string): Trajectory[] {
  const out: Trajectory[] = [];
  text.split('\n').forEach((line, index) => {
    if (line.trim() === '') return;
    let json: unknown;
    try {
      json = JSON.parse(line);
    } catch (err) {
      throw new Error(`line ${index + 1}: not JSON (${err instanceof Error ? err.message : String(err)})`);
    }
    const parsed = trajectorySchema.safeParse(json);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      throw new Error(`line ${index + 1}: ${issue?.path.join('.') || '(line)'}: ${issue?.message ?? 'invalid'}`);
    }
    out.push(parsed.data);
  });
  return out;
}
