import { Command } from 'commander';
import Dockerode from 'dockerode';
import { IMAGE_LANGUAGES, ensureImages, type ImageLanguage } from '../images/image-builder.js';
import { createLogger } from '../logging.js';
import { CliError } from './cli-error.js';
import { createDockerSandboxProvider } from '../sandbox/docker/docker-sandbox-provider.js';
import { formatTaskLoadProblem, loadCatalog } from '../tasks/load-catalog.js';
import { imageLanguageOf, prepareScrubbedImages, printProgress } from './compose-runtime.js';

/** `codemidas images build`: builds the sandbox images locally (nothing is pulled). */
export function createImagesCommand(): Command {
  const images = new Command('images').description('sandbox images');
  images
    .command('build')
    .description('build the base image and the language images that are missing')
    .option('--languages <list>', `comma-separated: ${IMAGE_LANGUAGES.join(', ')}`, IMAGE_LANGUAGES.join(','))
    .option('--force', 'rebuild even when present', false)
    .option('--environments <dir>', "also build the task images of the suites there (a language image without the copies of a task's library, task.json runtime.scrub)")
    .action(async (options: { languages: string; force: boolean; environments?: string }, cmd: Command) => {
      const verbose = Boolean(cmd.optsWithGlobals()['verbose']);
      const languages = parseLanguages(options.languages);
      const logger = createLogger({ level: verbose ? 'debug' : 'warn' });
      const say = (line: string): void => void process.stderr.write(`${line}\n`);
      const docker = new Dockerode();
      const result = await ensureImages({ docker, logger, languages, force: options.force, onProgress: printProgress(say) });
      for (const language of languages) process.stdout.write(`${language}\t${result.tags[language]}\n`);
      if (options.environments !== undefined) {
        const catalog = await loadCatalog(options.environments, { logger });
        for (const problem of catalog.problems) say(`skipped task: ${formatTaskLoadProblem(problem)}`);
        const tasks = [...catalog.tasks.values()];
        const missing = [...new Set(tasks.map((t) => imageLanguageOf(t.file.language)))].filter((l) => !languages.includes(l));
        if (missing.length) await ensureImages({ docker, logger, languages: missing, onProgress: printProgress(say) });
        const provider = createDockerSandboxProvider({ docker, logger, serverId: 'codemidas-images' });
        try {
          for (const { tag, taskIds } of await prepareScrubbedImages(provider, tasks, say)) process.stdout.write(`task image\t${tag}\t${taskIds.join(',')}\n`);
        } finally {
          await provider.close();
        }
      }
    });
  return images;
}

function parseLanguages(raw: string): ImageLanguage[] {
  const wanted = raw.split(',').map((s) => s.trim()).filter(Boolean);
  const unknown = wanted.filter((l) => !IMAGE_LANGUAGES.includes(l as ImageLanguage));
  if (unknown.length || wanted.length === 0) {
    throw new CliError(`unknown language(s): ${unknown.join(', ') || '(none given)'}`, `--languages takes a comma-separated list of ${IMAGE_LANGUAGES.join(', ')}`, 2);
  }
  return wanted as ImageLanguage[];
}
