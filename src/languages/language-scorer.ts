import type { Logger } from '../logging.js';
import type { SandboxProvider } from '../sandbox/types.js';
import type { Scorer } from '../scoring/types.js';
import type { LanguagePlugin } from './language.js';
import type { LanguageRegistry } from './registry.js';

/**
 * One scorer for a catalog of tasks in several languages: each request goes to the scorer of its
 * task's language plugin, made once per plugin on first use. A task whose language no plugin serves
 * is refused by `registry.get` (the server leaves such tasks out at start, so this is a backstop).
 */
export function createLanguageScorer(registry: LanguageRegistry, deps: { provider: SandboxProvider; logger: Logger }): Scorer {
  const scorers = new Map<LanguagePlugin, Scorer>();
  return {
    async score(request) {
      const plugin = registry.get(request.task.file.language);
      let scorer = scorers.get(plugin);
      if (!scorer) {
        scorer = plugin.createScorer(deps);
        scorers.set(plugin, scorer);
      }
      return scorer.score(request);
    },
  };
}
