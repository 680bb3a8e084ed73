import { spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RecordedCase, Unit } from '../../src/languages/construction-types.js';
import { loadJavaScriptGrammars } from '../../src/languages/javascript/javascript-grammars.js';
import {
  exampleBlock, exampleLines, javascriptWriter, pickExamples, renderPrompt, renderReadableTest, taskTitle, withCoMaskedNote,
} from '../../src/languages/javascript/javascript-writer.js';
import { maskJavaScriptBody } from '../../src/languages/javascript/mask-javascript-body.js';
import { parseJavaScriptUnits } from '../../src/languages/javascript/parse-javascript-units.js';
import { javascriptRuntimeDir, recordJavaScriptTwice, type TaggedValue } from '../../src/languages/javascript/record-javascript-cases.js';
import { hiddenCasesSentence } from '../../src/pipeline/write/write-task.js';
import { javascriptExamplesCheck, parseJavaScriptPromptExamples } from '../../src/languages/javascript/javascript-prompt-examples.js';
import { withoutExamples } from '../../src/pipeline/write/prompt-examples.js';
import { FIXTURES, fixtureSnapshot, makeTempDir, removeTempDirs, runJudge, TEST_NODE } from './languages-javascript-fixtures.js';

const PKG = join(FIXTURES, 'writer-pkg');

interface Codec {
  encode(value: unknown): TaggedValue;
}

let codec: Codec;
let units: Unit[];

beforeAll(async () => {
  codec = (await import(pathToFileURL(join(javascriptRuntimeDir(), 'codec.mjs')).href)) as Codec;
  units = (await parseJavaScriptUnits(fixtureSnapshot('writer-pkg'))).units;
  await loadJavaScriptGrammars();
});
afterAll(removeTempDirs);

function unitOf(qualname: string, module = 'src/values'): Unit {
  const unit = units.find((u) => u.qualname === qualname && u.module === module);
  if (unit === undefined) throw new Error(`no unit ${module}:${qualname}`);
  return unit;
}

/** Records `inputs` (live values, encoded) on the fixture and returns them as RecordedCases, as the record stage would. */
async function record(unit: Unit, inputs: unknown[][], init: unknown[] | null = null): Promise<RecordedCase[]> {
  const encodedInit = init === null ? null : { args: init.map((a) => codec.encode(a)) };
  const result = await recordJavaScriptTwice(
    { root: PKG, module: unit.module, target: unit.qualname, init: encodedInit, inputs: inputs.map((args) => ({ args: args.map((a) => codec.encode(a)) })), timeoutMs: 2000 },
    { nodePath: TEST_NODE },
  );
  expect(result.rejected).toEqual([]);
  return result.kept.map((k) => ({
    id: `${unit.qualname}-${k.index}`,
    module: unit.module,
    target: unit.qualname,
    init: encodedInit === null ? null : { args: encodedInit.args, kwargs: {} },
    args: inputs[k.index]?.map((a) => codec.encode(a)) ?? [],
    kwargs: {},
    expect: k.expect,
    argsAfter: k.argsAfter,
    source: 'repo-test',
  }));
}

/** The recorded cases of the fixture's units used below. */
async function fixtureCases(): Promise<Map<string, { unit: Unit; cases: RecordedCase[] }>> {
  const plan: [string, unknown[][], unknown[] | null, string?][] = [
    ['countWords', [['a b a'], [42], ['']], null],
    ['negate', [[0], [Number.NaN], [10n], [-2.5]], null],
    ['sparse', [[3], [1]], null],
    ['unique', [[[1, 1, 'x']]], null],
    ['push', [[['a'], 'b'], [[], { k: 1 }]], null],
    ['bytes', [['hé']], null],
    ['when', [[0]], null],
    ['pattern', [['a+b']], null],
    ['later', [[3], [-1], [2]], null],
    ['mid', [[{ x: 0, y: 0 }, { x: 2, y: 4 }]], null],
    ['Point.norm', [[]], [3, 4]],
    ['Point.scaled', [[2], [0]], [1, -1]],
    ['Point.sum', [[]], [2, 5]],
    ['clamp', [[5, 0, 3], [1, 2, 0], [-1, 0, 3]], null, 'src/legacy'],
  ];
  const out = new Map<string, { unit: Unit; cases: RecordedCase[] }>();
  for (const [qualname, inputs, init, module] of plan) {
    const unit = unitOf(qualname, module);
    out.set(qualname, { unit, cases: await record(unit, inputs, init) });
  }
  return out;
}

