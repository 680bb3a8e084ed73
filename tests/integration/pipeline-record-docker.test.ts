/**
 * recordCandidates against the real docker engine on the fixture repository (tests/fixtures/record):
 * cases recorded in the sandbox, mutation scores with the mutant-guided search, a hanging function
 * dropped, the same result for the same seed, and no sandbox left behind.
 */
import { readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import Dockerode from 'dockerode';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureImages } from '../../src/images/image-builder.js';
import { createDockerImageResolver } from '../../src/images/docker-image-resolver.js';
import { createSilentLogger } from '../../src/logging.js';
import { recordCandidates } from '../../src/pipeline/record/record-candidates.js';
import type { Candidate, RepoSnapshot, Unit } from '../../src/pipeline/types.js';
import { projectRoot } from '../../src/project-root.js';
import { createDockerSandboxProvider } from '../../src/sandbox/docker/docker-sandbox-provider.js';
import type { SandboxProvider } from '../../src/sandbox/types.js';
import { createPythonPlugin } from '../../src/languages/python/python-plugin.js';

const logger = createSilentLogger();
const docker = new Dockerode();
const serverId = `record-${process.pid}`;
const fixture = join(projectRoot(), 'tests', 'fixtures', 'record');
let provider: SandboxProvider;

function listFiles(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir)) {
    const full = join(dir, name);
    if (name === '__pycache__') continue;
    if (statSync(full).isDirectory()) out.push(...listFiles(full));
    else out.push(relative(fixture, full));
  }
  return out.sort();
}

function unit(module: string, qualname: string, docstring: string | null = null, callSites: Unit['callSites'] = []): Unit {
  return {
    id: `${module}:${qualname}`, kind: qualname.includes('.') ? 'method' : 'function', module, qualname,
    file: `${module.replace(/\./g, '/')}.py`, startLine: 1, endLine: 1, bodyStartLine: 1, bodyEndLine: 1,
    signature: '', params: [], returnAnnotation: null, docstring, decorators: [], statementCount: 4, codeLines: 4, calls: [],
    callSites, isAsync: false, isGenerator: false, impurities: [],
  };
}

beforeAll(async () => {
  const { tags } = await ensureImages({ docker, logger, languages: ['python'] });
  provider = createDockerSandboxProvider({ docker, logger, serverId, images: createDockerImageResolver({ docker, logger, tags }) });
});

afterAll(async () => {
  await provider?.close();
});

describe('recordCandidates in a docker sandbox', () => {
  it('records cases, scores mutants, drops a hanging function and leaves no sandbox', async () => {
    const snapshot: RepoSnapshot = { dir: fixture, origin: fixture, revision: 'working-tree', files: listFiles(fixture) };
    const candidates: Candidate[] = [
      unit('recfix.core', 'grade'),
      unit('recfix.core', 'clamp'),
      unit('recfix.core', 'count_below', null, [{ file: 'recfix/callers.py', line: 6, caller: 'report', argumentTexts: ['[1, 5, 9, 12]', '9'], allLiteral: true }]),
      unit('recfix.core', 'spin'),
      unit('recfix.shapes', 'Counter.advance'),
      unit('recfix.gens', 'windows', null, [{ file: 'recfix/gens.py', line: 1, caller: '<module>', argumentTexts: ['[1, 2, 3, 4]', '2'], allLiteral: true }]),
    ].map((u) => ({ unit: u, reasons: ['test'] }));
    const events: string[] = [];
    const run = () => recordCandidates({ provider, language: createPythonPlugin(), snapshot, candidates, seed: 3, logger, options: { callTimeoutMs: 1000 }, onProgress: (e) => events.push(e.phase) });
    const result = await run();

    expect(result.drops).toEqual([expect.objectContaining({ unitId: 'recfix.core:spin', stage: 'record', code: 'timeout' })]);
    expect(result.recordings.map((r) => r.unitId)).toEqual(['recfix.core:clamp', 'recfix.core:count_below', 'recfix.core:grade', 'recfix.gens:windows', 'recfix.shapes:Counter.advance']);
    // a generator's cases are judged on list(itertools.islice(windows(...), 100))
    const windows = result.recordings.find((r) => r.unitId === 'recfix.gens:windows')!;
    expect(windows.cases.every((c) => c.module === 'builtins' && c.target === 'list' && c.argsAfter === null)).toBe(true);
    expect(windows.cases.some((c) => 'raises' in c.expect && c.expect.raises === 'builtins.ValueError')).toBe(true);
    const grade = result.recordings.find((r) => r.unitId === 'recfix.core:grade')!;
    expect(grade.cases.some((c) => c.source === 'doctest')).toBe(true);
    expect(grade.mutation.total).toBeGreaterThan(10);
    expect(grade.mutation.score).toBeGreaterThanOrEqual(0.9);
    const counter = result.recordings.find((r) => r.unitId === 'recfix.shapes:Counter.advance')!;
    // each case builds its counter: from its init, or (advance changes the counter, so it is judged by
    // its result and the state it leaves) inside the judged expression
    expect(counter.cases.every((c) => c.init !== null || (c.target === 'list' && JSON.stringify(c.args).includes('recfix.shapes.Counter(')))).toBe(true);
    expect(counter.cases.some((c) => c.target === 'list' && JSON.stringify(c.args).includes('for _r in (_o.advance('))).toBe(true);
    const countBelow = result.recordings.find((r) => r.unitId === 'recfix.core:count_below')!;
    expect(countBelow.cases.some((c) => c.source === 'call-site')).toBe(true);
    for (const r of result.recordings) expect(r.mutation.score).toBeGreaterThanOrEqual(0.75);
    expect(events).toContain('done');

    const again = await run();
    // the same result but for the wall-clock timings (which only the build summary reads)
    const { timings: againTimings, ...againUntimed } = again;
    const { timings, ...untimed } = result;
    expect(JSON.stringify(againUntimed)).toBe(JSON.stringify(untimed));
    expect(againTimings.candidates.map((c) => c.unitId)).toEqual(timings.candidates.map((c) => c.unitId));
    const left = await docker.listContainers({ all: true, filters: { label: [`codemidas.purpose=record`] } });
    expect(left.filter((c) => c.Labels['codemidas.server'] === serverId)).toEqual([]);
  });
});
