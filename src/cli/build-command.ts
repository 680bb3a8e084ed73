import { randomUUID } from 'node:crypto';
import { setMaxListeners } from 'node:events';
import { join } from 'node:path';
import { Command, Option } from 'commander';
import Dockerode from 'dockerode';
import { ensureImages } from '../images/image-builder.js';
import { createDockerImageResolver } from '../images/docker-image-resolver.js';
import { createOpenAiChatClient } from '../llm/openai-chat-client.js';
import { createLogger } from '../logging.js';
import { createLlmHooks, type LlmHooks } from '../pipeline/llm/create-llm-hooks.js';
import { createCachedImageFileReader, defaultCacheDir } from '../pipeline/audit/cached-image-files.js';
import { createDirectoryImageFileReader, createDockerImageFileReader, type ImageFileReader } from '../pipeline/audit/image-files.js';
import { BuildFailedError, buildSuite, createDefaultStages, type BuildProgress, type PipelineStages } from '../pipeline/build-suite.js';
import { checkPackageFolder, normalizePackageFolder } from '../pipeline/build/package-folder.js';
import { checkRepositorySource, listRepositoryFiles } from '../pipeline/ingest/ingest-repository.js';
import { MAX_LISTED_FILES } from '../pipeline/ingest/list-folder-files.js';
import { DEFAULT_BUILD_REWARD_MODE, type RewardMode } from '../pipeline/write/render-task-file.js';
import { recordCandidates } from '../pipeline/record/record-candidates.js';
import { TASK_SHAPES, type TaskShape } from '../languages/construction-types.js';
import { formatFunnelSummary } from '../pipeline/report/funnel-report.js';
import { createSandboxProvider } from '../sandbox/create-sandbox-provider.js';
import type { LanguagePlugin } from '../languages/language.js';
import { chooseLanguage } from './choose-language.js';
import { createLanguages, dependencyInstallers } from './languages.js';
import { CliError } from './cli-error.js';
import { printProgress } from './compose-runtime.js';
import { addIsolationOptions, isolationFromFlags, type IsolationFlags } from './isolation-options.js';

interface BuildOptions extends IsolationFlags {
  suite: string;
  out: string;
  maxTasks?: number;
  package?: string;
  seed: number;
  sandbox: 'auto' | 'docker' | 'local';
  concurrency: number;
  llmBaseUrl?: string;
  llmModel?: string;
  llmCache?: string;
  language?: string;
  reward: RewardMode;
  taskShapes: TaskShape[];
}

/** `--task-shapes`: known shapes, each once. */
function taskShapes(raw: string): TaskShape[] {
  const asked = raw.split(',').map((s) => s.trim()).filter((s) => s !== '');
  const unknown = asked.filter((s) => !(TASK_SHAPES as readonly string[]).includes(s));
  if (unknown.length > 0 || asked.length === 0) throw new CliError(`--task-shapes takes ${TASK_SHAPES.join(', ')}, not '${raw}'`, `e.g. --task-shapes ${TASK_SHAPES.join(',')}`, 2);
  return [...new Set(asked)] as TaskShape[];
}

const SUITE_NAME = /^[a-z0-9][a-z0-9._-]*$/;

function positiveInt(flag: string): (raw: string) => number {
  return (raw) => {
    const n = Number(raw);
    if (!Number.isInteger(n) || n < 0) throw new CliError(`${flag} takes a whole number, not '${raw}'`, `e.g. ${flag} 10`, 2);
    return n;
  };
}

