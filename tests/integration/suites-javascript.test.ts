/**
 * The JavaScript and TypeScript suites committed to environments/ (built by `codemidas build
 * examples/jskit --suite jskit` and `examples/tskit --suite tskit`, seed 0): every task loads with
 * this build's plugins, and over gRPC its reference solution scores 1.0 and its untouched workspace
 * 0.0, in the node image with the Node judge.
 */
import { join } from 'node:path';
import Dockerode from 'dockerode';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLanguages } from '../../src/cli/languages.js';
import { createDockerImageResolver } from '../../src/images/docker-image-resolver.js';
import { ensureImages } from '../../src/images/image-builder.js';
import { createLanguageScorer } from '../../src/languages/language-scorer.js';
import { createSilentLogger } from '../../src/logging.js';
import { projectRoot } from '../../src/project-root.js';
import { createDockerSandboxProvider } from '../../src/sandbox/docker/docker-sandbox-provider.js';
import type { SandboxProvider } from '../../src/sandbox/types.js';
import { loadCatalog } from '../../src/tasks/load-catalog.js';
import type { TaskCatalog } from '../../src/tasks/types.js';
import { scoresOracleAndNull } from '../fixtures/oracle-and-null.js';

const logger = createSilentLogger();
const docker = new Dockerode();
const languages = createLanguages();
let provider: SandboxProvider;
let catalog: TaskCatalog;

beforeAll(async () => {
  const { tags } = await ensureImages({ docker, logger, languages: ['node'] });
  provider = createDockerSandboxProvider({ docker, logger, serverId: `itest-js-suites-${process.pid}`, images: createDockerImageResolver({ docker, logger, tags }) });
  catalog = await loadCatalog(join(projectRoot(), 'environments'), { languages: languages.taskLanguages(), runners: languages.list().flatMap((p) => p.testRunners) });
}, 600_000);

afterAll(async () => {
  await provider?.close();
});

describe.each(['jskit', 'tskit'])('the %s suite', (suite) => {
  it('loads every task, judged by the node runner in the node image, with its gates passed', () => {
    expect(catalog.problems.filter((p) => p.suite === suite)).toEqual([]);
    const tasks = [...catalog.tasks.values()].filter((t) => t.suite === suite);
    expect(tasks.length).toBeGreaterThanOrEqual(5);
    for (const task of tasks) {
      expect(task.file.language).toBe('javascript');
      expect(task.file.tests.runner).toBe('node');
      expect(task.file.runtime.image).toBe('node');
      expect(task.file.gates).toMatchObject({ referencePasses: '4/4', maskedFails: '2/2', leakAudit: 'clean' });
    }
  });

  it('scores every task over gRPC: the reference 1.0 and the untouched workspace 0.0', async () => {
    const ids = [...catalog.tasks.keys()].filter((id) => id.startsWith(`${suite}/`));
    await scoresOracleAndNull({ catalog, taskIds: ids, provider, scorer: createLanguageScorer(languages, { provider, logger }), logger });
  }, 900_000);
});
