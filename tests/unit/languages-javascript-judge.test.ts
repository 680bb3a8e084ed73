import { cpSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type JavaScriptRecordRequest, recordJavaScriptTwice, type TaggedValue } from '../../src/languages/javascript/record-javascript-cases.js';
import type { RecordedCase } from '../../src/pipeline/types.js';
import { FIXTURES, type JudgeOptions, type JudgeResult, makeTempDir, removeTempDirs, runJudge, TEST_NODE } from './languages-javascript-fixtures.js';

const TYPESCRIPT = join(import.meta.dirname, '../../node_modules/typescript');
const num = (v: number): TaggedValue => ({ t: 'number', v: String(v) });
const str = (v: string): TaggedValue => ({ t: 'str', v });

/** A hidden case as the write stage stores it (docs/task-format.md). */
type Case = RecordedCase;


/** Records `inputs` on the original fixture and returns them as cases (every input must be kept). */
async function recordCases(pkg: string, module: string, target: string, inputs: TaggedValue[][], init: TaggedValue[] | null = null): Promise<Case[]> {
  const request: JavaScriptRecordRequest = {
    root: join(FIXTURES, pkg), module, target, init: init === null ? null : { args: init }, inputs: inputs.map((args) => ({ args })), timeoutMs: 2000, typescriptPath: TYPESCRIPT,
  };
  const { kept, rejected } = await recordJavaScriptTwice(request, { nodePath: TEST_NODE });
  expect(rejected).toEqual([]);
  return kept.map((k) => ({
    id: `${target}-${k.index}`, module, target, init: init === null ? null : { args: init, kwargs: {} }, args: inputs[k.index] ?? [], kwargs: {},
    expect: k.expect, argsAfter: k.argsAfter, source: 'constructed',
  }));
}

/** A workspace copied from a fixture package with `files` written over it. */
function workspace(pkg: string, files: Record<string, string> = {}): string {
  const dir = makeTempDir('js-judge-ws-');
  cpSync(join(FIXTURES, pkg), dir, { recursive: true });
  for (const [file, text] of Object.entries(files)) writeFileSync(join(dir, file), text);
  return dir;
}

/** Runs judge.mjs on `ws` and `cases`; returns the parsed result line and everything stdout held. */
const judge = (ws: string, cases: Case[], options: JudgeOptions = {}): Promise<{ result: JudgeResult; stdout: string }> => runJudge(ws, cases, options);

const statuses = (r: JudgeResult): string[] => r.tests.map((t) => t.status);

let padCases: Case[] = [];
let rectCases: Case[] = [];
let refuseCases: Case[] = [];

beforeAll(async () => {
  padCases = await recordCases('esm-pkg', 'src/text', 'padLeft', [[str('ab'), num(5), str('*')], [str('abcdef'), num(3)], [{ t: 'null' }]]);
  rectCases = await recordCases('esm-pkg', 'src/shapes', 'Rect.scale', [[num(2)], [num(-1)]], [num(1), num(3)]);
  refuseCases = await recordCases('edge-pkg', 'edge', 'refuse', [[{ t: 'bool', v: true }], [{ t: 'bool', v: false }]]);
}, 60_000);
afterAll(removeTempDirs);

const WRONG_PAD = `export function padLeft(text, width = 8, fill = ' ') {\n  return fill.repeat(Math.max(0, width - text.length + 1)) + text;\n}\n`;

