/**
 * `codemidas build` on repositories that declare dependencies, against the real docker engine, the
 * Debian mirror and the npm registry: examples/depkit (Python; `six` from Debian's python3-six, and
 * one package no source has) and examples/durkit (JavaScript; `ms` as a range and a devDependency
 * its source imports, from npm); depkit also imports `dateutil` undeclared, which the build installs
 * once the first record run fails on it. The installable dependencies are installed on the record image and
 * on every task's image; the units that import the missing one are dropped naming it, the others
 * build; the tasks score 1.0 with the reference and 0.0 untouched over gRPC on that image.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Dockerode from 'dockerode';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLanguages, dependencyInstallers } from '../../src/cli/languages.js';
import { createDockerImageResolver } from '../../src/images/docker-image-resolver.js';
import { ensureImages } from '../../src/images/image-builder.js';
import { createLanguageScorer } from '../../src/languages/language-scorer.js';
import { createSilentLogger } from '../../src/logging.js';
import { createDockerImageFileReader } from '../../src/pipeline/audit/image-files.js';
import { buildSuite, createDefaultStages, type BuildSuiteResult } from '../../src/pipeline/build-suite.js';
import { recordCandidates } from '../../src/pipeline/record/record-candidates.js';
import { projectRoot } from '../../src/project-root.js';
import { createDockerSandboxProvider } from '../../src/sandbox/docker/docker-sandbox-provider.js';
import type { SandboxProvider } from '../../src/sandbox/types.js';
import { loadCatalog } from '../../src/tasks/load-catalog.js';
import type { TaskCatalog } from '../../src/tasks/types.js';
import { removeLeftoverContainers } from '../fixtures/leftover-containers.js';
import { scoresOracleAndNull } from '../fixtures/oracle-and-null.js';

const SERVER_ID = `itest-deps-${process.pid}-${Date.now()}`;
const root = projectRoot();
const logger = createSilentLogger();
const docker = new Dockerode();
const languages = createLanguages();
let provider: SandboxProvider;
let work: string;


async function build(example: string, language: string): Promise<{ result: BuildSuiteResult; catalog: TaskCatalog }> {
  const plugin = languages.get(language);
  const outDir = join(work, example);
  const result = await buildSuite({
    source: join(root, 'examples', example),
    suite: example,
    outDir,
    seed: 0,
    provider,
    logger,
    imageReader: createDockerImageFileReader(docker),
    stages: createDefaultStages({ record: (o) => recordCandidates(o), language: plugin }),
    language: plugin,
  });
  return { result, catalog: await loadCatalog(outDir, { languages: languages.taskLanguages(), runners: languages.list().flatMap((p) => p.testRunners) }) };
}

/** Over gRPC, on the tasks' dependency image: each reference 1.0, each untouched workspace 0.0. */
async function scoresEveryTask(catalog: TaskCatalog): Promise<void> {
  expect(catalog.problems).toEqual([]);
  await scoresOracleAndNull({ catalog, taskIds: [...catalog.tasks.keys()], provider, scorer: createLanguageScorer(languages, { provider, logger }), logger });
}

beforeAll(async () => {
  const { tags } = await ensureImages({ docker, logger, languages: ['python', 'node'] });
  provider = createDockerSandboxProvider({ docker, logger, serverId: SERVER_ID, images: createDockerImageResolver({ docker, logger, tags, installers: dependencyInstallers(languages) }) });
  work = await mkdtemp(join(tmpdir(), 'codemidas-deps-itest-'));
}, 900_000);

afterAll(async () => {
  await provider?.close();
  if (work) await rm(work, { recursive: true, force: true });
  removeLeftoverContainers(SERVER_ID);
});

describe('a Python repository declaring a Debian-packaged dependency and a missing one (examples/depkit)', () => {
  let built: { result: BuildSuiteResult; catalog: TaskCatalog };
  beforeAll(async () => {
    built = await build('depkit', 'python');
  }, 900_000);

  it('installs six with apt, names the missing package in the funnel, and drops only the units that import it', () => {
    const { report } = built.result;
    expect(report.dependencies?.installed).toEqual({ tool: 'apt', packages: ['python3-codemidas-absent-helper', 'python3-dateutil', 'python3-six'] });
    // dateutil is imported, not declared: found from the first record run's errors
    expect(report.dependencies?.declared).toContainEqual({ name: 'dateutil', from: expect.stringMatching(/no manifest declares it/), install: 'python3-dateutil' });
    expect(report.dependencies?.missing).toEqual([expect.objectContaining({ name: 'codemidas-absent-helper', from: 'pyproject.toml' })]);
    const missing = report.funnel.drops.filter((d) => d.code === 'dependency-missing');
    expect(missing.map((d) => d.unitId)).toEqual(['depkit.scaled:scaled']);
    expect(missing[0]?.reason).toContain('codemidas-absent-helper');
    expect(report.funnel.drops.filter((d) => d.code === 'import-error')).toEqual([]);
    expect(report.funnel.drops.filter((d) => d.unitId === 'depkit.dates:add_months' && d.stage === 'record')).toEqual([]);
    const symbols = [...built.catalog.tasks.values()].map((t) => t.file.source.symbol).sort();
    // the units using six were recorded (they could not be without it), and the plain ones too
    expect(symbols.filter((s) => ['to_text', 'headline', 'initials'].includes(s)).length).toBeGreaterThanOrEqual(2);
    expect(symbols.filter((s) => ['chunked', 'run_lengths'].includes(s)).length).toBeGreaterThanOrEqual(1);
    for (const task of built.catalog.tasks.values()) {
      expect(task.file.runtime.dependencies).toEqual({ tool: 'apt', packages: ['python3-codemidas-absent-helper', 'python3-dateutil', 'python3-six'] });
      expect(task.file.gates).toMatchObject({ referencePasses: '4/4', maskedFails: '2/2', leakAudit: 'clean' });
    }
  });

  it('scores every task on the image with its dependencies: the reference 1.0 and the untouched workspace 0.0, over gRPC', () => scoresEveryTask(built.catalog), 900_000);
});

describe('a JavaScript repository needing npm packages (examples/durkit)', () => {
  let built: { result: BuildSuiteResult; catalog: TaskCatalog };
  beforeAll(async () => {
    built = await build('durkit', 'javascript');
  }, 900_000);

  it('pins the range, installs the imported devDependency with npm, and builds the units using both', () => {
    const { report } = built.result;
    const installed = report.dependencies?.installed;
    expect(installed?.tool).toBe('npm');
    expect(installed?.packages).toHaveLength(2);
    expect(installed?.packages[0]).toBe('is-plain-obj@4.1.0');
    expect(installed?.packages[1]).toMatch(/^ms@2\.\d+\.\d+$/);
    expect(report.dependencies?.missing).toEqual([]);
    expect(report.funnel.drops.filter((d) => d.stage === 'record' && /import|dependency/.test(d.code))).toEqual([]);
    const symbols = [...built.catalog.tasks.values()].map((t) => t.file.source.symbol).sort();
    expect(symbols).toContain('withDefaults');
    expect(symbols.filter((s) => ['totalDuration', 'describeDuration'].includes(s)).length).toBeGreaterThanOrEqual(1);
    for (const task of built.catalog.tasks.values()) expect(task.file.runtime.dependencies).toEqual(installed);
  });

  it('scores every task on the image with its dependencies: the reference 1.0 and the untouched workspace 0.0, over gRPC', () => scoresEveryTask(built.catalog), 900_000);
});
