import { lstat, readdir, readFile } from 'node:fs/promises';
import { join, posix, relative, sep } from 'node:path';
import type { Readable } from 'node:stream';
import type Dockerode from 'dockerode';
import tar from 'tar-stream';
import type { SourceText } from './leak-index.js';

/** Files above this size are not indexed (generated tables, bundles): a body is not hidden in them by accident. */
export const MAX_INDEXED_FILE_BYTES = 4 * 1024 * 1024;

/** Which files a read keeps: the language's source files (`LeakRules.indexesImageFile`). */
export interface ReadSourceOptions {
  isSource: (path: string) => boolean;
  /** A name for `isSource` (the language whose files it keeps): a reader may keep a read under it. None: never kept. */
  selector?: string;
  signal?: AbortSignal;
}

/**
 * Reads the source files of one language from a sandbox image's whole filesystem, for the leak
 * audit. The audit sees only `SourceText`; which engine (or folder) the files come from stays
 * behind this.
 */
export interface ImageFileReader {
  /** Every file of the image `isSource` keeps (up to `MAX_INDEXED_FILE_BYTES` each), absolute POSIX paths. */
  readSourceFiles(image: string, options: ReadSourceOptions): Promise<SourceText[]>;
}

function isIndexed(options: ReadSourceOptions, path: string, size: number): boolean {
  return size <= MAX_INDEXED_FILE_BYTES && options.isSource(path);
}

/**
 * The docker engine's view: a container is created from the image (never started), its filesystem
 * exported as one tar stream, and the container removed, even on failure.
 */
export function createDockerImageFileReader(docker: Dockerode): ImageFileReader {
  return {
    async readSourceFiles(image, options) {
      const container = await docker.createContainer({
        Image: image,
        Cmd: ['true'],
        Labels: { 'codemidas.purpose': 'leak-audit' },
        NetworkDisabled: true,
      });
      try {
        options.signal?.throwIfAborted();
        const stream = (await container.export()) as unknown as Readable;
        return await readTarSources(stream, options);
      } finally {
        await container.remove({ force: true }).catch(() => undefined);
      }
    },
  };
}

/** Source files out of a tar stream (an exported container filesystem). */
export function readTarSources(stream: Readable, options: ReadSourceOptions): Promise<SourceText[]> {
  const { signal } = options;
  return new Promise((resolve, reject) => {
    const out: SourceText[] = [];
    const extract = tar.extract();
    const onAbort = (): void => {
      stream.destroy();
      extract.destroy();
      reject(signal?.reason ?? new Error('aborted'));
    };
    signal?.addEventListener('abort', onAbort, { once: true });
    extract.on('entry', (header, body, next) => {
      const path = `/${header.name.replace(/^\.?\/+/, '')}`;
      if (header.type !== 'file' || !isIndexed(options, path, header.size ?? 0)) {
        body.on('end', next);
        body.resume();
        return;
      }
      const chunks: Buffer[] = [];
      body.on('data', (c: unknown) => {
        chunks.push(c as Buffer);
      });
      body.on('end', () => {
        out.push({ path, content: Buffer.concat(chunks).toString('utf8') });
        next();
      });
    });
    extract.on('finish', () => {
      signal?.removeEventListener('abort', onAbort);
      resolve(out);
    });
    extract.on('error', reject);
    stream.on('error', reject);
    stream.pipe(extract);
  });
}

/**
 * A folder standing in for an image's root filesystem: tests plant files in one, and the local
 * (bubblewrap) sandbox, which runs on the host's root filesystem, reads the host's folders of the
 * language (`root: '/'`, `include: ['usr/lib/python3', ...]`). The image name is ignored; paths are reported
 * as `/<path relative to root>`.
 */
export function createDirectoryImageFileReader(options: { root: string; include?: readonly string[] }): ImageFileReader {
  return {
    async readSourceFiles(_image, readOptions) {
      const out: SourceText[] = [];
      const seen = new Set<string>();
      for (const sub of options.include ?? ['']) await walk(options.root, join(options.root, sub), out, seen, readOptions);
      return out;
    },
  };
}

async function walk(root: string, dir: string, out: SourceText[], seen: Set<string>, options: ReadSourceOptions): Promise<void> {
  options.signal?.throwIfAborted();
  let names: string[];
  try {
    names = (await readdir(dir)).sort();
  } catch {
    return;
  }
  for (const name of names) {
    const full = join(dir, name);
    const info = await lstat(full).catch(() => null);
    if (!info) continue;
    if (info.isDirectory()) await walk(root, full, out, seen, options);
    else if (info.isFile()) {
      const path = posix.join('/', relative(root, full).split(sep).join('/'));
      if (!isIndexed(options, path, info.size)) continue;
      if (seen.has(path)) continue;
      seen.add(path);
      out.push({ path, content: await readFile(full, 'utf8') });
    }
  }
}
