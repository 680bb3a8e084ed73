// The record harness: runs the original code on a list of inputs and prints what happened.
//
//   node record.mjs < config.json
//
// config: {
//   "root": "/abs/repo",                      // the package's folder
//   "module": "src/text",                     // repository path without extension
//   "target": "padLeft" | "default" | "Rect.area" | "Rect.square" | "default.describe",
//   "init": {"args": [TAGGED, ...]} | null,   // with init: construct target's class, call the method
//   "inputs": [{"args": [TAGGED, ...]}, ...], // codec-encoded arguments
//   "timeoutMs": 5000,                        // per call, for a promise that does not settle
//   "typescriptPath": "/abs/node_modules/typescript" // optional; for .ts sources
//   "mutant": {"file": "/abs/src/text.js", "source": "..."} // optional (mutate-driver.mjs): this
//                                             // JavaScript is run in place of that file's own
// }
//   "progress": "<nonce>"                     // optional: each input's start and result on stderr
//   "coverage": {"start": 120, "end": 480}    // optional: each OUTCOME gets "coverage", the
//                                             // [start, end, count] block ranges run in that part
// An input may carry its own "init" ({"args": [...]} or null), which then replaces config.init.
// An input (or the config) may carry "probes": [[TAGGED...], ...], the argument lists a returned
// function is called on (codec.mjs's `fncalls`); without them a returned function is unrecordable
// and its OUTCOME says the probe lists' length: {"unrecordable": "function", "arity": 2, ...}.
//
// Prints ONE JSON document on stdout: {"results": [OUTCOME, ...]} in input order, or
// {"error": "..."} when the module cannot be loaded, where OUTCOME is one of
//   {"returns": TAGGED, "argsAfter": [TAGGED...]}         the call returned (a promise: its value)
//                                                          with "aliases" (aliases.mjs) for an object
//   {"raises": "TypeError", "message": "...", "argsAfter": [...]}   it threw (a promise: rejected);
//                                                          "incidental": true when the repository's
//                                                          own code did not throw it (thrownByRepository)
//   {"unrecordable": "function"|"symbol"|"cycle"|"depth"|"unsupported", "message": "..."}
//   {"timeout": true}                                      a promise did not settle in timeoutMs
//   {"error": "..."}                                       the inputs or the target could not be built
// A call that never returns (a synchronous loop) cannot be stopped from inside: the caller kills
// the process and records inputs one at a time (record-twice.ts). The module's own output on
// stdout is sent to stderr, so the one document is all stdout holds.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { aliasesOf, argumentObjects } from './aliases.mjs';
import { encode, encodeResult, thrownClassName, UnrecordableValueError } from './codec.mjs';
import { readStdin } from './io.mjs';
import { buildInputs, callTarget, exportedClasses, isPromise, loadModule, resolveModuleFile } from './load.mjs';
import { installMutant } from './mutant.mjs';
import { enableTypeScript } from './typescript.mjs';

const writeOut = process.stdout.write.bind(process.stdout);
// the module's console.log goes to stderr: stdout carries the result document only
process.stdout.write = process.stderr.write.bind(process.stderr);

/**
 * With config.progress (a nonce), each input's start and result as a line on stderr, written at once
 * (a call that never returns leaves its start as the last line): the caller kills a run whose call
 * hangs and goes on after it (drive.mjs).
 */
function progress(config, line) {
  if (typeof config.progress !== 'string') return;
  try {
    fs.writeSync(2, `\n${config.progress} ${line}\n`);
  } catch {
    // stderr closed: the final document still says everything
  }
}

/**
 * With config.coverage ({start, end}: offsets in the module's file), V8's block coverage of that
 * part of the file per input: `take()` gives the ranges run since the last take as [start, end,
 * count] (a position's count is that of the smallest range holding it). Null where the inspector
 * is missing. Offsets are the file's own for JavaScript (not for transpiled TypeScript).
 */
async function startCoverage(file, { start, end }) {
  let session;
  try {
    const inspector = await import('node:inspector');
    session = new inspector.Session();
    session.connect();
  } catch {
    return null;
  }
  const post = (method, params = {}) => new Promise((resolve, reject) => session.post(method, params, (error, result) => (error ? reject(error) : resolve(result))));
  await post('Profiler.enable');
  await post('Profiler.startPreciseCoverage', { callCount: true, detailed: true });
  const url = pathToFileURL(file).href;
  return {
    async take() {
      const { result } = await post('Profiler.takePreciseCoverage');
      const ranges = [];
      for (const script of result) {
        if (script.url !== url) continue;
        for (const fn of script.functions) {
          for (const r of fn.ranges) if (r.endOffset > start && r.startOffset < end) ranges.push([r.startOffset, r.endOffset, r.count]);
        }
      }
      return ranges;
    },
  };
}

