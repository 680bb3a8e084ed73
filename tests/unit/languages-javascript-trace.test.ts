import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { createJavaScriptRecorder } from '../../src/languages/javascript/javascript-recorder.js';
import { parseJavaScriptUnits } from '../../src/languages/javascript/parse-javascript-units.js';
import { javascriptRuntimeDir } from '../../src/languages/javascript/record-javascript-cases.js';
import { recordResultSchema } from '../../src/pipeline/record/harness-result-schema.js';
import { FIXTURES, fixtureSnapshot, makeTempDir, removeTempDirs, runJavaScriptDriver, runNodeJson } from './languages-javascript-fixtures.js';

const HOST_TYPESCRIPT = dirname(dirname(createRequire(import.meta.url).resolve('typescript')));
const TRACE_TESTS = pathToFileURL(join(javascriptRuntimeDir(), 'trace-tests.mjs')).href;

interface Tagged {
  t: string;
  v?: unknown;
}
interface TracedInput {
  args: Tagged[];
  init: { args: Tagged[] } | null;
}
interface Traced {
  inputs: TracedInput[][];
  traces: { mode: string; timedOut: boolean; records: number }[];
}

/** trace-tests.mjs's traceRepoTests on a fixture package, for targets given as `module:exportPath`. */
async function trace(pkg: string, targets: string[], options: Record<string, number> = {}): Promise<Traced> {
  const script = `import { traceRepoTests } from ${JSON.stringify(TRACE_TESTS)};
    let text = ''; for await (const c of process.stdin) text += c;
    const { config, options } = JSON.parse(text);
    process.stdout.write(JSON.stringify(await traceRepoTests(config, options)));`;
  const config = {
    repoRoot: join(FIXTURES, pkg),
    workDir: makeTempDir('cm-jstrace-'),
    typescriptPath: HOST_TYPESCRIPT,
    runRepoTests: true,
    targets: targets.map((t) => ({ module: t.split(':')[0], target: t.split(':')[1] })),
  };
  return (await runNodeJson(['--input-type=module', '-e', script], JSON.stringify({ config, options }))) as Traced;
}

/** The plain values of an input's arguments (strings and numbers as their text). */
const values = (input: TracedInput): unknown[] => input.args.map((a) => a.v);

afterAll(removeTempDirs);

describe('traceRepoTests', () => {
  it('takes the arguments of an ES package\'s vitest-style tests (re-exports, classes, default objects); a file that loops or exits loses only itself', async () => {
    const traced = await trace('trace-esm', ['src/text:padLeft', 'src/text:Rect.area', 'src/text:Rect.square', 'src/text:default.describe'], { fileMs: 3000 });
    const [padLeft, area, square, describeShape] = traced.inputs;
    // a callback argument is no input; skipped suites do not run; the looping and exiting files keep what they did before
    // `pad` is padLeft exported under a second name; build/text.js (absent) is src/text.js
    expect(padLeft!.map(values)).toEqual(expect.arrayContaining([['ab', '5', '*'], ['alias', '6'], ['from the build', '1'], ['x', '3'], ['yy', '1'], ['7', '2'], ['before the loop', '1'], ['before the exit', '1']]));
    // a tagged template (padLeft`tagged`) is one: its strings with their `raw` as an own property
    const tagged = padLeft!.find((i) => i.args[0]?.t === 'array');
    expect(tagged?.args).toEqual([{ t: 'array', v: [{ t: 'str', v: 'tagged' }], props: [['raw', { t: 'array', v: [{ t: 'str', v: 'tagged' }] }]] }]);
    expect(padLeft!.map(values)).toHaveLength(9);
    expect(padLeft!.map(values)).not.toContainEqual(['after the exit', '1']);
    expect(padLeft!.every((i) => i.init === null)).toBe(true);
    // an instance method's call carries the arguments its instance was built with
    expect(area).toEqual([{ args: [], init: { args: [{ t: 'number', v: '2' }, { t: 'number', v: '3' }] } }]);
    expect(square!.map(values)).toEqual([['4']]);
    expect(describeShape).toEqual([{ args: [{ t: 'object', v: [['width', { t: 'number', v: '1' }], ['height', { t: 'number', v: '2' }]] }], init: null }]);
    expect(traced.traces).toEqual([{ mode: 'repo-test', timedOut: true, records: 12 }]);
  });

  it('traces a module in an import cycle whose other side reads its exports at load', async () => {
    const traced = await trace('trace-esm', ['src/cycle:main'], { fileMs: 3000 });
    // the wrapper's export is read before it has run: undefined, not a ReferenceError that loses the file
    expect(traced.inputs[0]!.map(values)).toEqual([['9']]);
  });

  it('takes the arguments of a CommonJS package\'s mocha-style (hooks, this, done, chai), node:test and tape tests, with helper packages missing', async () => {
    const traced = await trace('trace-cjs', ['lib/words:capitalize', 'lib/words:Counter.add', 'lib/slug:default'], { fileMs: 4000 });
    const [capitalize, add, slug] = traced.inputs;
    expect(capitalize!.map(values).sort()).toEqual([['abc'], ['hello'], ['later'], ['node'], ['subtest'], ['tape'], ['tape-sub']]);
    expect(add).toEqual([{ args: [{ t: 'number', v: '2' }], init: { args: [{ t: 'number', v: '5' }] } }]);
    expect(slug!.map(values)).toEqual([['A B', '_']]);
    // the tape test ended when its plan was met, not at the file's deadline
    expect(traced.traces).toEqual([{ mode: 'repo-test', timedOut: false, records: 9 }]);
  });

  it('runs TypeScript test files through the transpile step (a function exported under two names traced under both; the missing dist/ is the source; workspace packages by name)', async () => {
    const traced = await trace('trace-ts', ['src/stats:mean', 'packages/util/src/index:twice']);
    // a monorepo's workspace package, imported by its name
    expect(traced.inputs[1]!.map(values)).toEqual([['ab']]);
    expect(traced.inputs[0]!.map((i) => i.args[0])).toEqual([
      { t: 'array', v: [{ t: 'number', v: '7' }] },
      { t: 'array', v: [{ t: 'number', v: '8' }, { t: 'number', v: '9' }] },
      { t: 'array', v: [{ t: 'number', v: '1' }, { t: 'number', v: '2' }, { t: 'number', v: '3' }] },
      { t: 'array', v: [] },
      { t: 'array', v: [{ t: 'number', v: '4' }] },
    ]);
  }, 30_000);

  it('caps the inputs per target and runs nothing with runRepoTests off', async () => {
    const capped = await trace('trace-esm', ['src/text:padLeft'], { perTarget: 2, fileMs: 3000 });
    expect(capped.inputs[0]).toHaveLength(2);
    const script = `import { traceRepoTests } from ${JSON.stringify(TRACE_TESTS)};
      process.stdout.write(JSON.stringify(await traceRepoTests({ repoRoot: ${JSON.stringify(join(FIXTURES, 'trace-esm'))}, runRepoTests: false, targets: [{ module: 'src/text', target: 'padLeft' }] })));`;
    expect(await runNodeJson(['--input-type=module', '-e', script], '')).toEqual({ inputs: [[]], traces: [] });
  });
});

