import { describe, expect, it } from 'vitest';
import type { Unit } from '../../src/languages/construction-types.js';
import {
  findJavaScriptLibraryCopies, indexesJavaScriptImageFile, javascriptLeakRules, tokenizeJavaScript,
} from '../../src/languages/javascript/javascript-leaks.js';

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
