/**
 * The entry pass of recordCandidates: a candidate whose own cases kill too few of its mutants (or
 * that kept no case) is mutation tested again through a recorded candidate whose calls reach it, and
 * keeps that recording (`via`) when its kill rate passes. The harness is scripted here (a memory
 * sandbox); mutate.py's side is tests/unit/pipeline-harness-entries.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { createPythonPlugin } from '../../src/languages/python/python-plugin.js';
import { createSilentLogger } from '../../src/logging.js';
import { entryAttempts } from '../../src/pipeline/record/entry-attempts.js';
import { recordCandidates } from '../../src/pipeline/record/record-candidates.js';
import type { RepoSnapshot, Unit } from '../../src/pipeline/types.js';
import { createMemorySandboxProvider } from '../../src/sandbox/memory/memory-sandbox-provider.js';
import { makeUnit } from '../fixtures/units.js';

const method = (qualname: string, calls: string[] = [], file = 'calc.py'): Unit =>
  makeUnit({ id: `calc:${qualname}`, module: 'calc', qualname, kind: 'method', file, calls });

const evaluate = method('Calculator.evaluate', ['text.split', 'getattr', 'self._scaled']);
const scaled = method('Calculator._scaled', ['min']);
const opAdd = method('Calculator._op_add');
const total = method('Calculator.total', ['self.evaluate']);
const unreached = method('Calculator._unused');
const elsewhere = method('Other.run', ['self._op_add'], 'other.py');

describe('entryAttempts', () => {
  const passing = new Set([evaluate.id, total.id, elsewhere.id]);
  const units = [evaluate, scaled, opAdd, total, unreached, elsewhere];

  it('tries the callers first, then theirs, in the same file only', () => {
    const attempts = entryAttempts([scaled], passing, units);
    expect(attempts.map((a) => a.entry.id)).toEqual([evaluate.id, total.id]);
  });

  it('falls back on the public methods that reach most of the file when no call names the unit (a dispatch by name)', () => {
    // `_op_add` is reached by getattr only; Other.run names it but lives in another file
    const attempts = entryAttempts([opAdd], passing, units);
    // total reaches evaluate and _scaled, evaluate only _scaled
    expect(attempts.map((a) => a.entry.id)).toEqual([total.id, evaluate.id]);
    expect(attempts.every((a) => a.helper === opAdd)).toBe(true);
  });

  it('never tries a unit through itself or through a unit that is not passing', () => {
    expect(entryAttempts([evaluate], new Set([evaluate.id]), units)).toEqual([]);
    expect(entryAttempts([scaled], new Set(), units)).toEqual([]);
  });
});

describe('recordCandidates, the entry pass', () => {
  const int = (n: number): unknown => ({ t: 'int', v: String(n) });
  const evaluateCase = { id: 'e1', module: 'calc', target: 'Calculator.evaluate', init: { args: [], kwargs: {} }, args: [int(1)], kwargs: {}, expect: { returns: int(2) }, argsAfter: null, source: 'repo-test' };
  const scaledCase = { ...evaluateCase, id: 's1', target: 'Calculator._scaled' };
  const mutation = (killed: number, totalMutants: number) => ({ total: totalMutants, killed, score: totalMutants ? killed / totalMutants : 1, survivors: [] });
  const mutateResult = (unitId: string, killed: number, totalMutants: number, error: { code: string; reason: string } | null = null) => ({
    unitId, mutation: mutation(killed, totalMutants), before: mutation(killed, totalMutants), newCases: [], search: { tried: 0, found: 0 }, baselineMismatches: 0, error, ms: 5,
  });

  async function run(viaScaled: number, viaAdd: ReturnType<typeof mutateResult> | null = null) {
    const mutateConfigs: any[] = [];
    const provider = createMemorySandboxProvider({
      execHandler: (_sandbox, command, options) => {
        const config = JSON.parse(options.stdin?.toString() ?? 'null');
        if (command.argv.at(-1)?.endsWith('record.py')) {
          return {
            exitCode: 0,
            stdout: JSON.stringify({
              targets: [
                { unitId: evaluate.id, cases: [evaluateCase], sources: { 'repo-test': { tried: 1, kept: 1 } }, rejected: {}, drop: null },
                { unitId: scaled.id, cases: [scaledCase], sources: { 'type-hint': { tried: 1, kept: 1 } }, rejected: {}, drop: null },
                { unitId: opAdd.id, cases: [], sources: {}, rejected: {}, drop: { code: 'no-cases', reason: 'no input' } },
              ],
              traces: [],
            }),
          };
        }
        mutateConfigs.push(config);
        const results = config.targets.map((t: any) => {
          if (!t.mutantOf) return t.unitId === evaluate.id ? mutateResult(t.unitId, 9, 10) : mutateResult(t.unitId, 1, 10);
          return t.unitId === scaled.id ? mutateResult(t.unitId, viaScaled, 10) : (viaAdd ?? mutateResult(t.unitId, 0, 0, { code: 'entry-unreached', reason: 'no case of the entry runs a line of it' }));
        });
        return { exitCode: 0, stdout: JSON.stringify({ targets: results }) };
      },
    });
    const snapshot: RepoSnapshot = { dir: '/nonexistent', origin: 'x', revision: 'working-tree', files: [] };
    const result = await recordCandidates({
      provider,
      language: createPythonPlugin(),
      snapshot,
      candidates: [evaluate, scaled, opAdd].map((unit) => ({ unit, reasons: [] })),
      units: [evaluate, scaled, opAdd],
      seed: 0,
      logger: createSilentLogger(),
    });
    return { result, mutateConfigs };
  }

  it("keeps the recording through the entry when its kill rate passes: the entry's cases, the helper's mutants, `via` set", async () => {
    const { result, mutateConfigs } = await run(9);
    const entryRun = mutateConfigs.flatMap((c) => c.targets).filter((t: any) => t.mutantOf);
    expect(entryRun.map((t: any) => [t.unitId, t.qualname, t.mutantOf.qualname])).toEqual([
      [scaled.id, 'Calculator.evaluate', 'Calculator._scaled'],
      [opAdd.id, 'Calculator.evaluate', 'Calculator._op_add'],
    ]);
    expect(entryRun[0].cases).toEqual([evaluateCase]);
    const recording = result.recordings.find((r) => r.unitId === scaled.id)!;
    expect(recording.mutation.score).toBeCloseTo(0.9);
    expect(recording.via?.id).toBe(evaluate.id);
    expect(recording.cases.map((c) => c.target)).toEqual(['Calculator.evaluate']);
    // the helper nothing reaches keeps its drop; the entry keeps its own recording
    expect(result.drops.map((d) => [d.unitId, d.code])).toEqual([[opAdd.id, 'no-cases']]);
    expect(result.recordings.find((r) => r.unitId === evaluate.id)?.via).toBeUndefined();
  });

  it('keeps the direct recording when the entry does no better than the gate asks', async () => {
    const { result } = await run(7);
    const recording = result.recordings.find((r) => r.unitId === scaled.id)!;
    expect(recording.via).toBeUndefined();
    expect(recording.mutation.score).toBeCloseTo(0.1);
  });

  it('gives a dropped candidate a recording, and takes its drop back, when its entry pins it down', async () => {
    const { result } = await run(7, mutateResult(opAdd.id, 10, 10));
    expect(result.drops).toEqual([]);
    expect(result.recordings.find((r) => r.unitId === opAdd.id)?.via?.id).toBe(evaluate.id);
  });
});
