/**
 * How recordCandidates runs mutation testing: one mutate run per recorded candidate, `parallel` of
 * them at a time, the costliest first (cases times the unit's lines), results in candidate order
 * whatever order the runs end in, progress after each, and a failed run fails the stage with its
 * own error and starts no later run. The harness is scripted here (a memory sandbox).
 */
import { describe, expect, it } from 'vitest';
import { createPythonPlugin } from '../../src/languages/python/python-plugin.js';
import { createSilentLogger } from '../../src/logging.js';
import { recordCandidates, RecordHarnessError } from '../../src/pipeline/record/record-candidates.js';
import type { RepoSnapshot, Unit } from '../../src/pipeline/types.js';
import { createMemorySandboxProvider } from '../../src/sandbox/memory/memory-sandbox-provider.js';
import { makeUnit } from '../fixtures/units.js';

const unit = (name: string, lines: number): Unit => makeUnit({ id: `m:${name}`, module: 'm', qualname: name, kind: 'function', startLine: 1, endLine: lines });
// cost: cases × lines = 2×5, 1×40, 3×30, 1×2
const UNITS = [unit('a', 5), unit('b', 40), unit('c', 30), unit('d', 2)];
const CASES: Record<string, number> = { 'm:a': 2, 'm:b': 1, 'm:c': 3, 'm:d': 1 };
// how long each one's mutate run takes (ms): `c` starts first, `b` beside it and ends last
const DELAY: Record<string, number> = { 'm:a': 5, 'm:b': 60, 'm:c': 10, 'm:d': 5 };

const int = (n: number): unknown => ({ t: 'int', v: String(n) });
const recorded = (unitId: string) => ({
  unitId,
  cases: Array.from({ length: CASES[unitId]! }, (_, k) => ({ id: `${unitId}-${k}`, module: 'm', target: unitId.slice(2), init: null, args: [int(k)], kwargs: {}, expect: { returns: int(k) }, argsAfter: null, source: 'type-hint' })),
  sources: { 'type-hint': { tried: 1, kept: 1 } },
  rejected: {},
  drop: null,
});
const mutation = { total: 10, killed: 9, score: 0.9, survivors: [] };

/** Events of the stage's early hooks, in order: `drops:<n>` (the record run's drops), `final:<unit>` (a recording handed on). */
type Events = string[];

async function run(failing: string | null = null, early: { events: Events; weak?: string; units?: boolean } | null = null) {
  const started: string[][] = [];
  const messages: string[] = [];
  let inFlight = 0;
  let mostInFlight = 0;
  const provider = createMemorySandboxProvider({
    execHandler: async (_sandbox, command, options) => {
      const config = JSON.parse(options.stdin?.toString() ?? 'null');
      if (command.argv.at(-1)?.endsWith('record.py')) {
        const dropped = { ...recorded('m:e'), cases: [], drop: { code: 'import-error', reason: "No module named 'six'" } };
        return { exitCode: 0, stdout: JSON.stringify({ targets: [...UNITS.map((u) => recorded(u.id)), ...(early ? [dropped] : [])], traces: [] }) };
      }
      if (early) early.events.push(`mutate:${config.targets[0].unitId}`);
      const ids = config.targets.map((t: any) => t.unitId as string);
      started.push(ids);
      mostInFlight = Math.max(mostInFlight, ++inFlight);
      await new Promise((resolve) => setTimeout(resolve, DELAY[ids[0]]));
      inFlight--;
      if (ids[0] === failing) return { exitCode: 1, stderr: `mutate.py crashed on ${failing}` };
      const scored = (unitId: string) => (unitId === early?.weak ? { ...mutation, killed: 5, score: 0.5 } : mutation);
      const results = ids.map((unitId: string) => ({ unitId, mutation: scored(unitId), before: mutation, newCases: [], search: { tried: 0, found: 0 }, baselineMismatches: 0, error: null, ms: DELAY[unitId] }));
      return { exitCode: 0, stdout: JSON.stringify({ targets: results }) };
    },
  });
  const snapshot: RepoSnapshot = { dir: '/nonexistent', origin: 'x', revision: 'working-tree', files: [] };
  const result = recordCandidates({
    provider,
    language: createPythonPlugin(),
    snapshot,
    candidates: UNITS.map((u) => ({ unit: u, reasons: [] })),
    seed: 0,
    logger: createSilentLogger(),
    onProgress: (e) => messages.push(e.message),
    ...(early
      ? {
          onRecordDrops: (drops: readonly { unitId: string }[]) => early.events.push(`drops:${drops.map((d) => d.unitId).join(',')}`),
          onFinal: (r: { unitId: string }) => early.events.push(`final:${r.unitId}`),
          ...(early.units ? { units: UNITS } : {}),
        }
      : {}),
  });
  return { result, started, messages, mostInFlight: () => mostInFlight };
}

describe('recordCandidates, the mutate runs', () => {
  it('runs each candidate alone, two at a time, the costliest first, and keeps the candidates in their order', async () => {
    const { result, started, messages, mostInFlight } = await run();
    const { recordings, drops, timings } = await result;
    expect(started).toEqual([['m:c'], ['m:b'], ['m:a'], ['m:d']]);
    expect(mostInFlight()).toBe(2);
    expect(drops).toEqual([]);
    expect(recordings.map((r) => r.unitId)).toEqual(['m:a', 'm:b', 'm:c', 'm:d']);
    expect(timings.candidates.map((c) => [c.unitId, c.mutateMs])).toEqual([['m:a', 5], ['m:b', 60], ['m:c', 10], ['m:d', 5]]);
    expect(messages.filter((m) => m.startsWith('mutation tested'))).toEqual(['mutation tested 1 of 4 recorded candidates', 'mutation tested 2 of 4 recorded candidates', 'mutation tested 3 of 4 recorded candidates']);
  });

  it('reports the record run\'s drops before any mutate run, and hands each recording on as its run ends', async () => {
    const events: Events = [];
    const { result } = await run(null, { events });
    const { recordings } = await result;
    expect(events).toEqual(['drops:m:e', 'mutate:m:c', 'mutate:m:b', 'final:m:c', 'mutate:m:a', 'final:m:a', 'mutate:m:d', 'final:m:d', 'final:m:b']);
    expect(recordings.map((r) => r.unitId)).toEqual(['m:a', 'm:b', 'm:c', 'm:d']);
  });

  it('holds back a recording below the entry pass\'s threshold, which the pass may replace', async () => {
    const events: Events = [];
    const { result } = await run(null, { events, weak: 'm:a', units: true });
    const { recordings } = await result;
    expect(events.filter((e) => e.startsWith('final:')).sort()).toEqual(['final:m:b', 'final:m:c', 'final:m:d']);
    expect(recordings.find((r) => r.unitId === 'm:a')?.mutation.score).toBe(0.5);
  });

  it('fails the stage with the failed run\'s own error, and starts no run after it', async () => {
    const { result, started } = await run('m:c');
    const error = await result.catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RecordHarnessError);
    expect(String((error as Error).message)).toContain('mutate.py crashed on m:c');
    // b was running beside c; a and d never start
    expect(started).toEqual([['m:c'], ['m:b']]);
  });
});
