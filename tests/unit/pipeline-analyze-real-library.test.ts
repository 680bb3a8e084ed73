import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parsePythonUnits } from '../../src/languages/python/parse-python-units.js';
import { selectCandidates } from '../../src/pipeline/select/select-candidates.js';

/**
 * Robustness on a library no one here wrote: Debian's python3-more-itertools, never committed.
 * Reads CODEMIDAS_MORE_ITERTOOLS_DIR (the folder holding `more_itertools/`, for example from
 * `apt-get download python3-more-itertools && dpkg -x *.deb x` → `x/usr/lib/python3/dist-packages`),
 * else the installed package (scripts/setup-engine.sh installs it). Missing is a failure, not a skip.
 */
const candidatesDirs = [process.env['CODEMIDAS_MORE_ITERTOOLS_DIR'], '/usr/lib/python3/dist-packages'].filter((d): d is string => d !== undefined && d !== '');
const libraryDir = candidatesDirs.find((d) => existsSync(join(d, 'more_itertools', 'more.py')));

describe('analyzer on Debian python3-more-itertools', () => {
  it('parses every file, names modules from the package root and finds consistent units', async () => {
    if (libraryDir === undefined) {
      throw new Error('python3-more-itertools is not installed: run scripts/setup-engine.sh (as root) or set CODEMIDAS_MORE_ITERTOOLS_DIR');
    }
    // read in place (parsing never writes), limited to the one package
    const dir = libraryDir;
    const files = readdirSync(join(dir, 'more_itertools')).map((f) => `more_itertools/${f}`).sort();
    const started = performance.now();
    const { units, problems } = await parsePythonUnits({ dir, origin: dir, revision: 'working-tree', files });
    const elapsedMs = performance.now() - started;

    expect(problems).toEqual([]);
    expect(units.length).toBeGreaterThan(150);
    expect(new Set(units.map((u) => u.id)).size).toBe(units.length);
    expect(new Set(units.map((u) => u.module))).toEqual(new Set(['more_itertools.more', 'more_itertools.recipes']));
    for (const u of units) {
      expect(u.startLine <= u.bodyStartLine && u.bodyStartLine <= u.bodyEndLine + 1 && u.bodyEndLine <= u.endLine, u.id).toBe(true);
    }
    const take = units.find((u) => u.id === 'more_itertools.recipes:take');
    expect(take?.params.map((p) => p.name)).toEqual(['n', 'iterable']);
    expect(take?.docstring?.split('\n')[0]).toBe('Return first *n* items of the iterable as a list.');
    // recipes are called from more.py through `from .recipes import ...`
    expect(take?.callSites.some((s) => s.file === 'more_itertools/more.py')).toBe(true);
    expect(units.find((u) => u.id === 'more_itertools.more:windowed')?.isGenerator).toBe(true);

    const { candidates, drops } = selectCandidates(units);
    expect(candidates.length + drops.length).toBe(units.length);
    expect(candidates.length).toBeGreaterThan(30);
    expect(elapsedMs).toBeLessThan(10_000);
  });
});
