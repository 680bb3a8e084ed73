import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSilentLogger } from '../../src/logging.js';
import { createLeakAuditor, DEFAULT_LEAK_MIN_COVERAGE } from '../../src/pipeline/audit/audit-leaks.js';
import { createDirectoryImageFileReader } from '../../src/pipeline/audit/image-files.js';
import { buildLeakIndex, findRuns } from '../../src/pipeline/audit/leak-index.js';
import { tokenizePython } from '../../src/languages/python/python-tokens.js';
import { createPythonPlugin } from '../../src/languages/python/python-plugin.js';

const python = createPythonPlugin();

const BODY = [
  '    total = 0',
  '    for index, digit in enumerate(reversed(digits)):',
  '        if index % 2 == 0:',
  '            digit *= 2',
  '        total += digit',
  '    return (10 - total % 10) % 10',
].join('\n');

/** The same code as a distro package would ship it: other indentation, comments, line breaks. */
const REFORMATTED = [
  '# vendored copy',
  'def check(digits):',
  '  total = 0  # running sum',
  '  for index, digit in enumerate(',
  '          reversed(digits)):',
  '      if index % 2 == 0:',
  '          digit *= 2',
  '      total += digit',
  '  return (10 - total % 10) % 10',
].join('\n');

describe('tokenizePython', () => {
  it('drops comments, whitespace and line continuations and keeps identifiers, literals and operators', () => {
    expect(tokenizePython("x = a ** 2  # square\ny = 'a # not a comment' \\\n  + b").tokens).toEqual(['x', '=', 'a', '**', '2', 'y', '=', "'a # not a comment'", '+', 'b']);
    expect(tokenizePython('s = """one\ntwo"""\nz').lines).toEqual([1, 1, 1, 3]);
  });
});

describe('findRuns', () => {
  it('finds a reformatted copy and names the line, but not a different body', () => {
    const index = buildLeakIndex([
      { path: '/usr/lib/python3/dist-packages/lib/check.py', content: REFORMATTED },
      { path: '/usr/lib/python3/other.py', content: 'total = 0\nfor i in range(3):\n    total += i\n' },
    ], tokenizePython);
    const hits = findRuns(index, tokenizePython(BODY).tokens, 12);
    expect(hits).toEqual([{ path: '/usr/lib/python3/dist-packages/lib/check.py', line: 3, runTokens: 12, coverage: 1, spans: [{ startLine: 3, endLine: 9 }] }]);
  });

  it('does not count a guard clause the body shares with a sibling, with a coverage threshold', () => {
    const sibling = 'def other(digits):\n    total = 0\n    for index, digit in enumerate(reversed(digits)):\n        pass\n    return None\n';
    const index = buildLeakIndex([{ path: 'pkg/mod.py', content: sibling }], tokenizePython);
    const body = tokenizePython(BODY).tokens;
    const [partial] = findRuns(index, body, 12);
    expect(partial?.coverage).toBeLessThan(0.5);
    expect(findRuns(index, body, 12, 0.5)).toEqual([]);
  });

  it('does not count a sibling written in the same style (63% shared runs), but does count a near-copy', () => {
    const body = '    rv = factory()\n    for k, v in d.items():\n        if predicate(k):\n            rv[k] = v\n    return rv\n';
    const sibling = 'def pick_values(predicate, d, factory=dict):\n    rv = factory()\n    for k, v in d.items():\n        if predicate(v):\n            rv[k] = v\n    return rv\n';
    const index = buildLeakIndex([{ path: 'pkg/dicts.py', content: sibling }], tokenizePython);
    const tokens = tokenizePython(body).tokens;
    expect(findRuns(index, tokens, 12)[0]?.coverage).toBeCloseTo(0.633, 3);
    expect(findRuns(index, tokens, 12, DEFAULT_LEAK_MIN_COVERAGE)).toEqual([]);
    // the same body pasted into another module with one comment added: a copy
    const copy = buildLeakIndex([{ path: 'pkg/compat.py', content: `def pick_keys(predicate, d, factory=dict):\n    # compat\n${body}` }], tokenizePython);
    expect(findRuns(copy, tokens, 12, DEFAULT_LEAK_MIN_COVERAGE)).toEqual([{ path: 'pkg/compat.py', line: 3, runTokens: 12, coverage: 1, spans: [{ startLine: 3, endLine: 7 }] }]);
  });

  it('reports the lines of each stretch of matching runs, so a caller can tell which definition holds them', () => {
    const module = [
      'def first(digits):', // 1
      '    total = 0', // 2
      '    for index, digit in enumerate(reversed(digits)):', // 3
      '        pass', // 4
      '', // 5
      '', // 6
      'def twin(digits):', // 7
      BODY, // 8-13
      '', // 14
      '', // 15
      'def guard(digits):', // 16
      '    total = 0', // 17
      '    for index, digit in enumerate(reversed(digits)):', // 18
      '        return 1', // 19
    ].join('\n');
    const [hit] = findRuns(buildLeakIndex([{ path: 'pkg/mod.py', content: module }], tokenizePython), tokenizePython(BODY).tokens, 12);
    expect(hit?.spans).toEqual([
      { startLine: 2, endLine: 3 },
      { startLine: 8, endLine: 13 },
      { startLine: 17, endLine: 18 },
    ]);
    expect(hit?.line).toBe(2);
  });

  it('uses the whole body when it is shorter than the run length', () => {
    const index = buildLeakIndex([{ path: '/a.py', content: 'def f(x):\n    return x + 1\n' }], tokenizePython);
    expect(findRuns(index, tokenizePython('return x + 1').tokens, 12)).toHaveLength(1);
    expect(findRuns(index, tokenizePython('return x + 2').tokens, 12)).toHaveLength(0);
  });
});