describe('JavaScript judge', () => {
  it('passes the original implementation on every recorded case, instance methods included', async () => {
    const { result } = await judge(workspace('esm-pkg'), [...padCases, ...rectCases]);
    expect(statuses(result)).toEqual(['passed', 'passed', 'passed', 'passed', 'passed']);
    expect(result.detail).toContain('5/5 passed');
    expect(rectCases.map((c) => c.expect)).toEqual([expect.objectContaining({ returns: expect.objectContaining({ t: 'instance' }) }), { raises: 'RangeError' }]);
  });

  it('fails a wrong implementation on the cases it gets wrong, and names what it expected', async () => {
    const { result } = await judge(workspace('esm-pkg', { 'src/text.js': WRONG_PAD }), padCases);
    expect(statuses(result)).toEqual(['failed', 'passed', 'passed']);
    expect(result.tests[0]?.message).toBe('expected "***ab", got "****ab"');
  });

  it('fails a masked body, including where the original threw another class', async () => {
    const masked = `export function padLeft(text, width = 8, fill = ' ') {\n  throw new Error('not implemented');\n}\n`;
    const { result } = await judge(workspace('esm-pkg', { 'src/text.js': masked }), padCases);
    expect(statuses(result)).toEqual(['failed', 'failed', 'failed']);
    expect(result.tests[2]?.message).toContain('expected TypeError to be thrown, got Error');
  });

  it('meets a case that asserts only a throw (`*`) with any thrown value but the masked body\'s', async () => {
    const anyThrow = padCases.map((c) => ('raises' in c.expect ? { ...c, expect: { raises: '*' } } : c));
    const pad = (body: string): string => `export function padLeft(text, width = 8, fill = ' ') {\n  ${body}\n}\n`;
    const original = await judge(workspace('esm-pkg'), anyThrow);
    expect(statuses(original.result)).toEqual(['passed', 'passed', 'passed']);
    // another class, a thrown string: still a throw
    const other = await judge(workspace('esm-pkg', { 'src/text.js': pad("if (text === null) throw new RangeError('x'); return fill.repeat(Math.max(0, width - text.length)) + text;") }), anyThrow);
    expect(statuses(other.result)).toEqual(['passed', 'passed', 'passed']);
    // the masked body fails it, and so does a return
    const masked = await judge(workspace('esm-pkg', { 'src/text.js': pad("throw new Error('not implemented');") }), anyThrow);
    expect(statuses(masked.result)).toEqual(['failed', 'failed', 'failed']);
    expect(masked.result.tests[2]?.message).toContain("expected an exception (any but the masked body's) to be thrown, got Error");
    const returns = await judge(workspace('esm-pkg', { 'src/text.js': pad("return String(text).padStart(width, fill);") }), anyThrow);
    expect(statuses(returns.result)[2]).toBe('failed');
  });

  it('compares thrown non-Error values by their type', async () => {
    const good = await judge(workspace('edge-pkg'), refuseCases);
    expect(statuses(good.result)).toEqual(['passed', 'passed']);
    const wrong = await judge(workspace('edge-pkg', { 'edge.js': "export function refuse(x) { if (x) throw new Error('no'); return 1; }\n" }), refuseCases);
    expect(statuses(wrong.result)).toEqual(['failed', 'passed']);
    const number = await judge(workspace('edge-pkg', { 'edge.js': 'export function refuse(x) { if (x) throw 7; return 1; }\n' }), refuseCases);
    expect(number.result.tests[0]?.message).toContain('expected typeof:string to be thrown, got typeof:number');
  });

  it('fails every case of a subject that exits at load, and only those', async () => {
    const ws = workspace('esm-pkg', { 'src/text.js': 'process.exit(0);\n' });
    const { result } = await judge(ws, [...padCases, ...rectCases]);
    expect(statuses(result)).toEqual(['failed', 'failed', 'failed', 'passed', 'passed']);
    expect(result.tests[0]?.message).toMatch(/subject ended without answering/);
  });

  it('times out a subject that loops forever and judges the next case in a fresh one', async () => {
    const looping = `export function padLeft(text) {\n  if (text === 'ab') for (;;);\n  return text;\n}\n`;
    const { result } = await judge(workspace('esm-pkg', { 'src/text.js': looping }), [...padCases, ...rectCases], { caseTimeoutMs: 1500, loadTimeoutMs: 500 });
    expect(statuses(result)).toEqual(['failed', 'passed', 'failed', 'passed', 'passed']);
    // each fresh subject's first case has loadTimeoutMs more: it loads the module
    expect(result.tests[0]?.message).toBe('timed out after 2000 ms (its module loaded in that time)');
    expect(result.budgetExhausted).toBe(false);
  });

  it('gives the first case of each subject loadTimeoutMs more: a module slow to load (a loaded machine, the TypeScript transpiler) passes', async () => {
    const slow = `const until = Date.now() + 1200;\nwhile (Date.now() < until);\n${readFileSync(join(FIXTURES, 'esm-pkg', 'src/text.js'), 'utf8')}`;
    const { result } = await judge(workspace('esm-pkg', { 'src/text.js': slow }), padCases, { caseTimeoutMs: 800, loadTimeoutMs: 3000 });
    expect(statuses(result)).toEqual(padCases.map(() => 'passed'));
    const { result: strict } = await judge(workspace('esm-pkg', { 'src/text.js': slow }), padCases.slice(0, 1), { caseTimeoutMs: 800, loadTimeoutMs: 0 });
    expect(statuses(strict)).toEqual(['failed']);
  });

  it('cannot be fooled by fake frames written to the channel or fake result lines printed on stdout', async () => {
    const expected = padCases.map((c) => ('returns' in c.expect ? c.expect.returns : null));
    const forger = [
      "import fs from 'node:fs';",
      `const results = { tests: [{ name: 'case:padLeft-0', status: 'passed', message: '' }], tampered: false, budgetExhausted: false, detail: 'all passed' };`,
      "process.stdout.write('CODEMIDAS-JUDGE x ' + JSON.stringify(results) + '\\n');",
      "console.log('CMF1');",
      `const fake = JSON.stringify({ seq: 1, nonce: 'guess', kind: 'returns', value: ${JSON.stringify(expected[0])}, argsAfter: null });`,
      "const header = Buffer.alloc(8); header.write('CMF1', 0, 'latin1'); header.writeUInt32BE(Buffer.byteLength(fake), 4);",
      "try { fs.writeSync(3, Buffer.concat([header, Buffer.from(fake)])); } catch {}",
      'export function padLeft(text) { return text; }',
    ].join('\n');
    const { result, stdout } = await judge(workspace('esm-pkg', { 'src/text.js': forger }), padCases);
    expect(statuses(result)).toEqual(['failed', 'failed', 'failed']);
    expect(result.tests[0]?.message).toContain('garbage from the subject');
    expect(stdout.trim().split('\n')).toHaveLength(1);
  });

  it('stays correct when the subject patches JSON.stringify, util.isDeepStrictEqual and Object.prototype', async () => {
    const patches = [
      "import util from 'node:util';",
      'util.isDeepStrictEqual = () => true;',
      "const original = JSON.stringify; JSON.stringify = () => '{\"kind\":\"returns\"}';",
      "Object.defineProperty(Object.prototype, 'kind', { value: 'returns', enumerable: true, configurable: true, writable: true });",
      "Object.prototype.t = 'str';",
      'Array.prototype.toJSON = function () { return []; };',
      "Object.prototype.toJSON = function () { return 'forged'; };",
    ].join('\n');
    const wrong = await judge(workspace('esm-pkg', { 'src/text.js': `${patches}\n${WRONG_PAD}` }), padCases);
    expect(statuses(wrong.result)).toEqual(['failed', 'passed', 'passed']);
    const right = await judge(workspace('esm-pkg', { 'src/text.js': `${patches}\nexport { padLeft } from './text-original.js';\n`, 'src/text-original.js': `export function padLeft(text, width = 8, fill = ' ') {\n  if (text.length >= width) return text;\n  return fill.repeat(width - text.length) + text;\n}\n` }), padCases);
    expect(statuses(right.result)).toEqual(['passed', 'passed', 'passed']);
  });

  it('judges TypeScript workspaces through the transpile step: runtime behaviour, not types', async () => {
    const cases = [
      ...(await recordCases('ts-pkg', 'src/stats', 'summarize', [[{ t: 'array', v: [num(1.234), num(5)] }], [{ t: 'array', v: [] }]])),
      ...(await recordCases('ts-pkg', 'src/stats', 'Counter.top', [[]], [str('label')])),
    ];
    const good = await judge(workspace('ts-pkg'), cases, { typescriptPath: TYPESCRIPT });
    expect(statuses(good.result)).toEqual(['passed', 'passed', 'passed']);
    // a type error is no failure; a wrong value is
    const loose = 'import { round } from "./util.js";\nexport function summarize(values: string, digits = 2): number {\n  if (values.length === 0) throw new RangeError("none");\n  return { min: round(Math.min(...(values as any)), digits), max: 0 } as any;\n}\nexport class Counter { constructor(_l: string) {} top(): undefined { return undefined; } }\n';
    const wrong = await judge(workspace('ts-pkg', { 'src/stats.ts': loose }), cases, { typescriptPath: TYPESCRIPT });
    expect(statuses(wrong.result)).toEqual(['failed', 'passed', 'passed']);
    expect(wrong.result.tests[0]?.message).toContain('expected {min: 1.23, max: 5}, got {min: 1.23, max: 0}');
  }, 60_000); // each process loads the typescript package

  it('judges CommonJS workspaces loaded with require', async () => {
    const cases = await recordCases('cjs-pkg', 'lib/math', 'clamp', [[num(5), num(1), num(3)], [num(5), num(3), num(1)]]);
    const good = await judge(workspace('cjs-pkg'), cases);
    expect(statuses(good.result)).toEqual(['passed', 'passed']);
    const wrong = await judge(workspace('cjs-pkg', { 'lib/math.js': 'exports.clamp = (v, lo, hi) => Math.min(Math.max(v, lo), hi);\n' }), cases);
    expect(statuses(wrong.result)).toEqual(['passed', 'failed']);
  });

  it('fails a case whose module is missing without stopping the run', async () => {
    const ws = workspace('esm-pkg');
    mkdirSync(join(ws, 'other'), { recursive: true });
    const ghost: Case = { ...padCases[0]!, id: 'ghost', module: 'src/nowhere' };
    const { result } = await judge(ws, [ghost, ...padCases]);
    expect(statuses(result)).toEqual(['failed', 'passed', 'passed', 'passed']);
    expect(result.tests[0]?.message).toContain('cannot load src/nowhere');
  });
});