/** `codemidas build`: a repository in, a suite of gated task packages out (the construction composition root). */
export function createBuildCommand(): Command {
  const command = new Command('build')
    .description('turn a repository (Python, JavaScript, TypeScript, Go, Rust or Java) into a suite of gated tasks (environments/<suite>/)')
    .argument('<repo>', 'a local repository folder, a source tarball (.tar.gz, .tgz, .tar.xz, .tar.bz2, .tar; its single top folder is the repository; a local file or an http(s) URL) or a git URL')
    .requiredOption('--suite <name>', 'suite name: lower case, digits, . _ -')
    .option('--out <dir>', 'folder of suites; the suite is written to <out>/<suite>', 'environments')
    .option('--max-tasks <n>', 'at most this many tasks', positiveInt('--max-tasks'))
    .option('--package <dir>', "one package of a monorepo, relative to the repository root (e.g. packages/core): only its functions become tasks, its manifest's dependencies are installed with the root's, and the workspace stays the whole repository")
    .option('--language <id>', 'the language plugin to build with (python, javascript, typescript, go, rust, java); default: the one whose source files the repository holds most of (python for a git URL)')
    .option('--seed <n>', 'seed of every random choice (same seed, same suite)', positiveInt('--seed'), 0)
    .option('--task-shapes <shapes>', `the task shapes to propose, comma-separated: function (one function or method), feature (a public entry with the private helpers only it reaches, removed together), class (the methods of a class recorded on their own, removed together), module (the functions of a small module recorded on their own, removed together); default ${TASK_SHAPES.join(',')}`, taskShapes, [...TASK_SHAPES])
    .addOption(new Option('--reward <mode>', 'reward of the built tasks: binary (1 only when every hidden case passes) or fraction (the share of hidden cases passed)').choices(['binary', 'fraction']).default(DEFAULT_BUILD_REWARD_MODE))
    .option('--concurrency <n>', 'tasks gated at once (each scores its 6 runs in one fresh sandbox)', positiveInt('--concurrency'), 2)
    .addOption(new Option('--sandbox <kind>', 'sandbox adapter').choices(['auto', 'docker', 'local']).default('auto'))
    .option('--llm-base-url <url>', 'OpenAI-compatible endpoint (…/v1) for the LLM hooks: spec rewrite, input proposals, assertion review; off without it. Key from CODEMIDAS_LLM_API_KEY or OPENAI_API_KEY')
    .option('--llm-model <name>', 'model the LLM hooks ask (required with --llm-base-url)')
    .option('--llm-cache <dir>', 'folder of cached LLM answers (a rebuild with the same seed asks nothing again); default <out>/.llm-cache');
  return addIsolationOptions(command).action(async (repo: string, options: BuildOptions, cmd: Command) => {
    const verbose = Boolean(cmd.optsWithGlobals()['verbose']);
    await runBuild(repo, options, verbose);
  });
}

