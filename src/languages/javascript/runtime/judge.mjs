// The judge: scores a workspace against a task's recorded cases inside a fresh scoring sandbox
// (the JavaScript twin of the recorded-case half of src/languages/python/judge/judge.py).
//
// Run as root: `node /opt/codemidas/scoring/javascript/judge.mjs`, configuration JSON on stdin:
//
//   {
//     "workspace": "/workspace",                 // the agent's files (owned by the agent user)
//     "hiddenDir": "/var/lib/codemidas/hidden",  // root-only 0700
//     "cases": "cases.json",                     // path under hiddenDir: {"cases": [RecordedCase...]}, or
//                                                // the examples gate's {"examples": [...]} (runExamples)
//     "caseTimeoutMs": 10000,                    // one recorded case
//     "loadTimeoutMs": 20000,                    // more for the first case of each subject, which loads
//                                                // the module (and typescript for .ts): a loaded machine
//                                                // must not fail a correct workspace at its import
//     "budgetMs": 120000,                        // the whole judge run
//     "uid": 1000, "gid": 1000,                  // the unprivileged subject user
//     "dropPrivileges": true,                    // applied when running as root; skipped otherwise
//     "typescriptPath": "/opt/.../typescript",   // optional: the transpiler for .ts workspaces
//     "nonce": "..."                             // echoed in the result line
//   }
//
// Prints ONE line on stdout: `CODEMIDAS-JUDGE <nonce> <json>` with
// {"tests": [{"name", "status", "message"}], "tampered": false, "budgetExhausted": bool,
//  "detail": str, "timings": {...}}.
//
// This process holds the expected values and never loads the agent's code: each case runs in
// subject.mjs, a separate process (as the agent user when privileges are dropped) that is sent only
// the case's inputs and answers with frames on a private socket pair. Every answer must carry the
// request's sequence number and this run's random per-subject nonce; anything else (a frame the
// agent's code wrote itself, garbage, silence past the deadline, an exit) fails that case and the
// subject is replaced. Comparison is codec.same on the parsed answer: no value of the agent's
// ever becomes a live object here. No child inherits this process's stdout.
import { spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { aliasDifference } from './aliases.mjs';
import { ANY_THROW, describe, functionDifference, probesOf, same, throwMeets } from './codec.mjs';
import { encodeFrame, FrameError, FrameReader } from './framing.mjs';
import { readStdin } from './io.mjs';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const SUBJECT = path.join(HERE, 'subject.mjs');
const EXAMPLES_EVAL = path.join(HERE, 'examples-eval.mjs');
const SAFE_PATH = '/usr/local/bin:/usr/bin:/bin';
const MAX_MESSAGE = 600;

function clip(text, limit = MAX_MESSAGE) {
  const s = String(text);
  return s.length <= limit ? s : `${s.slice(0, limit - 3)}...`;
}

function readConfig(raw) {
  return {
    workspace: String(raw.workspace),
    hiddenDir: String(raw.hiddenDir),
    cases: raw.cases ?? null,
    caseTimeoutMs: Number(raw.caseTimeoutMs ?? 10_000),
    loadTimeoutMs: Number(raw.loadTimeoutMs ?? 20_000),
    budgetMs: Number(raw.budgetMs ?? 120_000),
    uid: Number(raw.uid ?? 1000),
    gid: Number(raw.gid ?? 1000),
    drop: raw.dropPrivileges !== false,
    typescriptPath: raw.typescriptPath ? String(raw.typescriptPath) : '',
    nonce: String(raw.nonce ?? ''),
  };
}

/** True when this process can and should run subjects as the agent user. */
function dropping(config) {
  return config.drop && typeof process.getuid === 'function' && process.getuid() === 0;
}

/** Kills every process of the agent user (as that user: kill(-1) reaches its processes only), or just the subject's group when not root. */
function sweep(config, pgid) {
  if (pgid !== undefined) {
    try {
      process.kill(-pgid, 'SIGKILL');
    } catch {
      // gone already
    }
  }
  if (!dropping(config)) return;
  for (let round = 0; round < 5; round++) {
    const result = spawnSync(process.execPath, ['-e', 'try { process.kill(-1, "SIGKILL") } catch {}'], {
      uid: config.uid, gid: config.gid, stdio: 'ignore', env: { PATH: SAFE_PATH }, timeout: 5000,
    });
    if (result.error !== undefined || !userAlive(config.uid)) return;
  }
}

/** True while a live (not zombie) process of `uid` exists. */
function userAlive(uid) {
  let entries;
  try {
    entries = fs.readdirSync('/proc');
  } catch {
    return false;
  }
  for (const entry of entries) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const status = fs.readFileSync(`/proc/${entry}/status`, 'utf8');
      const owner = /^Uid:\s+(\d+)/m.exec(status)?.[1];
      const state = /^State:\s+(\S)/m.exec(status)?.[1];
      if (Number(owner) === uid && state !== 'Z') return true;
    } catch {
      // gone meanwhile
    }
  }
  return false;
}