/** A line that throws, or makes the error it throws: `throw`, `new FooError(`, `reject(`, an assertion. */
const THROW_SITE = /\bthrow\b|\bnew\s+[\w$.]*(?:Error|Exception)\b|\breject\s*\(|\bassert\b/;

/**
 * Whether the repository's own code threw `error` (issue 19, part 4): the innermost frame of its
 * stack in the repository's files (not node_modules) is at a line that throws or makes an error.
 * An engine's error (`undefined.length`), a built-in's (`JSON.parse`) or a dependency's has its
 * innermost repository frame at the call that failed, so it is not. A thrown value without a stack
 * (a string, null) and a TypeScript file (transpiled: its lines are not the stack's) count as the
 * repository's.
 */
function thrownByRepository(error, root) {
  if (error === null || typeof error !== 'object') return true;
  let stack;
  try {
    stack = error.stack;
  } catch {
    return true;
  }
  if (typeof stack !== 'string' || typeof root !== 'string') return true;
  const base = `${path.resolve(root)}${path.sep}`;
  for (const frame of stack.split('\n').slice(1)) {
    const m = /((?:file:\/\/)?\/[^()\s]*?):(\d+):\d+\)?\s*$/.exec(frame.trim());
    if (!m) continue;
    let file = m[1];
    try {
      if (file.startsWith('file://')) file = fileURLToPath(file);
    } catch {
      continue;
    }
    if (!file.startsWith(base) || file.includes(`${path.sep}node_modules${path.sep}`)) continue;
    if (/\.(?:[mc]?ts|tsx)$/.test(file)) return true;
    const text = sourceLine(file, Number(m[2]));
    return text === null || THROW_SITE.test(text);
  }
  return false;
}

const sourceLines = new Map();

/** Line `line` (1-based) of `file`, or null when it cannot be read. */
function sourceLine(file, line) {
  if (!sourceLines.has(file)) {
    let lines = null;
    try {
      lines = fs.readFileSync(file, 'utf8').split(/\r?\n/);
    } catch {
      // unreadable: no line
    }
    sourceLines.set(file, lines);
  }
  return sourceLines.get(file)?.[line - 1] ?? null;
}

function messageOf(error) {
  try {
    if (error instanceof Error) return String(error.message).slice(0, 500);
    return String(error).slice(0, 500);
  } catch {
    return '';
  }
}

function encodeArgs(args) {
  try {
    return args.map((a) => encode(a));
  } catch {
    return null;
  }
}

async function settle(value, timeoutMs) {
  if (!isPromise(value)) return { value };
  let timer;
  const timeout = new Promise((resolve) => {
    timer = setTimeout(() => resolve({ timeout: true }), timeoutMs);
  });
  try {
    return await Promise.race([value.then((v) => ({ value: v }), (error) => ({ error })), timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/** The returned value encoded, a function in it called on the input's (or the config's) probes. */
function encodeReturned(loaded, config, input, value) {
  return encodeResult(value, input.probes ?? config.probes ?? null, { classes: exportedClasses(loaded) });
}

async function runOne(loaded, config, input) {
  let args;
  let init;
  try {
    ({ args, init } = buildInputs(loaded, input.args, input.init !== undefined ? input.init : config.init));
  } catch (error) {
    return { error: `cannot build the inputs: ${messageOf(error)}` };
  }
  const objects = argumentObjects(args);
  let outcome;
  try {
    outcome = await settle(callTarget(loaded, config.target, init, args), config.timeoutMs ?? 5000);
  } catch (error) {
    if (error?.name === 'LoadError') return { error: messageOf(error) };
    outcome = { error };
  }
  if (outcome.timeout) return { timeout: true };
  const argsAfter = encodeArgs(args);
  if ('error' in outcome) {
    const incidental = !thrownByRepository(outcome.error, config.root);
    return { raises: thrownClassName(outcome.error), message: messageOf(outcome.error), argsAfter, ...(incidental ? { incidental: true } : {}) };
  }
  try {
    return withAliases({ returns: encodeReturned(loaded, config, input, outcome.value), argsAfter }, outcome.value, objects);
  } catch (error) {
    if (error instanceof UnrecordableValueError) return { unrecordable: error.reason, message: error.message, ...(error.arity ? { arity: error.arity } : {}) };
    return { unrecordable: 'unsupported', message: messageOf(error) };
  }
}

/** A returned object's outcome with the objects it shares with the arguments as given (aliases.mjs). */
function withAliases(outcome, value, objects) {
  const aliases = aliasesOf(value, objects);
  return aliases === undefined ? outcome : { ...outcome, aliases };
}

async function main() {
  const config = JSON.parse(await readStdin());
  let loaded;
  let coverage = null;
  try {
    const file = resolveModuleFile(config.root, config.module);
    if (config.coverage) coverage = await startCoverage(file, config.coverage);
    if (config.mutant) {
      if (/\.(?:[mc]?ts|tsx)$/.test(config.mutant.file)) enableTypeScript(config.typescriptPath, config.transpileCache);
      installMutant(config.mutant);
    }
    loaded = await loadModule(file, { enableTypeScript: () => enableTypeScript(config.typescriptPath, config.transpileCache) });
  } catch (error) {
    writeOut(`${JSON.stringify({ error: `cannot load ${config.module}: ${thrownClassName(error)}: ${messageOf(error)}` })}\n`);
    return;
  }
  const results = [];
  for (const [index, input] of (config.inputs ?? []).entries()) {
    progress(config, `start ${index}`);
    await coverage?.take();
    const outcome = await runOne(loaded, config, input);
    if (coverage) outcome.coverage = await coverage.take();
    results.push(outcome);
    progress(config, `result ${index} ${JSON.stringify(results[index])}`);
  }
  writeOut(`${JSON.stringify({ results })}\n`, () => process.exit(0));
}

main().catch((error) => {
  writeOut(`${JSON.stringify({ error: `record harness failed: ${messageOf(error)}` })}\n`, () => process.exit(0));
});
