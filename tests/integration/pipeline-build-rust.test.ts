/**
 * A Rust build end to end against the real docker engine: `codemidas build` on
 * examples/rustkit (a Rust crate written here) with the Rust plugin records its functions and methods in
 * the Rust image, masks them, gates them (reference, masked, mutation, leak audit, memoriser),
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

const SERVER_ID = `itest-rust-build-${process.pid}-${Date.now()}`;

describe('a Rust suite from examples/rustkit (docker)', () => {
  const logger = createSilentLogger();
  const docker = new Dockerode();
  const languages = createLanguages();
  const rust = languages.get('rust');
  let provider: SandboxProvider | undefined;
  let work: string;
  let built: BuildSuiteResult;
  let catalog: TaskCatalog;

  beforeAll(async () => {
    await ensureImages({ docker, logger, languages: ['rust'] });
    provider = await createSandboxProvider({ kind: 'docker', logger, serverId: SERVER_ID, docker, images: createDockerImageResolver({ docker, logger }) });
    work = await mkdtemp(join(tmpdir(), 'codemidas-rust-itest-'));
    built = await buildSuite({
      source: join(projectRoot(), 'examples/rustkit'),
      suite: 'rustkit',
      outDir: work,
      seed: 0,
      taskShapes: ['function'],
      provider,
      logger,
      imageReader: createDockerImageFileReader(docker),
      stages: createDefaultStages({ record: (o) => recordCandidates(o), language: rust }),
      language: rust,
    });
    catalog = await loadCatalog(work, { languages: languages.taskLanguages(), runners: languages.list().flatMap((p) => p.testRunners) });
  }, 900_000);

  afterAll(async () => {
    await provider?.close();
    if (work) await rm(work, { recursive: true, force: true });
    removeLeftoverContainers(SERVER_ID);
  });

  it('builds gated Rust tasks: the body masked in the workspace, put back in the solution, the prompt in Rust', async () => {
    expect(catalog.problems).toEqual([]);
    const names = [...catalog.tasks.keys()].sort();
    expect(names).toEqual(expect.arrayContaining(['rustkit/percent-of', 'rustkit/gcd', 'rustkit/kth-smallest', 'rustkit/capitalize', 'rustkit/point-shift']));
    expect(built.report.tasks.length).toBeGreaterThanOrEqual(5);
    const task = catalog.get('rustkit/percent-of')!;
    expect(task.file.language).toBe('rust');
    expect(task.file.tests.runner).toBe('rust');
    expect(task.file.prompt).toContain('```rust\npub fn percent_of(part: u32, whole: u32) -> Result<u32, String>\n```');
    expect(task.file.prompt).toMatch(/percent_of\(\d+, 0\) \/\/ → Err\("\d+ of nothing"\) \(Result<u32, String>\)/);
    // a private function and a method are tasks too; the panic of kth_smallest is an example of its own
    expect(catalog.get('rustkit/kth-smallest')!.file.prompt).toMatch(/kth_smallest\(&\[\], \d+\) \/\/ panics/);
    expect(catalog.get('rustkit/point-shift')!.file.prompt).toMatch(/\.shift\(-?\d+, -?\d+\) \/\/ → \d+ \(i32\)\n\/\/ afterwards the receiver is Point \{ x: -?\d+, y: -?\d+ \}/);
    const workspace = new Map((await listWorkspaceFiles(task)).map((e) => [e.path, e.content?.toString('utf8') ?? '']));
    expect(workspace.get('src/numbers.rs')).toContain('pub fn percent_of(part: u32, whole: u32) -> Result<u32, String> {\n    unimplemented!()\n}');
    expect(await readFile(join(task.solutionDir, 'src/numbers.rs'), 'utf8')).not.toContain('unimplemented!()');
    const report = JSON.parse(await readFile(join(task.dir, 'report.json'), 'utf8'));
    expect(report.gates.mutation.passed).toBe(true);
  });

  it('scores each task over gRPC: the reference 1.0 and the untouched workspace 0.0', async () => {
    if (!provider) throw new Error('no provider');
    await scoresOracleAndNull({ catalog, taskIds: [...catalog.tasks.keys()], provider, scorer: rust.createScorer({ provider, logger }), logger });
  });
});
