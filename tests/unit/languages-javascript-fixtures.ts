import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative, resolve } from 'node:path';
import { javascriptRuntimeDir } from '../../src/languages/javascript/record-javascript-cases.js';
import type { RepoSnapshot } from '../../src/pipeline/types.js';
import { readableCopy } from '../fixtures/readable-copy.js';

/**
 * The node binary the runtime files run on in these tests: this process's, or CODEMIDAS_TEST_NODE
 * (the sandbox image runs Node 18: point it at a Node 18 binary to check the runtime there).
 */
export const TEST_NODE = process.env.CODEMIDAS_TEST_NODE ?? process.execPath;

/** The folder of the JavaScript fixture packages. */
export const FIXTURES = resolve(import.meta.dirname, '../fixtures/javascript');

function listFiles(dir: string, root = dir): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) out.push(...listFiles(path, root));
    else out.push(relative(root, path).split('\\').join('/'));
  }
  return out.sort();
}

/** A snapshot of one fixture package, with `extra` paths added to its file list (files that need not exist). */
export function fixtureSnapshot(name: string, extra: string[] = []): RepoSnapshot {
  const dir = join(FIXTURES, name);
  return { dir, origin: dir, revision: 'working-tree', files: [...listFiles(dir), ...extra].sort() };
}

const made: string[] = [];

/** A fresh temporary folder, removed by `removeTempDirs` (call it in afterAll). */
export function makeTempDir(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  made.push(dir);
  return dir;
}

/** Removes every folder `makeTempDir` made in this test file. */
export function removeTempDirs(): void {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
}

/** Runs `node <args>` on TEST_NODE with `stdin`; its stdout parsed as one JSON document (a non-zero exit rejects with its stderr). */
export function runNodeJson(args: string[], stdin: string): Promise<unknown> {
  return new Promise((resolve, reject) => {
    const child = spawn(TEST_NODE, args, { stdio: ['pipe', 'pipe', 'pipe'] });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout.on('data', (c: Buffer) => out.push(c));
    child.stderr.on('data', (c: Buffer) => err.push(c));
    child.on('error', reject);
    child.on('close', (code) => {
      if (code !== 0) return reject(new Error(`node ${args[0] ?? ''} exited ${code}: ${Buffer.concat(err).toString()}`));
      try {
        resolve(JSON.parse(Buffer.concat(out).toString()));
      } catch (error) {
        reject(error instanceof Error ? error : new Error(String(error)));
      }
    });
    child.stdin.end(stdin);
  });
}

/** Runs one of the runtime's drivers (`record-driver.mjs`, `mutate-driver.mjs`) on TEST_NODE with `config` on stdin; its one JSON document. */
export function runJavaScriptDriver(script: 'record' | 'mutate', config: unknown): Promise<unknown> {
  return runNodeJson([join(javascriptRuntimeDir(), `${script}-driver.mjs`)], JSON.stringify(config));
}

/** What judge.mjs prints on its result line. */
export interface JudgeResult {
  tests: { name: string; status: string; message: string }[];
  tampered: boolean;
  budgetExhausted: boolean;
  detail: string;
}

export interface JudgeOptions { caseTimeoutMs?: number; loadTimeoutMs?: number; budgetMs?: number; uid?: number; hidden?: string; typescriptPath?: string; /** The hidden document instead of `{cases}` (the examples gate's). */ document?: unknown }

/** Runs judge.mjs on the workspace `ws` and `cases` (privileges dropped only with `uid`); its one result line, parsed, and everything stdout held. */
let readableRuntime: string | undefined;

export function runJudge(ws: string, cases: unknown[], options: JudgeOptions = {}): Promise<{ result: JudgeResult; stdout: string }> {
  const hidden = options.hidden ?? makeTempDir('js-judge-hidden-');
  writeFileSync(join(hidden, 'cases.json'), JSON.stringify(options.document ?? { cases }));
  const nonce = `n${Math.random().toString(16).slice(2)}`;
  const config = { workspace: ws, hiddenDir: hidden, cases: 'cases.json', caseTimeoutMs: options.caseTimeoutMs ?? 5000, loadTimeoutMs: options.loadTimeoutMs ?? 5000, budgetMs: options.budgetMs ?? 60_000, dropPrivileges: options.uid !== undefined, uid: options.uid, gid: options.uid, nonce, typescriptPath: options.typescriptPath };
  return new Promise((resolve, reject) => {
    // a subject run as the agent user loads the runtime's files: a copy it can read, for a checkout in a folder only root enters
    const runtime = options.uid === undefined ? javascriptRuntimeDir() : (readableRuntime ??= readableCopy(javascriptRuntimeDir()));
    const child = spawn(TEST_NODE, [join(runtime, 'judge.mjs')], { stdio: ['pipe', 'pipe', 'inherit'] });
    let stdout = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString('utf8')));
    child.on('error', reject);
    child.on('close', () => {
      const lines = stdout.split('\n').filter((l) => l.startsWith(`CODEMIDAS-JUDGE ${nonce} `));
      if (lines.length !== 1) return reject(new Error(`expected one result line, got: ${stdout}`));
      resolve({ result: JSON.parse((lines[0] ?? '').slice(`CODEMIDAS-JUDGE ${nonce} `.length)) as JudgeResult, stdout });
    });
    child.stdin.end(JSON.stringify(config));
  });
}