class Subject {
  constructor(config, cwd) {
    this.nonce = randomBytes(16).toString('hex');
    this.seq = 0;
    this.reader = new FrameReader();
    this.ended = false;
    this.exitNote = '';
    this.waiter = null;
    const options = {
      cwd,
      stdio: ['ignore', 'ignore', 'ignore', 'pipe'],
      detached: true, // its own process group, killed as a whole
      env: { PATH: SAFE_PATH, HOME: cwd, LANG: 'C.UTF-8', LC_ALL: 'C.UTF-8' },
    };
    if (dropping(config)) Object.assign(options, { uid: config.uid, gid: config.gid });
    this.proc = spawn(process.execPath, [SUBJECT, config.workspace, config.typescriptPath], options);
    this.channel = this.proc.stdio[3];
    this.proc.on('error', () => this.fail(new Error('cannot start the subject')));
    this.proc.on('exit', (code, signal) => {
      this.exitNote = signal ? ` (subject killed by signal ${signal})` : ` (subject exited with code ${code})`;
    });
    this.channel.on('data', (chunk) => {
      this.reader.push(chunk);
      this.poll();
    });
    this.channel.on('error', () => undefined);
    this.channel.on('close', () => {
      this.ended = true;
      // the exit status arrives a moment after the channel closes
      setTimeout(() => this.fail(Object.assign(new Error('subject ended without answering'), { eof: true })), 20);
    });
  }

  poll() {
    if (this.waiter === null) return;
    let frame;
    try {
      frame = this.reader.next();
    } catch (error) {
      this.fail(error);
      return;
    }
    if (frame === undefined) return;
    const { resolve, reject, seq } = this.waiter;
    this.waiter = null;
    if (frame === null || typeof frame !== 'object' || Array.isArray(frame)) reject(new FrameError('an answer that is not an object'));
    else if (frame.nonce !== this.nonce) reject(new FrameError('an answer without this run\'s nonce (a forged or stray frame)'));
    else if (frame.seq !== seq) reject(new FrameError('answer out of sequence'));
    else resolve(frame);
  }

  fail(error) {
    if (this.waiter === null) return;
    const { reject } = this.waiter;
    this.waiter = null;
    reject(error);
  }

  /** The subject's answer to one case, or a rejection (timeout, EOF, garbage) by `deadline` (ms since epoch, Date.now()). */
  ask(inputs, deadline) {
    this.seq += 1;
    const seq = this.seq;
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        if (this.waiter?.seq === seq) this.fail(Object.assign(new Error('timeout'), { timeout: true }));
      }, Math.max(0, deadline - Date.now()));
      const done = (fn) => (value) => {
        clearTimeout(timer);
        fn(value);
      };
      this.waiter = { resolve: done(resolve), reject: done(reject), seq };
      if (this.ended) {
        this.fail(Object.assign(new Error('subject ended without answering'), { eof: true }));
        return;
      }
      this.channel.write(encodeFrame({ seq, nonce: this.nonce, case: inputs }));
      this.poll();
    });
  }

  close(config) {
    try {
      this.channel.destroy();
    } catch {
      // closed already
    }
    sweep(config, this.proc.pid);
  }
}

