import type { ImageLanguage } from '../images/image-builder.js';
import type { Logger } from '../logging.js';
import type { LanguageAdapter } from '../pipeline/adapters/language-adapter.js';
import type { Unit } from '../pipeline/types.js';
import type { SandboxProvider } from '../sandbox/types.js';
import type { Scorer } from '../scoring/types.js';
import type { TestRunner } from '../tasks/test-runner.js';

/**
 * One language as a plugin: what construction and scoring need to know about it, so that the
 * generic code (build driver, episode manager, server) names no language. The composition root
 * builds a `LanguageRegistry` of plugins (`src/cli/languages.ts`) and hands each task the plugin of
 * its task.json `language`.
 *
 * Construction reads the `LanguageAdapter` members (detection, unit parsing, body masking, the
 * sandbox-side harness folder); serving reads `image` and `createScorer`.
 */
export interface LanguagePlugin extends LanguageAdapter {
  /** The task.json `language` values whose tasks this plugin builds and scores; the first is `language`. */
  readonly taskLanguages: readonly string[];
  /** The runtime image its tasks run on (`sandbox-images/<image>/`). */
  readonly image: ImageLanguage;
  /**
   * The task.json `tests.runner` values its scorer judges, each with the schema of its `tests`; the
   * catalog loader validates a task's `tests` with it and skips a task whose runner no plugin has.
   */
  readonly testRunners: readonly TestRunner[];
  /** The scorer of its tasks: a fresh sandbox of the task's image, its judge, the reward. */
  createScorer(deps: { provider: SandboxProvider; logger: Logger }): Scorer;
  /**
   * Why `unit` cannot become a task in the workspace layout this language's scorer runs (a funnel
   * drop code and a reason), or null when it can (Python: `import-root`, a module imported from a
   * folder other than the workspace root).
   */
  unbuildable(unit: Unit): { code: string; reason: string } | null;
}
