import { readdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createSilentLogger } from '../../src/logging.js';
import { createCachedImageFileReader, defaultCacheDir } from '../../src/pipeline/audit/cached-image-files.js';
import type { ImageFileReader } from '../../src/pipeline/audit/image-files.js';
import { useTempDirs } from './temp-dirs.js';

const tempDir = useTempDirs();

function countingReader(): ImageFileReader & { reads: string[] } {
  const reads: string[] = [];
  return {
    reads,
    async readSourceFiles(image, options) {
      reads.push(image);
      return [{ path: '/usr/lib/python3/a.py', content: `def f():\n    return ${JSON.stringify(image)}\n` }].filter((f) => options.isSource(f.path));
    },
  };
}

describe('createCachedImageFileReader', () => {
  it('reads an image once per id and selector, and reads it again when the kept copy is unreadable', async () => {
    const dir = tempDir('codemidas-imgcache-');
    const inner = countingReader();
    const ids: Record<string, string> = { 'codemidas/python:a': 'sha256:111', 'codemidas/python:b': 'sha256:111', 'codemidas/python:c': 'sha256:222' };
    const reader = createCachedImageFileReader(inner, { dir, imageId: async (image) => ids[image] ?? Promise.reject(new Error('no such image')), logger: createSilentLogger() });
    const isSource = (path: string): boolean => path.endsWith('.py');

    const first = await reader.readSourceFiles('codemidas/python:a', { isSource, selector: 'python' });
    expect(first).toHaveLength(1);
    // the same id under another tag: kept; the same content back
    expect(await reader.readSourceFiles('codemidas/python:b', { isSource, selector: 'python' })).toEqual(first);
    expect(inner.reads).toEqual(['codemidas/python:a']);
    // another id, another selector, no selector, an image without an id: read from the image
    await reader.readSourceFiles('codemidas/python:c', { isSource, selector: 'python' });
    await reader.readSourceFiles('codemidas/python:a', { isSource, selector: 'javascript' });
    await reader.readSourceFiles('codemidas/python:a', { isSource });
    await reader.readSourceFiles('codemidas/python:gone', { isSource, selector: 'python' });
    expect(inner.reads).toEqual(['codemidas/python:a', 'codemidas/python:c', 'codemidas/python:a', 'codemidas/python:a', 'codemidas/python:gone']);

    // a kept copy that is not a cache file: read again and rewritten
    const files = await readdir(join(dir, 'image-sources'));
    expect(files.filter((f) => f.endsWith('.tmp'))).toEqual([]);
    for (const f of files) await writeFile(join(dir, 'image-sources', f), 'not gzip');
    expect(await reader.readSourceFiles('codemidas/python:a', { isSource, selector: 'python' })).toEqual(first);
    expect(inner.reads).toHaveLength(6);
    expect(await reader.readSourceFiles('codemidas/python:a', { isSource, selector: 'python' })).toEqual(first);
    expect(inner.reads).toHaveLength(6);
  });

  it('keeps its files under $CODEMIDAS_CACHE_DIR, else the XDG cache folder', () => {
    expect(defaultCacheDir({ CODEMIDAS_CACHE_DIR: '/srv/cache' })).toBe('/srv/cache');
    expect(defaultCacheDir({ XDG_CACHE_HOME: '/x' })).toBe('/x/codemidas');
  });
});