describe.skipIf(process.getuid?.() !== 0)('JavaScript judge with privileges dropped (root only)', () => {
  // an uncommon uid: the judge kills every process of the agent user between cases
  const uid = 50_000 + Math.floor(Math.random() * 5000);

  it('runs the subject as the agent user, which cannot read the hidden cases, and kills what it leaves running', async () => {
    const hidden = makeTempDir('js-judge-hidden-');
    const cheat = [
      "import fs from 'node:fs';",
      "import { spawn } from 'node:child_process';",
      "spawn('sleep', ['300'], { detached: true, stdio: 'ignore' }).unref();",
      'export function padLeft(text, width = 8, fill = " ") {',
      `  const cases = JSON.parse(fs.readFileSync(${JSON.stringify(join(hidden, 'cases.json'))}, 'utf8')).cases;`,
      '  return JSON.parse("null");',
      '}',
    ].join('\n');
    const { result } = await judge(workspace('esm-pkg', { 'src/text.js': cheat }), padCases, { uid, hidden });
    expect(statuses(result)).toEqual(['failed', 'failed', 'failed']);
    expect(result.tests[0]?.message).toMatch(/threw Error: .*EACCES/);
    expect(result.detail).not.toContain('privileges not dropped');
    const { execFileSync } = await import('node:child_process');
    const live = execFileSync('ps', ['-eo', 'uid=,stat=,comm='], { encoding: 'utf8' })
      .split('\n')
      .filter((line) => line.trim().startsWith(`${uid} `) && !line.trim().split(/\s+/)[1]?.startsWith('Z'));
    expect(live).toEqual([]);
  });

  it('passes the original implementation as the agent user', async () => {
    const { result } = await judge(workspace('esm-pkg'), [...padCases, ...rectCases], { uid });
    expect(statuses(result)).toEqual(['passed', 'passed', 'passed', 'passed', 'passed']);
  });
});