let recorded: Map<string, { unit: Unit; cases: RecordedCase[] }>;
beforeAll(async () => {
  recorded = await fixtureCases();
}, 60_000);

function recordedOf(qualname: string): { unit: Unit; cases: RecordedCase[] } {
  const found = recorded.get(qualname);
  if (found === undefined) throw new Error(`nothing recorded for ${qualname}`);
  return found;
}

/**
 * Evaluates `lines` in order as a Node REPL would (tests/fixtures/javascript/repl-eval.mjs) with the
 * fixture's modules' exports as globals, and returns what the REPL would print for each.
 */
function evaluateLines(lines: string[]): string[] {
  const modules = ['src/values.js', 'src/legacy.cjs'].map((f) => pathToFileURL(join(PKG, f)).href);
  const run = spawnSync(TEST_NODE, [join(FIXTURES, 'repl-eval.mjs'), JSON.stringify([modules, lines])], { cwd: PKG, encoding: 'utf8', timeout: 20_000 });
  expect(run.status, run.stderr).toBe(0);
  return JSON.parse(run.stdout) as string[];
}

describe('JavaScript prompt examples', () => {
  it('print exactly what a Node REPL prints for each example line, run on the fixture', () => {
    const blocks: string[] = [];
    for (const { unit, cases } of recorded.values()) for (const c of pickExamples(cases)) blocks.push(exampleBlock(unit, c));
    expect(blocks.length).toBeGreaterThan(20);
    const inputs: string[] = [];
    const shown: string[] = [];
    for (const block of blocks) {
      for (const line of block.split('\n')) {
        if (line.startsWith('> ')) {
          inputs.push(line.slice(2));
          shown.push('');
        } else shown[shown.length - 1] = shown.at(-1) === '' ? line : `${shown.at(-1)}\n${line}`;
      }
    }
    const printed = evaluateLines(inputs);
    expect(printed).toHaveLength(inputs.length);
    shown.forEach((text, i) => {
      const got = printed[i] ?? '';
      const context = `example line: > ${inputs[i]}`;
      // a throw shows the class and elides the message
      if (text.startsWith('Uncaught ')) expect(got.startsWith(text.replace(/\.\.\.$/, '')), `${context}\nprinted: ${got}`).toBe(true);
      else expect(got, context).toBe(text);
    });
  }, 30_000);

  it('shows values as util.inspect does: Map, -0, NaN, bigint, holes, typed arrays, dates, null-prototype objects, instances', () => {
    const block = (qualname: string, index = 0): string => {
      const { unit, cases } = recordedOf(qualname);
      return exampleBlock(unit, cases[index] as RecordedCase);
    };
    expect(block('countWords')).toBe("> countWords('a b a')\nMap(2) { 'a' => 2, 'b' => 1 }");
    expect(block('negate', 0)).toBe('> negate(0)\n-0');
    expect(block('negate', 2)).toBe('> negate(10n)\n-10n');
    expect(block('sparse')).toBe('> sparse(3)\n[ 1, <2 empty items> ]');
    expect(block('bytes')).toBe("> bytes('hé')\nUint8Array(3) [ 104, 195, 169 ]");
    expect(block('when')).toBe('> when(0)\n1970-01-01T00:00:00.000Z');
    expect(block('later')).toBe("> await later(3)\n[Object: null prototype] { value: 3, 'is-odd': true }");
    expect(block('mid')).toBe('> mid({ x: 0, y: 0 }, { x: 2, y: 4 })\nPoint { x: 1, y: 2 }');
    expect(block('Point.norm')).toBe('> new Point(3, 4).norm()\n5');
    expect(block('Point.sum')).toBe('> new Point(2, 5).sum\n7');
    expect(block('Point.scaled', 1)).toBe('> new Point(1, -1).scaled(0)\nUncaught RangeError: ...');
    expect(block('countWords', 1)).toBe('> countWords(42)\nUncaught TypeError: ...');
    // a case that asserts only a throw: the class the original threw, and that only the throw is checked
    const { unit, cases } = recordedOf('countWords');
    const anyThrow = { ...(cases[1] as RecordedCase), expect: { raises: '*' }, shown: ['TypeError'] };
    expect(exampleBlock(unit, anyThrow)).toBe('> countWords(42) // throws; the hidden tests check only that it throws\nUncaught TypeError: ...');
  });

  it('binds an argument the call changes, and shows it again after the call', () => {
    const { unit, cases } = recordedOf('push');
    expect(exampleBlock(unit, cases[0] as RecordedCase)).toBe("> var list = ['a']\nundefined\n> push(list, 'b')\n2\n> list\n[ 'a', 'b' ]");
  });

  it('picks at most three examples, at most one that throws, results before the throw', () => {
    const { cases } = recordedOf('clamp');
    expect(cases.map((c) => 'raises' in c.expect)).toEqual([false, true, false]);
    const picked = pickExamples(cases);
    expect(picked.map((c) => c.id)).toEqual(['clamp-0', 'clamp-2', 'clamp-1']);
    const { cases: later } = recordedOf('later');
    const twoThrows = [...later, { ...(later[1] as RecordedCase), id: 'later-x' }];
    expect(pickExamples(twoThrows).filter((c) => 'raises' in c.expect)).toHaveLength(1);
    expect(pickExamples(recordedOf('negate').cases)).toHaveLength(3);
  });
});

