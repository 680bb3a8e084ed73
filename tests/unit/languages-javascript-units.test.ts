import { afterAll, describe, expect, it } from 'vitest';
import { detectJavaScript, isJavaScriptTestFile } from '../../src/languages/javascript/javascript-files.js';
import { MASKED_BODY, maskJavaScriptBody } from '../../src/languages/javascript/mask-javascript-body.js';
import { parseJavaScriptUnits } from '../../src/languages/javascript/parse-javascript-units.js';
import type { Unit } from '../../src/pipeline/types.js';
import { fixtureSnapshot, makeTempDir, removeTempDirs } from './languages-javascript-fixtures.js';

afterAll(removeTempDirs);

function byQualname(units: Unit[], qualname: string): Unit {
  const unit = units.find((u) => u.qualname === qualname);
  if (unit === undefined) throw new Error(`no unit ${qualname} in ${units.map((u) => u.qualname).join(', ')}`);
  return unit;
}

describe('parseJavaScriptUnits on an ES module package', () => {
  const snapshot = fixtureSnapshot('esm-pkg', ['node_modules/dep/index.js', 'dist/bundle.js']);

  it('finds exported functions, class methods and object-literal methods, and nothing from tests, node_modules or dist', async () => {
    const { units, problems, moduleFormats } = await parseJavaScriptUnits(snapshot);
    expect(problems).toEqual([]);
    expect(units.map((u) => u.id)).toEqual([
      'src/index:demo',
      'src/shapes:Rect',
      'src/shapes:Rect.area',
      'src/shapes:Rect.perimeter',
      'src/shapes:Rect.square',
      'src/shapes:Rect.scale',
      'src/shapes:default.describe',
      'src/shapes:default.ratio',
      'src/text:padLeft',
      'src/text:words',
      'src/text:shout',
      'src/text:chars',
      'src/text:later',
      'src/text:stamp',
      'src/text:exposed',
      'src/text:counts',
    ]);
    expect(moduleFormats['src/text.js']).toBe('esm');
    expect(moduleFormats['test/text.test.js']).toBe('esm');
    // a class is a unit of kind class (never a target): its constructor's parameters, its lines
    const rect = units.find((u) => u.id === 'src/shapes:Rect');
    expect(rect).toMatchObject({ kind: 'class', qualname: 'Rect', file: 'src/shapes.js' });
    expect(rect?.signature).toMatch(/class Rect\b/);
    expect(rect?.params.map((p) => p.name).length).toBeGreaterThan(0);
  });

  it('reads a function declaration: lines, signature, params, JSDoc, sizes', async () => {
    const { units } = await parseJavaScriptUnits(snapshot);
    const pad = byQualname(units, 'padLeft');
    expect(pad).toMatchObject({
      kind: 'function', module: 'src/text', file: 'src/text.js', startLine: 5, endLine: 9, bodyStartLine: 6, bodyEndLine: 8,
      signature: "export function padLeft(text, width = 8, fill = ' ')",
      docstring: 'Pads `text` on the left to `width` with `fill`.\n@param {string} text',
      statementCount: 3, codeLines: 2, isAsync: false, isGenerator: false, impurities: [],
    });
    expect(pad.params).toEqual([
      { name: 'text', kind: 'positional', annotation: null, defaultValue: null },
      { name: 'width', kind: 'positional', annotation: null, defaultValue: '8' },
      { name: 'fill', kind: 'positional', annotation: null, defaultValue: "' '" },
    ]);
    expect(pad.calls).toEqual(['fill.repeat']);
  });

  it('reads arrows, function expressions, generators, async functions and impurities', async () => {
    const { units } = await parseJavaScriptUnits(snapshot);
    expect(byQualname(units, 'words')).toMatchObject({ signature: 'export const words = (text) =>', docstring: 'Splits words on runs of spaces.', bodyStartLine: 12, bodyEndLine: 12, statementCount: 1 });
    expect(byQualname(units, 'shout').params.map((p) => [p.name, p.kind])).toEqual([['text', 'positional'], ['marks', 'var-positional']]);
    expect(byQualname(units, 'chars')).toMatchObject({ isGenerator: true, params: [{ name: '{ text, step }', kind: 'positional' }] });
    expect(byQualname(units, 'later').isAsync).toBe(true);
    expect(byQualname(units, 'stamp').impurities).toEqual(['clock:Date.now', 'random:Math.random']);
  });

  it('marks static methods, getters and setters, and keeps the getter for a getter/setter pair', async () => {
    const { units } = await parseJavaScriptUnits(snapshot);
    expect(byQualname(units, 'Rect.square')).toMatchObject({ kind: 'method', decorators: ['static'], signature: 'static square(side)' });
    expect(byQualname(units, 'Rect.perimeter')).toMatchObject({ decorators: ['get'], startLine: 12, endLine: 14 });
    expect(byQualname(units, 'Rect.area').docstring).toBe('The area.');
  });

  it('resolves call sites through named, aliased, namespace and default imports, with literal arguments', async () => {
    const { units } = await parseJavaScriptUnits(snapshot);
    const pad = byQualname(units, 'padLeft');
    expect(pad.callSites).toEqual([
      { file: 'src/index.js', line: 7, caller: 'demo', argumentTexts: ["'x'", '4', "'-'"], allLiteral: true },
      { file: 'src/text.js', line: 38, caller: 'hidden', argumentTexts: ["'a'", '3'], allLiteral: true },
      { file: 'test/text.test.js', line: 4, caller: 'testPad', argumentTexts: ["'ab'", '5', "'*'"], allLiteral: true },
      { file: 'test/text.test.js', line: 4, caller: 'testPad', argumentTexts: ["['x'].join('')", '2'], allLiteral: false },
    ]);
    expect(byQualname(units, 'words').callSites.map((s) => s.argumentTexts)).toEqual([["'a b'"]]);
    expect(byQualname(units, 'shout').callSites).toHaveLength(1);
    expect(byQualname(units, 'default.describe').callSites).toHaveLength(1);
    expect(byQualname(units, 'Rect.square').callSites).toHaveLength(1);
    expect(byQualname(units, 'counts').callSites[0]).toMatchObject({ argumentTexts: ['`a b`'], allLiteral: true });
  });
});

