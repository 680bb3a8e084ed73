import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { InvalidArgumentError } from '../../src/errors.js';
import { ingestRepository } from '../../src/pipeline/ingest/ingest-repository.js';

const cleanup: string[] = [];
afterEach(() => {
  for (const dir of cleanup.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function tempDir(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  cleanup.push(dir);
  return dir;
}

function write(root: string, path: string, content: string | Buffer = 'x = 1\n'): void {
  mkdirSync(join(root, path, '..'), { recursive: true });
  writeFileSync(join(root, path), content);
}

function listAll(root: string): string[] {
  return (readdirSync(root, { recursive: true, withFileTypes: false }) as string[]).sort();
}

describe('ingestRepository on a local directory', () => {
  it('copies the tree, leaving out caches, environments, root build output, bytecode, symlinks and big files', async () => {
    const source = tempDir('cm-src-');
    write(source, 'pkg/__init__.py', '');
    write(source, 'pkg/core.py');
    write(source, 'pkg/build/steps.py'); // a subpackage named build is code, not build output
    write(source, 'pkg/__pycache__/core.cpython-311.pyc');
    write(source, 'pkg/old.pyc');
    write(source, 'build/lib/pkg/core.py');
    write(source, 'dist/pkg-1.0.tar.gz');
    write(source, 'pkg.egg-info/SOURCES.txt');
    write(source, '.venv/lib/site.py');
    write(source, 'node_modules/x/index.js');
    write(source, 'data/big.bin', Buffer.alloc(1024 * 1024 + 1));
    write(source, 'data/small.bin', Buffer.alloc(1024 * 1024));
    symlinkSync(join(source, 'pkg/core.py'), join(source, 'pkg/link.py'));
    const before = listAll(source);

    const workRoot = tempDir('cm-work-');
    const snapshot = await ingestRepository(source, { workRoot });

    expect(snapshot.origin).toBe(source);
    expect(snapshot.revision).toBe('working-tree');
    expect(snapshot.dir.startsWith(workRoot)).toBe(true);
    expect(snapshot.files).toEqual(['data/small.bin', 'pkg/__init__.py', 'pkg/build/steps.py', 'pkg/core.py']);
    expect(snapshot.skipped).toEqual([
      { path: '.venv/', reason: 'ignored-folder' },
      { path: 'build/', reason: 'ignored-folder' },
      { path: 'data/big.bin', reason: 'too-large' },
      { path: 'dist/', reason: 'ignored-folder' },
      { path: 'node_modules/', reason: 'ignored-folder' },
      { path: 'pkg/__pycache__/', reason: 'ignored-folder' },
      { path: 'pkg/link.py', reason: 'symlink' },
      { path: 'pkg/old.pyc', reason: 'bytecode' },
      { path: 'pkg.egg-info/', reason: 'ignored-folder' },
    ]);
    const copied = listAll(snapshot.dir).filter((p) => !readdirSafe(join(snapshot.dir, p)));
    expect(copied).toEqual(snapshot.files);
    expect(listAll(source)).toEqual(before);
  });

  it("keeps a root metadata folder's name, version and requirements, headers only (an installed distribution's)", async () => {
    const source = tempDir('cm-src-');
    write(source, 'isodate/__init__.py', 'x = 1\n');
    write(source, 'isodate-0.6.1.egg-info/requires.txt', 'six\n');
    write(source, 'isodate-0.6.1.egg-info/SOURCES.txt', 'isodate/__init__.py\n');
    write(source, 'isodate-0.6.1.egg-info/PKG-INFO', 'Metadata-Version: 2.1\nName: isodate\nVersion: 0.6.1\n\n>>> parse_duration("P1D")\n');
    write(source, 'kit-1.0.dist-info/METADATA', 'Name: kit\nVersion: 1.0\nRequires-Dist: six\n\nA README quoting the code\n');
    write(source, 'kit-1.0.dist-info/RECORD', 'kit/__init__.py,sha256=x,1\n');
    write(source, 'sub/inner.egg-info/requires.txt', 'nested\n');
    const snapshot = await ingestRepository(source, { workRoot: tempDir('cm-work-') });
    expect(snapshot.files).toEqual(['isodate-0.6.1.egg-info/PKG-INFO', 'isodate-0.6.1.egg-info/requires.txt', 'isodate/__init__.py', 'kit-1.0.dist-info/METADATA']);
    expect(readFileSync(join(snapshot.dir, 'isodate-0.6.1.egg-info/PKG-INFO'), 'utf8')).toBe('Metadata-Version: 2.1\nName: isodate\nVersion: 0.6.1\n');
    expect(readFileSync(join(snapshot.dir, 'kit-1.0.dist-info/METADATA'), 'utf8')).toBe('Name: kit\nVersion: 1.0\nRequires-Dist: six\n');
    expect(snapshot.skipped).toEqual([{ path: 'sub/inner.egg-info/', reason: 'ignored-folder' }]);
  });

  it("keeps root build folders when the language reads them itself (rootDirsLeftOut: JavaScript's none)", async () => {
    const source = tempDir('cm-src-');
    write(source, 'package.json', '{}');
    write(source, 'dist/index.mjs', 'export const a = 1;\n');
    write(source, 'build/tool.js', 'module.exports = 1;\n');
    const snapshot = await ingestRepository(source, { workRoot: tempDir('cm-work-'), rootDirsLeftOut: new Set() });
    expect(snapshot.files).toEqual(['build/tool.js', 'dist/index.mjs', 'package.json']);
    expect(snapshot.skipped).toEqual([]);
  });

  it('does not copy the work root into itself when it sits inside the source', async () => {
    const source = tempDir('cm-src-');
    write(source, 'mod.py');
    const snapshot = await ingestRepository(source, { workRoot: join(source, 'work') });
    expect(snapshot.files).toEqual(['mod.py']);
    expect(snapshot.skipped).toEqual([{ path: 'work/', reason: 'ignored-folder' }]);
  });

  it('refuses a path that does not exist or is not a directory, saying what to pass', async () => {
    const workRoot = tempDir('cm-work-');
    const missing = ingestRepository(join(workRoot, 'nope'), { workRoot });
    await expect(missing).rejects.toBeInstanceOf(InvalidArgumentError);
    await expect(missing).rejects.toThrow(/repository: '.*nope' does not exist; pass a local directory, a source tarball \(.*\) or a git URL/);
    write(workRoot, 'file.py');
    const notDir = ingestRepository(join(workRoot, 'file.py'), { workRoot });
    await expect(notDir).rejects.toThrow(/repository: '.*file\.py' is not a directory nor a file named \.tar\.gz, .*; pass a local directory/);
    await expect(notDir).rejects.toMatchObject({ code: 'INVALID_ARGUMENT', field: 'repository' });
  });

  it('stops when the signal is aborted and leaves nothing behind', async () => {
    const source = tempDir('cm-src-');
    write(source, 'mod.py');
    const controller = new AbortController();
    controller.abort(new Error('stop'));
    const workRoot = tempDir('cm-work-');
    await expect(ingestRepository(source, { workRoot, signal: controller.signal })).rejects.toThrow('stop');
    expect(readdirSync(workRoot)).toEqual([]); // no half-copied snapshot left behind
  });
});

describe('ingestRepository on git', () => {
  const gitEnv = { ...process.env, GIT_AUTHOR_NAME: 't', GIT_AUTHOR_EMAIL: 't@t', GIT_COMMITTER_NAME: 't', GIT_COMMITTER_EMAIL: 't@t' };
  const git = (cwd: string, ...args: string[]): string => execFileSync('git', args, { cwd, env: gitEnv, encoding: 'utf8' }).trim();

  it('clones a local git repository shallowly: committed files only, revision = HEAD, no .git', async () => {
    const source = tempDir('cm-git-');
    git(source, 'init', '-q');
    write(source, 'pkg/__init__.py', '');
    write(source, 'pkg/core.py');
    git(source, 'add', '.');
    git(source, 'commit', '-q', '-m', 'first');
    write(source, 'pkg/core.py', 'x = 2\n');
    git(source, 'commit', '-q', '-am', 'second');
    write(source, 'uncommitted.py');
    const head = git(source, 'rev-parse', 'HEAD');

    const snapshot = await ingestRepository(source, { workRoot: tempDir('cm-work-') });

    expect(snapshot.revision).toBe(head);
    expect(snapshot.revision).toMatch(/^[0-9a-f]{40}$/);
    expect(snapshot.files).toEqual(['pkg/__init__.py', 'pkg/core.py']);
    expect(snapshot.skipped).toEqual([{ path: '.git/', reason: 'ignored-folder' }]);
    expect(listAll(snapshot.dir)).not.toContain('.git');
    // the shallow clone is a scratch folder, removed once copied
    expect(readdirSync(join(snapshot.dir, '..')).filter((n) => n.startsWith('clone-'))).toEqual([]);
  });

  it('turns a failed clone into an InvalidArgumentError that says what to pass', async () => {
    const workRoot = tempDir('cm-work-');
    const failed = ingestRepository(`file://${workRoot}/no-such-repo.git`, { workRoot });
    await expect(failed).rejects.toBeInstanceOf(InvalidArgumentError);
    await expect(failed).rejects.toThrow(/repository: could not clone 'file:\/\/.*no-such-repo\.git' \(.+\); pass a local directory, a source tarball \(.*\) or a git URL/);
  });
});

function readdirSafe(path: string): boolean {
  try {
    readdirSync(path);
    return true;
  } catch {
    return false;
  }
}