/** What the subject may know about a case: its inputs, never its expectation. */
function caseInputs(c) {
  return { id: String(c.id ?? ''), module: c.module, target: c.target, init: c.init ?? null, args: c.args ?? [], ...probeInputs(c) };
}

/**
 * The argument lists a returned function is called on, where the case expects one (codec.mjs's
 * `fncalls`): taken from the expectation's calls, their results left behind.
 */
function probeInputs(c) {
  const probes = 'returns' in (c.expect ?? {}) ? probesOf(c.expect.returns) : null;
  return probes === null ? {} : { probes };
}

/** Where a returned function differs from the expected one (codec.mjs's `functionDifference`), or null. */
function functionDifferenceSafely(expected, got) {
  try {
    return functionDifference(expected, got);
  } catch {
    return null;
  }
}

function describeSafely(tagged) {
  try {
    return describe(tagged);
  } catch {
    return '<unreadable value>';
  }
}

/** Compares an untrusted answer with a case's expectation: [passed, message]. */
function judgeAnswer(c, answer) {
  const expect = c.expect ?? {};
  const kind = answer.kind;
  if (kind === 'error') return [false, clip(answer.message ?? 'subject error')];
  if ('raises' in expect) {
    const wanted = expect.raises === ANY_THROW ? 'an exception (any but the masked body\'s)' : expect.raises;
    if (kind === 'raises' && throwMeets(expect.raises, answer.type, answer.message)) return judgeArgsAfter(c, answer);
    if (kind === 'raises') return [false, clip(`expected ${wanted} to be thrown, got ${answer.type}: ${answer.message ?? ''}`)];
    return [false, clip(`expected ${wanted} to be thrown, got a return value`)];
  }
  if (!('returns' in expect)) return [false, 'case has no expectation'];
  if (kind === 'raises') return [false, clip(`threw ${answer.type}: ${answer.message ?? ''}`)];
  if (kind !== 'returns' || answer.value === null || typeof answer.value !== 'object') return [false, 'malformed answer from the subject'];
  if (!same(answer.value, expect.returns)) return [false, clip(functionDifferenceSafely(expect.returns, answer.value) ?? `expected ${describeSafely(expect.returns)}, got ${describeSafely(answer.value)}`)];
  const aliasing = judgeAliases(expect, answer);
  if (!aliasing[0]) return aliasing;
  return judgeArgsAfter(c, answer);
}

/**
 * Which objects of the arguments the result holds (aliases.mjs), where the case records it: a case
 * without `expect.aliases` (recorded before aliases, or a primitive result) is judged on its value alone.
 */
function judgeAliases(expect, answer) {
  if (expect.aliases === undefined) return [true, ''];
  // an object result always comes with its aliases: a missing list is not "no aliases"
  const got = Array.isArray(answer.aliases) ? answer.aliases : null;
  const difference = got === null ? 'the aliases of the result could not be read' : aliasDifference(expect.aliases, got);
  return difference === null ? [true, ''] : [false, clip(difference)];
}

function judgeArgsAfter(c, answer) {
  const want = c.argsAfter;
  if (want === null || want === undefined) return [true, ''];
  const got = answer.argsAfter;
  if (!Array.isArray(got)) return [false, 'arguments after the call could not be read back'];
  if (!same({ t: 'array', v: got }, { t: 'array', v: want })) {
    return [false, clip(`arguments after the call differ: expected ${describeSafely({ t: 'array', v: want })}, got ${describeSafely({ t: 'array', v: got })}`)];
  }
  return [true, ''];
}

