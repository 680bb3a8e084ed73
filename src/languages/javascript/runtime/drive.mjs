// What record-driver.mjs and mutate-driver.mjs share: running record.mjs in child processes (a
// run that does not finish in time is killed with its process group), recording inputs twice, the
// recorded case's shape and id, and a seeded random source.
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { aliasDifference } from './aliases.mjs';
import { ANY_THROW, same, throwMeets } from './codec.mjs';

const HERE = path.dirname(fileURLToPath(import.meta.url));
export const RECORD_SCRIPT = path.join(HERE, 'record.mjs');
export const INSPECT_SCRIPT = path.join(HERE, 'inspect.mjs');
export const EVALUATE_SCRIPT = path.join(HERE, 'evaluate.mjs');

/** Allowance for a child's start (node, the module, TypeScript) beyond the calls themselves. */
export const STARTUP_MS = 10_000;

/** Kills a detached child's whole process group (what the module started too); a gone group is fine. */
export function killGroup(child) {
  if (child.pid === undefined) return;
  try {
    process.kill(-child.pid, 'SIGKILL');
  } catch {
    // already gone
  }
}

/** Beyond record.mjs's own limit on a call, before the caller decides the call hangs. */
export const CALL_MARGIN_MS = 1500;

/**
 * Runs `script` with `request` as JSON on stdin and resolves with `{document}` (the JSON document
 * it printed, or `{error}` when it printed nothing usable), or `{timeout: true}` when it ran past
 * `deadlineMs`. With `watch` ({nonce, perInputMs}), the deadline starts again at each progress line
 * of record.mjs (so it is the start-up allowance, then one call's), and the answer also holds
 * `results` (index → outcome, as reported so far) and `started` (the last input begun, or null).
 */
export function runChild(script, request, { cwd, deadlineMs, watch = null }) {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [script], {
      cwd,
      stdio: ['pipe', 'pipe', watch === null ? 'ignore' : 'pipe'],
      detached: true, // its own process group: a kill reaches what the module started
      env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: process.env.HOME ?? '/tmp', LANG: 'C.UTF-8' },
    });
    const chunks = [];
    const results = new Map();
    let started = null;
    let timedOut = false;
    let timer = null;
    const arm = (ms) => {
      if (timer !== null) clearTimeout(timer);
      timer = setTimeout(() => {
        timedOut = true;
        killGroup(child);
      }, ms);
    };
    arm(deadlineMs);
    if (watch !== null) {
      let pending = '';
      child.stderr.on('data', (c) => {
        const lines = (pending + c.toString('utf8')).split('\n');
        pending = lines.pop();
        for (const line of lines) {
          const at = line.indexOf(`${watch.nonce} `);
          if (at < 0) continue;
          const m = /^(start|result) (\d+)(?: (.*))?$/.exec(line.slice(at + watch.nonce.length + 1));
          if (m === null) continue;
          if (m[1] === 'start') {
            started = Number(m[2]);
            arm(watch.perInputMs);
          } else {
            try {
              results.set(Number(m[2]), JSON.parse(m[3]));
            } catch {
              // a cut line: the final document, or a rerun, says it again
            }
          }
        }
      });
    }
    child.stdout.on('data', (c) => chunks.push(c));
    child.stdin.on('error', () => undefined); // a module that exits at load closes stdin early
    child.on('error', (error) => {
      clearTimeout(timer);
      resolve({ document: { error: `cannot start node: ${error.message}` }, results, started });
    });
    child.on('close', () => {
      clearTimeout(timer);
      killGroup(child); // anything the module left running in its group
      if (timedOut) return resolve({ timeout: true, results, started });
      const text = Buffer.concat(chunks).toString('utf8').trim();
      let document;
      try {
        document = JSON.parse(text);
      } catch {
        document = { error: `the harness printed no result${text === '' ? '' : `: ${text.slice(0, 200)}`}` };
      }
      resolve({ document, results, started });
    });
    child.stdin.end(JSON.stringify(request));
  });
}