describe('parseJavaScriptUnits on CommonJS and TypeScript packages', () => {
  it('finds module.exports members and exports.x assignments as CommonJS units', async () => {
    const { units, moduleFormats } = await parseJavaScriptUnits(fixtureSnapshot('cjs-pkg'));
    expect(units.map((u) => u.id)).toEqual(['lib/fmt:money', 'lib/fmt:total', 'lib/fmt:run', 'lib/math:add', 'lib/math:clamp', 'lib/math:mean']);
    expect(moduleFormats['lib/math.js']).toBe('cjs');
    const add = byQualname(units, 'add');
    expect(add.docstring).toBe('Adds two numbers.');
    expect(add.callSites.map((s) => `${s.file}:${s.caller}`)).toEqual(['__tests__/math.js:<module>', 'lib/fmt.js:total', 'lib/math.js:mean']);
    expect(byQualname(units, 'run').impurities).toEqual(["process:require('child_process')"]);
  });

  it('reads TypeScript annotations and skips overload signatures', async () => {
    const { units, problems } = await parseJavaScriptUnits(fixtureSnapshot('ts-pkg'));
    expect(problems).toEqual([]);
    expect(units.map((u) => u.qualname)).toEqual(['summarize', 'median', 'Counter', 'Counter.add', 'Counter.of', 'Counter.top', 'double', 'round']);
    expect(byQualname(units, 'summarize')).toMatchObject({
      returnAnnotation: 'Summary',
      params: [
        { name: 'values', kind: 'positional', annotation: 'readonly number[]', defaultValue: null },
        { name: 'digits', kind: 'positional', annotation: 'number', defaultValue: '2' },
      ],
    });
    expect(byQualname(units, 'Counter.of').decorators).toEqual(['static']);
    expect(byQualname(units, 'round').callSites).toHaveLength(2);
  });

  it('reports a file with a syntax error as a problem and goes on', async () => {
    const { writeFileSync } = await import('node:fs');
    const dir = makeTempDir('js-units-');
    writeFileSync(`${dir}/bad.js`, 'export function f( {\n');
    writeFileSync(`${dir}/good.js`, 'export function g() { return 1; }\n');
    const { units, problems } = await parseJavaScriptUnits({ dir, origin: dir, revision: 'x', files: ['bad.js', 'good.js'] });
    expect(units.map((u) => u.id)).toEqual(['good:g']);
    expect(problems).toMatchObject([{ file: 'bad.js', code: 'syntax-error' }]);
  });
});