async function runCases(config, cases, deadline, scratch) {
  const outcomes = [];
  let subject = null;
  let exhausted = false;
  const neutral = fs.mkdtempSync(path.join(scratch, 'cwd-'));
  fs.chmodSync(neutral, 0o755);
  const discard = () => {
    subject?.close(config);
    subject = null;
  };
  try {
    for (const c of cases) {
      const name = `case:${c.id ?? outcomes.length}`;
      const now = Date.now();
      if (now >= deadline) {
        exhausted = true;
        outcomes.push({ name, status: 'failed', message: 'scoring time budget exhausted' });
        continue;
      }
      let loads = false;
      if (subject === null) {
        loads = true;
        try {
          subject = new Subject(config, neutral);
        } catch (error) {
          outcomes.push({ name, status: 'failed', message: clip(`cannot start the subject: ${error?.message ?? error}`) });
          sweep(config);
          continue;
        }
      }
      // a fresh subject loads the module on this case: it has loadTimeoutMs more
      const limitMs = config.caseTimeoutMs + (loads ? config.loadTimeoutMs : 0);
      const caseDeadline = Math.min(now + limitMs, deadline);
      let answer;
      try {
        answer = await subject.ask(caseInputs(c), caseDeadline);
      } catch (error) {
        let message;
        if (error?.timeout) {
          message = loads ? `timed out after ${limitMs} ms (its module loaded in that time)` : `timed out after ${limitMs} ms`;
          if (caseDeadline >= deadline) {
            exhausted = true;
            message = 'scoring time budget exhausted';
          }
        } else if (error?.eof) {
          message = `subject ended without answering${subject.exitNote}`;
        } else if (error instanceof FrameError) {
          message = `garbage from the subject: ${error.message}`;
        } else {
          message = `no answer from the subject: ${error?.message ?? error}`;
        }
        outcomes.push({ name, status: 'failed', message: clip(message) });
        discard();
        continue;
      }
      let verdict;
      try {
        verdict = judgeAnswer(c, answer);
      } catch (error) {
        verdict = [false, clip(`malformed answer from the subject: ${error?.name ?? 'error'}`)];
      }
      outcomes.push({ name, status: verdict[0] ? 'passed' : 'failed', message: verdict[1] });
    }
  } finally {
    discard();
  }
  return { outcomes, exhausted };
}

function loadDocument(config) {
  if (config.cases === null) return {};
  return JSON.parse(fs.readFileSync(path.join(config.hiddenDir, String(config.cases)), 'utf8'));
}

/**
 * The examples gate (issue 19, part 2; javascript-prompt-examples.ts writes the document): the
 * prompt's REPL examples run by examples-eval.mjs in one process as the agent user, each input's
 * printed text compared with what the prompt shows (a throw by its `Uncaught <Class>` prefix: the
 * message is elided there). One test per example, `example:<id>`.
 */
async function runExamples(config, document, deadline, scratch) {
  const examples = Array.isArray(document.examples) ? document.examples : [];
  const neutral = fs.mkdtempSync(path.join(scratch, 'cwd-'));
  fs.chmodSync(neutral, 0o755);
  const nonce = randomBytes(16).toString('hex');
  const lines = examples.reduce((n, e) => n + (Array.isArray(e.lines) ? e.lines.length : 0), 0);
  const limitMs = Math.max(1, Math.min(config.loadTimeoutMs + config.caseTimeoutMs * Math.max(1, lines), deadline - Date.now()));
  const request = {
    workspace: config.workspace,
    typescriptPath: config.typescriptPath,
    module: document.module,
    binding: document.binding,
    examples: examples.map((e) => (Array.isArray(e.lines) ? e.lines.map((l) => String(l.input)) : [])),
    nonce,
  };
  const answer = await evaluateExamples(config, neutral, request, limitMs);
  return examples.map((e, k) => {
    const name = `example:${e.id}`;
    if (answer.error !== undefined) return { name, status: 'failed', message: clip(answer.error) };
    const printed = answer.printed?.[k];
    const wrong = (e.lines ?? []).findIndex((l, i) => !printedMatches(String(l.output), printed?.[i]));
    if (wrong === -1) return { name, status: 'passed', message: '' };
    const line = e.lines[wrong];
    return { name, status: 'failed', message: clip(`> ${line.input} printed ${JSON.stringify(printed?.[wrong] ?? null)}, the prompt shows ${JSON.stringify(line.output)}`) };
  });
}

/** Whether a REPL's text matches what a prompt shows: exactly, or for a throw shown as `Uncaught X: ...`, its prefix. */
function printedMatches(shown, printed) {
  if (typeof printed !== 'string') return false;
  if (shown.startsWith('Uncaught ... (')) return printed.startsWith('Uncaught ');
  if (shown.startsWith('Uncaught ') && shown.endsWith('...')) return printed.startsWith(shown.slice(0, -3));
  return printed === shown;
}

