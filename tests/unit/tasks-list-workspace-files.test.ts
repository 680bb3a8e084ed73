import { chmod, mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { listWorkspaceFiles } from '../../src/tasks/list-workspace-files.js';

let workspaceDir: string;

beforeEach(async () => {
  workspaceDir = await mkdtemp(path.join(tmpdir(), 'codemidas-workspace-'));
});

afterEach(async () => {
  await rm(workspaceDir, { recursive: true, force: true });
});

describe('listWorkspaceFiles', () => {
  it('lists directories before their files, in name order, with contents and permission bits', async () => {
    await mkdir(path.join(workspaceDir, 'pkg', 'sub'), { recursive: true });
    await mkdir(path.join(workspaceDir, 'empty'));
    await writeFile(path.join(workspaceDir, 'pkg', 'mod.py'), 'x = 1\n');
    await writeFile(path.join(workspaceDir, 'pkg', 'sub', 'data.bin'), Buffer.from([0, 255, 1]));
    await writeFile(path.join(workspaceDir, 'run.sh'), '#!/bin/sh\n');
    await chmod(path.join(workspaceDir, 'run.sh'), 0o755);
    await chmod(path.join(workspaceDir, 'pkg', 'mod.py'), 0o640);

    const entries = await listWorkspaceFiles({ workspace: { layout: 'folder', dir: workspaceDir } });

    expect(entries.map((e) => [e.path, e.type])).toEqual([
      ['empty', 'directory'],
      ['pkg', 'directory'],
      ['pkg/mod.py', 'file'],
      ['pkg/sub', 'directory'],
      ['pkg/sub/data.bin', 'file'],
      ['run.sh', 'file'],
    ]);
    const byPath = new Map(entries.map((e) => [e.path, e]));
    expect(byPath.get('run.sh')?.mode).toBe(0o755);
    expect(byPath.get('pkg/mod.py')?.mode).toBe(0o640);
    expect(byPath.get('pkg/mod.py')?.content).toEqual(Buffer.from('x = 1\n'));
    expect(byPath.get('pkg/sub/data.bin')?.content).toEqual(Buffer.from([0, 255, 1]));
    expect(byPath.get('pkg')?.content).toBeUndefined();
  });

  it('keeps symbolic links as links without following them', async () => {
    const outside = path.join(path.dirname(workspaceDir), `${path.basename(workspaceDir)}-secret`);
    await writeFile(outside, 'host secret');
    try {
      await symlink(outside, path.join(workspaceDir, 'leak'));

      const entries = await listWorkspaceFiles({ workspace: { layout: 'folder', dir: workspaceDir } });

      expect(entries).toHaveLength(1);
      expect(entries[0]).toMatchObject({ path: 'leak', type: 'symlink', linkTarget: outside });
      expect(entries[0]?.content).toBeUndefined();
    } finally {
      await rm(outside, { force: true });
    }
  });

  it('leaves out bytecode caches', async () => {
    await mkdir(path.join(workspaceDir, 'pkg', '__pycache__'), { recursive: true });
    await writeFile(path.join(workspaceDir, 'pkg', '__pycache__', 'mod.cpython-311.pyc'), 'bytecode');
    await writeFile(path.join(workspaceDir, 'pkg', 'old.pyc'), 'bytecode');
    await writeFile(path.join(workspaceDir, 'pkg', 'mod.py'), 'x = 1\n');

    const entries = await listWorkspaceFiles({ workspace: { layout: 'folder', dir: workspaceDir } });

    expect(entries.map((e) => e.path)).toEqual(['pkg', 'pkg/mod.py']);
  });

  it('stops when the signal is aborted', async () => {
    await writeFile(path.join(workspaceDir, 'a.py'), 'x = 1\n');
    await expect(listWorkspaceFiles({ workspace: { layout: 'folder', dir: workspaceDir } }, { signal: AbortSignal.abort() })).rejects.toThrow();
  });
});