describe('JavaScript prompt', () => {
  it('names the target, its import, the masked throw, the signature, the JSDoc, the examples and what is compared', () => {
    const { unit, cases } = recordedOf('countWords');
    const prompt = renderPrompt({ unit, cases, libraryName: 'the JavaScript package `writer-pkg`' });
    expect(prompt).toContain('# Implement `countWords` in `src/values.js`');
    expect(prompt).toContain("imported as `import { countWords } from './src/values.js'`");
    expect(prompt).toContain("it now throws `Error('not implemented')`");
    expect(prompt).toContain('```js\nexport function countWords(text)\n```');
    expect(prompt).toContain('## Behaviour\n\nCounts each word of `text`, in order of first appearance.\nThrows a TypeError when `text` is not a string.');
    expect(prompt).toContain(hiddenCasesSentence(3));
    expect(prompt).toContain('`-0` is not `0`');
    expect(exampleLines(prompt)).toEqual(["> countWords('a b a')", "> countWords('')", '> countWords(42)']);
  });

  it('shows a CommonJS import with require and a method on an instance built from init', () => {
    const clamp = recordedOf('clamp');
    expect(renderPrompt({ unit: clamp.unit, cases: clamp.cases, libraryName: 'x' })).toContain("imported as `const { clamp } = require('./src/legacy.cjs')`");
    const norm = recordedOf('Point.norm');
    const prompt = renderPrompt({ unit: norm.unit, cases: norm.cases, libraryName: 'x' });
    expect(prompt).toContain('The method `Point.norm` in `src/values.js`');
    expect(prompt).toContain("`import { Point } from './src/values.js'`");
    expect(exampleLines(prompt)).toEqual(['> new Point(3, 4).norm()']);
  });

  it('says an undocumented unit\'s examples are its spec, with its call sites outside tests', () => {
    const { unit, cases } = recordedOf('countWords');
    const bare: Unit = {
      ...unit,
      docstring: null,
      callSites: [
        { file: 'test/values.test.js', line: 3, caller: 'check', argumentTexts: ["'a'"], allLiteral: true },
        { file: 'src/report.js', line: 12, caller: 'summarise', argumentTexts: ['text'], allLiteral: false },
      ],
    };
    const prompt = renderPrompt({ unit: bare, cases, libraryName: 'x' });
    expect(prompt).toContain('## Behaviour\n\n`countWords` has no documentation. What it must do is what the examples below show');
    expect(prompt).toContain('- `countWords(text)` in `summarise` (`src/report.js`, line 12)');
    expect(prompt).not.toContain('test/values.test.js');
  });

  it('fences a TypeScript signature as ts', () => {
    const unit = { ...unitOf('negate'), file: 'src/values.ts', signature: 'export function negate(x: number): number' };
    expect(renderPrompt({ unit, cases: [], libraryName: 'x' })).toContain('```ts\nexport function negate(x: number): number\n```');
  });

  it('titles a task by the JSDoc first sentence, else Implement <qualname>', () => {
    expect(taskTitle(unitOf('countWords'))).toBe('Counts each word of `text`, in order of first appearance');
    expect(taskTitle(unitOf('unique'))).toBe('Implement unique');
    expect(taskTitle({ ...unitOf('unique'), docstring: '/**\n * Makes a set. Then more.\n */' })).toBe('Makes a set');
  });

  it('notes the co-masked units, and leaves the prompt alone when there are none', () => {
    expect(withCoMaskedNote('P\n', [])).toBe('P\n');
    const note = withCoMaskedNote('P\n', [unitOf('negate'), unitOf('Point.norm')]);
    expect(note).toContain('`negate` (`src/values.js`), `Point.norm` (`src/values.js`)');
    expect(note).toContain("They throw `Error('not implemented')` too");
  });
});

