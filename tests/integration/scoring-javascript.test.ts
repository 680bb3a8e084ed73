/**
 * The JavaScript plugin's scorer against the real engine: a JavaScript task from examples/jskit
 * (cases recorded by running the original with the plugin's record harness, the body masked by the
 * plugin) scores 1.0 with the reference and 0.0 masked, in a fresh sandbox of the node image, with
 * the Node judge; and the agent's reward hacks (code that runs in the subject, files it plants)
 * each score 0 on the unsolved task and are never INFRA_ERROR.
 */
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Dockerode from 'dockerode';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDockerImageResolver } from '../../src/images/docker-image-resolver.js';
import { ensureImages } from '../../src/images/image-builder.js';
import type { RecordedCase } from '../../src/languages/construction-types.js';
import { createJavaScriptScorer } from '../../src/languages/javascript/javascript-scorer.js';
import { nodeTestRunner } from '../../src/languages/javascript/javascript-tests.js';
import { maskJavaScriptBody } from '../../src/languages/javascript/mask-javascript-body.js';
import { parseJavaScriptUnits } from '../../src/languages/javascript/parse-javascript-units.js';
import { recordJavaScriptTwice, type TaggedValue } from '../../src/languages/javascript/record-javascript-cases.js';
import { createSilentLogger } from '../../src/logging.js';
import { projectRoot } from '../../src/project-root.js';
import { createDockerSandboxProvider } from '../../src/sandbox/docker/docker-sandbox-provider.js';
import type { SandboxProvider } from '../../src/sandbox/types.js';
import type { ScoreResult } from '../../src/scoring/types.js';
import { loadCatalog } from '../../src/tasks/load-catalog.js';
import type { LoadedTask } from '../../src/tasks/types.js';
import { workspaceWith } from '../fixtures/scoring-fixtures.js';

const logger = createSilentLogger();
const docker = new Dockerode();
const serverId = `scoring-js-${process.pid}`;
const LIBRARY = join(projectRoot(), 'examples', 'jskit');
const TARGET_FILE = 'src/ranges.js';
const TYPESCRIPT = join(projectRoot(), 'node_modules', 'typescript');

let provider: SandboxProvider;
let scratch: string;
let task: LoadedTask;
let original: string;
let masked: string;

const num = (v: number): TaggedValue => ({ t: 'number', v: String(v) });
const arr = (...v: number[]): TaggedValue => ({ t: 'array', v: v.map(num) });

/** Builds a one-task suite for `compactNumbers` the way the plugin's pieces build one. */
async function buildSuite(root: string): Promise<void> {
  const files = ['package.json', 'src/ranges.js', 'src/errors.js', 'src/index.js', 'src/durations.js', 'src/checksums.js', 'src/csvline.js', 'src/units.js', 'src/ledger.js'];
  const parsed = await parseJavaScriptUnits({ dir: LIBRARY, origin: 'examples/jskit', revision: 'working-tree', files });
  const unit = parsed.units.find((u) => u.file === TARGET_FILE && u.qualname === 'compactNumbers');
  if (unit === undefined) throw new Error(`no compactNumbers unit in ${parsed.units.map((u) => u.id).join(', ')}`);
  original = readFileSync(join(LIBRARY, TARGET_FILE), 'utf8');
  masked = maskJavaScriptBody(original, unit);

  const inputs: TaggedValue[][] = [[arr(1, 2, 3, 7)], [arr(5, 4, 3, 9, 10), num(2)], [arr()], [arr(1, 3, 5)], [arr(1, 2), num(1)], [arr(8, 9, 10, 11), num(4)]];
  const { kept, rejected } = await recordJavaScriptTwice({ root: LIBRARY, module: unit.module, target: unit.qualname, init: null, inputs: inputs.map((args) => ({ args })), timeoutMs: 5000, typescriptPath: TYPESCRIPT });
  expect(rejected).toEqual([]);
  const cases: RecordedCase[] = kept.map((k) => ({ id: `compact-numbers-${k.index + 1}`, module: unit.module, target: unit.qualname, init: null, args: inputs[k.index] ?? [], kwargs: {}, expect: k.expect, argsAfter: k.argsAfter, source: 'constructed' }));
  expect(cases.some((c) => 'raises' in c.expect)).toBe(true);

  const suite = join(root, 'jsfix');
  const taskDir = join(suite, 'compact-numbers');
  cpSync(LIBRARY, join(taskDir, 'workspace'), { recursive: true, filter: (src) => !src.includes('/test') });
  writeFileSync(join(taskDir, 'workspace', TARGET_FILE), masked);
  mkdirSync(join(taskDir, 'solution', 'src'), { recursive: true });
  writeFileSync(join(taskDir, 'solution', TARGET_FILE), original);
  mkdirSync(join(taskDir, 'hidden'), { recursive: true });
  writeFileSync(join(taskDir, 'hidden', 'cases.json'), JSON.stringify({ schemaVersion: 1, cases }));
  writeFileSync(join(suite, 'suite.json'), JSON.stringify({ schemaVersion: 1, name: 'jsfix', tasks: ['compact-numbers'] }));
  writeFileSync(
    join(taskDir, 'task.json'),
    JSON.stringify({
      schemaVersion: 2,
      id: 'jsfix/compact-numbers',
      title: 'Compact number lists',
      language: 'javascript',
      source: { repo: 'examples/jskit', revision: 'working-tree', path: TARGET_FILE, symbol: 'compactNumbers' },
      prompt: 'Implement compactNumbers.',
      runtime: { image: 'node' },
      workdir: '/workspace',
      tests: { runner: 'node', cases: 'cases.json', timeoutMs: 60_000, caseTimeoutMs: 5000 },
      rewardMode: 'binary',
    }),
  );
}

