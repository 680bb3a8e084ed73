/**
 * The JavaScript record harness under the generic driver (recordCandidates) in a local bubblewrap
 * sandbox: the entries (runtime and the shipped typescript package) put at /, the drivers run by the
 * sandbox's node as uid 1000 without network, with the project checkout (and its node_modules)
 * hidden. Skipped where bubblewrap is missing.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { createJavaScriptRecorder } from '../../src/languages/javascript/javascript-recorder.js';
import { parseJavaScriptUnits } from '../../src/languages/javascript/parse-javascript-units.js';
import { createSilentLogger } from '../../src/logging.js';
import { recordCandidates } from '../../src/pipeline/record/record-candidates.js';
import { bwrapAvailable, createLocalSandboxProvider } from '../../src/sandbox/local/local-sandbox-provider.js';
import type { SandboxProvider } from '../../src/sandbox/types.js';
import { fixtureSnapshot } from './languages-javascript-fixtures.js';

describe.skipIf(!bwrapAvailable())('the JavaScript record harness in a local sandbox', () => {
  let provider: SandboxProvider | undefined;
  afterAll(async () => {
    await provider?.close();
  });

  it('records and mutation-tests a TypeScript package through recordCandidates', async () => {
    const snapshot = fixtureSnapshot('rec-ts');
    const { units } = await parseJavaScriptUnits(snapshot);
    provider = createLocalSandboxProvider({ logger: createSilentLogger(), serverId: `jsrec-${process.pid}` });
    const messages: string[] = [];
    const { recordings, drops, timings } = await recordCandidates({
      provider,
      language: { recorder: createJavaScriptRecorder(), image: 'node' },
      snapshot,
      candidates: units.filter((u) => u.qualname !== 'inRange').map((unit) => ({ unit, reasons: [] })),
      seed: 3,
      logger: createSilentLogger(),
      units,
      onProgress: (e) => messages.push(e.message),
    });
    expect(drops).toEqual([]);
    expect(messages).toContain('mutation tested 1 of 2 recorded candidates');
    expect(timings.candidates.map((c) => c.unitId)).toEqual(['src/range:compare', 'src/sign:sign']);
    expect(timings.candidates.every((c) => c.recordMs > 0 && c.mutateMs > 0)).toBe(true);
    expect(recordings.map((r) => r.unitId)).toEqual(['src/range:compare', 'src/sign:sign']);
    const [compare, sign] = recordings;
    expect(compare!.cases.length).toBeGreaterThan(10);
    expect(compare!.mutation.score).toBeGreaterThan(0.8);
    expect(sign!.mutation).toMatchObject({ score: 1, survivors: [] });
    expect(sign!.sources['mutant-search']).toEqual({ tried: 0, kept: 0 });
  }, 180_000);
});
