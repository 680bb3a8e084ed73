import { z } from 'zod';
import { COMMAND_MS_CEILING } from '../config/limits.js';
import type { Action } from '../episodes/types.js';

/**
 * zod schemas of the decoded requests (proto field names, snake_case). The decoder fills unset
 * fields with defaults, so "missing" arrives as '' for strings and null for messages; both read as
 * `required`. Each schema outputs the inner code's types.
 */

const ACTION_KINDS = ['shell', 'read_file', 'write_file', 'edit', 'submit'] as const;
const ACTION_REQUIRED = `one of ${ACTION_KINDS.join(', ')} is required`;

const required = z.string({ error: (issue) => (issue.input == null ? 'required' : 'expected a string') }).min(1, { error: 'required' });
const optionalText = z.string({ error: 'expected a string' });
const uint = z.number({ error: (issue) => (issue.input == null ? 'required' : 'expected a whole number') }).int().nonnegative();
/**
 * A uint64 as the decoder hands it over (`longs: String`): a decimal string, kept exact as a bigint
 * (a JS number loses every integer above 2^53, and zod's `.int()` refuses them).
 */
const uint64 = z
  .string({ error: (issue) => (issue.input == null ? 'required' : 'expected a whole number from 0 to 2^64-1') })
  .regex(/^\d+$/, { error: 'expected a whole number from 0 to 2^64-1' })
  .transform((digits) => BigInt(digits))
  .refine((n) => n <= 0xffff_ffff_ffff_ffffn, { error: 'expected a whole number from 0 to 2^64-1' });
/** A uint64 byte count or position: any value is accepted, and beyond 2^53-1 all mean "past any real file". */
const uint64Bytes = uint64.transform((n) => (n > BigInt(Number.MAX_SAFE_INTEGER) ? Number.MAX_SAFE_INTEGER : Number(n)));

export const listTasksRequestSchema = z.object({
  suite: optionalText.default(''),
  language: optionalText.default(''),
});

export const getTaskRequestSchema = z.object({ task_id: required });

export const resetRequestSchema = z.object({ task_id: required, seed: uint64.default(0n) });

export const resetGroupRequestSchema = z.object({
  task_id: required,
  group_size: uint.min(1, { error: 'required, at least 1' }).max(1024, { error: 'at most 1024' }),
  seed: uint64.default(0n),
});

const shellSchema = z.object({
  command: required,
  timeout_ms: uint.max(0xffff_ffff).default(0),
});
const readFileSchema = z.object({ path: required, offset: uint64Bytes.default(0), limit: uint64Bytes.default(0) });
const writeFileSchema = z.object({ path: required, content: optionalText });
const editSchema = z.object({ path: required, old_text: optionalText, new_text: optionalText });

const actionSchema = z
  .discriminatedUnion(
    'kind',
    [
      z.object({ kind: z.literal('shell'), shell: shellSchema }),
      z.object({ kind: z.literal('read_file'), read_file: readFileSchema }),
      z.object({ kind: z.literal('write_file'), write_file: writeFileSchema }),
      z.object({ kind: z.literal('edit'), edit: editSchema }),
      z.object({ kind: z.literal('submit'), submit: z.object({}) }),
    ],
    { error: ACTION_REQUIRED },
  )
  .nullable()
  .transform((a, ctx): Action => {
    if (a === null) {
      ctx.addIssue({ code: 'custom', message: ACTION_REQUIRED });
      return z.NEVER;
    }
    switch (a.kind) {
      case 'shell':
        // Requests above the ceiling are clamped by the episode, not refused (the agent chose a number).
        return { kind: 'shell', command: a.shell.command, timeoutMs: Math.min(a.shell.timeout_ms, COMMAND_MS_CEILING) };
      case 'read_file':
        return { kind: 'read_file', path: a.read_file.path, offset: a.read_file.offset, limit: a.read_file.limit };
      case 'write_file':
        return { kind: 'write_file', path: a.write_file.path, content: a.write_file.content };
      case 'edit':
        return { kind: 'edit', path: a.edit.path, oldText: a.edit.old_text, newText: a.edit.new_text };
      case 'submit':
        return { kind: 'submit' };
    }
  });

export const stepRequestSchema = z.object({
  episode_id: required,
  step_index: uint,
  action: actionSchema,
});

export const rewardRequestSchema = z.object({ episode_id: required });

export const rewardGroupRequestSchema = z.object({ group_id: required });

export const closeRequestSchema = z
  .object({ episode_id: optionalText.default(''), group_id: optionalText.default('') })
  .transform((r, ctx): { episodeId: string } | { groupId: string } => {
    if (r.episode_id && r.group_id) {
      ctx.addIssue({ code: 'custom', path: ['group_id'], message: 'give episode_id or group_id, not both' });
      return z.NEVER;
    }
    if (r.group_id) return { groupId: r.group_id };
    if (r.episode_id) return { episodeId: r.episode_id };
    ctx.addIssue({ code: 'custom', path: ['episode_id'], message: 'required (or group_id)' });
    return z.NEVER;
  });

/** `field.path: message`, the form INVALID_ARGUMENT details take. */
export function describeZodError(error: z.ZodError): { field: string; message: string } {
  const issue = error.issues[0];
  if (!issue) return { field: '', message: 'invalid request' };
  // The action oneof's own issues name the member (action.shell.command); a missing oneof names `action`.
  const field = issue.path.filter((p) => p !== 'kind').join('.');
  return { field, message: issue.message };
}
