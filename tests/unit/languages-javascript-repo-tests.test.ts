import { beforeAll, describe, expect, it } from 'vitest';
import type { Unit } from '../../src/languages/construction-types.js';
import { createJavaScriptParser, loadJavaScriptGrammars } from '../../src/languages/javascript/javascript-grammars.js';
import { javascriptRepoTests, removeJavaScriptTestsOf } from '../../src/languages/javascript/javascript-repo-tests.js';

beforeAll(async () => {
  await loadJavaScriptGrammars();
});

function unit(qualname: string, file = 'src/text.js', signature = ''): Unit {
  return { qualname, file, signature, module: file.replace(/\.[^.]+$/, '') } as Unit;
}

function parsesAs(source: string, grammar: 'javascript' | 'typescript'): boolean {
  const parser = createJavaScriptParser(grammar);
  const tree = parser.parse(source);
  const ok = tree !== null && !tree.rootNode.hasError;
  tree?.delete();
  parser.delete();
  return ok;
}

describe('isTestFile', () => {
  it('takes JavaScript/TypeScript sources under test folders or named *.test.* / *.spec.*', () => {
    for (const path of ['test/a.js', 'tests/a.mjs', '__tests__/a.ts', 'src/a.test.ts', 'src/a.spec.jsx', 'packages/x/test/b.cjs']) expect(javascriptRepoTests.isTestFile(path), path).toBe(true);
    for (const path of ['src/a.js', 'test/data.json', 'node_modules/x/test/a.js', 'src/testing.js', 'test/a.d.ts']) expect(javascriptRepoTests.isTestFile(path), path).toBe(false);
  });
});

describe('removeTestsOf', () => {
  it('removes node:test tests that name the target and keeps the others', () => {
    const source = [
      "import test from 'node:test';",
      "import assert from 'node:assert/strict';",
      "import { padLeft, words } from '../src/text.js';",
      '',
      "test('pads', () => {",
      "  assert.equal(padLeft('a', 3), '  a');",
      '});',
      '',
      "test('splits', async () => {",
      "  assert.deepEqual(words('a b'), ['a', 'b']);",
      '});',
      '',
      "await test('pads twice', () => assert.ok(padLeft));",
      '',
    ].join('\n');
    const result = removeJavaScriptTestsOf(source, unit('padLeft'));
    expect(result.removed).toEqual(['pads', 'pads twice']);
    expect(result.source).toBe([
      "import test from 'node:test';",
      "import assert from 'node:assert/strict';",
      "import { padLeft, words } from '../src/text.js';",
      '',
      '',
      "test('splits', async () => {",
      "  assert.deepEqual(words('a b'), ['a', 'b']);",
      '});',
      '',
      '',
    ].join('\n'));
    expect(parsesAs(result.source ?? '', 'javascript')).toBe(true);
  });

  it('removes mocha/jest/vitest it, it.only, test.each and test.skip, and describe blocks they leave empty', () => {
    const source = `const { clamp, add } = require('../lib/math');

describe('clamp', () => {
  it('clamps low', () => {
    expect(clamp(-1, 0, 3)).toBe(0);
  });
  it.only('clamps high', () => expect(clamp(5, 0, 3)).toBe(3));
  test.each([[1, 1], [4, 3]])('clamps %i', (x, y) => {
    expect(clamp(x, 0, 3)).toBe(y);
  });
});

describe('math', () => {
  describe.skip('nested', () => {
    test.skip('via a helper', () => check(math.clamp));
  });
  it('adds', () => {
    expect(add(1, 2)).toBe(3);
  });
});
`;
    const result = removeJavaScriptTestsOf(source, unit('clamp', 'lib/math.js'));
    expect(result.removed).toEqual(['clamps low', 'clamps high', 'clamps %i', 'via a helper']);
    expect(result.source).toBe(`const { clamp, add } = require('../lib/math');


describe('math', () => {
  it('adds', () => {
    expect(add(1, 2)).toBe(3);
  });
});
`);
  });

  it('removes a method test by the method name, in TypeScript with types', () => {
    const source = `import { describe, it, expect } from 'vitest';
import { Counter } from '../src/stats';

describe('Counter', () => {
  it('adds', () => {
    const c: Counter<string> = new Counter<string>();
    expect(c.add('a', 2).top()).toBe('a');
  });
  it('is empty', () => {
    expect(new Counter<number>().top()).toBeUndefined();
  });
});
`;
    const result = removeJavaScriptTestsOf(source, unit('Counter.add', 'src/stats.ts'));
    expect(result.removed).toEqual(['adds']);
    expect(result.source).not.toContain("c.add('a', 2)");
    expect(result.source).toContain("it('is empty'");
    expect(parsesAs(result.source ?? '', 'typescript')).toBe(true);
  });

  it('removes ava tests (test.serial) and gives null when no test is left', () => {
    const source = "import test from 'ava';\nimport slugify from '../index.js';\n\ntest('basic', (t) => {\n  t.is(slugify('A b'), 'a-b');\n});\ntest.serial('unicode', (t) => t.is(slugify('é'), 'e'));\n";
    const result = removeJavaScriptTestsOf(source, unit('default', 'index.js', 'export default function slugify(text)'));
    expect(result).toEqual({ source: null, removed: ['basic', 'unicode'] });
  });

  it('leaves a file alone when no test names the target, and one that does not parse', () => {
    const source = "it('adds', () => expect(add(1, 2)).toBe(3));\n";
    expect(removeJavaScriptTestsOf(source, unit('clamp'))).toEqual({ source, removed: [] });
    expect(removeJavaScriptTestsOf('it("x", () => { clamp(', unit('clamp'))).toEqual({ source: 'it("x", () => { clamp(', removed: [] });
    // a string or a comment naming the target is not a use of it
    const mention = "// clamp is tested elsewhere\nit('clamp-like', () => expect(add('clamp')).toBe(1));\n";
    expect(removeJavaScriptTestsOf(mention, unit('clamp')).removed).toEqual([]);
  });

  it('keeps a test call that is part of a larger expression (not a statement of its own)', () => {
    const source = "const t = test('x', () => clamp(1));\ntest('y', () => clamp(2));\ntest('z', () => add(1));\n";
    const result = removeJavaScriptTestsOf(source, unit('clamp'));
    expect(result.removed).toEqual(['y']);
    expect(result.source).toBe("const t = test('x', () => clamp(1));\ntest('z', () => add(1));\n");
  });
});

describe('removeTestsOf and the names a test file gives the target', () => {
  it('follows import aliases, default imports and require bindings from the target module', () => {
    const esm = "import slug from '../index.js';\nimport { padLeft as pad } from '../src/text';\nimport { pad as other } from '../src/other.js';\n\ntest('a', () => slug('x'));\ntest('b', () => pad('x', 2));\ntest('c', () => other('x'));\n";
    expect(removeJavaScriptTestsOf(esm, unit('default', 'index.js', 'export default function slugify(text)')).removed).toEqual(['a']);
    expect(removeJavaScriptTestsOf(esm, unit('padLeft', 'src/text.js')).removed).toEqual(['b']);
    const cjs = "const m = require('../lib/math');\nconst { clamp: c } = require('../lib/math.js');\n\nit('a', () => c(1, 0, 2));\nit('b', () => m.add(1, 2));\n";
    expect(removeJavaScriptTestsOf(cjs, unit('clamp', 'lib/math.js')).removed).toEqual(['a']);
    expect(removeJavaScriptTestsOf(cjs, unit('default', 'lib/math.js')).removed).toEqual(['b']);
  });
});
