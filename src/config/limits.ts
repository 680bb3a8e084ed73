import { z } from 'zod';
import { InvalidArgumentError } from '../errors.js';

/**
 * Server-wide limits. Every limit has a default and a CLI flag (`LIMIT_FLAGS`); options are resolved
 * in stages: what the user passes (`LimitsInput`) → defaults applied → a frozen `Limits`.
 * The scoring timeout is not here: it is per task (`task.json` `tests.timeoutMs`).
 */
export interface Limits {
  /** Steps per episode. Default 100. */
  maxSteps: number;
  /** Wall-clock budget of one episode, from Reset. Default 30 min. */
  maxWallMs: number;
  /** Command limit used when a Shell action asks for none (timeout_ms 0). Default 30 s. */
  defaultCommandMs: number;
  /** Ceiling on any one command. Default 10 min (also the largest value accepted). */
  maxCommandMs: number;
  /** Cap on stdout and stderr each, per observation, in bytes (head and tail kept). Default 64 KiB. */
  maxOutputBytes: number;
  /** Largest file a write_file or edit may produce, in bytes. Default 1 MiB. */
  maxFileBytes: number;
  /** Episodes held at once (across groups). Default 64. */
  maxEpisodes: number;
  /** An episode with no call for this long is closed and its sandbox destroyed. Default 10 min. */
  idleExpiryMs: number;
}

export type LimitsInput = Partial<Limits>;

const MINUTE_MS = 60_000;

/** Largest command limit accepted anywhere (flag, task file, request). */
export const COMMAND_MS_CEILING = 10 * MINUTE_MS;

export const DEFAULT_LIMITS: Readonly<Limits> = Object.freeze({
  maxSteps: 100,
  maxWallMs: 30 * MINUTE_MS,
  defaultCommandMs: 30_000,
  maxCommandMs: COMMAND_MS_CEILING,
  maxOutputBytes: 64 * 1024,
  maxFileBytes: 1024 * 1024,
  maxEpisodes: 64,
  idleExpiryMs: 10 * MINUTE_MS,
});

// proto fields are uint32: keep every limit below 2^32.
const UINT32_MAX = 0xffff_ffff;
const positiveInt = z.number().int().positive().max(UINT32_MAX);

const limitsInputSchema = z
  .object({
    maxSteps: positiveInt,
    maxWallMs: positiveInt,
    defaultCommandMs: positiveInt.max(COMMAND_MS_CEILING),
    maxCommandMs: positiveInt.max(COMMAND_MS_CEILING),
    maxOutputBytes: positiveInt.max(3 * 1024 * 1024),
    maxFileBytes: positiveInt,
    maxEpisodes: positiveInt,
    idleExpiryMs: positiveInt,
  })
  .partial()
  .strict();

/** Describes one limit's CLI flag; the CLI builds its options from this table. */
export interface LimitFlag {
  key: keyof Limits;
  flag: string;
  description: string;
}

export const LIMIT_FLAGS: readonly LimitFlag[] = [
  { key: 'maxSteps', flag: '--max-steps <n>', description: 'steps per episode' },
  { key: 'maxWallMs', flag: '--max-wall-ms <ms>', description: 'wall-clock budget of one episode' },
  { key: 'defaultCommandMs', flag: '--command-timeout-ms <ms>', description: 'command limit when a Shell action asks for none' },
  { key: 'maxCommandMs', flag: '--max-command-ms <ms>', description: `ceiling on one command (at most ${COMMAND_MS_CEILING})` },
  { key: 'maxOutputBytes', flag: '--max-output-bytes <n>', description: 'stdout/stderr bytes kept per observation' },
  { key: 'maxFileBytes', flag: '--max-file-bytes <n>', description: 'largest file write_file or edit may produce' },
  { key: 'maxEpisodes', flag: '--max-episodes <n>', description: 'episodes held at once' },
  { key: 'idleExpiryMs', flag: '--idle-expiry-ms <ms>', description: 'close an episode after this long without a call' },
];

const FLAG_BY_KEY = new Map(LIMIT_FLAGS.map((f) => [f.key, f.flag.split(' ')[0] ?? f.key]));

/**
 * Applies defaults to what the user passed and freezes the result. Throws `InvalidArgumentError`
 * naming the flag when a value is out of range.
 */
export function resolveLimits(input: LimitsInput = {}): Readonly<Limits> {
  const parsed = limitsInputSchema.safeParse(stripUndefined(input));
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const key = String(issue?.path[0] ?? '');
    const name = FLAG_BY_KEY.get(key as keyof Limits) ?? key;
    throw new InvalidArgumentError(name, issue?.message ?? 'invalid value');
  }
  const merged: Limits = { ...DEFAULT_LIMITS };
  for (const [key, value] of Object.entries(parsed.data)) {
    if (value !== undefined) merged[key as keyof Limits] = value;
  }
  if (merged.defaultCommandMs > merged.maxCommandMs) {
    // A default above the ceiling would be clamped on every call; say so once, here.
    throw new InvalidArgumentError('--command-timeout-ms', `must not exceed --max-command-ms (${merged.maxCommandMs})`);
  }
  return Object.freeze(merged);
}

/**
 * The limits of one episode: the server's limits narrowed by the task's own (`task.json` `limits`),
 * never widened past the server's.
 */
export function limitsForTask(
  server: Readonly<Limits>,
  task: { maxSteps?: number | undefined; maxWallMs?: number | undefined; maxCommandMs?: number | undefined },
): Readonly<Limits> {
  const maxCommandMs = Math.min(server.maxCommandMs, task.maxCommandMs ?? server.maxCommandMs);
  return Object.freeze({
    ...server,
    maxSteps: Math.min(server.maxSteps, task.maxSteps ?? server.maxSteps),
    maxWallMs: Math.min(server.maxWallMs, task.maxWallMs ?? server.maxWallMs),
    maxCommandMs,
    defaultCommandMs: Math.min(server.defaultCommandMs, maxCommandMs),
  });
}

/** Parses a CLI flag value as a positive integer, naming the flag on failure. */
export function parseLimitFlagValue(flag: string, raw: string): number {
  const value = Number(raw.replace(/_/g, ''));
  if (!Number.isSafeInteger(value) || value <= 0) {
    throw new InvalidArgumentError(flag, `expected a positive whole number, got '${raw}'`);
  }
  return value;
}

function stripUndefined<T extends object>(value: T): T {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as T;
}
