import { spawnSync } from 'node:child_process';
import { mkdir, mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createPythonPlugin } from '../../src/languages/python/python-plugin.js';
import { createSilentLogger } from '../../src/logging.js';
import { createDirectoryImageFileReader } from '../../src/pipeline/audit/image-files.js';
import { BuildFailedError, buildSuite, type PipelineStages } from '../../src/pipeline/build-suite.js';
import { createSuiteStaging, hostTag, reclaimStaleStaging, writeFileAtomic } from '../../src/pipeline/package/suite-staging.js';
import type { Recording, RepoSnapshot, Unit } from '../../src/pipeline/types.js';
import { createMemorySandboxProvider } from '../../src/sandbox/memory/memory-sandbox-provider.js';
import type { Scorer } from '../../src/scoring/types.js';
import { examplesRun } from '../fixtures/examples-run.js';
import { listWorkspaceFiles } from '../../src/tasks/list-workspace-files.js';
import { loadCatalog } from '../../src/tasks/load-catalog.js';

const SOURCE = [
  'def clamp(x, low, high):',
  '    """Clamps x into [low, high]."""',
  '    if x < low:',
  '        return low',
  '    return min(x, high)',
  '',
  '',
  'def weak(x):',
  '    """Weakly tested."""',
  '    y = x + 1',
  '    return y * 2',
  '',
  '',
  'def leaky(x):',
  '    """Its body also sits in the image."""',
  '    value = x * 3 + 7 - (x // 2) + (x % 5) * 11',
  '    return value',
  '',
].join('\n');

function unit(qualname: string, startLine: number, endLine: number, bodyStartLine: number): Unit {
  return {
    id: `mini.core:${qualname}`,
    kind: 'function',
    module: 'mini.core',
    qualname,
    file: 'mini/core.py',
    startLine,
    endLine,
    bodyStartLine,
    bodyEndLine: endLine,
    signature: `def ${qualname}(x):`,
    params: [],
    returnAnnotation: null,
    docstring: 'Doc.',
    decorators: [],
    statementCount: 3,
    codeLines: 4,
    calls: [],
    callSites: [],
    isAsync: false,
    isGenerator: false,
    impurities: [],
  };
}

const UNITS = [unit('clamp', 1, 5, 3), unit('weak', 8, 11, 10), unit('leaky', 14, 17, 16)];
const int = (n: number): { t: string; v: string } => ({ t: 'int', v: String(n) });

function recordingOf(u: Unit, score: number): Recording {
  return {
    unitId: u.id,
    cases: [3, 1, 2, 4, 5].map((n) => ({ id: `c${n}`, module: u.module, target: u.qualname, init: null, args: [int(n)], kwargs: {}, expect: { returns: int(n) }, argsAfter: null, source: 'type-hint' })),
    mutation: { total: 10, killed: Math.round(score * 10), score, survivors: [] },
    sources: { 'type-hint': { tried: 5, kept: 5 } },
    rejected: {},
  };
}

function fakeStages(repo: string, options: { failRecord?: boolean } = {}): PipelineStages {
  return {
    ingest: async (source): Promise<RepoSnapshot> => ({ dir: repo, origin: source, revision: 'working-tree', files: ['mini/__init__.py', 'mini/core.py', 'tests/test_core.py'] }),
    analyze: async () => ({ units: UNITS, problems: [{ file: 'mini/broken.py', message: 'does not parse: line 3' }] }),
    select: (units) => ({ candidates: units.map((u) => ({ unit: u, reasons: ['substantive'] })), drops: [] }),
    record: async ({ candidates }) => {
      if (options.failRecord) throw new Error('the record sandbox died');
      return {
        recordings: candidates.filter((c) => c.unit.qualname !== 'weak').map((c) => recordingOf(c.unit, 1)).concat([recordingOf(UNITS[1] as Unit, 0.5)]),
        drops: [{ unitId: 'mini.core:hangs', stage: 'record', code: 'timeout', reason: 'the function did not return within 2000 ms' }],
        timings: { setupMs: 10, traceMs: { pytest: 20 }, candidates: candidates.map((c) => ({ unitId: c.unit.id, recordMs: 5, mutateMs: 7, searchMs: 3 })) },
      };
    },
  };
}

