import { posix } from 'node:path';
import type { Limits } from '../config/limits.js';
import { InvalidArgumentError } from '../errors.js';
import { type Sandbox, SandboxFileError } from '../sandbox/types.js';
import type { Action, Observation } from './types.js';

export interface RunActionContext {
  sandbox: Sandbox;
  limits: Readonly<Limits>;
  workdir: string;
  /** Upper bound on a command's time from the episode's wall budget and the caller's deadline. */
  budgetMs: number;
  signal: AbortSignal;
}

/**
 * Carries out one non-submit action in the sandbox and describes the outcome as an observation.
 * The agent's mistakes (a missing file, an ambiguous edit, a command that times out) are observations,
 * never errors; errors thrown from here mean the sandbox itself is in trouble.
 */
export async function runAction(action: Exclude<Action, { kind: 'submit' }>, ctx: RunActionContext): Promise<Observation> {
  const started = performance.now();
  const elapsed = (): number => Math.round(performance.now() - started);
  try {
    switch (action.kind) {
      case 'shell':
        return await runShell(action, ctx);
      case 'read_file':
        return await readFile(action, ctx, elapsed);
      case 'write_file':
        return await writeFile(action, ctx, elapsed);
      case 'edit':
        return await edit(action, ctx, elapsed);
    }
  } catch (err) {
    if (err instanceof SandboxFileError) return failure(`${action.kind}: ${err.message}`, elapsed());
    // The relay refused the request as it stands (a NUL byte in a command, say): the agent's to fix.
    if (err instanceof InvalidArgumentError) return failure(`${action.kind}: ${err.message}`, elapsed());
    throw err;
  }
}

/** The command limit for a Shell action: requested or default, never above the ceiling or the budget. */
export function commandTimeoutMs(requestedMs: number, limits: Readonly<Limits>, budgetMs: number): number {
  const wanted = requestedMs > 0 ? requestedMs : limits.defaultCommandMs;
  return Math.max(1, Math.min(wanted, limits.maxCommandMs, budgetMs));
}

async function runShell(action: Extract<Action, { kind: 'shell' }>, ctx: RunActionContext): Promise<Observation> {
  const result = await ctx.sandbox.exec(
    { shell: action.command },
    {
      timeoutMs: commandTimeoutMs(action.timeoutMs, ctx.limits, ctx.budgetMs),
      maxOutputBytes: ctx.limits.maxOutputBytes,
      signal: ctx.signal,
      session: true,
    },
  );
  return {
    stdout: result.stdout,
    stderr: result.stderr,
    exitCode: result.exitCode,
    timedOut: result.timedOut,
    truncated: result.truncated,
    durationMs: Math.round(result.durationMs),
  };
}

async function readFile(
  action: Extract<Action, { kind: 'read_file' }>,
  ctx: RunActionContext,
  elapsed: () => number,
): Promise<Observation> {
  const limit = action.limit > 0 ? Math.min(action.limit, ctx.limits.maxOutputBytes) : ctx.limits.maxOutputBytes;
  const result = await ctx.sandbox.readFile(resolvePath(ctx.workdir, action.path), {
    offset: action.offset,
    limit,
    signal: ctx.signal,
  });
  return {
    stdout: decodeUtf8Slice(result.content),
    stderr: '',
    exitCode: 0,
    timedOut: false,
    truncated: result.truncated,
    durationMs: elapsed(),
  };
}

async function writeFile(
  action: Extract<Action, { kind: 'write_file' }>,
  ctx: RunActionContext,
  elapsed: () => number,
): Promise<Observation> {
  const content = Buffer.from(action.content, 'utf8');
  if (content.length > ctx.limits.maxFileBytes) {
    return failure(`write_file: ${content.length} bytes is over the ${ctx.limits.maxFileBytes}-byte file limit; write smaller files`, elapsed());
  }
  const path = resolvePath(ctx.workdir, action.path);
  await ctx.sandbox.writeFile(path, content, { signal: ctx.signal });
  return success(`wrote ${content.length} bytes to ${action.path}`, elapsed());
}

async function edit(action: Extract<Action, { kind: 'edit' }>, ctx: RunActionContext, elapsed: () => number): Promise<Observation> {
  if (action.oldText.length === 0) return failure('edit: old_text is empty; give the exact text to replace', elapsed());
  const path = resolvePath(ctx.workdir, action.path);
  const current = await ctx.sandbox.readFile(path, { offset: 0, limit: ctx.limits.maxFileBytes, signal: ctx.signal });
  if (current.truncated || current.size > ctx.limits.maxFileBytes) {
    return failure(`edit: ${action.path} is over the ${ctx.limits.maxFileBytes}-byte file limit; use shell tools instead`, elapsed());
  }
  const text = current.content.toString('utf8');
  const count = countOccurrences(text, action.oldText);
  if (count !== 1) {
    const what = count === 0 ? 'does not occur' : `occurs ${count} times`;
    return failure(
      `edit: old_text ${what} in ${action.path}; it must occur exactly once` +
        (count > 1 ? ' (include more surrounding lines to make it unique)' : ' (read the file and copy the text exactly)'),
      elapsed(),
    );
  }
  const at = text.indexOf(action.oldText);
  const updated = Buffer.from(text.slice(0, at) + action.newText + text.slice(at + action.oldText.length), 'utf8');
  if (updated.length > ctx.limits.maxFileBytes) {
    return failure(`edit: the result would be over the ${ctx.limits.maxFileBytes}-byte file limit`, elapsed());
  }
  await ctx.sandbox.writeFile(path, updated, { signal: ctx.signal });
  const line = text.slice(0, at).split('\n').length;
  return success(`edited ${action.path} at line ${line}`, elapsed());
}

/** Relative paths are taken from the workdir; `..` cannot climb above `/`. */
export function resolvePath(workdir: string, path: string): string {
  return posix.resolve(workdir, path);
}

// Overlapping matches count: "aa" in "aaa" is ambiguous, so it is not "exactly once".
function countOccurrences(text: string, needle: string): number {
  let count = 0;
  for (let at = text.indexOf(needle); at >= 0; at = text.indexOf(needle, at + 1)) count++;
  return count;
}

/** Decodes a byte range that may start or end inside a multibyte character (replaced, never thrown). */
function decodeUtf8Slice(bytes: Buffer): string {
  return new TextDecoder('utf-8', { fatal: false }).decode(bytes);
}

function success(stdout: string, durationMs: number): Observation {
  return { stdout, stderr: '', exitCode: 0, timedOut: false, truncated: false, durationMs };
}

function failure(stderr: string, durationMs: number): Observation {
  return { stdout: '', stderr, exitCode: 1, timedOut: false, truncated: false, durationMs };
}
