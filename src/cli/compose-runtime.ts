import type { RuntimeDependencies } from '../sandbox/runtime-dependencies.js';
import { runtimeSpecFields } from '../tasks/task-runtime.js';
import { randomUUID } from 'node:crypto';
import Dockerode from 'dockerode';
import type { Limits } from '../config/limits.js';
import { createEpisodeManager, type EpisodeManager } from '../episodes/episode-manager.js';
import { ensureImages, type ImageLanguage, type ImageProgress } from '../images/image-builder.js';
import { createDockerImageResolver } from '../images/docker-image-resolver.js';
import type { Logger } from '../logging.js';
import { createSandboxProvider } from '../sandbox/create-sandbox-provider.js';
import type { DockerIsolationWanted } from '../sandbox/docker/docker-isolation.js';
import type { SandboxProvider } from '../sandbox/types.js';
import { createWarmPoolProvider } from '../sandbox/warm-pool-provider.js';
import { createLanguageScorer } from '../languages/language-scorer.js';
import type { LanguageRegistry } from '../languages/registry.js';
import { createLanguages, dependencyInstallers } from './languages.js';
import { listWorkspaceFiles } from '../tasks/list-workspace-files.js';
import { formatTaskLoadProblem, loadCatalog } from '../tasks/load-catalog.js';
import type { LoadedTask, TaskCatalog } from '../tasks/types.js';
import { CliError } from './cli-error.js';

export type SandboxKind = 'auto' | 'docker' | 'local' | 'memory';

/** Scoring sandboxes the warm pool may hold ready, over every scoring image. */
const SCORING_POOL_CAPACITY = 4;

export interface RuntimeOptions {
  environmentsDir: string;
  sandbox: SandboxKind;
  limits: Readonly<Limits>;
  logger: Logger;
  /** Where progress and problems are printed (stderr). */
  say: (line: string) => void;
  /** The language plugins; a task in a language none serves is skipped. Default `createLanguages()`. */
  languages?: LanguageRegistry;
  /** Only these tasks' images are built (the `episode` command needs one). Default: every task's. */
  onlyTaskIds?: readonly string[];
  /**
   * Started sandboxes kept ready per hot task image (and per scoring image), so Reset and Reward skip
   * the container start. 0 turns the pool off. Default 2.
   */
  warmPool?: number;
  /** Load retired tasks too (`codemidas filter`). Default false. */
  includeRetired?: boolean;
  /** Runtime and disk cap of every sandbox (`--runtime`, `--max-disk-bytes`). Default: none asked for. */
  isolation?: DockerIsolationWanted;
  signal?: AbortSignal;
}

export interface Runtime {
  catalog: TaskCatalog;
  provider: SandboxProvider;
  manager: EpisodeManager;
  /** Shuts the manager down (sandboxes destroyed) and closes the provider. */
  dispose(graceMs?: number): Promise<void>;
}

/**
 * Builds ahead the derived images of tasks whose runtime installs dependencies on the language image
 * or scrubs copies of their library out of it, so no Reset waits for one (`serve`, `episode`,
 * `images build --environments`).
 */
export async function prepareScrubbedImages(
  provider: SandboxProvider,
  tasks: readonly LoadedTask[],
  say: (line: string) => void,
  signal?: AbortSignal,
): Promise<{ tag: string; taskIds: string[] }[]> {
  const wanted = new Map<string, { image: string; scrub: readonly string[]; dependencies: RuntimeDependencies | undefined; taskIds: string[] }>();
  for (const task of tasks) {
    const { scrub = [], dependencies } = runtimeSpecFields(task.file.runtime);
    if (scrub.length === 0 && !dependencies) continue;
    const image = provider.imageFor(task.file.runtime.image);
    const key = JSON.stringify([image, scrub, dependencies ?? null]);
    const entry = wanted.get(key) ?? { image, scrub, dependencies, taskIds: [] };
    entry.taskIds.push(task.id);
    wanted.set(key, entry);
  }
  const out: { tag: string; taskIds: string[] }[] = [];
  for (const { image, scrub, dependencies, taskIds } of wanted.values()) {
    const started = performance.now();
    const tag = await provider.prepareImage(image, scrub, { ...(signal ? { signal } : {}), dependencies });
    const count = taskIds.length;
    const changes = [...(dependencies ? [`with ${dependencies.tool}: ${dependencies.packages.join(' ')}`] : []), ...(scrub.length > 0 ? [`without ${scrub.join(', ')}`] : [])];
    say(`image ${tag} (${image} ${changes.join(', ')}) for ${count} task${count === 1 ? '' : 's'}: ready in ${((performance.now() - started) / 1000).toFixed(1)} s`);
    out.push({ tag, taskIds });
  }
  return out;
}

