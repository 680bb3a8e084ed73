import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, rm, stat } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { InvalidArgumentError } from '../../errors.js';
import type { RepoSnapshot } from '../types.js';
import { copyFilteredTree, type SkippedPath } from './copy-filtered-tree.js';
import { lastErrorLine, shallowClone } from './git-clone.js';

export interface IngestOptions {
  /** Folder the snapshot is created in (as `snapshot-XXXXXX/`); created when missing. */
  workRoot: string;
  signal?: AbortSignal;
  /** Folders at the root left out as build output (the language's `rootBuildDirs`). Default SKIPPED_ROOT_DIRS (`build`, `dist`). */
  rootDirsLeftOut?: ReadonlySet<string>;
}

/** A snapshot, with the paths that were left out of it and why. */
export interface IngestedRepository extends RepoSnapshot {
  skipped: SkippedPath[];
}

/** `https://`, `ssh://`, `git://`, `file://` URLs and scp-like `user@host:path`. */
const GIT_URL = /^(?:(?:https?|ssh|git|file):\/\/|[\w.-]+@[\w.-]+:)/;

const WHAT_TO_PASS = 'pass a local directory or a git URL (https://, ssh://, git@host:path)';

/**
 * Copies a repository into a private folder under `workRoot`, never touching the original.
 * A git URL, or a local directory that is the top of a git repository, is cloned with `--depth 1`
 * (so only committed files count, and `revision` is HEAD's commit id); any other directory is copied
 * as it is (`revision` = `working-tree`). Caches, VCS data, build output, bytecode, symlinks and files
 * over 1 MiB are left out in both cases.
 */
export async function ingestRepository(source: string, options: IngestOptions): Promise<IngestedRepository> {
  await mkdir(options.workRoot, { recursive: true });
  if (GIT_URL.test(source)) return ingestClone(source, source, options);

  const path = await checkRepositorySource(source);
  if (existsSync(join(path, '.git'))) return ingestClone(pathToFileURL(path).href, source, options);

  const dir = await mkdtemp(join(options.workRoot, 'snapshot-'));
  const copied = await removeOnFailure(dir, copyFilteredTree(path, dir, { exclude: options.workRoot, ...filterOptions(options) }));
  return { dir, origin: source, revision: 'working-tree', files: copied.files, skipped: copied.skipped };
}

/**
 * Checks what can be checked of `source` without copying it: a local path must be an existing
 * directory (`InvalidArgumentError('repository', ...)` saying which problem). Returns the absolute
 * path; a git URL is returned as it is (only cloning can tell). The CLI calls it before it starts
 * any container, so a typo fails at once.
 */
/** True when `source` names a git repository to clone rather than a local folder. */
export function isGitUrl(source: string): boolean {
  return GIT_URL.test(source);
}

export async function checkRepositorySource(source: string): Promise<string> {
  if (GIT_URL.test(source)) return source;
  const path = resolve(source);
  const info = await stat(path).catch(() => null);
  if (info === null) throw new InvalidArgumentError('repository', `'${source}' does not exist; ${WHAT_TO_PASS}`);
  if (!info.isDirectory()) throw new InvalidArgumentError('repository', `'${source}' is not a directory; ${WHAT_TO_PASS}`);
  return path;
}

/** A half-copied snapshot is never left behind. */
async function removeOnFailure<T>(dir: string, work: Promise<T>): Promise<T> {
  try {
    return await work;
  } catch (error) {
    await rm(dir, { recursive: true, force: true });
    throw error;
  }
}

async function ingestClone(url: string, origin: string, options: IngestOptions): Promise<IngestedRepository> {
  const { signal } = options;
  const clone = await mkdtemp(join(options.workRoot, 'clone-'));
  try {
    let revision: string;
    try {
      revision = await shallowClone(url, join(clone, 'repo'), signal);
    } catch (error) {
      signal?.throwIfAborted();
      throw new InvalidArgumentError(
        'repository',
        `could not clone '${origin}' (${lastErrorLine(error)}); ${WHAT_TO_PASS} that can be cloned without credentials and has at least one commit`,
      );
    }
    const dir = await mkdtemp(join(options.workRoot, 'snapshot-'));
    const copied = await removeOnFailure(dir, copyFilteredTree(join(clone, 'repo'), dir, filterOptions(options)));
    return { dir, origin, revision, files: copied.files, skipped: copied.skipped };
  } finally {
    await rm(clone, { recursive: true, force: true });
  }
}

/** The copy's options from the ingest's: its signal and the root folders left out, when given. */
function filterOptions(options: IngestOptions): { signal?: AbortSignal; rootDirsLeftOut?: ReadonlySet<string> } {
  return {
    ...(options.signal === undefined ? {} : { signal: options.signal }),
    ...(options.rootDirsLeftOut === undefined ? {} : { rootDirsLeftOut: options.rootDirsLeftOut }),
  };
}
