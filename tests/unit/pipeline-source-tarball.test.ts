import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import tar from 'tar-stream';
import { describe, expect, it } from 'vitest';
import { InvalidArgumentError } from '../../src/errors.js';
import { checkRepositorySource, ingestRepository, listRepositoryFiles } from '../../src/pipeline/ingest/ingest-repository.js';
import { isSourceTarball } from '../../src/pipeline/ingest/source-tarball.js';
import { useTempDirs } from './temp-dirs.js';

const tempDir = useTempDirs();

type Member = { name: string; content?: string; type?: 'file' | 'directory' | 'symlink' | 'link'; linkname?: string; mode?: number };

/** A tar archive of `members`, written in memory with tar-stream (no system tar: any name may be given). */
async function tarOf(members: Member[]): Promise<Buffer> {
  const pack = tar.pack();
  const chunks: Buffer[] = [];
  const done = new Promise<void>((resolve, reject) => {
    pack.on('data', (c: Buffer) => chunks.push(c));
    pack.on('end', resolve);
    pack.on('error', reject);
  });
  for (const m of members) {
    const type = m.type ?? 'file';
    if (type === 'file') pack.entry({ name: m.name, mode: m.mode ?? 0o644 }, m.content ?? '');
    else pack.entry({ name: m.name, type, ...(m.linkname === undefined ? {} : { linkname: m.linkname }) });
  }
  pack.finalize();
  await done;
  return Buffer.concat(chunks);
}

async function tarball(dir: string, name: string, members: Member[]): Promise<string> {
  const path = join(dir, name);
  const bytes = await tarOf(members);
  writeFileSync(path, name.endsWith('.tar') ? bytes : gzipSync(bytes));
  return path;
}

const RELEASE: Member[] = [
  { name: 'kit-1.2/', type: 'directory' },
  { name: 'kit-1.2/pyproject.toml', content: '[project]\nname = "kit"\n' },
  { name: 'kit-1.2/kit/__init__.py', content: '' },
  { name: 'kit-1.2/kit/core.py', content: 'def f(x):\n    return x\n' },
  { name: 'kit-1.2/kit/__pycache__/core.cpython-311.pyc', content: 'bytecode' },
  { name: 'kit-1.2/run.sh', content: '#!/bin/sh\n', mode: 0o755 },
  { name: 'kit-1.2/etc-link', type: 'symlink', linkname: '/etc/passwd' },
  { name: 'kit-1.2/hard', type: 'link', linkname: 'kit-1.2/kit/core.py' },
];