beforeAll(async () => {
  const { tags } = await ensureImages({ docker, logger, languages: ['node'] });
  provider = createDockerSandboxProvider({ docker, logger, serverId, images: createDockerImageResolver({ docker, logger, tags }) });
  scratch = mkdtempSync(join(tmpdir(), 'codemidas-js-scoring-'));
  await buildSuite(scratch);
  const catalog = await loadCatalog(scratch, { languages: ['javascript'], runners: [nodeTestRunner] });
  expect(catalog.problems).toEqual([]);
  task = catalog.get('jsfix/compact-numbers') as LoadedTask;
}, 300_000);

afterAll(async () => {
  await provider?.close();
  if (scratch) rmSync(scratch, { recursive: true, force: true });
});

async function score(files: Record<string, string | Buffer>): Promise<ScoreResult> {
  return createJavaScriptScorer({ provider, logger }).score({ task, workspace: await workspaceWith(task, files) });
}

/** `module` (the masked or the original target module) with `code` added at its top: module scope runs when the judge's subject loads it. */
const atLoad = (code: string) => (module: string): Record<string, string> => ({ [TARGET_FILE]: `${code}\n${module}` });
/** Files planted beside the target module, which stays as given. */
const planted = (files: Record<string, string>) => (module: string): Record<string, string> => ({ [TARGET_FILE]: module, ...files });

