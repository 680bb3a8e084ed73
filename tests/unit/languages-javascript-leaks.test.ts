import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { Unit } from '../../src/languages/construction-types.js';
import { javascriptRepoTests } from '../../src/languages/javascript/javascript-repo-tests.js';
import { javascriptWorkspaceRules } from '../../src/languages/javascript/javascript-workspace.js';
import { maskJavaScriptBody } from '../../src/languages/javascript/mask-javascript-body.js';
import { parseJavaScriptUnits } from '../../src/languages/javascript/parse-javascript-units.js';
import { createSilentLogger } from '../../src/logging.js';
import { createLeakAuditor } from '../../src/pipeline/audit/audit-leaks.js';
import { createDirectoryImageFileReader } from '../../src/pipeline/audit/image-files.js';
import { maskWorkspace } from '../../src/pipeline/mask/mask-workspace.js';
import { makeTempDir, removeTempDirs } from './languages-javascript-fixtures.js';
import {
  findJavaScriptLibraryCopies, indexesJavaScriptImageFile, javascriptLeakRules, tokenizeJavaScript,
} from '../../src/languages/javascript/javascript-leaks.js';

afterAll(removeTempDirs);

function tokens(source: string): string[] {
  return tokenizeJavaScript(source).tokens;
}

describe('tokenizeJavaScript', () => {
  it('drops comments, whitespace and a #! line and keeps tokens as written, with their lines', () => {
    const source = '#!/usr/bin/env node\n/** Doc. */\nexport function add(a, b) { // sum\n  return a + b; /* end\n */\n}\n';
    const { tokens: ts, lines } = tokenizeJavaScript(source);
    expect(ts).toEqual(['export', 'function', 'add', '(', 'a', ',', 'b', ')', '{', 'return', 'a', '+', 'b', ';', '}']);
    expect(lines).toEqual([3, 3, 3, 3, 3, 3, 3, 3, 3, 4, 4, 4, 4, 4, 6]);
  });

  it('keeps operators whole, numbers with their suffixes and strings with their quotes', () => {
    expect(tokens("x ??= a?.b === 1_000n >>> 2 ** .5e-3 && 'it\\'s' + \"q\" ... => 0xFFn")).toEqual([
      'x', '??=', 'a', '?.', 'b', '===', '1_000n', '>>>', '2', '**', '.5e-3', '&&', "'it\\'s'", '+', '"q"', '...', '=>', '0xFFn',
    ]);
    expect(tokens('a ?.5 : 1')).toEqual(['a', '?', '.5', ':', '1']);
  });

  it('tells a regular expression literal from a division by what comes before it', () => {
    expect(tokens('const r = /a\\/[/]b+/gi.test(s); x = a / b / c; return /x/;')).toEqual([
      'const', 'r', '=', '/a\\/[/]b+/gi', '.', 'test', '(', 's', ')', ';', 'x', '=', 'a', '/', 'b', '/', 'c', ';', 'return', '/x/', ';',
    ]);
    expect(tokens('f(/=+/g)')).toEqual(['f', '(', '/=+/g', ')']);
    expect(tokens('n /= 2')).toEqual(['n', '/=', '2']);
  });

  it('cuts a template literal at its substitutions, nested templates and object literals included', () => {
    expect(tokens('`a${ {k: `b${1}`}.k }c` + `plain`')).toEqual(['`a${', '{', 'k', ':', '`b${', '1', '}`', '}', '.', 'k', '}c`', '+', '`plain`']);
    const { lines } = tokenizeJavaScript('`one\ntwo` x');
    expect(lines).toEqual([1, 2]);
  });

  it('reads TypeScript: types, generics, decorators, private names', () => {
    expect(tokens('@dec class A<T> { #x: Map<string, T[]> = new Map(); }')).toEqual([
      '@dec', 'class', 'A', '<', 'T', '>', '{', '#x', ':', 'Map', '<', 'string', ',', 'T', '[', ']', '>', '=', 'new', 'Map', '(', ')', ';', '}',
    ]);
  });

  it('never throws on odd input', () => {
    for (const odd of ['`unterminated ${ a', '"abc\n', '/* open', 'a /', '}}}`', '\u2028\u00a0', '\\u0061', 'def f(x):\n    return x', '\0\uffff\ud800', '/[', '`${`${`']) {
      const result = tokenizeJavaScript(odd);
      expect(result.tokens.length).toBe(result.lines.length);
    }
    expect(tokens('"abc\nd')).toEqual(['"abc', 'd']);
  });
});