describe('JavaScript readable test', () => {
  function runReadable(root: string, qualname: string): { status: number | null; output: string } {
    const { unit, cases } = recordedOf(qualname);
    const readable = javascriptWriter.readableTest({ taskId: 'suite/x', taskName: qualname.toLowerCase().replace('.', '-'), cases, unit });
    expect(readable.path).toMatch(/^readable\/[a-z-]+\.test\.mjs$/);
    const file = join(root, 'hidden', readable.path);
    mkdirSync(join(file, '..'), { recursive: true });
    writeFileSync(file, readable.content);
    const run = spawnSync(TEST_NODE, ['--test', file], { cwd: root, encoding: 'utf8', timeout: 30_000 });
    return { status: run.status, output: `${run.stdout}${run.stderr}` };
  }

  const TARGETS = ['countWords', 'negate', 'sparse', 'unique', 'push', 'bytes', 'when', 'pattern', 'later', 'mid', 'Point.norm', 'Point.scaled', 'Point.sum', 'clamp'];

  it('passes on the original fixture for every recorded target', () => {
    const root = makeTempDir('codemidas-readable-');
    cpSync(PKG, root, { recursive: true });
    for (const qualname of TARGETS) {
      const { status, output } = runReadable(root, qualname);
      expect(status, `${qualname}\n${output}`).toBe(0);
      expect(output).toContain(`# pass ${recordedOf(qualname).cases.length}`);
    }
  }, 120_000);

  it('fails on a copy with the target masked', () => {
    for (const qualname of ['countWords', 'push', 'Point.norm', 'clamp', 'later']) {
      const root = makeTempDir('codemidas-readable-masked-');
      cpSync(PKG, root, { recursive: true });
      const { unit } = recordedOf(qualname);
      const file = join(root, unit.file);
      writeFileSync(file, maskJavaScriptBody(readFileSync(file, 'utf8'), unit));
      const { status, output } = runReadable(root, qualname);
      expect(status, output).not.toBe(0);
      expect(output).toMatch(/# fail [1-9]/);
    }
  }, 120_000);

  it('writes evaluable literals and binds the classes the cases build', () => {
    const { unit, cases } = recordedOf('mid');
    const { content } = renderReadableTest({ taskId: 't', taskName: 'mid', cases, unit });
    expect(content).toContain("const Point = exportedClass('Point');");
    expect(content).toContain('assert.deepStrictEqual(value, Object.assign(Object.create(Point.prototype), { x: 1, y: 2 }));');
    expect(content).toContain("import test from 'node:test';");
    expect(content).toContain("import assert from 'node:assert/strict';");
  });
});

describe('JavaScript prompt example lines', () => {
  it('are the REPL lines inside code fences only, and the prompt names the classes the examples build', () => {
    expect(exampleLines('> a quote\n```js\n> f(1)\n1\n```\n> another')).toEqual(['> f(1)']);
    const unit = { ...unitOf('mid') };
    const point = { t: 'instance', v: { class: 'Point', props: [['x', { t: 'number', v: '1' }], ['y', { t: 'number', v: '1' }]] } };
    const c: RecordedCase = {
      id: 'c', module: 'src/values', target: 'mid', init: null, args: [point, point], kwargs: {}, expect: { returns: point }, argsAfter: null, source: 'repo-test',
    };
    const prompt = renderPrompt({ unit, cases: [c], libraryName: 'x' });
    expect(prompt).toContain('with `mid` imported as above, and `Point` imported from the same module:');
    expect(exampleLines(prompt)).toEqual(['> mid(Object.assign(Object.create(Point.prototype), { x: 1, y: 1 }), Object.assign(Object.create(Point.prototype), { x: 1, y: 1 }))']);
  });
});

describe('JavaScript readable test of a TypeScript module', () => {
  it('passes with a TypeScript loader on the original, fails on the masked copy', async () => {
    const ts = join(FIXTURES, 'ts-pkg');
    const unit = (await parseJavaScriptUnits(fixtureSnapshot('ts-pkg'))).units.find((u) => u.qualname === 'summarize');
    if (unit === undefined) throw new Error('no summarize unit');
    const inputs = [[[3, 1.23456, 2]], [[]], [[5], 0]];
    const result = await recordJavaScriptTwice(
      {
        root: ts, module: unit.module, target: unit.qualname, init: null, timeoutMs: 5000,
        inputs: inputs.map((args) => ({ args: args.map((a) => codec.encode(a)) })), typescriptPath: join(import.meta.dirname, '../../node_modules/typescript'),
      },
      { nodePath: TEST_NODE },
    );
    expect(result.kept).toHaveLength(3);
    const cases: RecordedCase[] = result.kept.map((k) => ({
      id: `summarize-${k.index}`, module: unit.module, target: unit.qualname, init: null, args: inputs[k.index]?.map((a) => codec.encode(a)) ?? [], kwargs: {},
      expect: k.expect, argsAfter: k.argsAfter, source: 'repo-test',
    }));
    const prompt = renderPrompt({ unit, cases, libraryName: 'x' });
    expect(prompt).toContain('```ts\nexport function summarize(values: readonly number[], digits: number = 2): Summary\n```');
    expect(exampleLines(prompt)).toEqual(['> summarize([3, 1.23456, 2])', '> summarize([5], 0)', '> summarize([])']);
    const { path, content } = renderReadableTest({ taskId: 't', taskName: 'summarize', cases, unit });
    const loader = import.meta.resolve('tsx');
    for (const masked of [false, true]) {
      const root = makeTempDir('codemidas-readable-ts-');
      cpSync(ts, root, { recursive: true });
      if (masked) writeFileSync(join(root, unit.file), maskJavaScriptBody(readFileSync(join(root, unit.file), 'utf8'), unit));
      const file = join(root, 'hidden', path);
      mkdirSync(join(file, '..'), { recursive: true });
      writeFileSync(file, content);
      const run = spawnSync(TEST_NODE, ['--import', loader, '--test', file], { cwd: root, encoding: 'utf8', timeout: 60_000 });
      expect(run.status === 0, `${masked ? 'masked' : 'original'}\n${run.stdout}${run.stderr}`).toBe(!masked);
    }
  }, 120_000);
});

describe('JavaScript class and module prompts (issue 19, part 1)', () => {
  it("names the class and each removed method, then each method's examples, which the examples gate passes on the original", async () => {
    const norm = recordedOf('Point.norm');
    const scaled = recordedOf('Point.scaled');
    const cases = [...norm.cases, ...scaled.cases];
    const prompt = renderPrompt({ unit: norm.unit, cases, libraryName: 'x', methods: [norm.unit, scaled.unit], shape: 'class' });
    expect(prompt).toContain('# Implement the methods of `Point` in `src/values.js`');
    expect(prompt).toContain("The class `Point` in `src/values.js` (imported as `import { Point } from './src/values.js'`");
    expect(prompt).toContain('has lost the bodies of 2 methods: `norm`, `scaled`.');
    expect(prompt).toContain('## `Point.norm`');
    expect(prompt).toContain('## `Point.scaled`');
    // one example of each behaviour of each method: norm returns; scaled returns and throws
    expect(exampleLines(prompt)).toEqual(['> new Point(3, 4).norm()', '> new Point(1, -1).scaled(2)', '> new Point(1, -1).scaled(0)']);
    const check = javascriptExamplesCheck({ taskId: 'w/t', prompt, unit: norm.unit, tests: { runner: 'node', cases: 'cases.json', timeoutMs: 60_000, caseTimeoutMs: 5000 } })!;
    const document = JSON.parse(check.files.get('examples/prompt-examples.json')!.toString('utf8'));
    const results = (await runJudge(PKG, [], { document })).result.tests;
    expect(results.map((t) => t.status)).toEqual(['passed', 'passed', 'passed']);
  }, 30_000);

  it('names the module and each removed function with its import', () => {
    const negate = recordedOf('negate');
    const sparse = recordedOf('sparse');
    const prompt = renderPrompt({ unit: negate.unit, cases: [...negate.cases, ...sparse.cases], libraryName: 'x', methods: [negate.unit, sparse.unit], shape: 'module' });
    expect(prompt).toContain('# Implement the functions of `src/values.js`');
    expect(prompt).toContain('has lost the bodies of 2 functions: `negate`, `sparse`.');
    expect(prompt).toContain("The function `sparse`, imported as `import { sparse } from './src/values.js'");
    expect(exampleLines(prompt).filter((l) => l.startsWith('> sparse('))).not.toEqual([]);
    expect(exampleLines(prompt).filter((l) => l.startsWith('> negate('))).not.toEqual([]);
  });
});

describe('the JavaScript examples gate (issue 19, part 2)', () => {
  const tests = { runner: 'node', cases: 'cases.json', timeoutMs: 60_000, caseTimeoutMs: 5000 };
  const checkOf = (qualname: string, prompt?: string) => {
    const { unit, cases } = recordedOf(qualname);
    const text = prompt ?? renderPrompt({ unit, cases, libraryName: 'the package' });
    return { text, check: javascriptExamplesCheck({ taskId: 'w/t', prompt: text, unit, tests })! };
  };
  const judged = async (check: ReturnType<typeof checkOf>['check']) => {
    const document = JSON.parse(check.files.get('examples/prompt-examples.json')!.toString('utf8'));
    return (await runJudge(PKG, [], { document })).result.tests;
  };

  it('reads each blank-line-separated REPL session of the Examples sections as one example, with what each input prints', () => {
    const { unit, cases } = recordedOf('push');
    const prompt = renderPrompt({ unit, cases, libraryName: 'the package' });
    const examples = parseJavaScriptPromptExamples(prompt);
    expect(examples.map((e) => e.id)).toEqual(['e1', 'e2']);
    expect(examples[0]!.lines).toEqual([
      { input: "var list = ['a']", output: 'undefined' },
      { input: "push(list, 'b')", output: '2' },
      { input: 'list', output: "[ 'a', 'b' ]" },
    ]);
    // cutting an example out leaves the others and a prompt that parses the same way
    const cut = withoutExamples(prompt, [examples[0]!]);
    expect(cut).not.toContain("push(list, 'b')");
    expect(parseJavaScriptPromptExamples(cut).map((e) => e.lines)).toEqual([examples[1]!.lines]);
  });

  it('passes every example the writer shows on the original, one test per example, classes from the module and awaited promises included', async () => {
    for (const qualname of ['countWords', 'push', 'later', 'Point.scaled', 'negate', 'mid']) {
      const { check } = checkOf(qualname);
      const results = await judged(check);
      expect(results.map((t) => t.name), qualname).toEqual(check.examples.map((e) => `example:${e.id}`));
      expect(results.filter((t) => t.status !== 'passed'), qualname).toEqual([]);
      expect(results.map((t) => check.exampleOf(t.name))).toEqual(check.examples.map((e) => e.id));
    }
  }, 60_000);

  it('fails an example whose shown output the original does not print, naming the line', async () => {
    const { text } = checkOf('countWords');
    const wrong = text.replace("Map(2) { 'a' => 2, 'b' => 1 }", "Map(2) { 'a' => 3, 'b' => 1 }");
    expect(wrong).not.toBe(text);
    const { check } = checkOf('countWords', wrong);
    const results = await judged(check);
    expect(results.filter((t) => t.status === 'failed').map((t) => t.message)).toEqual([
      `> countWords('a b a') printed "Map(2) { 'a' => 2, 'b' => 1 }", the prompt shows "Map(2) { 'a' => 3, 'b' => 1 }"`,
    ]);
  }, 30_000);
});