describe('ingestRepository on a source tarball', () => {
  it('takes the single top folder as the repository, leaves out links and bytecode, and names the archive by its sha256', async () => {
    const dir = tempDir('cm-tarball-');
    const path = await tarball(dir, 'kit-1.2.tar.gz', RELEASE);
    const workRoot = join(dir, 'work');
    const snapshot = await ingestRepository(path, { workRoot });
    expect(snapshot.files).toEqual(['kit/__init__.py', 'kit/core.py', 'pyproject.toml', 'run.sh']);
    expect(snapshot.revision).toBe(`tarball:sha256:${createHash('sha256').update(readFileSync(path)).digest('hex')}`);
    expect(snapshot.origin).toBe(path);
    expect(snapshot.skipped).toEqual(
      expect.arrayContaining([
        { path: 'etc-link', reason: 'symlink' },
        { path: 'hard', reason: 'not-a-regular-file' },
        { path: 'kit/__pycache__/', reason: 'ignored-folder' },
      ]),
    );
    expect(readFileSync(join(snapshot.dir, 'kit/core.py'), 'utf8')).toBe('def f(x):\n    return x\n');
    // only the snapshot is left in the work root: the unpacked archive is gone
    expect(readdirSync(workRoot)).toEqual([snapshot.dir.split('/').at(-1)]);
    // the same archive gives the same revision
    expect((await ingestRepository(path, { workRoot })).revision).toBe(snapshot.revision);
  });

  it('keeps an archive without a single top folder as it is (a plain .tar)', async () => {
    const dir = tempDir('cm-tarball-');
    const path = await tarball(dir, 'flat.tar', [
      { name: './a.py', content: 'x = 1\n' },
      { name: './pkg/b.py', content: 'y = 2\n' },
    ]);
    const snapshot = await ingestRepository(path, { workRoot: join(dir, 'work') });
    expect(snapshot.files).toEqual(['a.py', 'pkg/b.py']);
  });

  it('reads .tar.xz and .tar.bz2 made by the system tar', async () => {
    const dir = tempDir('cm-tarball-');
    mkdirSync(join(dir, 'kit-2.0/kit'), { recursive: true });
    writeFileSync(join(dir, 'kit-2.0/kit/core.py'), 'def f():\n    return 1\n');
    for (const [name, flag] of [['kit.tar.xz', '-cJf'], ['kit.tar.bz2', '-cjf']] as const) {
      execFileSync('tar', [flag, join(dir, name), '-C', dir, 'kit-2.0']);
      const snapshot = await ingestRepository(join(dir, name), { workRoot: join(dir, `work-${name}`) });
      expect(snapshot.files).toEqual(['kit/core.py']);
      expect(snapshot.revision).toMatch(/^tarball:sha256:[0-9a-f]{64}$/);
    }
  });

  it.each([
    ['a ../ member', [{ name: 'kit/a.py', content: '' }, { name: '../evil.py', content: 'owned' }], /member '\.\.\/evil\.py' has a '\.\.' in its path/],
    ['a member deeper with ..', [{ name: 'kit/../../evil.py', content: 'owned' }], /member 'kit\/\.\.\/\.\.\/evil\.py' has a '\.\.' in its path/],
    ['an absolute member', [{ name: 'kit/a.py', content: '' }, { name: '/tmp/evil-absolute.py', content: 'owned' }], /member '\/tmp\/evil-absolute\.py' has an absolute path/],
  ] as const)('refuses an archive with %s and leaves nothing behind', async (_what, members, message) => {
    const dir = tempDir('cm-tarball-');
    const path = await tarball(dir, 'evil.tar.gz', [...members]);
    const workRoot = join(dir, 'work');
    const refused = ingestRepository(path, { workRoot });
    await expect(refused).rejects.toBeInstanceOf(InvalidArgumentError);
    await expect(refused).rejects.toThrow(message);
    await expect(refused).rejects.toMatchObject({ field: 'repository' });
    expect(readdirSync(workRoot)).toEqual([]);
    expect(existsSync(join(dir, 'evil.py'))).toBe(false);
    expect(existsSync('/tmp/evil-absolute.py')).toBe(false);
    // the CLI's look before the build refuses it the same way
    await expect(listRepositoryFiles(await checkRepositorySource(path), path)).rejects.toThrow(message);
  });

  it('turns a corrupt archive into a clear error saying what to pass, and leaves nothing behind', async () => {
    const dir = tempDir('cm-tarball-');
    const workRoot = join(dir, 'work');
    writeFileSync(join(dir, 'noise.tar.gz'), Buffer.from('this is not gzip at all'));
    const good = gzipSync(await tarOf(RELEASE));
    writeFileSync(join(dir, 'cut.tgz'), good.subarray(0, Math.floor(good.length / 2)));
    for (const [name, why] of [['noise.tar.gz', /could not be read as a gzip-compressed tar archive \(incorrect header check\)/], ['cut.tgz', /could not be read as a gzip-compressed tar archive/]] as const) {
      const refused = ingestRepository(join(dir, name), { workRoot });
      await expect(refused).rejects.toBeInstanceOf(InvalidArgumentError);
      await expect(refused).rejects.toThrow(why);
      await expect(refused).rejects.toThrow(/; pass a local directory, a source tarball \(\.tar\.gz, \.tgz, \.tar\.xz, \.tar\.bz2 or \.tar\) or a git URL/);
    }
    expect(readdirSync(workRoot)).toEqual([]);
  });
});

