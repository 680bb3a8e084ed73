import { createHash, randomUUID } from 'node:crypto';
import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import type { Logger } from '../../logging.js';
import { MAX_INDEXED_FILE_BYTES, type ImageFileReader } from './image-files.js';
import type { SourceText } from './leak-index.js';

/** Bumped whenever what a cache file holds, or how the files in it were chosen, changes. */
const CACHE_FORMAT = 1;

/** `$CODEMIDAS_CACHE_DIR`, else `$XDG_CACHE_HOME/codemidas`, else `~/.cache/codemidas`. */
export function defaultCacheDir(env: NodeJS.ProcessEnv = process.env): string {
  if (env['CODEMIDAS_CACHE_DIR']) return env['CODEMIDAS_CACHE_DIR'];
  return join(env['XDG_CACHE_HOME'] || join(homedir(), '.cache'), 'codemidas');
}

/**
 * An `ImageFileReader` that keeps what `inner` read of an image on disk, keyed by the image's
 * content id and the read's `selector` (the language whose files it kept): the leak audit of every
 * build on the same image reads the image once (exporting a container's filesystem costs seconds
 * per build). An image is immutable under its id, so a hit is exact; a read without a selector, or
 * an image whose id cannot be had, goes to `inner`. A cache file that cannot be read is read again
 * from the image and rewritten; one that cannot be written only costs the next build the read.
 */
export function createCachedImageFileReader(
  inner: ImageFileReader,
  options: { dir: string; imageId: (image: string) => Promise<string>; logger: Logger },
): ImageFileReader {
  const dir = join(options.dir, 'image-sources');
  return {
    async readSourceFiles(image, readOptions) {
      const { selector } = readOptions;
      const id = selector === undefined ? null : await options.imageId(image).catch(() => null);
      if (id === null) return inner.readSourceFiles(image, readOptions);
      const key = createHash('sha256').update(`${CACHE_FORMAT}\n${MAX_INDEXED_FILE_BYTES}\n${id}\n${selector}`).digest('hex').slice(0, 32);
      const file = join(dir, `${key}.json.gz`);
      const cached = await readFile(file)
        .then((data) => parseCache(data))
        .catch(() => null);
      if (cached !== null) return cached;
      const files = await inner.readSourceFiles(image, readOptions);
      try {
        await mkdir(dir, { recursive: true });
        const temporary = `${file}.${randomUUID()}.tmp`;
        await writeFile(temporary, gzipSync(Buffer.from(JSON.stringify(files))));
        await rename(temporary, file).catch(async (error: unknown) => {
          await rm(temporary, { force: true });
          throw error;
        });
      } catch (err) {
        options.logger.warn({ err, dir }, 'could not keep the image files for the next leak audit; carrying on');
      }
      return files;
    },
  };
}

function parseCache(data: Buffer): SourceText[] | null {
  const value = JSON.parse(gunzipSync(data).toString('utf8')) as unknown;
  if (!Array.isArray(value)) return null;
  for (const entry of value) {
    if (typeof entry !== 'object' || entry === null || typeof (entry as SourceText).path !== 'string' || typeof (entry as SourceText).content !== 'string') return null;
  }
  return value as SourceText[];
}
