// The repository's own tests as the first source of inputs (record-driver.mjs, source `repo-test`):
// every test file (the plugin's rule, javascript-files.ts `isJavaScriptTestFile`) runs in a
// trace-run.mjs process of its own, under a limit per file and one for all files, and each call of a
// target made while it runs gives an input. Only arguments are taken: what the call returns is
// recorded afterwards like any other input, never read from the test's assertions.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { killGroup, pool } from './drive.mjs';
import { resolveModuleFile } from './load.mjs';

const TRACE_SCRIPT = path.join(path.dirname(fileURLToPath(import.meta.url)), 'trace-run.mjs');

/**
 * javascript-files.ts's TEST_FILE rule (kept in step by hand: the runtime imports no TypeScript),
 * plus the files ava and mocha also run by default: `test.js`, `tests.js`, `test-*.js`.
 */
const TEST_FILE = /(?:^|\/)(?:__tests__|tests?)\/|\.(?:test|spec)\.[^/]+$|(?:^|\/)(?:tests?\.[^/]+|test-[^/]+)$/;
const SOURCE = /\.(?:[mc]?[jt]s|[jt]sx)$/;
/** Folders never walked: installed packages, build output, and what test folders hold that is not a test. */
const SKIPPED_DIRS = new Set(['node_modules', 'dist', 'build', 'coverage', 'fixtures', '__fixtures__', '__mocks__', '__snapshots__']);

/**
 * Defaults: all files together (config.traceTimeoutMs), one file, one test or hook, files at once,
 * inputs kept per target, distinct calls taken per target and file (the kept ones are chosen from
 * them, see `pickVaried`), files.
 */
export const TRACE_DEFAULTS = Object.freeze({ totalMs: 120_000, fileMs: 20_000, testMs: 5_000, parallel: 2, perTarget: 30, perFile: 200, maxFiles: 200 });

/** A coarse class of one tagged value: its tag and whether it is empty, negative, zero, fractional... */
function valueClass(tagged) {
  const v = tagged?.v;
  switch (tagged?.t) {
    case 'str': return v === '' ? 'str:empty' : /^\s|\s$/.test(v) ? 'str:spaced' : /^-?\d/.test(v) ? 'str:numeric' : 'str';
    case 'number': {
      const n = Number(v);
      if (!Number.isFinite(n)) return `number:${v}`;
      return `number:${n < 0 ? 'neg' : n === 0 ? 'zero' : 'pos'}${Number.isInteger(n) ? '' : ':frac'}`;
    }
    case 'array': return `array:${Array.isArray(v) && v.length === 0 ? 'empty' : 'items'}`;
    case 'object': return `object:${Array.isArray(v) ? v.map(([k]) => k).sort().join(',') : ''}`;
    case 'instance': return `instance:${v?.class}`;
    default: return String(tagged?.t);
  }
}

/**
 * At most `limit` of `inputs`, chosen across their classes (each argument's `valueClass`, the
 * arguments' count, the instance's): one of each class in turn, in the order the tests made them,
 * so that a long table of similar calls does not crowd out the rare ones (an empty string, a
 * negative number, an options object).
 */
export function pickVaried(inputs, limit) {
  if (inputs.length <= limit) return inputs;
  const groups = new Map();
  for (const [i, input] of inputs.entries()) {
    const key = JSON.stringify([input.args.map(valueClass), input.init?.args.map(valueClass) ?? null]);
    if (!groups.has(key)) groups.set(key, []);
    groups.get(key).push(i);
  }
  const chosen = [];
  const queues = [...groups.values()];
  for (let round = 0; chosen.length < limit; round++) {
    let took = false;
    for (const queue of queues) {
      if (round < queue.length && chosen.length < limit) {
        chosen.push(queue[round]);
        took = true;
      }
    }
    if (!took) break;
  }
  return chosen.sort((a, b) => a - b).map((i) => inputs[i]);
}

/** The repository's test files (relative paths, sorted), at most `limit`. */
export function testFiles(root, limit = TRACE_DEFAULTS.maxFiles) {
  const out = [];
  const walk = (dir, rel) => {
    let entries;
    try {
      entries = fs.readdirSync(dir, { withFileTypes: true });
    } catch {
      return;
    }
    for (const entry of entries.sort((a, b) => (a.name < b.name ? -1 : 1))) {
      if (out.length >= limit) return;
      const relPath = rel === '' ? entry.name : `${rel}/${entry.name}`;
      if (entry.isDirectory()) {
        if (!SKIPPED_DIRS.has(entry.name) && !entry.name.startsWith('.')) walk(path.join(dir, entry.name), relPath);
      } else if (SOURCE.test(entry.name) && !/\.d\.[mc]?ts$/.test(entry.name) && TEST_FILE.test(relPath)) {
        out.push(relPath);
      }
    }
  };
  walk(root, '');
  return out;
}

