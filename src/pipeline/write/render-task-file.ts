import type { RuntimeDependencies } from '../../sandbox/runtime-dependencies.js';
import { isAbsolute, relative, resolve } from 'node:path';
import { TASK_SCHEMA_VERSION } from '../../tasks/task-schema.js';
import type { TestRunner } from '../../tasks/test-runner.js';
import type { RepoSnapshot, Unit } from '../types.js';

/** How a built task's reward is computed: `binary` (1 only when every hidden case passes) unless the build asks for `fraction`. */
export type RewardMode = 'binary' | 'fraction';

/** The reward mode of built suites when the build names none: binary, as the paper trains with. */
export const DEFAULT_BUILD_REWARD_MODE: RewardMode = 'binary';

/** Limits written into every constructed task's `tests`. */
export const DEFAULT_TASK_TEST_LIMITS = Object.freeze({ timeoutMs: 120_000, caseTimeoutMs: 10_000 });

/** The summary of the gates kept in task.json (the raw results are in report.json). */
export interface GatesSummary {
  cases: number;
  referencePasses: string;
  maskedFails: string;
  mutationScore: number;
  mutantsKilled: string;
  leakAudit: 'clean' | 'leak';
  /** Hidden cases the memoriser control passes (src/pipeline/gate/memoriser.ts), of all. */
  memoriserPasses: string;
}

/**
 * `source.repo` without absolute paths: a URL as given, a local path relative to the working
 * folder when it is under it, else its last folder name.
 */
export function repoLabel(origin: string, cwd: string = process.cwd()): string {
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(origin) || /^[^/]+@[^/]+:/.test(origin)) return origin;
  const abs = resolve(cwd, origin);
  const rel = relative(cwd, abs).split('\\').join('/');
  if (rel && !rel.startsWith('..') && !isAbsolute(rel)) return rel;
  return abs.split(/[\\/]/).filter(Boolean).at(-1) ?? 'repository';
}

/** The runner a constructed task is judged by: its language's first. */
function testRunnerOf(language: { language: string; testRunners: readonly Pick<TestRunner, 'casesOnly'>[] }): Pick<TestRunner, 'casesOnly'> {
  const runner = language.testRunners[0];
  if (runner === undefined) throw new Error(`the ${language.language} plugin provides no test runner`);
  return runner;
}

/** task.json (src/tasks/task-schema.ts) for a constructed task: its tests are the recorded cases. */
export function renderTaskFile(input: {
  suite: string;
  /** The task's language, runtime image and test runner (its plugin's `language`, `image` and first `testRunners`). */
  language: { language: string; image: string; testRunners: readonly Pick<TestRunner, 'casesOnly'>[] };
  name: string;
  unit: Unit;
  snapshot: Pick<RepoSnapshot, 'origin' | 'revision'>;
  title: string;
  prompt: string;
  gates: GatesSummary | null;
  /** Copies of the library deleted from the language image for this task (none: the key is left out). */
  scrub?: readonly string[];
  /** Packages installed on the language image for this task (none: the key is left out). */
  dependencies?: RuntimeDependencies | undefined;
  /** Default `DEFAULT_BUILD_REWARD_MODE`. */
  rewardMode?: RewardMode;
}): Record<string, unknown> {
  return {
    schemaVersion: TASK_SCHEMA_VERSION,
    id: `${input.suite}/${input.name}`,
    title: input.title,
    language: input.language.language,
    source: { repo: repoLabel(input.snapshot.origin), revision: input.snapshot.revision, path: input.unit.file, symbol: input.unit.qualname },
    prompt: input.prompt,
    runtime: {
      image: input.language.image,
      ...(input.scrub?.length ? { scrub: [...input.scrub] } : {}),
      ...(input.dependencies?.packages.length ? { dependencies: { tool: input.dependencies.tool, packages: [...input.dependencies.packages] } } : {}),
    },
    workdir: '/workspace',
    tests: testRunnerOf(input.language).casesOnly('cases.json', DEFAULT_TASK_TEST_LIMITS, input.unit),
    protectedPaths: [],
    limits: {},
    rewardMode: input.rewardMode ?? DEFAULT_BUILD_REWARD_MODE,
    gates: input.gates,
    difficulty: null,
  };
}
