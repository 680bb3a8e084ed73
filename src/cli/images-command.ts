import { Command } from 'commander';
import Dockerode from 'dockerode';
import { IMAGE_LANGUAGES, ensureImages, type ImageLanguage } from '../images/image-builder.js';
import { createLogger } from '../logging.js';
import { CliError } from './cli-error.js';
import { printProgress } from './compose-runtime.js';

/** `codemidas images build`: builds the sandbox images locally (nothing is pulled). */
export function createImagesCommand(): Command {
  const images = new Command('images').description('sandbox images');
  images
    .command('build')
    .description('build the base image and the language images that are missing')
    .option('--languages <list>', `comma-separated: ${IMAGE_LANGUAGES.join(', ')}`, IMAGE_LANGUAGES.join(','))
    .option('--force', 'rebuild even when present', false)
    .action(async (options: { languages: string; force: boolean }, cmd: Command) => {
      const verbose = Boolean(cmd.optsWithGlobals()['verbose']);
      const languages = parseLanguages(options.languages);
      const logger = createLogger({ level: verbose ? 'debug' : 'warn' });
      const say = (line: string): void => void process.stderr.write(`${line}\n`);
      const result = await ensureImages({ docker: new Dockerode(), logger, languages, force: options.force, onProgress: printProgress(say) });
      for (const language of languages) process.stdout.write(`${language}\t${result.tags[language]}\n`);
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
