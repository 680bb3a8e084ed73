import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, rm, stat } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { InvalidArgumentError } from '../../errors.js';
import type { RepoSnapshot } from '../types.js';
import { copyFilteredTree, type SkippedPath } from './copy-filtered-tree.js';
import { DownloadError, downloadTarball, isTarballUrl } from './download-tarball.js';
import { lastErrorLine, shallowClone } from './git-clone.js';
import { isLeftOut, listFolderFiles, MAX_LISTED_FILES } from './list-folder-files.js';
import { isSourceTarball, listTarballFiles, sha256Of, TARBALL_FORMS, TarballError, unpackTarball } from './source-tarball.js';

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

const WHAT_TO_PASS = `pass a local directory, a source tarball (${TARBALL_FORMS}) or a git URL (https://, ssh://, git@host:path); a tarball may also be given by its http(s) URL`;

/** The forms a repository is taken in: a git URL to clone, a local folder, a source tarball (a local file, or a URL to download). */
export type RepositoryForm = 'git-url' | 'directory' | 'tarball' | 'tarball-url';

/** What `checkRepositorySource` found: the form, and the absolute path (a git URL as given). */
export interface RepositorySource {
  form: RepositoryForm;
  location: string;
}

/**
 * Copies a repository into a private folder under `workRoot`, never touching the original.
 * A git URL, or a local directory that is the top of a git repository, is cloned with `--depth 1`
 * (so only committed files count, and `revision` is HEAD's commit id); any other directory is copied
 * as it is (`revision` = `working-tree`); a source tarball is unpacked (its single top folder, when
 * it has one, is the repository; `revision` = `tarball:sha256:<hex>` of the archive's bytes; an
 * http(s) URL named as a tarball is downloaded first, once per process). Caches,
 * VCS data, build output, bytecode, symlinks and files over 1 MiB are left out in every case.
 */
export async function ingestRepository(source: string, options: IngestOptions): Promise<IngestedRepository> {
  await mkdir(options.workRoot, { recursive: true });
  const { form, location } = await checkRepositorySource(source);
  if (form === 'git-url') return ingestClone(location, source, options);
  if (form === 'tarball') return ingestTarball(location, source, options);
  if (form === 'tarball-url') return ingestTarball(await downloaded(location, options.signal), source, options);
  if (existsSync(join(location, '.git'))) return ingestClone(pathToFileURL(location).href, source, options);

  const dir = await mkdtemp(join(options.workRoot, 'snapshot-'));
  const copied = await removeOnFailure(dir, copyFilteredTree(location, dir, { exclude: options.workRoot, ...filterOptions(options) }));
  return { dir, origin: source, revision: 'working-tree', files: copied.files, skipped: copied.skipped };
}

/**
 * Checks what can be checked of `source` without copying it: a local path must be an existing
 * directory or a file named as a source tarball (`InvalidArgumentError('repository', ...)` saying
 * which problem); a git URL is returned as it is (only cloning can tell). The CLI calls it before it
 * starts any container, so a typo fails at once.
 */
export async function checkRepositorySource(source: string): Promise<RepositorySource> {
  if (isTarballUrl(source)) return { form: 'tarball-url', location: source };
  if (GIT_URL.test(source)) return { form: 'git-url', location: source };
  const path = resolve(source);
  const info = await stat(path).catch(() => null);
  if (info === null) throw new InvalidArgumentError('repository', `'${source}' does not exist; ${WHAT_TO_PASS}`);
  if (info.isDirectory()) return { form: 'directory', location: path };
  if (info.isFile() && isSourceTarball(path)) return { form: 'tarball', location: path };
  throw new InvalidArgumentError('repository', `'${source}' is not a directory${info.isFile() ? ` nor a file named ${TARBALL_FORMS}` : ''}; ${WHAT_TO_PASS}`);
}

/**
 * The files a checked source holds, as a snapshot would keep them (left-out folders skipped, at most
 * MAX_LISTED_FILES), read without copying: a folder's, a tarball's members; null for a git URL
 * (only cloning can tell). An unreadable or refused tarball throws as `ingestRepository` would.
 */
export async function listRepositoryFiles(source: RepositorySource, origin: string, signal?: AbortSignal): Promise<string[] | null> {
  if (source.form === 'git-url') return null;
  if (source.form === 'directory') return listFolderFiles(source.location);
  const path = source.form === 'tarball-url' ? await downloaded(source.location, signal) : source.location;
  const members = await refusedAsRepository(origin, listTarballFiles(path, signal === undefined ? {} : { signal }));
  return members.filter((f) => !isLeftOut(f)).slice(0, MAX_LISTED_FILES);
}

/** The local copy of a tarball URL (downloaded once per process), or the `repository` argument's error saying why there is none. */
async function downloaded(url: string, signal?: AbortSignal): Promise<string> {
  try {
    return await downloadTarball(url, signal);
  } catch (error) {
    if (!(error instanceof DownloadError)) throw error;
    throw new InvalidArgumentError('repository', `could not download '${url}': ${error.message}; ${WHAT_TO_PASS}`);
  }
}

/** A tarball refused (`TarballError`) as the `repository` argument's error, saying what to pass. */
async function refusedAsRepository<T>(origin: string, work: Promise<T>): Promise<T> {
  try {
    return await work;
  } catch (error) {
    if (!(error instanceof TarballError)) throw error;
    throw new InvalidArgumentError('repository', `'${origin}' was refused as a source tarball: ${error.message}; ${WHAT_TO_PASS}`);
  }
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

/**
 * Unpacks the tarball into a private folder, copies its repository root as a folder is copied, and
 * removes the unpacked files; an archive that cannot be read or is refused leaves nothing behind.
 */
async function ingestTarball(path: string, origin: string, options: IngestOptions): Promise<IngestedRepository> {
  const unpackDir = await mkdtemp(join(options.workRoot, 'unpack-'));
  try {
    const unpacked = await refusedAsRepository(origin, unpackTarball(path, unpackDir, options.signal === undefined ? {} : { signal: options.signal }));
    const revision = `tarball:${await sha256Of(path)}`;
    const dir = await mkdtemp(join(options.workRoot, 'snapshot-'));
    const copied = await removeOnFailure(dir, copyFilteredTree(unpacked.root, dir, filterOptions(options)));
    return { dir, origin, revision, files: copied.files, skipped: [...unpacked.skipped, ...copied.skipped] };
  } finally {
    await rm(unpackDir, { recursive: true, force: true });
  }
}

/** The copy's options from the ingest's: its signal and the root folders left out, when given. */
function filterOptions(options: IngestOptions): { signal?: AbortSignal; rootDirsLeftOut?: ReadonlySet<string> } {
  return {
    ...(options.signal === undefined ? {} : { signal: options.signal }),
    ...(options.rootDirsLeftOut === undefined ? {} : { rootDirsLeftOut: options.rootDirsLeftOut }),
  };
}