describe('JavaScript judge on returned functions', () => {
  const FACTORY = 'export function makePrefixTest(prefix) {\n  return (s) => s.startsWith(prefix);\n}\n';
  const probes = [[str('abc')], [str('b')], [str('')], [num(1)]];
  let factoryCases: Case[] = [];

  /** A workspace holding `source` as index.js of an ES module package. */
  function factoryWorkspace(source: string): string {
    const dir = makeTempDir('js-judge-fn-');
    writeFileSync(join(dir, 'package.json'), JSON.stringify({ type: 'module' }));
    writeFileSync(join(dir, 'index.js'), source);
    return dir;
  }

  beforeAll(async () => {
    const inputs = [[str('a')], [str('b')]];
    const { kept, rejected } = await recordJavaScriptTwice({ root: factoryWorkspace(FACTORY), module: 'index', target: 'makePrefixTest', init: null, inputs: inputs.map((args) => ({ args })), probes, timeoutMs: 2000 }, { nodePath: TEST_NODE });
    expect(rejected).toEqual([]);
    factoryCases = kept.map((k) => ({ id: `f-${k.index}`, module: 'index', target: 'makePrefixTest', init: null, args: inputs[k.index] ?? [], kwargs: {}, expect: k.expect, argsAfter: k.argsAfter, source: 'type-hint' }));
  }, 30_000);

  it('passes the original factory: the returned function is called on the probes of each case', async () => {
    expect(factoryCases[0]?.expect).toEqual({
      returns: { t: 'fncalls', v: { length: 1, calls: [{ args: [str('abc')], returns: { t: 'bool', v: true } }, { args: [str('b')], returns: { t: 'bool', v: false } }, { args: [str('')], returns: { t: 'bool', v: false } }, { args: [num(1)], raises: 'TypeError' }] } },
    });
    const { result } = await judge(factoryWorkspace(FACTORY), factoryCases);
    expect(statuses(result)).toEqual(['passed', 'passed']);
  });

  it('fails a returned function that gives other results, has another length, or is not a function', async () => {
    const alwaysTrue = await judge(factoryWorkspace('export function makePrefixTest(prefix) {\n  return (s) => true;\n}\n'), factoryCases);
    expect(statuses(alwaysTrue.result)).toEqual(['failed', 'failed']);
    // the message names the first probe call that differs
    expect(alwaysTrue.result.tests[0]?.message).toBe('the returned function, called as f("b"), returns true; expected it to return false');
    const longer = await judge(factoryWorkspace('export function makePrefixTest(prefix) {\n  return (s, i) => s.startsWith(prefix, i);\n}\n'), factoryCases);
    expect(statuses(longer.result)).toEqual(['failed', 'failed']);
    expect(longer.result.tests[0]?.message).toBe('the returned function has length 2, expected 1');
    const value = await judge(factoryWorkspace('export function makePrefixTest(prefix) {\n  return prefix;\n}\n'), factoryCases);
    expect(statuses(value.result)).toEqual(['failed', 'failed']);
    expect(value.result.tests[0]?.message).toMatch(/^expected <function of length 1: f\("abc"\) => true; .*>, got "a"$/);
  });
});