/**
 * One record.mjs process over `inputs` ({args, init}); outcomes in input order. A call that never
 * returns (a synchronous loop) is stopped at its own deadline (callTimeoutMs + CALL_MARGIN_MS), its
 * input gets `{timeout: true}`, and with `goOn` a new process takes the inputs after it; without,
 * the rest are `{timeout: true}` too (a mutant that hangs is killed: no need to go on).
 */
export async function recordOnce(base, inputs, callTimeoutMs, options = {}) {
  const out = new Array(inputs.length);
  const nonce = `CODEMIDAS-PROGRESS-${process.pid}-${Math.random().toString(36).slice(2)}`;
  const watch = { nonce, perInputMs: callTimeoutMs + CALL_MARGIN_MS };
  let from = 0;
  while (from < inputs.length) {
    const rest = inputs.slice(from);
    const run = await runChild(RECORD_SCRIPT, { ...base, inputs: rest, timeoutMs: callTimeoutMs, progress: nonce }, { cwd: base.root, deadlineMs: STARTUP_MS, watch });
    if (!run.timeout) {
      const results = run.document.results ?? rest.map(() => ({ error: run.document.error ?? 'no results' }));
      rest.forEach((_, i) => (out[from + i] = results[i] ?? { error: 'no result' }));
      break;
    }
    for (const [i, outcome] of run.results) out[from + i] = outcome;
    const hung = run.started ?? -1; // -1: the module itself did not load in time
    const stop = hung < 0 || !options.goOn ? rest.length : hung + 1;
    for (let i = Math.max(0, hung); i < stop; i++) out[from + i] ??= { timeout: true };
    from += stop;
  }
  for (let i = 0; i < out.length; i++) out[i] ??= { error: 'no result' };
  return out;
}

/**
 * record.mjs's request for one target, inputs aside: the module and export path, TypeScript, and the
 * transpile cache every process of the run shares (workDir/ts-cache).
 */
export function baseRequest(config, target) {
  return {
    root: config.repoRoot,
    module: target.module,
    target: target.target,
    init: null,
    typescriptPath: config.typescriptPath,
    ...(config.workDir ? { transpileCache: path.join(config.workDir, 'ts-cache') } : {}),
  };
}

/** The reason an outcome cannot be kept, or null for a return or a throw. */
export function unkeptReason(outcome) {
  if ('timeout' in outcome) return 'timeout';
  if ('unrecordable' in outcome) return `unrecordable:${outcome.unrecordable}`;
  if ('error' in outcome) return 'error';
  return null;
}

/**
 * True when two outcomes (return or throw, with the arguments after the call, and which objects of
 * the arguments a returned object holds where both say) are the same behaviour.
 */
export function sameOutcome(a, b) {
  if (unkeptReason(a) !== null || unkeptReason(b) !== null) return false;
  const argsSame = same({ t: 'array', v: a.argsAfter ?? [] }, { t: 'array', v: b.argsAfter ?? [] });
  if (!argsSame) return false;
  if ('returns' in a && 'returns' in b) return same(a.returns, b.returns) && aliasDifference(a.aliases, b.aliases) === null;
  if (!('raises' in a && 'raises' in b)) return false;
  // an expectation of any throw (ANY_THROW) is met as the judge meets it
  if (b.raises === ANY_THROW) return throwMeets(ANY_THROW, a.raises, a.message);
  if (a.raises === ANY_THROW) return throwMeets(ANY_THROW, b.raises, b.message);
  return a.raises === b.raises;
}

/**
 * Records `inputs` in two separate processes at once, the second in reverse order (an outcome that
 * depends on the calls before it in the process then disagrees); each input's verdict: `{outcome}`
 * when both agree, else `{reason}` (`non-deterministic`, `timeout`, `error`, `unrecordable:<why>`;
 * a returned function without probes: `unrecordable:function` with the `arity` to probe it with).
 */
export async function recordTwice(base, inputs, callTimeoutMs) {
  const [first, reversed] = await Promise.all([
    recordOnce(base, inputs, callTimeoutMs, { goOn: true }),
    recordOnce(base, [...inputs].reverse(), callTimeoutMs, { goOn: true }),
  ]);
  const second = reversed.reverse();
  return inputs.map((_, i) => {
    const a = first[i];
    const b = second[i];
    const reason = unkeptReason(a) ?? unkeptReason(b);
    if (reason !== null) return { reason, detail: a.error ?? b.error ?? a.message ?? b.message ?? '', ...(a.arity || b.arity ? { arity: a.arity ?? b.arity } : {}) };
    return sameOutcome(a, b) ? { outcome: a } : { reason: 'non-deterministic' };
  });
}

