import { describe, expect, it } from 'vitest';
import type { Unit } from '../../src/languages/construction-types.js';
import {
  describeJavaScriptLibrary, isJavaScriptSourceFile, javascriptCodeFence, javascriptDisplayName,
} from '../../src/languages/javascript/javascript-library.js';

function unit(file: string): Unit {
  return { file, module: file.replace(/\.[^.]+$/, '') } as Unit;
}

describe('describeJavaScriptLibrary', () => {
  it('names the package by its folder when that folder is not a generic one', () => {
    expect(describeJavaScriptLibrary([unit('packages/textkit/src/a.ts'), unit('packages/textkit/src/b/c.ts')])).toBe('the TypeScript package `textkit`');
    expect(describeJavaScriptLibrary([unit('semver/classes/semver.js'), unit('semver/functions/inc.js')])).toBe('the JavaScript package `semver`');
  });

  it('names the modules when the code sits in src/ or at the root, and says when JavaScript and TypeScript mix', () => {
    expect(describeJavaScriptLibrary([unit('src/text.js'), unit('src/shapes.js'), unit('src/text.js')])).toBe('a JavaScript package (modules `src/shapes`, `src/text`)');
    expect(describeJavaScriptLibrary([unit('index.js'), unit('src/a.ts')])).toBe('a JavaScript/TypeScript package (modules `index`, `src/a`)');
    expect(describeJavaScriptLibrary([])).toBe('a JavaScript package');
  });
});

describe('the JavaScript plugin values', () => {
  it('takes JavaScript/TypeScript sources, not declarations or other files', () => {
    for (const path of ['a.js', 'a/b.mjs', 'a.cjs', 'a.ts', 'a.mts', 'a.cts', 'a.jsx', 'a.tsx']) expect(isJavaScriptSourceFile(path), path).toBe(true);
    for (const path of ['a.d.ts', 'a.d.mts', 'a.json', 'a.py', 'a.js.map']) expect(isJavaScriptSourceFile(path), path).toBe(false);
    expect(javascriptDisplayName).toBe('JavaScript');
    expect(javascriptCodeFence).toBe('js');
  });
});
