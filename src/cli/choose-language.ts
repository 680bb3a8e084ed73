import type { LanguagePlugin } from '../languages/language.js';
import type { LanguageRegistry } from '../languages/registry.js';
import { listFolderFiles } from '../pipeline/ingest/list-folder-files.js';
import { CliError } from './cli-error.js';

/**
 * The plugin `build` uses for the repository at `dir` (or whose files are `files`, as
 * `listRepositoryFiles` gives a folder's or a tarball's): the one named by `--language`, else the
 * one whose detection finds the most source files (ties: the registry's order). A git URL cannot be
 * looked into before it is cloned: it takes `--language` (default `python`, as before plugins).
 */
export function chooseLanguage(registry: LanguageRegistry, source: { dir: string | null; origin: string; files?: readonly string[] }, requested?: string): LanguagePlugin {
  if (requested !== undefined) {
    if (!registry.has(requested)) throw new CliError(`no language plugin serves '${requested}'`, `--language takes one of: ${registry.taskLanguages().join(', ')}`, 2);
    return registry.get(requested);
  }
  if (source.files !== undefined) return detectLanguage(registry, source.origin, [...source.files]);
  if (source.dir === null) return registry.get('python');
  return detectLanguage(registry, source.origin, listFolderFiles(source.dir));
}

/** The plugin whose detection finds the most of `files` (detection reads names only, never the files). */
function detectLanguage(registry: LanguageRegistry, origin: string, files: string[]): LanguagePlugin {
  const snapshot = { dir: '', origin, revision: 'working-tree', files };
  const found = registry
    .list()
    .map((plugin, order) => ({ plugin, order, detection: plugin.detect(snapshot) }))
    .filter((d) => d.detection.detected)
    .sort((a, b) => b.detection.files.length - a.detection.files.length || a.order - b.order);
  const chosen = found[0];
  if (chosen === undefined) {
    const why = registry
      .list()
      .map((p) => `${p.language}: ${p.detect(snapshot).reason}`)
      .join('; ');
    throw new CliError(`no supported language found in ${origin} (${why})`, `pass a repository with source files of ${registry.list().map((p) => p.displayName).join(' or ')}, or name one with --language`, 2);
  }
  return chosen.plugin;
}