/**
 * The shared part of the composition root of `serve` and `episode`: catalog (printing every skipped
 * task), sandbox provider, images for the loaded tasks' languages, scorer and episode manager, with
 * leftovers of earlier runs reaped.
 */
export async function composeRuntime(options: RuntimeOptions): Promise<Runtime> {
  const { logger, say } = options;
  const languages = options.languages ?? createLanguages();
  const catalog = await loadCatalog(options.environmentsDir, { logger, includeRetired: options.includeRetired ?? false, languages: languages.taskLanguages(), runners: languages.list().flatMap((p) => p.testRunners) });
  for (const problem of catalog.problems) say(`skipped task: ${formatTaskLoadProblem(problem)}`);
  if (catalog.tasks.size === 0) {
    throw new CliError(
      `no task loaded from ${options.environmentsDir}`,
      'point --environments to a folder of suites (environments/<suite>/suite.json), or fix the problems listed above',
    );
  }
  const serverId = `codemidas-${randomUUID().slice(0, 8)}`;
  const docker = new Dockerode();
  const engine = await createSandboxProvider({
    kind: options.sandbox,
    logger,
    serverId,
    docker,
    images: createDockerImageResolver({ docker, logger, installers: dependencyInstallers(languages) }),
    ...(options.isolation ? { isolation: options.isolation } : {}),
    ...(options.signal ? { signal: options.signal } : {}),
  });
  // The pool may hold episode sandboxes only up to the episode limit less the episodes running.
  let running = (): number => 0;
  const provider: SandboxProvider =
    (options.warmPool ?? 2) > 0 && engine.kind !== 'memory'
      ? createWarmPoolProvider(engine, {
          perSpec: options.warmPool ?? 2,
          logger,
          capacity: (role) => (role === 'episode' ? options.limits.maxEpisodes - running() : SCORING_POOL_CAPACITY),
        })
      : engine;
  try {
    if (provider.kind === 'docker') {
      const tasks = options.onlyTaskIds ? options.onlyTaskIds.flatMap((id) => catalog.get(id) ?? []) : [...catalog.tasks.values()];
      const images = [...new Set(tasks.map((t) => t.file.runtime.image))];
      await ensureImages({ docker, logger, languages: images, onProgress: printProgress(say) });
      await prepareScrubbedImages(provider, tasks, say, options.signal);
      // Before any sandbox starts: a runtime or a disk cap the engine lacks stops the command here.
      // (no task, no sandbox: nothing to check)
      const probeImage = tasks[0] === undefined ? undefined : provider.imageFor(tasks[0].file.runtime.image);
      const isolation = probeImage === undefined ? undefined : await engine.checkIsolation?.(probeImage, options.signal ? { signal: options.signal } : {});
      if (isolation) say(`sandboxes: ${isolation.summary}`);
    } else if (options.isolation?.diskBytes) {
      say(`sandboxes: disk not limited (the ${provider.kind} sandbox has no per-sandbox disk cap; the docker one does)`);
    }
    const scorer = createLanguageScorer(languages, { provider, logger });
    const manager = createEpisodeManager({
      provider,
      catalog,
      scorer,
      logger,
      limits: options.limits,
      readWorkspace: (task) => listWorkspaceFiles(task),
    });
    running = () => manager.activeCount;
    await manager.start();
    if (provider.kind === 'docker') {
      // In the background: Resets upload the workspace until their task's image is ready.
      const started = performance.now();
      const ids = (options.onlyTaskIds ?? [...catalog.tasks.keys()]).filter((id) => catalog.get(id) !== undefined);
      let failed = 0;
      void manager
        .prepareWorkspaceImages(ids, { onReady: (_id, _image, err) => void (err ? failed++ : undefined) })
        .then(
          () => say(`task images: ${ids.length - failed} of ${ids.length} ready in ${((performance.now() - started) / 1000).toFixed(1)} s${failed ? ` (${failed} failed: those tasks upload their workspace at Reset; see the log)` : ''}`),
          (err: unknown) => logger.warn({ err }, 'building task images failed; Resets upload the workspace'),
        );
    }
    return {
      catalog,
      provider,
      manager,
      async dispose(graceMs = 10_000) {
        await manager.shutdown({ graceMs });
        await provider.close();
      },
    };
  } catch (err) {
    await provider.close().catch(() => undefined);
    throw err;
  }
}

/** Prints image progress lines (not the build log, which goes to the debug log). */
export function printProgress(say: (line: string) => void): (event: ImageProgress) => void {
  return (event) => {
    if (event.phase === 'log') return;
    const took = event.elapsedMs !== undefined ? ` (${(event.elapsedMs / 1000).toFixed(1)} s)` : '';
    say(`images: ${event.message}${took}`);
  };
}