async function runBuild(repo: string, options: BuildOptions, verbose: boolean): Promise<void> {
  if (!SUITE_NAME.test(options.suite)) {
    throw new CliError(`'${options.suite}' is not a valid suite name`, 'use lower-case letters, digits, ".", "_" and "-", starting with a letter or digit', 2);
  }
  // A path that is not there, an unreadable tarball or a --package that is no folder of the
  // repository fails now, before any image is built or container started (a git URL's package, or
  // one of a tree too large to list whole, is checked once the snapshot is made).
  const files = await listRepositoryFiles(await checkRepositorySource(repo), repo);
  const languages = createLanguages();
  const language = chooseLanguage(languages, { dir: null, origin: repo, ...(files === null ? {} : { files }) }, options.language);
  if (options.package !== undefined && files !== null && files.length < MAX_LISTED_FILES) checkPackageFolder(normalizePackageFolder(options.package), files, language);
  const llm = llmHooksOf(options, language);
  const logger = createLogger({ level: verbose ? 'debug' : 'warn' });
  const say = (line: string): void => void process.stderr.write(`${line}\n`);
  const controller = new AbortController();
  // Every sandbox call of the concurrent gates listens on this one signal (each removes its listener
  // when it ends): dozens at once are expected, not a leak.
  setMaxListeners(256, controller.signal);
  const onSignal = (): void => controller.abort(new Error('interrupted'));
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);

  const docker = new Dockerode();
  const provider = await createSandboxProvider({
    kind: options.sandbox,
    logger,
    serverId: `codemidas-build-${randomUUID().slice(0, 8)}`,
    docker,
    images: createDockerImageResolver({ docker, logger, installers: dependencyInstallers(languages) }),
    isolation: isolationFromFlags(options),
    signal: controller.signal,
  });
  try {
    let imageReader: ImageFileReader;
    if (provider.kind === 'docker') {
      await ensureImages({ docker, logger, languages: [language.image], onProgress: printProgress(say) });
      const isolation = await provider.checkIsolation?.(provider.imageFor(language.image), { signal: controller.signal });
      if (isolation) say(`sandboxes: ${isolation.summary}`);
      await provider.reap();
      // the image's files for the leak audit, read once per image (id) and kept in the user's cache
      imageReader = createCachedImageFileReader(createDockerImageFileReader(docker), {
        dir: defaultCacheDir(),
        imageId: async (image) => (await docker.getImage(image).inspect()).Id,
        logger,
      });
    } else {
      // The local sandbox runs on the host's root filesystem: audit the host's folders of the language's libraries.
      imageReader = createDirectoryImageFileReader({ root: '/', include: language.leaks.hostLibraryFolders() });
    }
    const stages: PipelineStages = createDefaultStages({ record: (o) => recordCandidates(o), language });
    let last = '';
    const onProgress = (e: BuildProgress): void => {
      const line = `${e.stage}: ${e.done}/${e.total}${e.message ? ` ${e.message}` : e.unitId ? ` ${e.unitId}` : ''}`;
      if (line !== last) say(line);
      last = line;
    };
    try {
      const result = await buildSuite({
        source: repo,
        suite: options.suite,
        outDir: options.out,
        seed: options.seed,
        rewardMode: options.reward,
        taskShapes: options.taskShapes,
        ...(options.maxTasks === undefined ? {} : { maxTasks: options.maxTasks }),
        ...(options.package === undefined ? {} : { package: options.package }),
        concurrency: Math.max(1, options.concurrency),
        provider,
        logger,
        imageReader,
        stages,
        language,
        ...(llm ?? {}),
        onProgress,
        signal: controller.signal,
      });
      process.stdout.write(`${formatFunnelSummary(result.report, result.timings)}\n`);
      process.stdout.write(`suite written to ${result.suiteDir}; funnel with timings in ${result.funnelFile}\n`);
    } catch (err) {
      if (err instanceof BuildFailedError) {
        process.stdout.write(`${formatFunnelSummary(err.report, err.timings)}\n`);
        throw new CliError(err.message, 'no suite was written (an existing one is left as it was); the funnel above says where every unit was dropped');
      }
      throw err;
    }
  } finally {
    process.removeListener('SIGINT', onSignal);
    process.removeListener('SIGTERM', onSignal);
    await provider.close();
  }
}

/** The LLM hooks when `--llm-base-url` is given, else null (the build stays deterministic without a model). */
function llmHooksOf(options: BuildOptions, language: LanguagePlugin): LlmHooks | null {
  if (options.llmBaseUrl === undefined) {
    if (options.llmModel !== undefined) throw new CliError('--llm-model needs --llm-base-url', 'e.g. --llm-base-url http://127.0.0.1:8000/v1 --llm-model <name>', 2);
    return null;
  }
  if (options.llmModel === undefined) throw new CliError('--llm-base-url needs --llm-model', 'name the model the endpoint serves, e.g. --llm-model Qwen/Qwen2.5-Coder-7B-Instruct', 2);
  const apiKey = process.env['CODEMIDAS_LLM_API_KEY'] ?? process.env['OPENAI_API_KEY'];
  const client = createOpenAiChatClient({ baseUrl: options.llmBaseUrl, model: options.llmModel, apiKey });
  return createLlmHooks(client, { language, seed: options.seed, cacheDir: options.llmCache ?? join(options.out, '.llm-cache') });
}
