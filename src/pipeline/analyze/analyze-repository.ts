import { InvalidArgumentError } from '../../errors.js';
import type { DetectResult, LanguageAdapter, ParseProblem } from '../../languages/language-adapter.js';
import type { RepoSnapshot, Unit } from '../types.js';

/** The analyze stage's output: the units of the snapshot's language and the files it could not use. */
export interface Analysis {
  language: string;
  detection: DetectResult;
  units: Unit[];
  problems: ParseProblem[];
  /** Wall-clock time of parsing and extraction, in milliseconds. */
  elapsedMs: number;
}

export interface AnalyzeOptions {
  signal?: AbortSignal;
}

/**
 * Picks the first adapter that detects its language in the snapshot and lists the units.
 * A snapshot no adapter recognises is an `InvalidArgumentError('repository', ...)`.
 */
export async function analyzeRepository(
  snapshot: RepoSnapshot,
  adapters: readonly LanguageAdapter[],
  options: AnalyzeOptions = {},
): Promise<Analysis> {
  const detections = adapters.map((adapter) => ({ adapter, detection: adapter.detect(snapshot) }));
  const chosen = detections.find((d) => d.detection.detected);
  if (chosen === undefined) {
    const why = detections.map((d) => `${d.detection.language}: ${d.detection.reason}`).join('; ');
    throw new InvalidArgumentError(
      'repository',
      `no supported language found in ${snapshot.origin} (${why || 'no adapters'}); pass a repository with source files of ${adapters.map((a) => a.language).join(' or ') || 'a language this build has a plugin for'}`,
    );
  }
  const started = performance.now();
  const parseOptions = options.signal === undefined ? {} : { signal: options.signal };
  const { units, problems } = await chosen.adapter.parseUnits(snapshot, parseOptions);
  return {
    language: chosen.detection.language,
    detection: chosen.detection,
    units,
    problems,
    elapsedMs: performance.now() - started,
  };
}