/** Scores 1 when the target file still has its body, 0 when it is masked (the prompt's examples: each holds). */
const fakeScorer: Scorer = {
  async score({ task, workspace }) {
    const examples = await examplesRun(task);
    if (examples) return examples;
    const core = workspace.find((e) => e.path === 'mini/core.py')?.content?.toString() ?? '';
    const masked = core.includes('raise NotImplementedError');
    return { reward: masked ? 0 : 1, outcome: 'SCORED', passed: masked ? 0 : 3, total: 3, tests: [{ name: 'case:x', status: masked ? 'failed' : 'passed', message: '' }], detail: '', durationMs: 5 };
  },
};

async function treeOf(dir: string): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  const walk = async (d: string): Promise<void> => {
    for (const name of (await readdir(d)).sort()) {
      const full = join(d, name);
      if ((await stat(full)).isDirectory()) await walk(full);
      else out.set(relative(dir, full), (await readFile(full)).toString('base64'));
    }
  };
  await walk(dir);
  return out;
}

const python = createPythonPlugin();

describe('buildSuite with fake stages and scorer', () => {
  let root: string;
  let repo: string;
  let image: string;
  let out: string;

  beforeEach(async () => {
    root = await mkdtemp(join(tmpdir(), 'codemidas-build-unit-'));
    repo = join(root, 'repo');
    image = join(root, 'image');
    out = join(root, 'environments');
    await mkdir(join(repo, 'mini'), { recursive: true });
    await mkdir(join(repo, 'tests'));
    await mkdir(join(image, 'usr/lib/python3/dist-packages'), { recursive: true });
    await writeFile(join(repo, 'mini/__init__.py'), '');
    await writeFile(join(repo, 'mini/core.py'), SOURCE);
    await writeFile(join(repo, 'tests/test_core.py'), 'from mini.core import clamp\n\ndef test_clamp():\n    assert clamp(5, 0, 3) == 3\n');
    // a distro copy of `leaky`'s body in the runtime image
    await writeFile(join(image, 'usr/lib/python3/dist-packages/copy.py'), 'def f(x):\n    value = x * 3 + 7 - (x // 2) + (x % 5) * 11\n    return value\n');
  });
  afterEach(async () => {
    await rm(root, { recursive: true, force: true });
  });

  const build = (stages: PipelineStages, extra: { maxTasks?: number; scorer?: Scorer } = {}): ReturnType<typeof buildSuite> =>
    buildSuite({
      source: 'examples/mini',
      suite: 'mini',
      outDir: out,
      seed: 7,
      provider: createMemorySandboxProvider(),
      logger: createSilentLogger(),
      imageReader: createDirectoryImageFileReader({ root: image }),
      stages,
      language: python,
      scorer: fakeScorer,
      workRoot: join(root, 'work'),
      ...extra,
    });

  it('packages the gated tasks, drops the others with stage, code and reason, and loads with no problem', async () => {
    const progress: string[] = [];
    const result = await buildSuite({
      source: 'examples/mini',
      suite: 'mini',
      outDir: out,
      seed: 7,
      provider: createMemorySandboxProvider(),
      logger: createSilentLogger(),
      imageReader: createDirectoryImageFileReader({ root: image }),
      stages: fakeStages(repo),
      language: python,
      scorer: fakeScorer,
      workRoot: join(root, 'work'),
      onProgress: (e) => progress.push(e.stage),
    });
    expect(result.report.funnel).toMatchObject({ units: 3, candidates: 3, recorded: 3, written: 2, gated: 1 });
    expect(result.report.funnel.drops.map((d) => [d.stage, d.unitId, d.code])).toEqual([
      ['analyze', 'mini/broken.py', 'parse-error'],
      ['record', 'mini.core:hangs', 'timeout'],
      ['audit', 'mini.core:leaky', 'leak'],
      ['gate', 'mini.core:weak', 'mutation-score'],
    ]);
    expect(result.report.funnel.drops.find((d) => d.code === 'leak')?.reason).toContain('/usr/lib/python3/dist-packages/copy.py');
    expect(new Set(progress)).toEqual(new Set(['ingest', 'analyze', 'select', 'record', 'gate', 'package']));

    const catalog = await loadCatalog(out);
    expect(catalog.problems).toEqual([]);
    expect([...catalog.tasks.keys()]).toEqual(['mini/clamp']);
    const task = catalog.get('mini/clamp');
    expect(task?.file.gates).toMatchObject({ referencePasses: '4/4', maskedFails: '2/2', leakAudit: 'clean', cases: 5, memoriserPasses: '3/5' });
    // Stored once: the base holds the module as the repository has it, the task's overlay its masked copy.
    await expect(stat(join(out, 'mini/clamp/workspace'))).rejects.toThrow();
    expect(await readFile(join(out, 'mini/_base/mini/core.py'), 'utf8')).toBe(SOURCE);
    const ws = await readFile(join(out, 'mini/clamp/overlay/mini/core.py'), 'utf8');
    expect(ws).toContain('    """Clamps x into [low, high]."""\n    raise NotImplementedError\n');
    expect(await readFile(join(out, 'mini/clamp/solution/mini/core.py'), 'utf8')).toBe(SOURCE);
    const composed = new Map((await listWorkspaceFiles(task!)).map((e) => [e.path, e.content?.toString('utf8')]));
    expect(composed.get('mini/core.py')).toBe(ws);
    expect(composed.has('tests/test_core.py')).toBe(false);
    const report = JSON.parse(await readFile(join(out, 'mini/clamp/report.json'), 'utf8'));
    expect(report.gates.reference.runs).toHaveLength(4);
    expect(report.gates.masked.runs).toHaveLength(2);
    expect(JSON.stringify(report)).not.toMatch(/durationMs|\/tmp\//);
    // timings only outside the suite
    const beside = JSON.parse(await readFile(join(out, 'mini.funnel.json'), 'utf8'));
    expect(beside.timings.totalMs).toBeGreaterThanOrEqual(0);
    // the record stage's detail: the stage's own figures, per candidate
    expect(beside.timings.record.traceMs).toEqual({ pytest: 20 });
    expect(beside.timings.record.candidates[0]).toMatchObject({ recordMs: 5, mutateMs: 7, searchMs: 3 });
    expect(beside.timings.cores).toBeGreaterThanOrEqual(1);
    expect(await readFile(join(out, 'mini/funnel.json'), 'utf8')).not.toContain('timings');
    expect((await readdir(out)).filter((n) => n.startsWith('.'))).toEqual([]);
  });

  it('keeps an undocumented task whose examples show every behaviour class, and drops one whose classes outnumber them (classes-unshown)', async () => {
    const base = fakeStages(repo);
    const undocumented = (paths: (n: number) => string): PipelineStages => ({
      ...base,
      analyze: async () => ({ units: UNITS.map((u) => (u.qualname === 'clamp' ? { ...u, docstring: null } : u)), problems: [] }),
      record: async (input) => {
        const recorded = await base.record(input);
        const many = (r: Recording): Recording => ({
          ...r,
          cases: Array.from({ length: 10 }, (_, n) => ({ id: `c${n}`, module: 'mini.core', target: 'clamp', init: null, args: [int(n)], kwargs: {}, expect: { returns: int(n) }, argsAfter: null, source: 'type-hint', path: paths(n) })),
        });
        return { ...recorded, recordings: recorded.recordings.map((r) => (r.unitId === 'mini.core:clamp' ? many(r) : r)) };
      },
    });
    // two classes (even and odd paths): both shown
    await build(undocumented((n) => `p${n % 2}`));
    const report = JSON.parse(await readFile(join(out, 'mini/clamp/report.json'), 'utf8'));
    expect(report.spec).toBe('examples');
    expect(report.classes).toMatchObject({ total: 2, shown: 2 });
    expect(JSON.parse(await readFile(join(out, 'mini/clamp/task.json'), 'utf8')).prompt).toContain('`clamp` has no documentation.');
    // ten classes, eight examples at most
    await expect(build(undocumented((n) => `p${n}`))).rejects.toThrow(/gate:classes-unshown/);
  });

  it("drops a task whose hidden cases a policy answering only the prompt's examples passes (the memoriser control)", async () => {
    const base = fakeStages(repo);
    const stages: PipelineStages = {
      ...base,
      record: async (input) => {
        const recorded = await base.record(input);
        // clamp keeps 3 cases: the prompt shows all of them
        return { ...recorded, recordings: recorded.recordings.map((r) => (r.unitId === 'mini.core:clamp' ? { ...r, cases: r.cases.slice(0, 3) } : r)) };
      },
    };
    await expect(build(stages)).rejects.toThrow(/gate:memoriser-passes/);
    const funnel = JSON.parse(await readFile(join(out, 'mini.funnel.json'), 'utf8'));
    expect(funnel.funnel.drops.find((d: { code: string }) => d.code === 'memoriser-passes')).toMatchObject({
      unitId: 'mini.core:clamp',
      reason: "a policy answering only the prompt's examples passes all 3 hidden cases",
    });
  });

  it("cuts the examples that fail on the reference out of the prompt, drops a task none of whose examples holds, and keeps the check out of the package", async () => {
    const failing = (fail: (id: string) => boolean): Scorer => ({
      async score(request) {
        const run = await examplesRun(request.task);
        if (run === null) return fakeScorer.score(request);
        const tests = run.tests.map((t) => (fail(/_(e\d+)$/.exec(t.name)?.[1] ?? '') ? { ...t, status: 'failed' as const, message: 'Expected 3, got 4' } : t));
        return { ...run, tests, passed: tests.filter((t) => t.status === 'passed').length };
      },
    });
    const kept = await build(fakeStages(repo), { scorer: failing((id) => id !== 'e1') });
    expect(kept.report.funnel.gated).toBe(1);
    const prompt = JSON.parse(await readFile(join(out, 'mini/clamp/task.json'), 'utf8')).prompt as string;
    // e1 is the first example after the import line; the two after it failed
    expect(prompt.match(/^>>> clamp\(/gm)).toHaveLength(1);
    expect(prompt).toContain('>>> from mini.core import clamp\n\n>>> clamp(1)\n1\n```');
    const report = JSON.parse(await readFile(join(out, 'mini/clamp/report.json'), 'utf8'));
    expect(report.examples).toEqual({ shown: 3, failedOnReference: ['e2', 'e3'], kept: 1 });
    expect(report.gates.examples.notPassed.map((t: { name: string }) => t.name)).toEqual(['examples/test_prompt_examples.py::test_example_e2', 'examples/test_prompt_examples.py::test_example_e3']);
    await expect(stat(join(out, 'mini/clamp/hidden/examples'))).rejects.toThrow();

    await expect(build(fakeStages(repo), { scorer: failing(() => true) })).rejects.toThrow(/gate:examples-fail/);
    const funnel = JSON.parse(await readFile(join(out, 'mini.funnel.json'), 'utf8'));
    expect(funnel.funnel.drops.find((d: { code: string }) => d.code === 'examples-fail')).toMatchObject({
      unitId: 'mini.core:clamp',
      reason: "none of the prompt's 3 examples holds on the reference (examples/test_prompt_examples.py::test_example_e1: Expected 3, got 4)",
    });
  });

  /**
   * The fake record stage that, before it returns, reports `recordDrops` as its record run's drops and
   * hands every recording on as final, then waits up to 2 s for the scorer's first run: whether a
   * task was gated while it was still recording.
   */
  function handingOn(recordDrops: Parameters<NonNullable<Parameters<PipelineStages['record']>[0]['onRecordDrops']>>[0]) {
    let firstScore!: () => void;
    const scoredOnce = new Promise<boolean>((resolve) => (firstScore = () => resolve(true)));
    const scorer: Scorer = {
      score: async (request) => {
        firstScore();
        return fakeScorer.score(request);
      },
    };
    const stages = fakeStages(repo);
    const record = stages.record;
    const seen = { gatedWhileRecording: false };
    stages.record = async (o) => {
      const result = await record(o);
      o.onRecordDrops?.(recordDrops);
      for (const r of result.recordings) o.onFinal?.(r);
      seen.gatedWhileRecording = await Promise.race([scoredOnce, new Promise<boolean>((resolve) => setTimeout(() => resolve(false), 2000))]);
      return result;
    };
    return { stages, scorer, seen };
  }

  it('gates the recordings the record stage hands on while it still runs, into the same suite as when it gates after it', async () => {
    const { stages, scorer, seen } = handingOn([]);
    await build(stages, { scorer });
    expect(seen.gatedWhileRecording).toBe(true);
    const early = await treeOf(join(out, 'mini'));
    await rm(out, { recursive: true });
    await build(fakeStages(repo));
    expect(early).toEqual(await treeOf(join(out, 'mini')));
    expect(early.size).toBeGreaterThan(3);
  });

  it('gates nothing while recording when the record run found an undeclared import (the tasks\' image may change)', async () => {
    const { stages, scorer, seen } = handingOn([{ unitId: 'mini.core:weak', stage: 'record', code: 'import-error', reason: "ModuleNotFoundError: No module named 'six'" }]);
    const result = await build(stages, { scorer });
    expect(seen.gatedWhileRecording).toBe(false);
    expect(result.report.funnel.gated).toBe(1);
  });

  it('records an input proposer\'s inputs in the record stage and counts every LLM fallback in the funnel', async () => {
    const seen: { proposals?: ReadonlyMap<string, readonly unknown[]> } = {};
    const stages = fakeStages(repo);
    const record = stages.record;
    stages.record = async (o) => {
      if (o.proposals) seen.proposals = o.proposals;
      return record(o);
    };
    const proposal = { args: [int(42)], kwargs: {}, init: null };
    const result = await buildSuite({
      source: 'examples/mini',
      suite: 'mini',
      outDir: out,
      seed: 7,
      provider: createMemorySandboxProvider(),
      logger: createSilentLogger(),
      imageReader: createDirectoryImageFileReader({ root: image }),
      stages,
      language: python,
      scorer: fakeScorer,
      workRoot: join(root, 'work'),
      inputProposer: {
        propose: async ({ unit: u, reference, onFallback }) => {
          if (u.qualname === 'clamp') {
            expect(reference?.body).toBe('    if x < low:\n        return low\n    return min(x, high)');
            return [proposal];
          }
          onFallback?.('llm-error:endpoint-down');
          return [];
        },
      },
      specWriter: {
        rewrite: async ({ onFallback }) => {
          onFallback?.('leak');
          return null;
        },
      },
    });
    expect([...(seen.proposals?.entries() ?? [])]).toEqual([['mini.core:clamp', [proposal]]]);
    expect(result.report.llm?.byReason).toEqual({ 'input-proposer:llm-error:endpoint-down': 2, 'spec-writer:leak': 3 });
    expect(result.report.llm?.fallbacks).toBe(5);
    expect(JSON.parse(await readFile(join(out, 'mini/funnel.json'), 'utf8')).llm.items[0]).toEqual({ hook: 'input-proposer', unitId: 'mini.core:leaky', reason: 'llm-error:endpoint-down' });
  });

  it('writes no llm section in the funnel when no LLM hook is given', async () => {
    const result = await build(fakeStages(repo));
    expect(result.report).not.toHaveProperty('llm');
  });

  it('scrubs a copy of the library itself out of the tasks\' image, and still drops a body copied anywhere else', async () => {
    // Debian's python3-mini as it would sit in the runtime image: every body of mini/core.py.
    await mkdir(join(image, 'usr/lib/python3/dist-packages/mini'), { recursive: true });
    await writeFile(join(image, 'usr/lib/python3/dist-packages/mini/core.py'), SOURCE);
    const result = await build(fakeStages(repo));
    expect([...(await loadCatalog(out)).tasks.keys()]).toEqual(['mini/clamp']);
    // copy.py is not the package `mini`: the leak stands
    expect(result.report.funnel.drops.find((d) => d.code === 'leak')?.reason).toContain('/usr/lib/python3/dist-packages/copy.py');
    const task = JSON.parse(await readFile(join(out, 'mini/clamp/task.json'), 'utf8'));
    expect(task.runtime).toEqual({ image: 'python', scrub: ['/usr/lib/python3/dist-packages/mini'] });
    const report = JSON.parse(await readFile(join(out, 'mini/clamp/report.json'), 'utf8'));
    expect(report.mask.imageScrubbed).toEqual(['/usr/lib/python3/dist-packages/mini']);
    expect(report.gates.leakAudit).toMatchObject({ clean: true, hits: [] });
  });

  it('gives byte-identical packages on a rebuild with the same seed', async () => {
    await build(fakeStages(repo));
    const first = await treeOf(join(out, 'mini'));
    await build(fakeStages(repo));
    const second = await treeOf(join(out, 'mini'));
    expect([...second.keys()]).toEqual([...first.keys()]);
    for (const [path, content] of first) expect(second.get(path), path).toBe(content);
  });

  it('leaves the existing suite intact when a build fails midway, and leaves no temporary folder', async () => {
    await build(fakeStages(repo));
    const before = await treeOf(join(out, 'mini'));
    await expect(build(fakeStages(repo, { failRecord: true }))).rejects.toThrow('the record sandbox died');
    expect(await treeOf(join(out, 'mini'))).toEqual(before);
    expect((await readdir(out)).filter((n) => n.startsWith('.'))).toEqual([]);
  });

  it('fails the build with the error of a task gated while recording, leaving the existing suite and no temporary folder', async () => {
    await build(fakeStages(repo));
    const before = await treeOf(join(out, 'mini'));
    const { stages } = handingOn([]);
    const broken: Scorer = {
      score: async () => {
        throw new Error('the engine went away');
      },
    };
    await expect(build(stages, { scorer: broken })).rejects.toThrow('the engine went away');
    expect(await treeOf(join(out, 'mini'))).toEqual(before);
    expect((await readdir(out)).filter((n) => n.startsWith('.'))).toEqual([]);
  });

  it('refuses to replace a suite with an empty one', async () => {
    await build(fakeStages(repo));
    const before = await treeOf(join(out, 'mini'));
    const noneGated: PipelineStages = { ...fakeStages(repo), select: (units) => ({ candidates: units.filter((u) => u.qualname === 'weak').map((u) => ({ unit: u, reasons: [] })), drops: [] }) };
    await expect(build(noneGated)).rejects.toBeInstanceOf(BuildFailedError);
    expect(await treeOf(join(out, 'mini'))).toEqual(before);
  });

  it('stops before recording when no unit is a candidate, saying why, with the funnel beside the suite', async () => {
    let recorded = false;
    const stages: PipelineStages = {
      ...fakeStages(repo),
      select: (units) => ({ candidates: [], drops: units.map((u) => ({ unitId: u.id, stage: 'select', code: 'too-small', reason: '2 statement(s), fewer than 3' })) }),
      record: async () => {
        recorded = true;
        return { recordings: [], drops: [] };
      },
    };
    const failure = await build(stages).catch((err: unknown) => err);
    expect(failure).toBeInstanceOf(BuildFailedError);
    expect((failure as Error).message).toContain('none of the 3 definitions found in examples/mini is a candidate for a task (3 too-small)');
    expect(recorded).toBe(false);
    expect((await readdir(out)).sort()).toEqual(['mini.funnel.json']);
    expect(JSON.parse(await readFile(join(out, 'mini.funnel.json'), 'utf8')).funnel).toMatchObject({ units: 3, candidates: 0, gated: 0 });
  });

  it('stops with a clear message when no file gives a unit', async () => {
    const stages: PipelineStages = { ...fakeStages(repo), analyze: async () => ({ units: [], problems: [{ file: 'mini/core.py', code: 'syntax-error', message: 'syntax error at line 2; file skipped' }] }) };
    await expect(build(stages)).rejects.toThrow('found no function or method to build a task from in examples/mini: 3 Python files, 1 of them skipped (1 syntax-error)');
  });

  it('names the source files no plugin reads when no file gives a unit (a Cython library)', async () => {
    const base = fakeStages(repo);
    const stages: PipelineStages = {
      ...base,
      ingest: async (source, options) => {
        const snapshot = await base.ingest(source, options);
        return { ...snapshot, files: [...snapshot.files, 'enet.pyx'] };
      },
      analyze: async () => ({ units: [], problems: [] }),
    };
    await expect(build(stages)).rejects.toThrow('; its other code is in 1 file(s) no language plugin reads: enet.pyx (Cython)');
  });

  it('masks a near-identical sibling with the target instead of dropping the task as a leak', async () => {
    // has_a and has_b differ in one name: each body covers 90% of the other's, a leak for either
    const twins = [
      'def has_a(items):',
      '    """True when some item names a."""',
      '    seen = set()',
      '    for item in items:',
      '        seen.add(item.strip().lower())',
      "    return 'a' in seen",
      '',
      '',
      'def has_b(items):',
      '    """True when some item names b."""',
      '    seen = set()',
      '    for item in items:',
      '        seen.add(item.strip().lower())',
      "    return 'b' in seen",
      '',
    ].join('\n');
    await writeFile(join(repo, 'mini/core.py'), twins);
    const twinUnits = [unit('has_a', 1, 6, 3), unit('has_b', 9, 14, 11)];
    const stages: PipelineStages = {
      ...fakeStages(repo),
      ingest: async (source): Promise<RepoSnapshot> => ({ dir: repo, origin: source, revision: 'working-tree', files: ['mini/__init__.py', 'mini/core.py'] }),
      analyze: async () => ({ units: twinUnits, problems: [] }),
      record: async ({ candidates }) => ({ recordings: candidates.map((c) => recordingOf(c.unit, 1)), drops: [] }),
    };
    /** Scores 1 when the task's own body is in the workspace, whatever became of its sibling. */
    const targetScorer: Scorer = {
      async score({ task, workspace }) {
        const examples = await examplesRun(task);
        if (examples) return examples;
        const core = workspace.find((e) => e.path === 'mini/core.py')?.content?.toString() ?? '';
        const solved = core.includes(`return '${task.file.source.symbol.slice(-1)}' in seen`);
        return { reward: solved ? 1 : 0, outcome: 'SCORED', passed: solved ? 3 : 0, total: 3, tests: [{ name: 'case:x', status: solved ? 'passed' : 'failed', message: '' }], detail: '', durationMs: 5 };
      },
    };
    const buildTwins = (): ReturnType<typeof buildSuite> => build(stages, { scorer: targetScorer });

    const result = await buildTwins();
    expect(result.report.funnel.drops).toEqual([]);
    expect(result.report.tasks.map((t) => t.name)).toEqual(['has-a', 'has-b']);
    const report = JSON.parse(await readFile(join(out, 'mini/has-a/report.json'), 'utf8'));
    expect(report.mask.coMasked).toEqual([{ unit: 'mini.core:has_b', file: 'mini/core.py', bodyLines: [11, 14] }]);
    expect(report.gates.leakAudit).toMatchObject({ clean: true, hits: [] });
    expect(report.gates.reference.passed).toBe(true);
    expect(await readFile(join(out, 'mini/has-a/overlay/mini/core.py'), 'utf8')).not.toContain('seen.add');
    // the reference restores has_a only: the gate proved its tests do not need has_b
    const solution = await readFile(join(out, 'mini/has-a/solution/mini/core.py'), 'utf8');
    expect(solution).toContain("return 'a' in seen");
    expect(solution).toContain('    """True when some item names b."""\n    raise NotImplementedError\n');
    const task = JSON.parse(await readFile(join(out, 'mini/has-a/task.json'), 'utf8'));
    expect(task.prompt).toContain('Also removed from this workspace, because their code would give this one back: `mini.core.has_b` (`mini/core.py`).');

    const first = await treeOf(join(out, 'mini'));
    await buildTwins();
    expect(await treeOf(join(out, 'mini'))).toEqual(first);
  });

  it('clears what a killed build of the suite left behind before it starts', async () => {
    await build(fakeStages(repo));
    const before = await treeOf(join(out, 'mini'));
    const dead = spawnSync(process.execPath, ['-e', '0']).pid;
    await mkdir(join(out, `.mini.building-${hostTag()}-${dead}-0123abcd`, 'clamp'), { recursive: true });
    await build(fakeStages(repo));
    expect((await readdir(out)).sort()).toEqual(['mini', 'mini.funnel.json']);
    expect(await treeOf(join(out, 'mini'))).toEqual(before);
  });
});

describe('reclaimStaleStaging', () => {
  it('removes the folders of killed builds, puts back a suite set aside, and leaves live builds, other hosts and other suites alone', async () => {
    const out = await mkdtemp(join(tmpdir(), 'codemidas-reclaim-'));
    try {
      const host = hostTag();
      const dead = spawnSync(process.execPath, ['-e', '0']).pid;
      const names = {
        halfBuilt: `.s.building-${host}-${dead}-00000001`,
        setAside: `.s.replaced-${host}-${dead}-00000002`,
        funnelTemp: `.s.funnel.json.tmp-${host}-${dead}-00000003`,
        live: `.s.building-${host}-${process.pid}-00000004`,
        otherHost: `.s.building-${host}x-${dead}-00000005`,
        otherSuite: `.sx.building-${host}-${dead}-00000006`,
      };
      for (const [key, name] of Object.entries(names)) {
        if (key === 'funnelTemp') await writeFile(join(out, name), '{"part');
        else {
          await mkdir(join(out, name));
          await writeFile(join(out, name, 'mark.txt'), key);
        }
      }
      // killed between the two renames of commit: no suite in place, the old one set aside
      expect(await reclaimStaleStaging(out, 's')).toEqual([
        { name: names.halfBuilt, action: 'removed' },
        { name: names.funnelTemp, action: 'removed' },
        { name: names.setAside, action: 'restored' },
      ]);
      expect(await readFile(join(out, 's/mark.txt'), 'utf8')).toBe('setAside');
      expect((await readdir(out)).sort()).toEqual([names.live, names.otherHost, names.otherSuite, 's'].sort());

      // killed after the new suite was renamed in: the set-aside copy is only removed
      await mkdir(join(out, names.setAside));
      expect(await reclaimStaleStaging(out, 's')).toEqual([{ name: names.setAside, action: 'removed' }]);
      expect(await readFile(join(out, 's/mark.txt'), 'utf8')).toBe('setAside');
      expect(await reclaimStaleStaging(join(out, 'missing'), 's')).toEqual([]);
    } finally {
      await rm(out, { recursive: true, force: true });
    }
  });

  it('writeFileAtomic replaces a file in one step and leaves no temporary file', async () => {
    const out = await mkdtemp(join(tmpdir(), 'codemidas-atomic-'));
    try {
      await writeFileAtomic(join(out, 'a/f.json'), Buffer.from('one'));
      await writeFileAtomic(join(out, 'a/f.json'), Buffer.from('two'));
      expect(await readdir(join(out, 'a'))).toEqual(['f.json']);
      expect(await readFile(join(out, 'a/f.json'), 'utf8')).toBe('two');
    } finally {
      await rm(out, { recursive: true, force: true });
    }
  });
});

describe('createSuiteStaging', () => {
  it('replaces an old suite only on commit, and abort removes the temporary folder', async () => {
    const out = await mkdtemp(join(tmpdir(), 'codemidas-staging-'));
    try {
      await mkdir(join(out, 's'));
      await writeFile(join(out, 's/old.txt'), 'old');
      const staging = await createSuiteStaging(out, 's');
      await writeFile(join(staging.dir, 'new.txt'), 'new');
      expect(await readdir(join(out, 's'))).toEqual(['old.txt']);
      await staging.commit();
      expect(await readdir(join(out, 's'))).toEqual(['new.txt']);
      await staging.abort();
      expect(await readdir(out)).toEqual(['s']);

      const aborted = await createSuiteStaging(out, 's');
      await writeFile(join(aborted.dir, 'half.txt'), 'half');
      await aborted.abort();
      expect(await readdir(out)).toEqual(['s']);
      expect(await readdir(join(out, 's'))).toEqual(['new.txt']);
    } finally {
      await rm(out, { recursive: true, force: true });
    }
  });
});
