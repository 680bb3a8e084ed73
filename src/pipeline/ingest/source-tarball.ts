import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { mkdir, readdir, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { Readable } from 'node:stream';
import { createGunzip } from 'node:zlib';
import tar, { type Header } from 'tar-stream';
import { MAX_SNAPSHOT_FILE_BYTES, type SkippedPath } from './copy-filtered-tree.js';

/**
 * A source tarball (a release's `foo-1.2.tar.gz`, a Debian `.orig` tarball, `npm pack`'s output) read
 * without the system `tar`: every member name is checked before anything is written, only regular
 * files and folders are created (links, devices and fifos are left out, as the copy of a folder
 * leaves them out), and the archive may not unpack to more than `MAX_UNPACKED_BYTES`.
 */

/** The suffixes taken as a tarball, with the program that decompresses each (null: plain tar, `gzip`: node's zlib). */
const COMPRESSIONS: readonly { suffix: RegExp; program: 'gzip' | 'xz' | 'bzip2' | null; label: string }[] = [
  { suffix: /\.(tar\.gz|tgz)$/i, program: 'gzip', label: 'a gzip-compressed tar archive' },
  { suffix: /\.(tar\.xz|txz)$/i, program: 'xz', label: 'an xz-compressed tar archive' },
  { suffix: /\.(tar\.bz2|tbz2?)$/i, program: 'bzip2', label: 'a bzip2-compressed tar archive' },
  { suffix: /\.tar$/i, program: null, label: 'a tar archive' },
];

/** The tarball forms, for messages. */
export const TARBALL_FORMS = '.tar.gz, .tgz, .tar.xz, .tar.bz2 or .tar';

/** Bytes of regular files an archive may unpack to (files over MAX_SNAPSHOT_FILE_BYTES are not written and not counted). */
export const MAX_UNPACKED_BYTES = 1024 * 1024 * 1024;
/** Members an archive may hold: a tarball of more is not a source release. */
export const MAX_MEMBERS = 500_000;

/** True when `path`'s name says it is a tarball this module reads. */
export function isSourceTarball(path: string): boolean {
  return COMPRESSIONS.some((c) => c.suffix.test(path));
}

/** An archive that cannot be read or is refused (a member escaping the folder, too large): the message says which. */
export class TarballError extends Error {
  override readonly name = 'TarballError';
}

/** What unpacking wrote. */
export interface UnpackedTarball {
  /** The repository root: the archive's single top folder when it has one, else `into`. */
  root: string;
  /** Members not written, relative to `root`, and why. */
  skipped: SkippedPath[];
}

/**
 * Unpacks the tarball at `path` into the empty folder `into`. Throws `TarballError` on an archive
 * that cannot be read, a member named with an absolute path or a `..` segment (nothing of it is
 * written), or one past the caps; the caller removes `into` then.
 */
export async function unpackTarball(path: string, into: string, options: { signal?: AbortSignal } = {}): Promise<UnpackedTarball> {
  const skipped: SkippedPath[] = [];
  let written = 0;
  await readMembers(path, options.signal, async (name, header, body) => {
    const target = join(into, ...name.split('/'));
    if (header.type === 'directory') {
      await mkdir(target, { recursive: true });
      body.resume();
      return;
    }
    if (header.type !== 'file' && header.type !== 'contiguous-file') {
      skipped.push({ path: name, reason: header.type === 'symlink' ? 'symlink' : 'not-a-regular-file' });
      body.resume();
      return;
    }
    const { size } = header;
    if (size > MAX_SNAPSHOT_FILE_BYTES) {
      skipped.push({ path: name, reason: 'too-large' });
      body.resume();
      return;
    }
    written += size;
    if (written > MAX_UNPACKED_BYTES) throw new TarballError(`it unpacks to more than ${MAX_UNPACKED_BYTES / 1024 / 1024} MiB of files`);
    await mkdir(dirname(target), { recursive: true });
    const chunks: Buffer[] = [];
    for await (const chunk of body) chunks.push(chunk as Buffer);
    // The owner's execute bit is kept (scripts the tests run); owners and other permissions are not.
    await writeFile(target, Buffer.concat(chunks), { mode: header.mode & 0o100 ? 0o755 : 0o644 });
  });
  const top = await singleTopFolder(into);
  if (top === null) return { root: into, skipped };
  return { root: join(into, top), skipped: skipped.flatMap((s) => (s.path.startsWith(`${top}/`) ? [{ ...s, path: s.path.slice(top.length + 1) }] : [])) };
}

/**
 * The regular files of the tarball at `path`, repository-relative (its single top folder taken
 * off), sorted: what language detection looks at before anything is unpacked.
 */
export async function listTarballFiles(path: string, options: { signal?: AbortSignal } = {}): Promise<string[]> {
  const names: string[] = [];
  const files: string[] = [];
  await readMembers(path, options.signal, async (name, header, body) => {
    names.push(name);
    if (header.type === 'file' || header.type === 'contiguous-file') files.push(name);
    body.resume();
  });
  const tops = new Set(names.map((n) => n.split('/')[0]));
  const [top] = tops;
  const stripped = tops.size === 1 && top !== undefined && !files.includes(top) ? files.map((f) => f.slice(top.length + 1)) : files;
  return stripped.sort();
}

/** `sha256:<hex>` of the file's bytes. */
export async function sha256Of(path: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(path)) hash.update(chunk as Buffer);
  return `sha256:${hash.digest('hex')}`;
}