/** A stable text of one input (init and arguments), for ids and de-duplication. */
export function inputKey(input) {
  return JSON.stringify([input.init ?? null, input.args]);
}

/** A case id: the target as a slug and a hash of the input, as the Python harness names them. */
export function caseId(target, input) {
  const slug = String(target).replace(/[._]/g, '-').toLowerCase();
  return `${slug}-${createHash('sha256').update(inputKey(input)).digest('hex').slice(0, 10)}`;
}

/** A recorded case (harness-result-schema.ts) from an input and the outcome it gave. */
export function makeCase(target, input, outcome, source) {
  const argsAfter = outcome.argsAfter && !same({ t: 'array', v: outcome.argsAfter }, { t: 'array', v: input.args }) ? outcome.argsAfter : null;
  return {
    id: caseId(target.target, input),
    module: target.module,
    target: target.target,
    init: input.init ? { args: input.init.args, kwargs: {} } : null,
    args: input.args,
    kwargs: {},
    expect: 'returns' in outcome ? expectReturns(outcome) : { raises: promisedThrow(target, outcome) ? outcome.raises : ANY_THROW },
    argsAfter,
    source,
    // a case that asserts only that the call throws: the class the original threw, for the prompt
    ...('raises' in outcome && !promisedThrow(target, outcome) ? { shown: [outcome.raises] } : {}),
  };
}

/**
 * Whether a case may assert the class the original threw (issue 19, part 4): the repository's own
 * code threw it (record.mjs's `incidental` unset: a `throw`, or an error the library constructed),
 * or the target's JSDoc names the class (`@throws {RangeError}`, or the name anywhere in it).
 */
export function promisedThrow(target, outcome) {
  if (!outcome.incidental) return true;
  const doc = typeof target.docstring === 'string' ? target.docstring : '';
  const name = String(outcome.raises).replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return doc !== '' && new RegExp(`(?<![\\w$])${name}(?![\\w$])`).test(doc);
}

/** A case's expectation of a return: the value, and its aliases (aliases.mjs) where the outcome has them. */
function expectReturns(outcome) {
  return outcome.aliases === undefined ? { returns: outcome.returns } : { returns: outcome.returns, aliases: outcome.aliases };
}

/** The outcome a recorded case expects, in record.mjs's form (aliases only where the case has them). */
export function expectedOutcome(recorded) {
  const argsAfter = recorded.argsAfter ?? recorded.args;
  if (!('returns' in recorded.expect)) return { raises: recorded.expect.raises, argsAfter };
  const { aliases } = recorded.expect;
  return aliases === undefined ? { returns: recorded.expect.returns, argsAfter } : { returns: recorded.expect.returns, argsAfter, aliases };
}

/** FNV-1a of a text: a seed per target that does not depend on the other targets. */
export function hashText(text) {
  let h = 2166136261;
  for (const c of String(text)) h = Math.imul(h ^ c.charCodeAt(0), 16777619);
  return h >>> 0;
}

/** mulberry32: a small seeded generator of numbers in [0, 1). */
export function seededRandom(seed) {
  let a = (Number(seed) >>> 0) || 1;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A seeded shuffle of a copy of `items`. */
export function shuffled(items, random) {
  const out = [...items];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [out[i], out[j]] = [out[j], out[i]];
  }
  return out;
}

/** Runs `task` over `items` with at most `limit` at a time; results in item order. */
export async function pool(items, limit, task) {
  const out = new Array(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      out[i] = await task(items[i], i);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(limit, items.length)) }, worker));
  return out;
}

/** Reads the config (stdin), runs `main`, and prints its one JSON document; the module's own stdout goes to stderr. */
export async function runDriver(main) {
  const { readStdin } = await import('./io.mjs');
  const config = JSON.parse(await readStdin());
  const result = await main(config);
  process.stdout.write(`${JSON.stringify(result)}\n`, () => process.exit(0));
}