describe('indexesJavaScriptImageFile', () => {
  it('indexes JavaScript and TypeScript sources and source maps', () => {
    for (const path of ['/a.js', '/a.mjs', '/a.cjs', '/a.ts', '/a.mts', '/a.cts', '/a.jsx', '/a.tsx', '/a.d.ts', '/dist/a.js.map']) expect(indexesJavaScriptImageFile(path), path).toBe(true);
    for (const path of ['/a.py', '/a.json', '/a.md', '/a.jsonl', '/tsconfig']) expect(indexesJavaScriptImageFile(path), path).toBe(false);
  });
});

function unit(file: string, qualname: string): Unit {
  return { file, qualname } as Unit;
}

describe('findJavaScriptLibraryCopies', () => {
  const semver = {
    files: new Set(['package.json', 'index.js', 'classes/semver.js', 'classes/range.js', 'functions/parse.js', 'functions/inc.js', 'test/classes/semver.js']),
    units: [unit('classes/semver.js', 'SemVer.inc'), unit('functions/parse.js', 'default'), unit('functions/inc.js', 'default')],
  };

  it("finds npm's bundled copy, a Debian package and a global install at the repository's own paths", () => {
    const image = [
      '/usr/share/nodejs/npm/node_modules/semver/classes/semver.js',
      '/usr/share/nodejs/npm/node_modules/semver/functions/parse.js',
      '/usr/share/nodejs/npm/node_modules/semver/functions/inc.js',
      '/usr/share/nodejs/semver/classes/semver.js',
      '/usr/share/nodejs/semver/functions/inc.js',
      '/usr/lib/node_modules/semver/functions/parse.js',
      '/usr/lib/node_modules/semver/functions/inc.js',
      '/usr/lib/node_modules/other/index.js',
    ];
    expect(javascriptLeakRules.findLibraryCopies(image, semver)).toEqual([
      '/usr/lib/node_modules/semver',
      '/usr/share/nodejs/npm/node_modules/semver',
      '/usr/share/nodejs/semver',
    ]);
  });

  it('finds a published build of src/ (dist/, .d.ts and .map twins) and leaves packages that only share common names', () => {
    const library = {
      files: new Set(['src/index.ts', 'src/parse.ts', 'src/format.ts', 'src/utils.ts', 'vite.config.ts', 'tests/parse.test.ts']),
      units: [unit('src/parse.ts', 'parse'), unit('src/format.ts', 'format'), unit('src/utils.ts', 'clamp'), unit('src/index.ts', 'main')],
    };
    const image = [
      '/srv/app/node_modules/@acme/textkit/dist/parse.js.map',
      '/srv/app/node_modules/@acme/textkit/dist/format.d.ts',
      '/srv/app/node_modules/@acme/textkit/dist/utils.js',
      '/srv/app/node_modules/unrelated/dist/index.js',
      '/srv/app/node_modules/unrelated/dist/utils.js',
      '/srv/app/node_modules/unrelated/dist/other.js',
    ];
    expect(findJavaScriptLibraryCopies(image, library)).toEqual(['/srv/app/node_modules/@acme/textkit']);
  });

  it('needs two files, one holding a unit, and never returns a path every sandbox needs', () => {
    expect(findJavaScriptLibraryCopies(['/usr/lib/node_modules/semver/classes/semver.js'], semver)).toEqual([]);
    expect(findJavaScriptLibraryCopies(['/usr/lib/node_modules/x/index.js', '/usr/lib/node_modules/x/classes/range.js'], semver)).toEqual([]);
    // the repository laid out at the image's root: the root itself is not a copy to delete
    expect(findJavaScriptLibraryCopies(['/classes/semver.js', '/functions/parse.js', '/functions/inc.js'], semver)).toEqual([]);
    expect(findJavaScriptLibraryCopies(['/opt/codemidas/classes/semver.js', '/opt/codemidas/functions/parse.js'], semver)).toEqual([]);
  });
});

