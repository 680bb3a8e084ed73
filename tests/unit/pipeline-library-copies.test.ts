import { describe, expect, it } from 'vitest';
import { findLibraryCopies } from '../../src/languages/python/library-copies.js';
import { isUnderAny, normaliseScrubPaths, scrubPathProblem } from '../../src/sandbox/scrub-paths.js';

const library = {
  importNames: new Set(['more_itertools']),
  files: new Set(['more_itertools/__init__.py', 'more_itertools/more.py', 'more_itertools/recipes.py', 'tests/test_more.py']),
};

describe('findLibraryCopies', () => {
  it('finds a distro package and a vendored copy by import name and module path', () => {
    const image = [
      '/usr/lib/python3/dist-packages/more_itertools/__init__.py',
      '/usr/lib/python3/dist-packages/more_itertools/more.py',
      '/usr/lib/python3/dist-packages/more_itertools/recipes.py',
      '/usr/lib/python3/dist-packages/pkg_resources/_vendor/more_itertools/more.py',
      '/usr/lib/python3/dist-packages/pkg_resources/_vendor/packaging/version.py',
      '/usr/lib/python3/dist-packages/_pytest/python.py',
    ];
    expect(findLibraryCopies(image, library)).toEqual([
      '/usr/lib/python3/dist-packages/more_itertools',
      '/usr/lib/python3/dist-packages/pkg_resources/_vendor/more_itertools',
    ]);
  });

  it('leaves a package that only shares the name, or only an __init__.py', () => {
    expect(findLibraryCopies(['/usr/lib/python3/dist-packages/more_itertools/other.py', '/usr/local/lib/more_itertools/__init__.py'], library)).toEqual([]);
  });

  it('reads a module below the root from its import root (src/ layout, a package of a monorepo)', () => {
    const image = ['/usr/lib/python3/dist-packages/more_itertools/more.py', '/usr/lib/python3/dist-packages/beta/core.py'];
    const srcLayout = { importNames: new Set(['more_itertools']), files: new Set(['src/more_itertools/__init__.py', 'src/more_itertools/more.py']) };
    expect(findLibraryCopies(image, srcLayout)).toEqual(['/usr/lib/python3/dist-packages/more_itertools']);
    const monorepo = { importNames: new Set(['beta']), files: new Set(['packages/beta/beta/__init__.py', 'packages/beta/beta/core.py']) };
    expect(findLibraryCopies(image, monorepo)).toEqual(['/usr/lib/python3/dist-packages/beta']);
  });

  it('finds a single-module library by its file name', () => {
    const single = { importNames: new Set(['inflection']), files: new Set(['inflection.py']) };
    expect(findLibraryCopies(['/usr/lib/python3/dist-packages/inflection.py', '/usr/lib/python3/dist-packages/inflection/__init__.py'], single)).toEqual([
      '/usr/lib/python3/dist-packages/inflection.py',
    ]);
  });

  it('leaves a module of another package named like a top-level module of the repository, not a vendored one nor a copied package folder', () => {
    const withTasks = { importNames: new Set(['multipart', 'tasks']), files: new Set(['multipart/__init__.py', 'multipart/core.py', 'tasks.py']) };
    const image = [
      '/usr/lib/python3.11/asyncio/__init__.py',
      '/usr/lib/python3.11/asyncio/tasks.py',
      '/usr/lib/python3/dist-packages/pip/_vendor/__init__.py',
      '/usr/lib/python3/dist-packages/pip/_vendor/tasks.py',
      '/usr/lib/python3/dist-packages/tasks.py',
      '/usr/lib/python3/dist-packages/other/__init__.py',
      '/usr/lib/python3/dist-packages/other/multipart/core.py',
    ];
    expect(findLibraryCopies(image, withTasks)).toEqual([
      '/usr/lib/python3/dist-packages/other/multipart',
      '/usr/lib/python3/dist-packages/pip/_vendor/tasks.py',
      '/usr/lib/python3/dist-packages/tasks.py',
    ]);
  });

  it('never returns a folder every sandbox needs, even when a library is named like one', () => {
    const scoring = { importNames: new Set(['scoring']), files: new Set(['scoring/judge.py']) };
    expect(findLibraryCopies(['/opt/codemidas/scoring/judge.py'], scoring)).toEqual([]);
  });
});

describe('scrub paths', () => {
  it('accepts copies of a library and refuses what a sandbox needs, odd characters and relative parts', () => {
    expect(scrubPathProblem('/usr/lib/python3/dist-packages/more_itertools')).toBeNull();
    expect(scrubPathProblem('/usr/lib/python3/dist-packages/inflection.py')).toBeNull();
    expect(scrubPathProblem('/usr')).toMatch(/would remove \/usr\/bin/);
    expect(scrubPathProblem('/usr/lib/python3/dist-packages')).toMatch(/every sandbox needs/);
    expect(scrubPathProblem('/opt/codemidas/scoring')).toMatch(/inside \/opt\/codemidas/);
    expect(scrubPathProblem('/')).toMatch(/not an absolute path/);
    expect(scrubPathProblem('relative/path')).toMatch(/not an absolute path/);
    expect(scrubPathProblem("/x/it's")).toMatch(/not an absolute path/);
    expect(scrubPathProblem('/x/../usr/bin')).toMatch(/not a normalised path/);
    expect(scrubPathProblem('/tmp/x')).toMatch(/not part of an image/);
  });

  it('sorts, dedupes and drops paths below another', () => {
    expect(normaliseScrubPaths(['/b/c', '/a', '/b', '/a', '/b/c/d'])).toEqual(['/a', '/b']);
    expect(isUnderAny('/a/b.py', ['/a'])).toBe(true);
    expect(isUnderAny('/ab/c.py', ['/a'])).toBe(false);
  });
});