describe('parseJavaScriptUnits on less common export forms', () => {
  it('names default exports, CommonJS classes, generator methods and JSX/TSX components by their export path', async () => {
    const { writeFileSync } = await import('node:fs');
    const dir = makeTempDir('js-units-');
    const files: Record<string, string> = {
      'anon.mjs': 'export default function (a) {\n  return a;\n}\n',
      'klass.mjs': 'export default class {\n  async *pages(n) {\n    yield n;\n  }\n}\n',
      'shape.cjs': 'class Shape {\n  static unit() {\n    return new Shape();\n  }\n  get size() {\n    return 1;\n  }\n}\nmodule.exports = Shape;\n',
      'view.jsx': 'export function View({ name }) {\n  return <div className="v">{name}</div>;\n}\n',
      'card.tsx': 'export const Card = ({ title }: { title: string }): JSX.Element => <h1>{title}</h1>;\n',
    };
    for (const [name, text] of Object.entries(files)) writeFileSync(`${dir}/${name}`, text);
    const { units, problems, moduleFormats } = await parseJavaScriptUnits({ dir, origin: dir, revision: 'x', files: Object.keys(files).sort() });
    expect(problems).toEqual([]);
    expect(units.map((u) => u.id)).toEqual(['anon:default', 'card:Card', 'klass:default', 'klass:default.pages', 'shape:default', 'shape:default.unit', 'shape:default.size', 'view:View']);
    expect(byQualname(units, 'default.pages')).toMatchObject({ isAsync: true, isGenerator: true, kind: 'method' });
    expect(byQualname(units, 'default.size').decorators).toEqual(['get']);
    expect(byQualname(units, 'Card').params).toEqual([{ name: '{ title }', kind: 'positional', annotation: '{ title: string }', defaultValue: null }]);
    expect(moduleFormats).toEqual({ 'anon.mjs': 'esm', 'card.tsx': 'cjs', 'klass.mjs': 'esm', 'shape.cjs': 'cjs', 'view.jsx': 'cjs' });
    // each masks into a file that still parses (maskJavaScriptBody refuses one that would not)
    for (const unit of units.filter((u) => u.kind !== 'class')) expect(maskJavaScriptBody(files[unit.file] ?? '', unit)).toContain(MASKED_BODY);
  });
});

describe('detectJavaScript', () => {
  it('counts sources outside tests and sees package.json', () => {
    const result = detectJavaScript(fixtureSnapshot('cjs-pkg', ['node_modules/x/index.js']));
    expect(result).toMatchObject({ language: 'javascript', detected: true, files: ['__tests__/math.js', 'lib/fmt.js', 'lib/math.js'] });
    expect(result.reason).toBe('3 JavaScript/TypeScript files (2 outside tests), package.json');
    expect(detectJavaScript({ dir: '/x', origin: '/x', revision: 'x', files: ['a.py'] }).detected).toBe(false);
  });
});

describe('isJavaScriptTestFile', () => {
  it("takes test folders, *.test.* and *.spec.*, and ava's and mocha's default files, and nothing named like them by chance", () => {
    const tests = ['test/a.js', 'src/__tests__/b.ts', 'lib/c.test.mjs', 'd.spec.ts', 'test.js', 'tests.js', 'test-parse.js'];
    const library = ['index.js', 'src/testing.js', 'latest.js', 'contest-x.js', 'src/attest.ts'];
    expect(tests.filter((f) => !isJavaScriptTestFile(f))).toEqual([]);
    expect(library.filter((f) => isJavaScriptTestFile(f))).toEqual([]);
  });
});
