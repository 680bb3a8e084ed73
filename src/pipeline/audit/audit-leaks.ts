import type { Logger } from '../../logging.js';
import { buildLeakIndex, findRuns, type LeakHit, type LeakIndex, type SourceText } from './leak-index.js';
import type { ImageFileReader } from './image-files.js';
import type { LeakRules } from '../../languages/language.js';
import { isUnderAny } from '../../sandbox/scrub-paths.js';

/** Runs of this many consecutive body tokens are searched for (the whole body when it is shorter). */
export const DEFAULT_LEAK_RUN_TOKENS = 12;
/**
 * A file leaks when such runs cover at least this share of the body. A real copy (distro package,
 * vendored file, backup, the same helper pasted into two modules) covers the body almost entirely:
 * 95-100% on Debian's python3-toolz (`is_partial_args` in functoolz.py and _signatures.py) and on
 * planted distro copies. Sibling functions written in the same style share shorter runs: on
 * examples/parsekit a guard clause (`if not 2 <= base <= 36: raise ...`, under 50%); on real
 * libraries `keyfilter`/`valfilter`, `thread_first`/`thread_last`, `pluralize`/`singularize`
 * 52-67%, and `TlzLoader.find_spec` 75%. Those siblings differ exactly where the task's logic is,
 * so reading one does not give the other back; 0.8 sits between the two groups.
 */
export const DEFAULT_LEAK_MIN_COVERAGE = 0.8;

/** report.json's `leakAudit`: what was searched and every hit. */
export interface LeakAuditResult {
  clean: boolean;
  bodyTokens: number;
  runTokens: number;
  minCoverage: number;
  /** Files searched in the image, and their tokens. */
  imageFiles: number;
  workspaceFiles: number;
  hits: (LeakHit & { where: 'workspace' | 'image' })[];
}

/**
 * The leak audit for one task: the removed body as tokens, searched for in the masked workspace
 * (every text file) and in the whole filesystem of the task's runtime image (every file of the
 * language: `LeakRules.indexesImageFile`), cut into tokens by the language's tokenizer.
 * The image index is built once per image tag and shared by every task of a build.
 */
export interface LeakAuditor {
  /**
   * `scrub`: paths the task's sandboxes do not contain (task.json `runtime.scrub`); hits below them
   * are not hits. A docker image given here should already be the derived image without them.
   */
  audit(input: { removedBody: string; workspace: ReadonlyMap<string, Buffer>; image: string; scrub?: readonly string[]; signal?: AbortSignal }): Promise<LeakAuditResult>;
  /** The paths of the image's indexed files (the index is shared with `audit`). */
  imagePaths(image: string, signal?: AbortSignal): Promise<string[]>;
}

export interface LeakAuditorOptions {
  reader: ImageFileReader;
  /** The language's tokenizer and which image files it indexes. */
  language: Pick<LeakRules, 'tokenize' | 'indexesImageFile'>;
  /** A name for `language.indexesImageFile` (the language's id), under which a reader may keep what it read. */
  selector?: string;
  logger: Logger;
  /** Default `DEFAULT_LEAK_RUN_TOKENS`. */
  runTokens?: number;
  /** Default `DEFAULT_LEAK_MIN_COVERAGE`. */
  minCoverage?: number;
}

export function createLeakAuditor(options: LeakAuditorOptions): LeakAuditor {
  const runTokens = options.runTokens ?? DEFAULT_LEAK_RUN_TOKENS;
  const minCoverage = options.minCoverage ?? DEFAULT_LEAK_MIN_COVERAGE;
  const logger = options.logger.child({ component: 'leak-audit' });
  const { tokenize } = options.language;
  const images = new Map<string, Promise<LeakIndex>>();

  const imageIndex = (image: string, signal?: AbortSignal): Promise<LeakIndex> => {
    let index = images.get(image);
    if (!index) {
      const started = performance.now();
      const read = { isSource: options.language.indexesImageFile, ...(options.selector === undefined ? {} : { selector: options.selector }), ...(signal ? { signal } : {}) };
      index = options.reader.readSourceFiles(image, read).then((files) => {
        const built = buildLeakIndex(files, tokenize);
        logger.info({ image, files: built.files.length, tokens: built.tokenCount, elapsedMs: Math.round(performance.now() - started) }, 'indexed the image for the leak audit');
        return built;
      });
      images.set(image, index);
      index.catch(() => images.delete(image));
    }
    return index;
  };

  return {
    async imagePaths(image, signal) {
      return (await imageIndex(image, signal)).files.map((file) => file.path);
    },
    async audit({ removedBody, workspace, image, scrub = [], signal }) {
      const body = tokenize(removedBody).tokens;
      const workspaceSources: SourceText[] = [];
      for (const [path, content] of workspace) {
        if (content.length > 4 * 1024 * 1024 || content.includes(0)) continue;
        workspaceSources.push({ path, content: content.toString('utf8') });
      }
      const inWorkspace = findRuns(buildLeakIndex(workspaceSources, tokenize), body, runTokens, minCoverage).map((h) => ({ ...h, where: 'workspace' as const }));
      const index = await imageIndex(image, signal);
      const inImage = findRuns(index, body, runTokens, minCoverage)
        .filter((h) => !isUnderAny(h.path, scrub))
        .map((h) => ({ ...h, where: 'image' as const }));
      const hits = [...inWorkspace, ...inImage];
      const scrubbedFiles = scrub.length === 0 ? 0 : index.files.filter((file) => isUnderAny(file.path, scrub)).length;
      return {
        clean: hits.length === 0,
        bodyTokens: body.length,
        runTokens: Math.min(runTokens, body.length),
        minCoverage,
        imageFiles: index.files.length - scrubbedFiles,
        workspaceFiles: workspaceSources.length,
        hits,
      };
    },
  };
}