/** Runs examples-eval.mjs on `request` (as the agent user), its one result line parsed, or `{error}`. */
function evaluateExamples(config, cwd, request, limitMs) {
  return new Promise((resolve) => {
    const options = { cwd, stdio: ['pipe', 'pipe', 'ignore'], detached: true, env: { PATH: SAFE_PATH, HOME: cwd, LANG: 'C.UTF-8', LC_ALL: 'C.UTF-8' } };
    if (dropping(config)) Object.assign(options, { uid: config.uid, gid: config.gid });
    let proc;
    try {
      proc = spawn(process.execPath, [EXAMPLES_EVAL], options);
    } catch (error) {
      resolve({ error: `cannot start the examples: ${error?.message ?? error}` });
      return;
    }
    let out = '';
    let settled = false;
    const finish = (result) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      sweep(config, proc.pid);
      resolve(result);
    };
    const timer = setTimeout(() => finish({ error: `the examples did not finish in ${limitMs} ms` }), limitMs);
    proc.stdout.on('data', (chunk) => {
      if (out.length < 4_000_000) out += chunk;
    });
    proc.on('error', (error) => finish({ error: `the examples did not run: ${error?.message ?? error}` }));
    proc.on('close', () => {
      const line = out.split('\n').find((l) => l.startsWith(`CODEMIDAS-EXAMPLES ${request.nonce} `));
      if (line === undefined) return finish({ error: 'the examples ended without a result' });
      try {
        const result = JSON.parse(line.slice(`CODEMIDAS-EXAMPLES ${request.nonce} `.length));
        finish(typeof result.error === 'string' ? { error: result.error } : { printed: Array.isArray(result.printed) ? result.printed : [] });
      } catch {
        finish({ error: 'the examples gave an unreadable result' });
      }
    });
    proc.stdin.on('error', () => undefined);
    proc.stdin.end(JSON.stringify(request));
  });
}

/** Hidden tests root-only whatever the copy left behind; the workspace root the agent user's. */
function prepareDirs(config) {
  if (!dropping(config)) return;
  fs.chownSync(config.hiddenDir, 0, 0);
  fs.chmodSync(config.hiddenDir, 0o700);
  fs.chownSync(config.workspace, config.uid, config.gid);
}

async function main() {
  const started = Date.now();
  const config = readConfig(JSON.parse(await readStdin()));
  const deadline = started + config.budgetMs;
  process.umask(0o022);
  prepareDirs(config);
  const document = loadDocument(config);
  const cases = Array.isArray(document.cases) ? document.cases : [];
  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'codemidas-judge-'));
  fs.chmodSync(scratch, 0o711);
  const tests = [];
  const details = [];
  const timings = {};
  let exhausted = false;
  try {
    sweep(config);
    if (cases.length > 0) {
      const t0 = Date.now();
      const result = await runCases(config, cases, deadline, scratch);
      timings.casesMs = Date.now() - t0;
      tests.push(...result.outcomes);
      exhausted = result.exhausted;
    }
    if (Array.isArray(document.examples)) {
      const t0 = Date.now();
      tests.push(...(await runExamples(config, document, deadline, scratch)));
      timings.examplesMs = Date.now() - t0;
    }
  } finally {
    sweep(config);
    fs.rmSync(scratch, { recursive: true, force: true });
  }
  if (!dropping(config)) details.push('privileges not dropped: the subject could read the hidden tests');
  const passed = tests.filter((t) => t.status === 'passed').length;
  details.unshift(`${passed}/${tests.length} passed`);
  timings.totalMs = Date.now() - started;
  const result = { tests, tampered: false, budgetExhausted: exhausted, detail: details.join('; '), timings };
  process.stdout.write(`CODEMIDAS-JUDGE ${config.nonce} ${JSON.stringify(result)}\n`, () => process.exit(0));
}

main().catch((error) => {
  process.stderr.write(`judge: ${error?.stack ?? error}\n`);
  process.exit(1);
});