/** A member's bytes: read them, or `resume()` to skip them. */
type MemberBody = AsyncIterable<unknown> & { resume(): unknown };

/**
 * Calls `visit` with each member's checked name (no leading `./`, no trailing `/`) in archive order;
 * `visit` must consume or resume the body. Throws `TarballError` on a corrupt archive or an unsafe name.
 */
async function readMembers(path: string, signal: AbortSignal | undefined, visit: (name: string, header: Header, body: MemberBody) => Promise<void>): Promise<void> {
  const compression = COMPRESSIONS.find((c) => c.suffix.test(path));
  if (compression === undefined) throw new TarballError(`its name does not end in ${TARBALL_FORMS}`);
  const { stream, finished } = decompressed(path, compression.program, signal);
  const extract = tar.extract();
  stream.on('error', (error: Error) => extract.destroy(error));
  stream.pipe(extract);
  let members = 0;
  try {
    for await (const entry of extract) {
      signal?.throwIfAborted();
      if (++members > MAX_MEMBERS) throw new TarballError(`it holds more than ${MAX_MEMBERS} members`);
      const name = checkedName(entry.header.name);
      if (name === null) {
        entry.resume();
        continue;
      }
      await visit(name, entry.header, entry);
    }
    await finished;
  } catch (error) {
    stream.destroy();
    signal?.throwIfAborted();
    if (error instanceof TarballError) throw error;
    throw new TarballError(`it could not be read as ${compression.label} (${error instanceof Error ? error.message : String(error)})`);
  }
}

/**
 * A member's name as a repository-relative path, null for the archive's own root (`./`); throws on
 * a name that would land outside the folder it is unpacked in.
 */
function checkedName(raw: string): string | null {
  if (raw.startsWith('/') || /^[A-Za-z]:/.test(raw)) throw new TarballError(`member '${raw}' has an absolute path`);
  const parts = raw.split('/').filter((p) => p !== '' && p !== '.');
  if (parts.includes('..')) throw new TarballError(`member '${raw}' has a '..' in its path, which would land outside the folder it is unpacked in`);
  if (raw.includes('\0')) throw new TarballError(`member '${raw}' has a NUL in its name`);
  return parts.length === 0 ? null : parts.join('/');
}

/** The archive's bytes decompressed, and a promise that rejects when the decompressor failed. */
function decompressed(path: string, program: 'gzip' | 'xz' | 'bzip2' | null, signal: AbortSignal | undefined): { stream: Readable; finished: Promise<void> } {
  const file = createReadStream(path);
  if (program === null) return { stream: file, finished: Promise.resolve() };
  if (program === 'gzip') {
    const gunzip = createGunzip();
    file.on('error', (error) => gunzip.destroy(error));
    return { stream: file.pipe(gunzip), finished: Promise.resolve() };
  }
  file.destroy();
  const child = spawn(program, ['-dc', '--', path], { stdio: ['ignore', 'pipe', 'pipe'], ...(signal === undefined ? {} : { signal }) });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => {
    stderr += chunk.toString('utf8');
  });
  const finished = new Promise<void>((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code) => {
      if (code === 0) resolve();
      else reject(new Error(`${program}: ${stderr.trim().split('\n').at(-1) ?? `exit code ${code}`}`));
    });
  });
  // A failure surfaces from `finished` (awaited after the members); not as an unhandled rejection before.
  finished.catch(() => undefined);
  return { stream: child.stdout, finished };
}

/** The name of `dir`'s only entry when it is a folder (`foo-1.2/`, `package/`), else null. */
async function singleTopFolder(dir: string): Promise<string | null> {
  const entries = await readdir(dir, { withFileTypes: true });
  const [only] = entries;
  return entries.length === 1 && only !== undefined && only.isDirectory() ? only.name : null;
}
