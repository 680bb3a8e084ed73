import { posix } from 'node:path';
import type { Readable } from 'node:stream';
import tar, { type Header, type Pack } from 'tar-stream';

type HeaderArgument = Partial<Header> & Pick<Header, 'name'>;
import { InvalidArgumentError } from '../errors.js';
import type { FileEntry } from './types.js';

/** Checks and normalises an entry path: relative, POSIX, no `..`, no empty name. */
export function normalizeEntryPath(path: string): string {
  const normal = posix.normalize(path.replace(/^\/+/, ''));
  if (normal === '.' || normal === '' || normal === '..' || normal.startsWith('../')) {
    throw new InvalidArgumentError('path', `file entry path '${path}' must name something inside the target folder`);
  }
  return normal.replace(/\/+$/, '');
}

/**
 * Entries plus a directory entry for every parent not listed, so parents get the sandbox user as
 * owner instead of whatever the engine would pick (root).
 */
export function withParentDirectories(entries: FileEntry[], owner: { uid: number; gid: number }): FileEntry[] {
  const listed = new Set<string>();
  const normalized = entries.map((entry) => {
    const path = normalizeEntryPath(entry.path);
    if (entry.type === 'directory') listed.add(path);
    return { ...entry, path };
  });
  const out: FileEntry[] = [];
  for (const entry of normalized) {
    const parts = entry.path.split('/');
    for (let i = 1; i < parts.length; i++) {
      const parent = parts.slice(0, i).join('/');
      if (!listed.has(parent)) {
        listed.add(parent);
        out.push({ path: parent, type: 'directory', mode: 0o755, uid: owner.uid, gid: owner.gid });
      }
    }
    out.push(entry);
  }
  return out;
}

/** Builds a tar archive of `entries` (paths relative); owners default to `owner`. */
export async function packEntries(entries: FileEntry[], owner: { uid: number; gid: number }): Promise<Buffer> {
  const pack = tar.pack();
  const chunks: Buffer[] = [];
  const done = new Promise<Buffer>((resolve, reject) => {
    pack.on('data', (chunk: unknown) => {
      chunks.push(chunk as Buffer);
    });
    pack.on('end', () => resolve(Buffer.concat(chunks)));
    pack.on('error', reject);
  });
  const mtime = new Date();
  for (const entry of withParentDirectories(entries, owner)) {
    const base = { name: entry.path, mode: entry.mode, uid: entry.uid ?? owner.uid, gid: entry.gid ?? owner.gid, mtime };
    switch (entry.type) {
      case 'file': {
        const content = entry.content ?? Buffer.alloc(0);
        await addEntry(pack, { ...base, type: 'file', size: content.length }, content);
        break;
      }
      case 'directory':
        await addEntry(pack, { ...base, type: 'directory' });
        break;
      case 'symlink':
      case 'hardlink':
        if (!entry.linkTarget) throw new InvalidArgumentError('linkTarget', `${entry.type} '${entry.path}' needs a linkTarget`);
        await addEntry(pack, { ...base, type: entry.type === 'symlink' ? 'symlink' : 'link', linkname: entry.linkTarget });
        break;
      default:
        throw new InvalidArgumentError('type', `cannot put '${entry.path}': entries of type '${entry.type}' are not supported`);
    }
  }
  pack.finalize();
  return done;
}

function addEntry(pack: Pack, header: HeaderArgument, content?: Buffer): Promise<void> {
  return new Promise((resolve, reject) => {
    const callback = (error?: Error | null): void => (error ? reject(error) : resolve());
    if (content) pack.entry(header, content, callback);
    else pack.entry(header, callback);
  });
}

/**
 * Reads a tar stream into entries. `stripPrefix` (e.g. the archived folder's own name, as the
 * engine's getArchive adds it) is removed from names and hard-link targets; the folder's own entry
 * is left out. Links and special files are reported as such, never followed. A file over
 * `maxFileBytes`, or one whose bytes would take the total past `maxTotalBytes`, is listed without
 * content (with its `size`): its bytes are read past, never held, so a huge file costs time but
 * neither memory nor the rest of the read-out.
 */
export async function unpackEntries(
  stream: Readable | NodeJS.ReadableStream,
  options: { stripPrefix: string; maxTotalBytes: number; maxFileBytes?: number; dir: string },
): Promise<FileEntry[]> {
  const extract = tar.extract();
  const entries: FileEntry[] = [];
  const maxFileBytes = options.maxFileBytes ?? Number.POSITIVE_INFINITY;
  let total = 0;
  const strip = (name: string): string | undefined => {
    const clean = name.replace(/^\.\//, '').replace(/\/+$/, '');
    if (options.stripPrefix === '') return clean === '' || clean === '.' ? undefined : clean;
    if (clean === options.stripPrefix) return undefined;
    if (clean.startsWith(`${options.stripPrefix}/`)) return clean.slice(options.stripPrefix.length + 1);
    return clean;
  };
  const source = stream as Readable;
  const finished = new Promise<void>((resolve, reject) => {
    extract.on('entry', (header, body, next) => {
      const size = header.size ?? 0;
      const type = entryType(header.type);
      // Decided from the header, before any byte is held: a 20 GB file is drained, not buffered.
      const keepContent = type === 'file' && size <= maxFileBytes && total + size <= options.maxTotalBytes;
      if (keepContent) total += size;
      const chunks: Buffer[] = [];
      body.on('data', (data: unknown) => {
        if (keepContent) chunks.push(data as Buffer);
      });
      body.on('end', () => {
        const path = strip(header.name);
        if (path !== undefined) {
          const entry: FileEntry = { path, type, mode: (header.mode ?? 0) & 0o7777 };
          if (header.uid !== undefined) entry.uid = header.uid;
          if (header.gid !== undefined) entry.gid = header.gid;
          if (type === 'file') {
            if (keepContent) entry.content = Buffer.concat(chunks);
            else entry.size = size;
          }
          if (header.linkname) {
            entry.linkTarget = entry.type === 'hardlink' ? (strip(header.linkname) ?? header.linkname) : header.linkname;
          }
          entries.push(entry);
        }
        next();
      });
      body.on('error', reject);
    });
    extract.on('finish', resolve);
    extract.on('error', reject);
    source.on('error', reject);
  });
  source.pipe(extract);
  await finished;
  return entries;
}

function entryType(type: Header['type']): FileEntry['type'] {
  switch (type) {
    case 'file':
    case 'contiguous-file':
      return 'file';
    case 'directory':
      return 'directory';
    case 'symlink':
      return 'symlink';
    case 'link':
      return 'hardlink';
    default:
      return 'other';
  }
}
