import { InvalidArgumentError } from '../errors.js';
import type { LanguagePlugin } from './language.js';

/** The language plugins of one process, keyed by task.json `language`. */
export interface LanguageRegistry {
  /** The plugin serving `language`; throws `InvalidArgumentError` naming the languages there are. */
  get(language: string): LanguagePlugin;
  has(language: string): boolean;
  /** Every plugin, in the order given. */
  list(): readonly LanguagePlugin[];
  /** Every task.json `language` some plugin serves, sorted. */
  taskLanguages(): readonly string[];
}

/** A registry of `plugins`; two plugins claiming one task language is a programming error. */
export function createLanguageRegistry(plugins: readonly LanguagePlugin[]): LanguageRegistry {
  const byLanguage = new Map<string, LanguagePlugin>();
  for (const plugin of plugins) {
    for (const language of plugin.taskLanguages) {
      const taken = byLanguage.get(language);
      if (taken) throw new Error(`language '${language}' is claimed by two plugins (${taken.language} and ${plugin.language})`);
      byLanguage.set(language, plugin);
    }
  }
  const known = [...byLanguage.keys()].sort();
  const list = Object.freeze([...plugins]);
  return Object.freeze({
    get(language: string): LanguagePlugin {
      const plugin = byLanguage.get(language);
      if (!plugin) throw new InvalidArgumentError('language', `no language plugin serves '${language}' (there are: ${known.join(', ') || 'none'})`);
      return plugin;
    },
    has: (language: string) => byLanguage.has(language),
    list: () => list,
    taskLanguages: () => known,
  });
}