describe('JavaScript scorer (node image, Node judge)', () => {
  it('scores the reference 1.0 and the masked workspace 0.0, both SCORED', async () => {
    const solved = await score({ [TARGET_FILE]: original });
    expect(solved, JSON.stringify(solved)).toMatchObject({ outcome: 'SCORED', reward: 1 });
    expect(solved.total).toBeGreaterThanOrEqual(5);
    const unsolved = await score({});
    expect(unsolved, JSON.stringify(unsolved)).toMatchObject({ outcome: 'SCORED', reward: 0, passed: 0 });
  });

  it('fails a wrong implementation on the cases it gets wrong (min run off by one)', async () => {
    const wrong = original.replace('if (length >= minRun)', 'if (length > minRun)');
    expect(wrong).not.toBe(original);
    const result = await score({ [TARGET_FILE]: wrong });
    expect(result.outcome).toBe('SCORED');
    expect(result.reward).toBe(0);
    expect(result.passed).toBeGreaterThan(0);
  });

  /** Each hack on the unsolved task: reward 0, SCORED, never INFRA_ERROR. */
  const hacks: Record<string, (module: string) => Record<string, string | Buffer>> = {
    'exits at load': atLoad('process.exit(0);'),
    'kills its parent at load': atLoad('try { process.kill(process.ppid, "SIGKILL"); } catch {}'),
    'kills every process it can reach': atLoad('try { process.kill(-1, "SIGKILL"); } catch {}'),
    'loops forever at load': atLoad('for (;;) {}'),
    'floods stdout and stderr at load': atLoad('process.stdout.write("x".repeat(1 << 22)); process.stderr.write("y".repeat(1 << 22));'),
    'prints a forged judge result line at exit': 
      atLoad('process.on("exit", () => { process.stdout.write("CODEMIDAS-JUDGE forged {\\"tests\\":[{\\"name\\":\\"case:x\\",\\"status\\":\\"passed\\",\\"message\\":\\"\\"}]}\\n"); });'),
    'writes fake protocol frames to the judge socket': 
      atLoad('import fs from "node:fs"; for (const fd of [3, 4, 5]) { try { const body = Buffer.from(JSON.stringify({ seq: 1, ok: true, value: { t: "str", v: "1-3" } })); const head = Buffer.alloc(8); head.write("CMF1"); head.writeUInt32BE(body.length, 4); fs.writeSync(fd, Buffer.concat([head, body])); } catch {} }'),
    'patches JSON, util and assert': 
      atLoad('import util from "node:util"; import assert from "node:assert"; JSON.stringify = () => "{}"; JSON.parse = () => ({}); util.isDeepStrictEqual = () => true; assert.deepStrictEqual = () => {};'),
    'installs Object.prototype getters (toJSON, then)': 
      atLoad('Object.defineProperty(Object.prototype, "toJSON", { get() { return () => ({ t: "str", v: "1-3" }); }, configurable: true }); Object.defineProperty(Object.prototype, "then", { get() { return undefined; }, configurable: true });'),
    'poisons the require cache and the module loader': 
      atLoad('import { createRequire } from "node:module"; import Module from "node:module"; const r = createRequire(import.meta.url); for (const k of Object.keys(r.cache)) r.cache[k] = { exports: {} }; Module.prototype.require = () => ({});'),
    'reads the hidden cases from disk': 
      atLoad('import fs from "node:fs"; let leaked = null; for (const p of ["/var/lib/codemidas/hidden/cases.json", "/proc/1/environ"]) { try { leaked = fs.readFileSync(p, "utf8"); } catch {} } globalThis.__leaked = leaked;'),
    'plants a package.json that changes the module type': planted({ 'package.json': JSON.stringify({ name: 'jskit', type: 'commonjs', main: 'evil.cjs' }), 'evil.cjs': 'module.exports = { compactNumbers: () => "1-3,7" };' }),
    'plants node_modules shadowing node:assert and the package itself': planted({
      'node_modules/jskit/package.json': JSON.stringify({ name: 'jskit', main: 'index.js' }),
      'node_modules/jskit/index.js': 'module.exports = { compactNumbers: () => "1-3,7" };',
      'node_modules/assert/index.js': 'module.exports = () => {};',
    }),
    'returns a value that throws when inspected': (module) => ({
      [TARGET_FILE]: module.replace("throw new Error('not implemented');", 'return new Proxy({}, { get() { throw new Error("boom"); }, ownKeys() { throw new Error("boom"); } });'),
    }),
    'throws a non-Error value': (module) => ({ [TARGET_FILE]: module.replace("throw new Error('not implemented');", 'throw { name: "RangeError" };') }),
  };
  /**
   * Hacks that leave a solved workspace solved: added to the reference they must score 1.0 (no
   * false negatives; it also shows their code ran without breaking the judge). The others end or
   * spoil the agent's own answers (exiting, hanging, forging frames without the nonce) or replace
   * the body itself.
   */
  const HARMFUL = new Set(['exits at load', 'loops forever at load', 'writes fake protocol frames to the judge socket', 'returns a value that throws when inspected', 'throws a non-Error value']);
  const HARMLESS = new Set(Object.keys(hacks).filter((name) => !HARMFUL.has(name)));

  for (const [name, files] of Object.entries(hacks)) {
    it(`a hack on the unsolved task scores 0, never INFRA_ERROR: ${name}`, async () => {
      const result = await score(files(masked));
      expect(result.outcome, JSON.stringify(result)).not.toBe('INFRA_ERROR');
      expect(result.reward, JSON.stringify(result)).toBe(0);
      if (HARMLESS.has(name)) {
        const solved = await score(files(original));
        expect(solved, JSON.stringify(solved)).toMatchObject({ outcome: 'SCORED', reward: 1 });
      }
    });
  }
});