describe('pickVaried', () => {
  it('keeps the rare calls of a long table of similar ones, in the tests\' order', async () => {
    const { pickVaried } = (await import(TRACE_TESTS)) as { pickVaried: (inputs: TracedInput[], limit: number) => TracedInput[] };
    const call = (...args: Tagged[]): TracedInput => ({ args, init: null });
    const table = Array.from({ length: 50 }, (_, i) => call({ t: 'str', v: `${i}ms` }));
    const inputs = [...table.slice(0, 25), call({ t: 'str', v: '' }), ...table.slice(25), call({ t: 'number', v: '-3' }), call({ t: 'str', v: 'x' }, { t: 'object', v: [['long', { t: 'bool', v: true }]] })];
    const picked = pickVaried(inputs, 5);
    expect(picked).toHaveLength(5);
    expect(picked.slice(0, 2)).toEqual([table[0], table[1]]);
    expect(picked.slice(2)).toEqual([call({ t: 'str', v: '' }), ...inputs.slice(-2)]);
    expect(pickVaried(inputs.slice(0, 4), 5)).toEqual(inputs.slice(0, 4));
  });
});

describe('record-driver.mjs with the repository\'s tests', () => {
  it('records the traced calls first, as source repo-test, with results from the recording; a traced instance serves the other inputs', async () => {
    const recorder = createJavaScriptRecorder({ typescriptPath: HOST_TYPESCRIPT });
    const snapshot = fixtureSnapshot('trace-cjs');
    const { units } = await parseJavaScriptUnits(snapshot);
    const candidates = units.filter((u) => u.qualname === 'capitalize' || u.qualname === 'Counter.add').map((unit) => ({ unit, reasons: [] }));
    const config = {
      ...recorder.config(candidates, snapshot.dir),
      repoRoot: snapshot.dir,
      seed: 7,
      workDir: makeTempDir('cm-jstrace-'),
      callTimeoutMs: 2000,
      maxCases: 40,
      traceTimeoutMs: 20_000,
      runRepoTests: true,
      targets: candidates.map((c) => recorder.target(c, new Map(), [])),
    };
    const result = recordResultSchema.parse(await runJavaScriptDriver('record', config));
    expect(result.traces).toEqual([{ mode: 'repo-test', timedOut: false, records: 8 }]);
    const capitalize = result.targets.find((t) => t.unitId.endsWith(':capitalize'))!;
    expect(capitalize.sources['repo-test']).toEqual({ tried: 7, kept: 7 });
    expect(capitalize.cases.slice(0, 7).map((c) => c.source)).toEqual(Array(7).fill('repo-test'));
    // the expected value is the recording's, not the failing test's 'nope'
    expect(capitalize.cases.find((c) => c.args[0]?.v === 'abc')?.expect).toEqual({ returns: { t: 'str', v: 'Abc' } });
    const add = result.targets.find((t) => t.unitId.endsWith(':Counter.add'))!;
    expect(add.cases[0]).toMatchObject({ source: 'repo-test', init: { args: [{ t: 'number', v: '5' }] }, args: [{ t: 'number', v: '2' }], expect: { returns: { t: 'number', v: '7' } } });
    // the instance the tests built serves the other inputs first
    expect(add.cases.find((c) => c.source === 'type-hint')?.init).toEqual({ args: [{ t: 'number', v: '5' }], kwargs: {} });
  }, 60_000);
});
