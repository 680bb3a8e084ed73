import { describe, expect, it } from 'vitest';
import type { FileEntry } from '../../src/sandbox/types.js';
import { filterReadout, normaliseWorkspacePath, summariseDropped } from '../../src/scoring/readout-filter.js';

const file = (path: string, content: string | Buffer = 'x = 1\n'): FileEntry => ({
  path,
  type: 'file',
  mode: 0o644,
  content: Buffer.isBuffer(content) ? content : Buffer.from(content),
});
const dir = (path: string): FileEntry => ({ path, type: 'directory', mode: 0o755 });

function reasonFor(entries: FileEntry[], path: string, protectedPaths: string[] = []): string | undefined {
  const { kept, dropped } = filterReadout(entries, { protectedPaths });
  const hit = dropped.find((d) => d.path === path);
  if (hit) return hit.reason;
  expect(kept.map((k) => k.path)).toContain(path);
  return undefined;
}

describe('filterReadout', () => {
  it('keeps ordinary source files and folders', () => {
    const { kept, dropped } = filterReadout([dir('pkg'), file('pkg/__init__.py'), file('pkg/mod.py'), file('README.md')], { protectedPaths: [] });
    expect(kept.map((k) => k.path)).toEqual(['README.md', 'pkg', 'pkg/__init__.py', 'pkg/mod.py']);
    expect(dropped).toEqual([]);
  });

  it.each([
    ['conftest.py', 'runner-config'],
    ['pkg/deep/conftest.py', 'runner-config'],
    ['CONFTEST.PY', 'runner-config'],
    ['pytest.ini', 'runner-config'],
    ['.pytest.ini', 'runner-config'],
    ['sub/tox.ini', 'runner-config'],
    ['setup.cfg', 'runner-config'],
    ['pyproject.toml', 'runner-config'],
    ['pytest.toml', 'runner-config'],
    ['package.json', 'runner-config'],
    ['vitest.config.ts', 'runner-config'],
    ['jest.config.js', 'runner-config'],
    ['sitecustomize.py', 'interpreter-hook'],
    ['pkg/sitecustomize/__init__.py', 'interpreter-hook'],
    ['usercustomize.py', 'interpreter-hook'],
    ['evil.pth', 'interpreter-hook'],
    ['nested/dir/evil.pth', 'interpreter-hook'],
    ['evil-1.0.dist-info/entry_points.txt', 'interpreter-hook'],
    ['evil.egg-info/PKG-INFO', 'interpreter-hook'],
    ['.venv/lib/python3.11/site-packages/x.py', 'interpreter-hook'],
    ['pkg/__pycache__/mod.cpython-311.pyc', 'bytecode-or-binary'],
    ['pkg/mod.pyc', 'bytecode-or-binary'],
    ['pkg/_speed.so', 'bytecode-or-binary'],
    ['pkg/_speed.cpython-311-x86_64-linux-gnu.so', 'bytecode-or-binary'],
    ['pytest/__init__.py', 'shadows-test-runner'],
    ['_pytest/reports.py', 'shadows-test-runner'],
    ['pytest.py', 'shadows-test-runner'],
  ])('drops %s (%s)', (path, reason) => {
    expect(reasonFor([file(path)], path)).toBe(reason);
  });

  it('keeps a nested module that merely shares a runner name', () => {
    expect(reasonFor([file('pkg/pytest_helpers.py'), file('pkg/py.py')], 'pkg/py.py')).toBeUndefined();
  });

  it('drops binaries by a NUL byte in the first 8 KiB, keeps text with a late NUL', () => {
    const binary = Buffer.concat([Buffer.from('\x7fELF'), Buffer.from([0, 1, 2])]);
    const late = Buffer.concat([Buffer.alloc(9000, 0x61), Buffer.from([0])]);
    expect(reasonFor([file('tool', binary)], 'tool')).toBe('bytecode-or-binary');
    expect(reasonFor([file('big.txt', late)], 'big.txt')).toBeUndefined();
  });

  it('drops symlinks, hard links, special files, and everything under a link', () => {
    const entries: FileEntry[] = [
      { path: 'link.py', type: 'symlink', mode: 0o777, linkTarget: '/var/lib/codemidas/hidden/tests/test_x.py' },
      { path: 'hard.py', type: 'hardlink', mode: 0o644, linkTarget: 'pkg/mod.py' },
      { path: 'fifo', type: 'other', mode: 0o644 },
      { path: 'linkdir', type: 'symlink', mode: 0o777, linkTarget: '/etc' },
      file('linkdir/passwd'),
    ];
    const { kept, dropped } = filterReadout(entries, { protectedPaths: [] });
    expect(kept).toEqual([]);
    expect(dropped.map((d) => [d.path, d.reason])).toEqual([
      ['fifo', 'link-or-special'],
      ['hard.py', 'link-or-special'],
      ['link.py', 'link-or-special'],
      ['linkdir', 'link-or-special'],
      ['linkdir/passwd', 'link-or-special'],
    ]);
  });

  it.each(['/etc/passwd', '../outside.py', 'pkg/../../x.py', '', 'a\\b.py'])('drops the unsafe path %j', (path) => {
    const { kept, dropped } = filterReadout([file(path)], { protectedPaths: [] });
    expect(kept).toEqual([]);
    expect(dropped[0]?.reason).toBe('unsafe-path');
  });

  it('normalises harmless path noise', () => {
    expect(normaliseWorkspacePath('./pkg//mod.py')).toBe('pkg/mod.py');
    expect(normaliseWorkspacePath('pkg/./a/')).toBe('pkg/a');
  });

  it('drops the task protected paths, files and folders', () => {
    const { kept, dropped } = filterReadout([file('tests/test_example.py'), dir('tests'), file('testsuite.py'), file('data/fixed.json')], {
      protectedPaths: ['tests', 'data/fixed.json'],
    });
    expect(kept.map((k) => k.path)).toEqual(['testsuite.py']);
    expect(dropped.map((d) => d.reason)).toEqual(['protected-path', 'protected-path', 'protected-path']);
  });

  it('enforces the per-file cap and then the total cap in path order', () => {
    const entries = [file('a.py', 'a'.repeat(60)), file('b.py', 'b'.repeat(60)), file('c.py', 'c'.repeat(200)), file('d.py', 'd'.repeat(30))];
    const { kept, dropped } = filterReadout(entries, { protectedPaths: [], limits: { maxFileBytes: 100, maxTotalBytes: 130 } });
    expect(kept.map((k) => k.path)).toEqual(['a.py', 'b.py']);
    expect(dropped.map((d) => [d.path, d.reason])).toEqual([
      ['c.py', 'file-too-large'],
      ['d.py', 'total-too-large'],
    ]);
  });

  it('drops files the read-out listed without their bytes (too big to read), and keeps the rest', () => {
    const entries = [
      { path: 'fill.bin', type: 'file' as const, mode: 0o644, size: 20_000_000_000 },
      { path: 'late.py', type: 'file' as const, mode: 0o644, size: 10 },
      file('ok.py', 'x = 1\n'),
    ];
    const { kept, dropped } = filterReadout(entries, { protectedPaths: [] });
    expect(kept.map((k) => k.path)).toEqual(['ok.py']);
    expect(dropped.map((d) => [d.path, d.reason])).toEqual([
      ['fill.bin', 'file-too-large'],
      ['late.py', 'total-too-large'],
    ]);
  });

  it('summarises what it dropped and why', () => {
    const { dropped } = filterReadout([file('conftest.py'), file('x.pth'), file('ok.py')], { protectedPaths: [] });
    const line = summariseDropped(dropped);
    expect(line).toContain('dropped 2 files');
    expect(line).toContain('conftest.py (conftest.py)');
    expect(line).toContain('x.pth (*.pth)');
    expect(summariseDropped([])).toBe('no files dropped');
  });
});
