/**
 * A Go build end to end against the real docker engine (issue 20): `codemidas build` on
 * examples/gokit (a Go module written here) with the Go plugin records its functions and methods in
 * the Go image, masks them, gates them (reference 4/4, masked 2/2, mutation, leak audit, memoriser),
 * and every accepted task scores 1.0 with the reference and 0.0 untouched over gRPC.
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Dockerode from 'dockerode';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLanguages } from '../../src/cli/languages.js';
import { ensureImages } from '../../src/images/image-builder.js';
import { createDockerImageResolver } from '../../src/images/docker-image-resolver.js';
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

const SERVER_ID = `itest-go-build-${process.pid}-${Date.now()}`;

describe('a Go suite from examples/gokit (docker)', () => {
  const logger = createSilentLogger();
  const docker = new Dockerode();
  const languages = createLanguages();
  const go = languages.get('go');
  let provider: SandboxProvider | undefined;
  let work: string;
  let built: BuildSuiteResult;
  let catalog: TaskCatalog;

  beforeAll(async () => {
    await ensureImages({ docker, logger, languages: ['go'] });
    provider = await createSandboxProvider({ kind: 'docker', logger, serverId: SERVER_ID, docker, images: createDockerImageResolver({ docker, logger }) });
    work = await mkdtemp(join(tmpdir(), 'codemidas-go-itest-'));
    built = await buildSuite({
      source: join(projectRoot(), 'examples/gokit'),
      suite: 'gokit',
      outDir: work,
      seed: 0,
      taskShapes: ['function'],
      provider,
      logger,
      imageReader: createDockerImageFileReader(docker),
      stages: createDefaultStages({ record: (o) => recordCandidates(o), language: go }),
      language: go,
    });
    catalog = await loadCatalog(work, { languages: languages.taskLanguages(), runners: languages.list().flatMap((p) => p.testRunners) });
  }, 900_000);

  afterAll(async () => {
    await provider?.close();
    if (work) await rm(work, { recursive: true, force: true });
    removeLeftoverContainers(SERVER_ID);
  });

  it('builds gated Go tasks: the body masked in the workspace, put back in the solution, the prompt in Go', async () => {
    expect(catalog.problems).toEqual([]);
    const names = [...catalog.tasks.keys()].sort();
    expect(names).toContain('gokit/reverse');
    expect(built.report.tasks.length).toBeGreaterThanOrEqual(4);
    const task = catalog.get('gokit/reverse')!;
    expect(task.file.language).toBe('go');
    expect(task.file.tests.runner).toBe('go');
    expect(task.file.prompt).toContain('```go\nfunc Reverse(s string) (string, error)\n```');
    expect(task.file.prompt).toMatch(/Reverse\(""\) \/\/ → "", errors\.New\("textutil: empty input"\)/);
    const workspace = new Map((await listWorkspaceFiles(task)).map((e) => [e.path, e.content?.toString('utf8') ?? '']));
    expect(workspace.get('textutil/reverse.go')).toContain('panic("not implemented")');
    expect(await readFile(join(task.solutionDir, 'textutil/reverse.go'), 'utf8')).not.toContain('panic("not implemented")');
    const report = JSON.parse(await readFile(join(task.dir, 'report.json'), 'utf8'));
    expect(report.gates.mutation.passed).toBe(true);
    expect(report.gates.memoriser.passed).toBeLessThan(report.gates.memoriser.total);
  });

  it('scores each task over gRPC: the reference 1.0 and the untouched workspace 0.0', async () => {
    if (!provider) throw new Error('no provider');
    await scoresOracleAndNull({ catalog, taskIds: [...catalog.tasks.keys()], provider, scorer: go.createScorer({ provider, logger }), logger });
  });
});