describe('leak auditor over a fake image tree', () => {
  let root: string;
  beforeAll(async () => {
    root = await mkdtemp(join(tmpdir(), 'codemidas-fake-image-'));
    await mkdir(join(root, 'usr/lib/python3/dist-packages/parsekit'), { recursive: true });
    await mkdir(join(root, 'usr/lib/python3.11'), { recursive: true });
    await writeFile(join(root, 'usr/lib/python3.11/os.py'), 'import sys\n\ndef getcwd():\n    return sys.path[0]\n');
  });
  afterAll(async () => {
    await rm(root, { recursive: true, force: true });
  });

  it('is clean without a copy, and fails naming the file once a Debian-style copy of the library is planted', async () => {
    const workspace = new Map([['parsekit/checksums.py', Buffer.from('def luhn(digits):\n    raise NotImplementedError\n')]]);
    const clean = await createLeakAuditor({ reader: createDirectoryImageFileReader({ root }), logger: createSilentLogger(), language: python.leaks }).audit({ removedBody: BODY, workspace, image: 'img:1' });
    expect(clean).toMatchObject({ clean: true, hits: [], runTokens: 12, workspaceFiles: 1 });
    expect(clean.imageFiles).toBe(1);

    await writeFile(join(root, 'usr/lib/python3/dist-packages/parsekit/checksums.py'), REFORMATTED);
    // a new auditor: the index is cached per image tag for the life of one auditor
    const leaky = await createLeakAuditor({ reader: createDirectoryImageFileReader({ root }), logger: createSilentLogger(), language: python.leaks }).audit({ removedBody: BODY, workspace, image: 'img:1' });
    expect(leaky.clean).toBe(false);
    expect(leaky.hits).toEqual([{ where: 'image', path: '/usr/lib/python3/dist-packages/parsekit/checksums.py', line: 3, runTokens: 12, coverage: 1, spans: [{ startLine: 3, endLine: 9 }] }]);
  });

  it('finds a copy left in the workspace', async () => {
    const workspace = new Map([['docs/notes.txt', Buffer.from(`Old version:\n${BODY}\n`)]]);
    const result = await createLeakAuditor({ reader: createDirectoryImageFileReader({ root: join(root, 'usr/lib/python3.11') }), logger: createSilentLogger(), language: python.leaks }).audit({ removedBody: BODY, workspace, image: 'img:2' });
    expect(result.hits).toEqual([{ where: 'workspace', path: 'docs/notes.txt', line: 2, runTokens: 12, coverage: 1, spans: [{ startLine: 2, endLine: 7 }] }]);
  });

  it('reads the image once per tag', async () => {
    let reads = 0;
    const auditor = createLeakAuditor({
      reader: { readSourceFiles: async () => (reads++, [{ path: '/x.py', content: 'pass' }]) },
      logger: createSilentLogger(),
      language: python.leaks,
    });
    await auditor.audit({ removedBody: BODY, workspace: new Map(), image: 'a' });
    await auditor.audit({ removedBody: BODY, workspace: new Map(), image: 'a' });
    await auditor.audit({ removedBody: BODY, workspace: new Map(), image: 'b' });
    expect(reads).toBe(2);
  });
});
