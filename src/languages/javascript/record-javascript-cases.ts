import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { projectRoot } from '../../project-root.js';

/** Folder of the JavaScript plugin's sandbox-side sources (codec, record harness, judge, subject). */
export function javascriptRuntimeDir(): string {
  return join(projectRoot(), 'src', 'languages', 'javascript', 'runtime');
}

/** A codec-encoded value (runtime/codec.mjs describes the format). */
export interface TaggedValue {
  t: string;
  v?: unknown;
  [key: string]: unknown;
}

/** What record.mjs is asked (its header documents each field). */
export interface JavaScriptRecordRequest {
  root: string;
  module: string;
  target: string;
  init: { args: TaggedValue[] } | null;
  inputs: { args: TaggedValue[] }[];
  /** Per call, for a promise that does not settle. Default 5000. */
  timeoutMs?: number;
  typescriptPath?: string;
  /** The argument lists a returned function is called on (codec.mjs's `fncalls`); without them a returned function is unrecordable. */
  probes?: TaggedValue[][];
}

/** A step of a path into a value (runtime/aliases.mjs): an index, a key, or a Map entry's or Set member's position. */
export type AliasStep = number | string | { mapKey: number } | { mapValue: number } | { setMember: number };

/** An object of the result that is an object of the arguments: [path in the result, path in the arguments]. */
export type AliasPair = [AliasStep[], AliasStep[]];

/** One outcome of record.mjs for one input (`aliases` for a returned object). */
export type HarnessOutcome =
  | { returns: TaggedValue; argsAfter: TaggedValue[] | null; aliases?: AliasPair[] }
  | { raises: string; message: string; argsAfter: TaggedValue[] | null }
  | { unrecordable: string; message: string }
  | { timeout: true }
  | { error: string };

/** An input recorded twice, in two processes, with the same behaviour both times. */
export interface KeptInput {
  index: number;
  expect: { returns: TaggedValue; aliases?: AliasPair[] } | { raises: string };
  argsAfter: TaggedValue[] | null;
}

/** An input left out, and why (`non-deterministic`, `timeout`, `unrecordable:<reason>`, `error`). */
export interface RejectedInput {
  index: number;
  reason: string;
  detail: string;
}

export interface RecordTwiceResult {
  kept: KeptInput[];
  rejected: RejectedInput[];
}

export interface RecordTwiceOptions {
  /** The node binary. Default: this process's. */
  nodePath?: string;
  /** Start-up allowance added to each harness run's deadline. Default 10000 ms. */
  startupMs?: number;
  signal?: AbortSignal;
}

interface Codec {
  same(a: unknown, b: unknown): boolean;
}

/**
 * Records every input of `request` in two separate node processes running runtime/record.mjs and
 * keeps an input only when both runs return equal encodings holding the same objects of the
 * arguments (or raise the same class) and leave the arguments equal. A run that does not finish in
 * time (a synchronous loop the harness cannot stop) is killed, and its inputs are recorded one at a
 * time so that only the hanging ones are lost.
 * A module that cannot be loaded rejects every input with `error`.
 */
export async function recordJavaScriptTwice(request: JavaScriptRecordRequest, options: RecordTwiceOptions = {}): Promise<RecordTwiceResult> {
  const codec = (await import(pathToFileURL(join(javascriptRuntimeDir(), 'codec.mjs')).href)) as Codec;
  const [first, second] = await Promise.all([recordOnce(request, options), recordOnce(request, options)]);
  const kept: KeptInput[] = [];
  const rejected: RejectedInput[] = [];
  request.inputs.forEach((_, index) => {
    const a = first[index] ?? { error: 'no result' };
    const b = second[index] ?? { error: 'no result' };
    for (const outcome of [a, b]) {
      if ('timeout' in outcome) return void rejected.push({ index, reason: 'timeout', detail: 'did not finish in time' });
      if ('error' in outcome) return void rejected.push({ index, reason: 'error', detail: outcome.error });
      if ('unrecordable' in outcome) return void rejected.push({ index, reason: `unrecordable:${outcome.unrecordable}`, detail: outcome.message });
    }
    const argsSame = codec.same({ t: 'array', v: 'argsAfter' in a ? a.argsAfter : null }, { t: 'array', v: 'argsAfter' in b ? b.argsAfter : null });
    if ('returns' in a && 'returns' in b && codec.same(a.returns, b.returns) && argsSame && JSON.stringify(a.aliases) === JSON.stringify(b.aliases)) {
      kept.push({ index, expect: a.aliases === undefined ? { returns: a.returns } : { returns: a.returns, aliases: a.aliases }, argsAfter: a.argsAfter });
    } else if ('raises' in a && 'raises' in b && a.raises === b.raises && argsSame) {
      kept.push({ index, expect: { raises: a.raises }, argsAfter: a.argsAfter });
    } else {
      rejected.push({ index, reason: 'non-deterministic', detail: 'two runs disagree' });
    }
  });
  return { kept, rejected };
}

/** One harness process over all inputs; on a hang, one process per input. */
async function recordOnce(request: JavaScriptRecordRequest, options: RecordTwiceOptions): Promise<HarnessOutcome[]> {
  const perCall = request.timeoutMs ?? 5000;
  const startup = options.startupMs ?? 10_000;
  const all = await runHarness(request, startup + perCall * Math.max(1, request.inputs.length), options);
  if (all !== 'timeout') return all;
  const out: HarnessOutcome[] = [];
  for (const input of request.inputs) {
    const one = await runHarness({ ...request, inputs: [input] }, startup + perCall, options);
    out.push(one === 'timeout' ? { timeout: true } : (one[0] ?? { error: 'no result' }));
  }
  return out;
}

function runHarness(request: JavaScriptRecordRequest, deadlineMs: number, options: RecordTwiceOptions): Promise<HarnessOutcome[] | 'timeout'> {
  return new Promise((resolve, reject) => {
    const child = spawn(options.nodePath ?? process.execPath, [join(javascriptRuntimeDir(), 'record.mjs')], {
      cwd: request.root,
      stdio: ['pipe', 'pipe', 'ignore'],
      detached: true, // its own process group: a kill reaches what the module started
      env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: process.env.HOME ?? '/tmp', LANG: 'C.UTF-8' },
    });
    const chunks: Buffer[] = [];
    let timedOut = false;
    const kill = (): void => {
      try {
        if (child.pid !== undefined) process.kill(-child.pid, 'SIGKILL');
      } catch {
        // already gone
      }
    };
    const timer = setTimeout(() => {
      timedOut = true;
      kill();
    }, deadlineMs);
    const onAbort = (): void => kill();
    options.signal?.addEventListener('abort', onAbort, { once: true });
    child.stdout.on('data', (c: Buffer) => chunks.push(c));
    child.stdin.on('error', () => undefined); // a module that exits at load closes stdin early
    child.on('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.on('close', () => {
      clearTimeout(timer);
      options.signal?.removeEventListener('abort', onAbort);
      kill(); // anything the module left running in its group
      if (options.signal?.aborted) return reject(options.signal.reason as Error);
      if (timedOut) return resolve('timeout');
      const text = Buffer.concat(chunks).toString('utf8').trim();
      let document: { results?: HarnessOutcome[]; error?: string };
      try {
        document = JSON.parse(text) as typeof document;
      } catch {
        document = { error: `the harness printed no result${text === '' ? '' : `: ${text.slice(0, 200)}`}` };
      }
      const error = document.error ?? 'no results';
      resolve(document.results ?? request.inputs.map(() => ({ error })));
    });
    child.stdin.end(JSON.stringify(request));
  });
}
