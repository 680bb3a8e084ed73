import { createRequire } from 'node:module';
import { dirname } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createJavaScriptRecorder } from '../../src/languages/javascript/javascript-recorder.js';
import { renderPrompt, renderReadableTest } from '../../src/languages/javascript/javascript-writer.js';
import { parseJavaScriptUnits } from '../../src/languages/javascript/parse-javascript-units.js';
import { mutateResultSchema, recordResultSchema } from '../../src/pipeline/record/harness-result-schema.js';
import type { RecordedCase, Unit } from '../../src/pipeline/types.js';
import { fixtureSnapshot, makeTempDir, removeTempDirs, runJavaScriptDriver } from './languages-javascript-fixtures.js';

afterAll(removeTempDirs);

const HOST_TYPESCRIPT = dirname(dirname(createRequire(import.meta.url).resolve('typescript')));
const recorder = createJavaScriptRecorder({ typescriptPath: HOST_TYPESCRIPT });

function unitNamed(units: Unit[], qualname: string): Unit {
  const unit = units.find((u) => u.qualname === qualname);
  if (unit === undefined) throw new Error(`no unit ${qualname} in ${units.map((u) => u.qualname).join(', ')}`);
  return unit;
}

const snapshot = fixtureSnapshot('internal-cjs');

describe('module-internal functions reached through an export', () => {
  it('are units recorded through the export that reaches them, directly or through another internal function; dead code is none', async () => {
    const { units } = await parseJavaScriptUnits(snapshot);
    expect(units.map((u) => u.id)).toEqual(['index:default', 'index:parseDuration', 'index:formatDuration', 'index:plural']);
    expect(unitNamed(units, 'default').via).toBeUndefined();
    for (const name of ['parseDuration', 'formatDuration', 'plural']) {
      const unit = unitNamed(units, name);
      expect(unit.via).toMatchObject({ id: 'index:default', qualname: 'default', kind: 'function' });
      expect(unit.via?.params.map((p) => p.name)).toEqual(['value']);
      expect(unit.via?.docstring).toMatch(/Converts a duration text/);
    }
    // the record target calls the export, and the mutants stay in the internal function's own lines
    const parse = unitNamed(units, 'parseDuration');
    const target = recorder.target({ unit: parse, reasons: [] }, new Map(), []);
    expect(target).toMatchObject({ unitId: 'index:parseDuration', target: 'default', via: true, startLine: parse.startLine, endLine: parse.endLine });
    expect((target.params as { name: string }[]).map((p) => p.name)).toEqual(['value']);
  });

  it('keep only the recorded calls of the export that their masked body changes', async () => {
    const { units } = await parseJavaScriptUnits(snapshot);
    const candidates = ['parseDuration', 'formatDuration'].map((q) => ({ unit: unitNamed(units, q), reasons: [] }));
    const common = { ...recorder.config(candidates, snapshot.dir), repoRoot: snapshot.dir, seed: 3, workDir: makeTempDir('cm-jsint-'), callTimeoutMs: 2000 };
    const str = (v: string): { t: string; v: string } => ({ t: 'str', v });
    const num = (v: number): { t: string; v: string } => ({ t: 'number', v: String(v) });
    // the same calls of `convert` for both: strings reach parseDuration, numbers formatDuration
    const inputs: { args: { t: string; v: string }[] }[] = [{ args: [str('2h')] }, { args: [str('90s')] }, { args: [num(5400000)] }, { args: [num(45)] }];
    const recordConfig = {
      ...common,
      maxCases: 40,
      traceTimeoutMs: 10_000,
      runRepoTests: false,
      targets: candidates.map((c) => ({ ...recorder.target(c, new Map(), []), proposed: inputs.map((i) => ({ args: i.args, init: null })) })),
    };
    const recorded = recordResultSchema.parse(await runJavaScriptDriver('record', recordConfig));
    const byId = new Map(candidates.map((c) => [c.unit.id, c] as const));
    const mutateConfig = {
      ...common,
      search: false,
      maxNewCases: 20,
      maxMutants: 150,
      targets: recorded.targets.map((t) => ({ ...recorder.target(byId.get(t.unitId)!, new Map(), []), cases: t.cases })),
    };
    const mutated = mutateResultSchema.parse(await runJavaScriptDriver('mutate', mutateConfig));
    for (const [unitId, tag] of [['index:parseDuration', 'str'], ['index:formatDuration', 'number']] as const) {
      const result = mutated.targets.find((t) => t.unitId === unitId)!;
      const before = recorded.targets.find((t) => t.unitId === unitId)!.cases;
      expect(result.error).toBeNull();
      // every case kept passes its argument's kind to the path of this function, and none of the other
      expect(result.cases?.length).toBeGreaterThan(0);
      expect(result.cases?.every((c) => c.target === 'default' && (c.args[0] as { t: string }).t === tag)).toBe(true);
      expect(result.rejected?.unreached).toBe(before.length - (result.cases?.length ?? 0));
      expect(result.rejected?.unreached).toBeGreaterThan(0);
    }
  }, 60_000);

  it('are described to the agent as internal, with the export that the examples and tests call', async () => {
    const { units } = await parseJavaScriptUnits(snapshot);
    const parse = unitNamed(units, 'parseDuration');
    const c: RecordedCase = {
      id: 'c1', module: 'index', target: 'default', init: null, args: [{ t: 'str', v: '2h' }], kwargs: {},
      expect: { returns: { t: 'number', v: '7200000' } }, argsAfter: null, source: 'llm',
    };
    const prompt = renderPrompt({ unit: parse, cases: [c], libraryName: 'the package `internal-cjs`' });
    expect(prompt).toContain('# Implement `parseDuration` in `index.js`');
    expect(prompt).toMatch(/`parseDuration` in `index.js` is internal to its module \(not exported\)/);
    expect(prompt).toContain("const index = require('./index.js')");
    expect(prompt).toContain('function parseDuration(text)');
    expect(prompt).toContain('## The export that calls it');
    expect(prompt).toContain("> index('2h')\n7200000");
    const readable = renderReadableTest({ taskId: 't', taskName: 'parse-duration', cases: [c], unit: parse });
    expect(readable.content).toContain("const TARGET = 'default'");
  });
});
