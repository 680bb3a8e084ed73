/**
 * task.json `tests.importRoots` of the `python` runner: what its schema accepts, how a constructed
 * task gets it (`casesOnly` from the unit's file and module), and that the scorer hands it to the
 * judge. judge.py's use of it is checked in scoring-judge.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { nodeTestRunner } from '../../src/languages/javascript/javascript-tests.js';
import { pythonJudge } from '../../src/languages/python/python-scorer.js';
import { pythonTestRunner } from '../../src/languages/python/python-tests.js';
import type { LoadedTask } from '../../src/tasks/types.js';

const LIMITS = { timeoutMs: 120_000, caseTimeoutMs: 10_000 };
const tests = (extra: Record<string, unknown>): Record<string, unknown> => ({ runner: 'python', cases: 'cases.json', scripts: [], ...extra });

describe('the python runner\'s importRoots', () => {
  it('accepts workspace-relative POSIX folders and leaves the key out when absent', () => {
    for (const importRoots of [['src'], ['packages/beta'], ['usr/lib/python3/dist-packages', 'src']]) {
      expect(pythonTestRunner.testsSchema.parse(tests({ importRoots }))).toMatchObject({ importRoots });
    }
    expect(pythonTestRunner.testsSchema.parse(tests({}))).not.toHaveProperty('importRoots');
  });

  it('refuses absolute paths, parent or empty segments, backslashes and an empty list, naming the entry', () => {
    const refused: [unknown, string][] = [
      [['/workspace/src'], 'importRoots.0'],
      [['../outside'], 'importRoots.0'],
      [['src/../..'], 'importRoots.0'],
      [['src', 'a//b'], 'importRoots.1'],
      [['src/'], 'importRoots.0'],
      [['./src'], 'importRoots.0'],
      [[''], 'importRoots.0'],
      [['src\\pkg'], 'importRoots.0'],
      [[7], 'importRoots.0'],
      [[], 'importRoots'],
      ['src', 'importRoots'],
    ];
    for (const [importRoots, field] of refused) {
      const parsed = pythonTestRunner.testsSchema.safeParse(tests({ importRoots }));
      expect(parsed.success, JSON.stringify(importRoots)).toBe(false);
      expect(parsed.error?.issues.map((i) => i.path.join('.'))).toContain(field);
    }
  });

  it('casesOnly fills it from the unit for a module below the root and leaves it out for one at the root', () => {
    const atRoot = pythonTestRunner.casesOnly('cases.json', LIMITS, { file: 'pkg/mod.py', module: 'pkg.mod' });
    expect(atRoot).toEqual({ runner: 'python', cases: 'cases.json', scripts: [], ...LIMITS });
    expect(pythonTestRunner.casesOnly('cases.json', LIMITS, { file: 'src/pkg/mod.py', module: 'pkg.mod' })).toEqual({ ...atRoot, importRoots: ['src'] });
    expect(pythonTestRunner.casesOnly('cases.json', LIMITS, { file: 'src/pkg/__init__.py', module: 'pkg' })).toEqual({ ...atRoot, importRoots: ['src'] });
    expect(pythonTestRunner.casesOnly('cases.json', LIMITS, { file: 'packages/beta/beta/core.py', module: 'beta.core' })).toEqual({ ...atRoot, importRoots: ['packages/beta'] });
    // what casesOnly writes, the loader reads back
    expect(pythonTestRunner.testsSchema.parse(pythonTestRunner.casesOnly('cases.json', LIMITS, { file: 'src/pkg/mod.py', module: 'pkg.mod' }))).toMatchObject({ importRoots: ['src'] });
  });

  it('the node runner ignores the unit', () => {
    expect(nodeTestRunner.casesOnly('cases.json', LIMITS, { file: 'packages/a/src/index.js', module: 'packages/a/src/index.js' })).toEqual({ runner: 'node', cases: 'cases.json', ...LIMITS });
  });

  it('the scorer passes it to the judge, and nothing when the task has none', () => {
    const task = (t: Record<string, unknown>): LoadedTask => ({ file: { tests: pythonTestRunner.testsSchema.parse(t) } }) as unknown as LoadedTask;
    expect(pythonJudge.config(task(tests({ ...LIMITS, importRoots: ['src'] })))).toEqual({ cases: 'cases.json', scripts: [], caseTimeoutMs: 10_000, pytestTimeoutMs: 120_000, importRoots: ['src'] });
    expect(pythonJudge.config(task(tests(LIMITS)))).toEqual({ cases: 'cases.json', scripts: [], caseTimeoutMs: 10_000, pytestTimeoutMs: 120_000 });
  });
});
