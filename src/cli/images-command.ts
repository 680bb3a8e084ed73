import { Command } from 'commander';
import Dockerode from 'dockerode';
import { ensureImages, type ImageLanguage, imageLanguages } from '../images/image-builder.js';
import { createDockerImageResolver } from '../images/docker-image-resolver.js';
import { createLogger } from '../logging.js';
import { CliError } from './cli-error.js';
import { createDockerSandboxProvider } from '../sandbox/docker/docker-sandbox-provider.js';
import { formatTaskLoadProblem, loadCatalog } from '../tasks/load-catalog.js';
import { createLanguages, dependencyInstallers } from './languages.js';
import { prepareScrubbedImages, printProgress } from './compose-runtime.js';
import { mapSettledWithConcurrency } from '../shared/map-with-concurrency.js';
import { workspaceImageForTask } from '../episodes/workspace-image-for-task.js';
import { listWorkspaceFiles } from '../tasks/list-workspace-files.js';

/** `codemidas images build`: builds the sandbox images locally (nothing is pulled). */
export function createImagesCommand(): Command {
  const images = new Command('images').description('sandbox images');
  images
    .command('build')
    .description('build the base image and the language images that are missing')
    .option('--languages <list>', `comma-separated: ${imageLanguages().join(', ')}`, imageLanguages().join(','))
    .option('--force', 'rebuild even when present', false)
    .option('--environments <dir>', "also build the task images of the suites there: each task's masked workspace baked onto its language image (without the copies of its library, task.json runtime.scrub)")
    .option('--suite <name>', 'only the task images of this suite (of --environments, default environments/)')
    .action(async (options: { languages: string; force: boolean; environments?: string; suite?: string }, cmd: Command) => {
      const verbose = Boolean(cmd.optsWithGlobals()['verbose']);
      const languages = parseLanguages(options.languages);
      const logger = createLogger({ level: verbose ? 'debug' : 'warn' });
      const say = (line: string): void => void process.stderr.write(`${line}\n`);
      const docker = new Dockerode();
      const result = await ensureImages({ docker, logger, languages, force: options.force, onProgress: printProgress(say) });
      for (const language of languages) process.stdout.write(`${language}\t${result.tags[language]}\n`);
      if (options.environments !== undefined || options.suite !== undefined) {
        const environments = options.environments ?? 'environments';
        const plugins = createLanguages();
        const catalog = await loadCatalog(environments, { logger, languages: plugins.taskLanguages(), runners: plugins.list().flatMap((p) => p.testRunners) });
        for (const problem of catalog.problems) say(`skipped task: ${formatTaskLoadProblem(problem)}`);
        const tasks = catalog.list(options.suite !== undefined ? { suite: options.suite } : {});
        if (tasks.length === 0) {
          throw new CliError(`no task${options.suite !== undefined ? ` of suite '${options.suite}'` : ''} loaded from ${environments}`, 'check --environments and --suite');
        }
        const missing = [...new Set(tasks.map((t) => t.file.runtime.image))].filter((l) => !languages.includes(l));
        if (missing.length) await ensureImages({ docker, logger, languages: missing, onProgress: printProgress(say) });
        const provider = createDockerSandboxProvider({ docker, logger, serverId: 'codemidas-images', images: createDockerImageResolver({ docker, logger, installers: dependencyInstallers(plugins) }) });
        try {
          for (const { tag, taskIds } of await prepareScrubbedImages(provider, tasks, say)) process.stdout.write(`scrubbed image\t${tag}\t${taskIds.join(',')}\n`);
          const started = performance.now();
          let done = 0;
          await mapSettledWithConcurrency(tasks, 2, async (task) => {
            const image = await workspaceImageForTask(provider, task, await listWorkspaceFiles(task));
            done++;
            say(`task images: ${done}/${tasks.length} ${task.id}`);
            process.stdout.write(`task image\t${image}\t${task.id}\n`);
          }).then((settled) => {
            const failed = settled.flatMap((r, i) => (r.status === 'rejected' ? [`${tasks[i]?.id}: ${r.reason instanceof Error ? r.reason.message : String(r.reason)}`] : []));
            if (failed.length > 0) throw new CliError(`${failed.length} task image(s) failed: ${failed.join('; ')}`);
          });
          say(`task images: ${tasks.length} ready in ${((performance.now() - started) / 1000).toFixed(1)} s (cached by content: unchanged workspaces cost nothing)`);
        } finally {
          await provider.close();
        }
      }
    });
  return images;
}

function parseLanguages(raw: string): ImageLanguage[] {
  const wanted = raw.split(',').map((s) => s.trim()).filter(Boolean);
  const known = imageLanguages();
  const unknown = wanted.filter((l) => !known.includes(l));
  if (unknown.length || wanted.length === 0) {
    throw new CliError(`unknown language(s): ${unknown.join(', ') || '(none given)'}`, `--languages takes a comma-separated list of ${known.join(', ')}`, 2);
  }
  return wanted;
}
