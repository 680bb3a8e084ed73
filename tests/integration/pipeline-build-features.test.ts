/**
 * Feature-level tasks (issue 19, part 1) against the real docker engine: `codemidas build` on
 * examples/textkit with `--task-shapes feature` builds the public entries whose private helpers
 * only they reach as one task each, every removed body masked in the workspace and put back in the
 * solution, and each scores oracle 1.0 and null 0.0 over gRPC; with `--task-shapes class,module`,
 * parsekit's Histogram becomes one task removing all four of its methods, and each of its modules
 * one task removing its functions.
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Dockerode from 'dockerode';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureImages } from '../../src/images/image-builder.js';
import { createDockerImageResolver } from '../../src/images/docker-image-resolver.js';
import { createPythonPlugin } from '../../src/languages/python/python-plugin.js';
import { createPythonScorer } from '../../src/languages/python/python-scorer.js';
import { createSilentLogger } from '../../src/logging.js';
import { createDockerImageFileReader } from '../../src/pipeline/audit/image-files.js';
import { buildSuite, createDefaultStages, type BuildSuiteResult } from '../../src/pipeline/build-suite.js';
import { recordCandidates } from '../../src/pipeline/record/record-candidates.js';
import { projectRoot } from '../../src/project-root.js';
import { createSandboxProvider } from '../../src/sandbox/create-sandbox-provider.js';
import type { SandboxProvider } from '../../src/sandbox/types.js';
import { listWorkspaceFiles } from '../../src/tasks/list-workspace-files.js';
import { loadCatalog } from '../../src/tasks/load-catalog.js';
import type { TaskCatalog } from '../../src/tasks/types.js';
import { removeLeftoverContainers } from '../fixtures/leftover-containers.js';
import { scoresOracleAndNull } from '../fixtures/oracle-and-null.js';

const SERVER_ID = `itest-features-${process.pid}-${Date.now()}`;
const LIBRARY = join(projectRoot(), 'examples/textkit');

describe('feature-level tasks from examples/textkit (docker)', () => {
  const logger = createSilentLogger();
  const docker = new Dockerode();
  const python = createPythonPlugin();
  let provider: SandboxProvider | undefined;
  let work: string;
  let built: BuildSuiteResult;
  let catalog: TaskCatalog;

  beforeAll(async () => {
    await ensureImages({ docker, logger, languages: ['python'] });
    provider = await createSandboxProvider({ kind: 'docker', logger, serverId: SERVER_ID, docker, images: createDockerImageResolver({ docker, logger }) });
    work = await mkdtemp(join(tmpdir(), 'codemidas-features-itest-'));
    built = await buildSuite({
      source: LIBRARY,
      suite: 'textkit',
      outDir: work,
      seed: 0,
      taskShapes: ['feature'],
      provider,
      logger,
      imageReader: createDockerImageFileReader(docker),
      stages: createDefaultStages({ record: (o) => recordCandidates(o), language: python }),
      language: python,
    });
    catalog = await loadCatalog(work);
  }, 900_000);

  afterAll(async () => {
    await provider?.close();
    if (work) await rm(work, { recursive: true, force: true });
    removeLeftoverContainers(SERVER_ID);
  });

  it('builds only features, each removing its entry and the helpers only it reaches', async () => {
    expect(catalog.problems).toEqual([]);
    const names = [...catalog.tasks.keys()].sort();
    // slugify alone uses _ascii_fold, wrap_text alone _paragraphs (tables' helpers are shared, semver's too)
    expect(names).toEqual(['textkit/slugify-feature', 'textkit/wrap-text-feature']);
    expect(built.report.tasks.every((t) => t.shape === 'feature')).toBe(true);
    const task = catalog.get('textkit/slugify-feature')!;
    const report = JSON.parse(await readFile(join(task.dir, 'report.json'), 'utf8'));
    expect(report.shape).toBe('feature');
    expect(report.removed.map((r: { symbol: string }) => r.symbol)).toEqual(['textkit.slug.slugify', 'textkit.slug._ascii_fold']);
    expect(report.gates.mutation.passed).toBe(true);
    expect(task.file.prompt).toContain('## Removed with it');
    expect(task.file.prompt).toContain('- `_ascii_fold` in `textkit/slug.py`');
    // both bodies masked in the workspace, both back in the solution
    const workspace = new Map((await listWorkspaceFiles(task)).map((e) => [e.path, e.content?.toString('utf8') ?? '']));
    const solution = await readFile(join(task.solutionDir, 'textkit/slug.py'), 'utf8');
    expect(workspace.get('textkit/slug.py')!.match(/raise NotImplementedError/g)).toHaveLength(2);
    expect(solution).not.toContain('raise NotImplementedError');
  });

  it('scores each feature: the reference 1.0 and the untouched workspace 0.0, over gRPC', async () => {
    if (!provider) throw new Error('no provider');
    await scoresOracleAndNull({ catalog, taskIds: [...catalog.tasks.keys()], provider, scorer: createPythonScorer({ provider, logger }), logger });
  });

  it("builds a class task from examples/parsekit's Histogram and a module task from parsekit.ranges: their units removed together, each unit's examples in the prompt, scored over gRPC", async () => {
    if (!provider) throw new Error('no provider');
    const out = join(work, 'classes');
    const result = await buildSuite({
      source: join(projectRoot(), 'examples/parsekit'),
      suite: 'parsekit',
      outDir: out,
      seed: 0,
      taskShapes: ['class', 'module'],
      provider,
      logger,
      imageReader: createDockerImageFileReader(docker),
      stages: createDefaultStages({ record: (o) => recordCandidates(o), language: python }),
      language: python,
    });
    expect(result.report.tasks.filter((t) => t.shape === 'class').map((t) => t.name)).toEqual(['histogram-class']);
    // every module of parsekit has two or more functions passing on their own (histogram.py has none)
    expect(result.report.tasks.filter((t) => t.shape === 'module').map((t) => t.name).sort()).toEqual(['bases-module', 'checksums-module', 'csvline-module', 'durations-module', 'ranges-module']);
    const classes = await loadCatalog(out);
    const task = classes.get('parsekit/histogram-class')!;
    const report = JSON.parse(await readFile(join(task.dir, 'report.json'), 'utf8'));
    expect(report.removed.map((r: { symbol: string }) => r.symbol)).toEqual([
      'parsekit.histogram.Histogram.__init__',
      'parsekit.histogram.Histogram.bucket_of',
      'parsekit.histogram.Histogram.add',
      'parsekit.histogram.Histogram.counts',
    ]);
    expect(report.classes.shown).toBe(report.classes.total);
    expect(task.file.prompt).toContain('# Implement the methods of `Histogram` in `parsekit/histogram.py`');
    for (const name of ['__init__', 'bucket_of', 'add', 'counts']) expect(task.file.prompt).toContain(`## \`Histogram.${name}\``);
    // every method's cases are hidden cases of the task
    const hidden = JSON.parse(await readFile(join(task.hiddenDir, 'cases.json'), 'utf8')).cases as { target: string; args: { v: string }[] }[];
    const called = new Set(hidden.map((c) => (c.target === 'list' ? (/\.(\w+)\([^()]*\)[^.]*$/.exec(c.args[0]!.v)?.[1] ?? 'list') : c.target.split('.').at(-1))));
    for (const name of ['bucket_of', 'add', 'counts']) expect(called).toContain(name);
    const ranges = classes.get('parsekit/ranges-module')!;
    const rangesReport = JSON.parse(await readFile(join(ranges.dir, 'report.json'), 'utf8'));
    expect(rangesReport.shape).toBe('module');
    expect(rangesReport.removed.map((r: { symbol: string }) => r.symbol)).toEqual(['parsekit.ranges.parse_ranges', 'parsekit.ranges.format_ranges']);
    expect(rangesReport.classes.shown).toBe(rangesReport.classes.total);
    expect(ranges.file.prompt).toContain('# Implement the functions of `parsekit.ranges` in `parsekit/ranges.py`');
    expect(ranges.file.prompt).toContain('>>> from parsekit.ranges import parse_ranges, format_ranges');
    const rangesWorkspace = new Map((await listWorkspaceFiles(ranges)).map((e) => [e.path, e.content?.toString('utf8') ?? '']));
    expect(rangesWorkspace.get('parsekit/ranges.py')!.match(/raise NotImplementedError/g)).toHaveLength(2);
    expect(await readFile(join(ranges.solutionDir, 'parsekit/ranges.py'), 'utf8')).not.toContain('raise NotImplementedError');
    await scoresOracleAndNull({ catalog: classes, taskIds: ['parsekit/histogram-class', 'parsekit/ranges-module'], provider, scorer: createPythonScorer({ provider, logger }), logger });
  }, 900_000);
});