describe('checkRepositorySource and listRepositoryFiles on a tarball', () => {
  it('tells the forms apart by what the path is and how it is named', async () => {
    const dir = tempDir('cm-tarball-');
    const path = await tarball(dir, 'kit-1.2.tgz', RELEASE);
    expect(await checkRepositorySource(path)).toEqual({ form: 'tarball', location: path });
    expect(await checkRepositorySource(dir)).toEqual({ form: 'directory', location: dir });
    expect(await checkRepositorySource('https://example.invalid/x.git')).toEqual({ form: 'git-url', location: 'https://example.invalid/x.git' });
    writeFileSync(join(dir, 'kit.zip'), 'zip');
    await expect(checkRepositorySource(join(dir, 'kit.zip'))).rejects.toThrow(/'.*kit\.zip' is not a directory nor a file named \.tar\.gz, \.tgz, \.tar\.xz, \.tar\.bz2 or \.tar/);
    expect(['a.tar.gz', 'a.TGZ', 'a.tar.xz', 'a.tar.bz2', 'a.tar'].every(isSourceTarball)).toBe(true);
    expect(['a.zip', 'a.gz', 'a.tar.zst'].some(isSourceTarball)).toBe(false);
  });

  it("lists a tarball's regular files without unpacking it, top folder off and left-out folders skipped", async () => {
    const dir = tempDir('cm-tarball-');
    const path = await tarball(dir, 'kit-1.2.tar.gz', [...RELEASE, { name: 'kit-1.2/node_modules/x/index.js', content: '' }]);
    expect(await listRepositoryFiles(await checkRepositorySource(path), path)).toEqual(['kit/__init__.py', 'kit/core.py', 'pyproject.toml', 'run.sh']);
    expect(readdirSync(dir)).toEqual(['kit-1.2.tar.gz']);
    expect(await listRepositoryFiles({ form: 'git-url', location: 'https://example.invalid/x.git' }, 'x')).toBeNull();
  });
});

describe('a source tarball given by URL (download-tarball.ts)', () => {
  /** A real HTTP server on a free local port: `/kit-1.2.tar.gz` is the archive, anything else 404; counts the archive's requests. */
  async function serving(bytes: Buffer): Promise<{ base: string; requests: () => number; close: () => Promise<void> }> {
    const { createServer } = await import('node:http');
    let count = 0;
    const server = createServer((req, res) => {
      if (req.url === '/releases/kit-1.2.tar.gz') {
        count++;
        res.writeHead(200, { 'content-type': 'application/gzip', 'content-length': String(bytes.length) });
        res.end(bytes);
      } else {
        res.writeHead(404);
        res.end('not here');
      }
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as { port: number };
    return { base: `http://127.0.0.1:${port}`, requests: () => count, close: () => new Promise((resolve) => server.close(() => resolve())) };
  }

  it('downloads it once, lists and ingests it as the same archive on disk, and keeps the URL as the origin', async () => {
    const dir = tempDir('cm-tarball-url-');
    const local = await tarball(dir, 'kit-1.2.tar.gz', RELEASE);
    const server = await serving(readFileSync(local));
    try {
      const url = `${server.base}/releases/kit-1.2.tar.gz`;
      const source = await checkRepositorySource(url);
      expect(source).toEqual({ form: 'tarball-url', location: url });
      expect(await listRepositoryFiles(source, url)).toEqual(['kit/__init__.py', 'kit/core.py', 'pyproject.toml', 'run.sh']);
      const snapshot = await ingestRepository(url, { workRoot: join(dir, 'work') });
      const fromDisk = await ingestRepository(local, { workRoot: join(dir, 'work2') });
      expect(snapshot.files).toEqual(fromDisk.files);
      expect(snapshot.revision).toBe(fromDisk.revision);
      expect(snapshot.origin).toBe(url);
      // listed and ingested from one download
      expect(server.requests()).toBe(1);
    } finally {
      await server.close();
    }
  });

  it('names the URL and the HTTP status when the server has no such file, and takes a URL not named as a tarball as a git URL', async () => {
    const dir = tempDir('cm-tarball-url-');
    const server = await serving(Buffer.from(''));
    try {
      const url = `${server.base}/releases/missing-1.0.tar.gz`;
      const failed = ingestRepository(url, { workRoot: join(dir, 'work') });
      await expect(failed).rejects.toBeInstanceOf(InvalidArgumentError);
      await expect(failed).rejects.toThrow(/repository: could not download 'http:\/\/127\.0\.0\.1:\d+\/releases\/missing-1\.0\.tar\.gz': the server answered HTTP 404/);
      expect(existsSync(join(dir, 'work')) ? readdirSync(join(dir, 'work')) : []).toEqual([]);
      expect((await checkRepositorySource(`${server.base}/kit.git`)).form).toBe('git-url');
    } finally {
      await server.close();
    }
  });
});