/** Runs one test file under trace-run.mjs; resolves `{timedOut}` once the process is gone (killed at `deadlineMs`). */
function runFile(request, cwd, deadlineMs) {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [TRACE_SCRIPT], {
      cwd,
      stdio: ['pipe', 'ignore', 'ignore'],
      detached: true, // its own process group: a kill reaches what the tests started
      env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: process.env.HOME ?? '/tmp', LANG: 'C.UTF-8', NODE_ENV: 'test' },
    });
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      killGroup(child);
    }, Math.max(1, deadlineMs));
    child.stdin.on('error', () => undefined);
    child.on('error', () => {
      clearTimeout(timer);
      resolve({ timedOut: false });
    });
    child.on('close', () => {
      clearTimeout(timer);
      killGroup(child); // what the tests left running
      resolve({ timedOut });
    });
    child.stdin.end(JSON.stringify(request));
  });
}

function readRecords(file) {
  let text;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch {
    return [];
  }
  const out = [];
  for (const line of text.split('\n')) {
    try {
      if (line !== '') out.push(JSON.parse(line));
    } catch {
      // a line cut by the kill
    }
  }
  return out;
}

/**
 * Traces the repository's tests for `config.targets`: `{inputs, traces}` where `inputs[i]` holds
 * distinct inputs ({args, init}) seen for target i (at most perTarget, `pickVaried`), in the order
 * the tests made them, and
 * `traces` is the run's summary for the result document ([{mode: 'repo-test', timedOut, records}],
 * empty when there is nothing to run). Off with `config.runRepoTests === false`.
 */
export async function traceRepoTests(config, options = {}) {
  const o = { ...TRACE_DEFAULTS, ...options };
  const targets = config.targets ?? [];
  const inputs = targets.map(() => []);
  if (config.runRepoTests === false || targets.length === 0) return { inputs, traces: [] };
  const files = testFiles(config.repoRoot, o.maxFiles);
  if (files.length === 0) return { inputs, traces: [] };

  const located = [];
  for (const [index, target] of targets.entries()) {
    try {
      located.push({ index, file: resolveModuleFile(config.repoRoot, target.module), target: target.target });
    } catch {
      // a module without a file: inspect.mjs reports it
    }
  }
  const totalMs = config.traceTimeoutMs ?? o.totalMs;
  const end = Date.now() + totalMs;
  const scratch = fs.mkdtempSync(path.join(config.workDir ?? os.tmpdir(), 'trace-'));
  const seen = targets.map(() => new Set());
  let timedOut = false;
  let records = 0;
  try {
    const runs = await pool(files, o.parallel, async (file, i) => {
      const left = end - Date.now();
      if (left <= 0) {
        timedOut = true;
        return [];
      }
      const out = path.join(scratch, `${i}.jsonl`);
      const request = {
        root: config.repoRoot, file, out, targets: located, maxPerTarget: o.perFile, testTimeoutMs: o.testMs,
        typescriptPath: config.typescriptPath, ...(config.workDir ? { transpileCache: path.join(config.workDir, 'ts-cache') } : {}),
      };
      const run = await runFile(request, config.repoRoot, Math.min(o.fileMs, left));
      if (run.timedOut) timedOut = true;
      return readRecords(out);
    });
    // in file order, so that the inputs do not depend on which process finished first
    for (const record of runs.flat()) {
      const index = record?.target;
      if (!Number.isInteger(index) || index < 0 || index >= targets.length || !Array.isArray(record.args)) continue;
      const input = { args: record.args, init: record.init ?? null };
      const key = JSON.stringify([input.init, input.args]);
      if (seen[index].has(key)) continue;
      seen[index].add(key);
      inputs[index].push(input);
    }
    for (const [index, all] of inputs.entries()) {
      inputs[index] = pickVaried(all, o.perTarget);
      records += inputs[index].length;
    }
  } finally {
    fs.rmSync(scratch, { recursive: true, force: true });
  }
  return { inputs, traces: [{ mode: 'repo-test', timedOut, records }] };
}