describe('the leak audit over a JavaScript package', () => {
  const TARGET = [
    'export function diff(a, b) {',
    '  const out = [];',
    '  for (const key of Object.keys(a)) {',
    '    if (!(key in b)) out.push({ op: "remove", path: [key] });',
    '    else if (a[key] !== b[key]) out.push({ op: "replace", path: [key], value: b[key] });',
    '  }',
    '  return out;',
    '}',
    '',
  ].join('\n');
  const auditor = (root: string) =>
    createLeakAuditor({ reader: createDirectoryImageFileReader({ root }), logger: createSilentLogger(), language: javascriptLeakRules });
  const maskedWorkspaceOf = async (files: Record<string, string>) => {
    const dir = makeTempDir('js-leak-');
    for (const [path, text] of Object.entries(files)) {
      mkdirSync(dirname(join(dir, path)), { recursive: true });
      writeFileSync(join(dir, path), text);
    }
    const { units } = await parseJavaScriptUnits({ dir, origin: dir, revision: 'x', files: Object.keys(files).sort() });
    const unit = units.find((u) => u.qualname === 'diff') as Unit;
    const fileMap = new Map(Object.entries(files).map(([p, t]) => [p, Buffer.from(t)]));
    return maskWorkspace({ unit, files: fileMap, units, maskBody: maskJavaScriptBody, repoTests: javascriptRepoTests, workspaceRules: javascriptWorkspaceRules });
  };

  it('reads a source map by content: its sourcesContent is found, in the workspace and in the image', async () => {
    const map = JSON.stringify({ version: 3, sources: ['../src/diff.js'], sourcesContent: [TARGET], mappings: 'AAAA' });
    // read as text, the whole source is one JSON string token
    expect(tokenizeJavaScript(map).tokens.length).toBeLessThan(30);
    expect(javascriptLeakRules.tokenize(map).tokens).toEqual(tokenizeJavaScript(TARGET).tokens);
    // a map under a name the workspace scrub keeps (a .map is always scrubbed by name)
    const masked = await maskedWorkspaceOf({ 'src/diff.js': TARGET, 'docs/bundle-map.json': map });
    expect(masked.workspace.has('docs/bundle-map.json')).toBe(true);
    const root = makeTempDir('js-image-');
    mkdirSync(join(root, 'usr/share/nodejs/diffkit/dist'), { recursive: true });
    writeFileSync(join(root, 'usr/share/nodejs/diffkit/dist/index.js.map'), map);
    const result = await auditor(root).audit({ removedBody: masked.removedBody, workspace: masked.workspace, image: 'img:map' });
    expect(result.hits.map((h) => [h.where, h.path, h.coverage])).toEqual([
      ['workspace', 'docs/bundle-map.json', 1],
      ['image', '/usr/share/nodejs/diffkit/dist/index.js.map', 1],
    ]);
  });

  it('finds a twin the layout rules do not know: a copy of the file under another stem and folder', async () => {
    const twin = `// vendored from diffkit\n${TARGET.replace('export function diff', 'function vendoredDiff')}module.exports = vendoredDiff;\n`;
    const masked = await maskedWorkspaceOf({ 'src/diff.js': TARGET, 'vendor/diffkit-copy.cjs': twin });
    // neither a twin (other stem, other folder) nor build output: the layout keeps it, the audit catches it
    expect(masked.scrubbed).toEqual([]);
    const root = makeTempDir('js-image-');
    const result = await auditor(root).audit({ removedBody: masked.removedBody, workspace: masked.workspace, image: 'img:twin' });
    expect(result.clean).toBe(false);
    expect(result.hits.map((h) => [h.where, h.path, h.coverage])).toEqual([['workspace', 'vendor/diffkit-copy.cjs', 1]]);
  });
});
