import { readdirSync, type Dirent } from 'node:fs';
import { join } from 'node:path';
import type { LanguagePlugin } from '../languages/language.js';
import type { LanguageRegistry } from '../languages/registry.js';
import { SKIPPED_DIRS, SKIPPED_ROOT_DIRS } from '../pipeline/ingest/copy-filtered-tree.js';
import { CliError } from './cli-error.js';

/** Files looked at, at most: enough to tell a language, cheap on a large tree. */
const MAX_FILES = 20_000;

/**
 * The plugin `build` uses for the repository at `dir`: the one named by `--language`, else the one
 * whose detection finds the most source files (ties: the registry's order). A git URL cannot be
 * looked into before it is cloned: it takes `--language` (default `python`, as before plugins).
 */
export function chooseLanguage(registry: LanguageRegistry, source: { dir: string | null; origin: string }, requested?: string): LanguagePlugin {
  if (requested !== undefined) {
    if (!registry.has(requested)) throw new CliError(`no language plugin serves '${requested}'`, `--language takes one of: ${registry.taskLanguages().join(', ')}`, 2);
    return registry.get(requested);
  }
  if (source.dir === null) return registry.get('python');
  const files = listFiles(source.dir);
  const snapshot = { dir: source.dir, origin: source.origin, revision: 'working-tree', files };
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
    throw new CliError(`no supported language found in ${source.origin} (${why})`, `pass a repository with source files of ${registry.list().map((p) => p.displayName).join(' or ')}, or name one with --language`, 2);
  }
  return chosen.plugin;
}

/** Repository-relative POSIX paths of the regular files under `root`, skipped folders left out, sorted. */
function listFiles(root: string): string[] {
  const out: string[] = [];
  const walk = (rel: string): void => {
    if (out.length >= MAX_FILES) return;
    let entries: Dirent[];
    try {
      entries = readdirSync(join(root, rel), { withFileTypes: true });
    } catch {
      return;
    }
    for (const entry of entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))) {
      const path = rel ? `${rel}/${entry.name}` : entry.name;
      if (entry.isDirectory()) {
        // the folders ingest leaves out of a snapshot (VCS data, caches, dependencies, root build output)
        if (!SKIPPED_DIRS.has(entry.name) && !(rel === '' && SKIPPED_ROOT_DIRS.has(entry.name)) && !entry.name.endsWith('.egg-info')) walk(path);
      } else if (entry.isFile()) {
        out.push(path);
      }
    }
  };
  walk('');
  return out;
}
