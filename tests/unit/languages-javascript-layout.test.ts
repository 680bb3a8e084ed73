import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { readJavaScriptLayout } from '../../src/languages/javascript/javascript-layout.js';
import { scrubJavaScriptWorkspace } from '../../src/languages/javascript/javascript-workspace.js';
import { maskJavaScriptBody } from '../../src/languages/javascript/mask-javascript-body.js';
import { parseJavaScriptUnits } from '../../src/languages/javascript/parse-javascript-units.js';
import { javascriptRepoTests } from '../../src/languages/javascript/javascript-repo-tests.js';
import { maskWorkspace } from '../../src/pipeline/mask/mask-workspace.js';
import type { Unit } from '../../src/pipeline/types.js';
import { makeTempDir, removeTempDirs, TEST_NODE } from './languages-javascript-fixtures.js';

afterAll(removeTempDirs);

/** A package written to a fresh folder, parsed by the plugin. */
async function parsePackage(files: Record<string, string>): Promise<{ dir: string; units: Unit[]; problems: { file: string; code?: string }[] }> {
  const dir = makeTempDir('js-layout-');
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
  const { units, problems } = await parseJavaScriptUnits({ dir, origin: dir, revision: 'x', files: Object.keys(files).sort() });
  return { dir, units, problems };
}

function fileMap(files: Record<string, string>): Map<string, Buffer> {
  return new Map(Object.entries(files).map(([path, text]) => [path, Buffer.from(text)]));
}

const DIFF_ESM = 'export function diff(a, b) {\n  const out = [];\n  if (a !== b) out.push([a, b]);\n  return out;\n}\n';
const DIFF_CJS = 'function diff(a, b) {\n  const out = [];\n  if (a !== b) out.push([a, b]);\n  return out;\n}\nmodule.exports = { diff };\n';
const DIFF_MIN = 'function diff(a,b){const o=[];if(a!==b)o.push([a,b]);return o}module.exports={diff};\n';
const DIFF_UMD = '(function (g, f) {\n  typeof exports === "object" ? f(exports) : f((g.diff = {}));\n})(this, function (exports) {\n  function diff(a, b) {\n    const out = [];\n    if (a !== b) out.push([a, b]);\n    return out;\n  }\n  exports.diff = diff;\n});\n';

describe('parseJavaScriptUnits reads a published package as it is laid out', () => {
  it('src/ + lib/: build output next to TypeScript sources is a built copy, never a unit', async () => {
    const { units, problems } = await parsePackage({
      'src/compare.ts': 'export function compare(a: string, b: string): number {\n  const x = a.length;\n  const y = b.length;\n  return x - y;\n}\n',
      'lib/esm/compare.js': 'export function compare(a, b) {\n  const x = a.length;\n  const y = b.length;\n  return x - y;\n}\n//# sourceMappingURL=compare.js.map\n',
      'lib/esm/compare.js.map': JSON.stringify({ version: 3, sources: ['../../src/compare.ts'], mappings: 'AAAA' }),
      'lib/umd/index.js': DIFF_UMD,
      'dist/bundle.js': 'export function bundled(a) {\n  return a;\n}\n',
    });
    expect(problems).toEqual([]);
    expect(units.map((u) => u.id)).toEqual(['src/compare:compare']);
  });

  it('dist/ only: the build output is the source, and its twins (.js, .mjs, .min.js) give one module', async () => {
    const { units, problems } = await parsePackage({
      'dist/index.js': DIFF_CJS,
      'dist/index.mjs': DIFF_ESM,
      'dist/index.min.js': DIFF_MIN,
      'package.json': '{"main": "dist/index.js", "module": "dist/index.mjs"}',
    });
    expect(problems).toEqual([]);
    // index.js would be found first by the extension order, so the module is named with its extension
    expect(units.map((u) => u.id)).toEqual(['dist/index.mjs:diff']);
  });

  it('lib/ only: lib/index.js + lib/index.mjs twins give the .mjs file\'s units, not a redefinition', async () => {
    const { units, problems } = await parsePackage({ 'lib/index.js': DIFF_CJS, 'lib/index.mjs': DIFF_ESM, 'lite/index.js': DIFF_CJS, 'lite/index.mjs': DIFF_ESM });
    expect(problems).toEqual([]);
    expect(units.map((u) => `${u.file}:${u.qualname}`)).toEqual(['lib/index.mjs:diff', 'lite/index.mjs:diff']);
  });

  it('dist/ + dist.es2015/ (path-to-regexp@6, no TypeScript source shipped): twins of one module, each function once', async () => {
    const { units, problems } = await parsePackage({
      'dist/index.js': DIFF_CJS,
      'dist/index.d.ts': 'export declare function diff(a: unknown, b: unknown): unknown[][];\n',
      'dist.es2015/index.js': DIFF_ESM,
      'package.json': '{"main": "dist/index.js", "module": "dist.es2015/index.js", "typings": "dist/index.d.ts"}',
    });
    expect(problems).toEqual([]);
    expect(units.map((u) => u.qualname)).toEqual(['diff']);
  });

  it('build folders named with a format or ES-version suffix are build folders; tooling and source names are not', async () => {
    for (const folder of ['dist-esm', 'dist-cjs', 'lib.esm', 'es2015', 'es5', 'esm5', 'esm2015', 'fesm2015', '_cjs', '_esm', 'esnext']) {
      const { units } = await parsePackage({ 'src/diff.js': DIFF_ESM, [`${folder}/diff.js`]: DIFF_CJS });
      expect(units.map((u) => u.id), folder).toEqual(['src/diff:diff']);
    }
    for (const folder of ['node', 'build-tools', 'lib-utils', 'estree']) {
      const { units } = await parsePackage({ 'src/diff.js': DIFF_ESM, [`${folder}/other.js`]: DIFF_CJS.replace(/diff/g, 'other') });
      expect(units.map((u) => u.id).sort(), folder).toEqual([`${folder}/other:other`, 'src/diff:diff']);
    }
  });

  it('root index.cjs + index.mjs twins: one module, named so the harness finds the primary', async () => {
    const { units, problems } = await parsePackage({ 'index.cjs': DIFF_CJS, 'index.mjs': DIFF_ESM, 'rollup.config.js': 'export default { input: "index.mjs" };\n' });
    expect(problems).toEqual([]);
    expect(units.map((u) => `${u.id} ${u.file}`)).toEqual(['index:diff index.mjs']);
  });

  it('UMD + ESM twins: the UMD bundle gives no unit, so the ES module is primary even though .umd.js ranks after it', async () => {
    const { units } = await parsePackage({ 'x.umd.js': DIFF_UMD, 'x.esm.js': DIFF_ESM, 'x.js': DIFF_UMD });
    expect(units.map((u) => `${u.file}:${u.qualname}`)).toEqual(['x.esm.js:diff']);
  });

  it('a source that requires ./lib keeps lib/ as the source (no TypeScript, no src/, no same-path twin)', async () => {
    const { units } = await parsePackage({ 'index.js': "module.exports = require('./lib/diff');\n", 'lib/diff.js': DIFF_CJS });
    expect(units.map((u) => u.id)).toEqual(['lib/diff:diff']);
  });

  it('a file whose source map names a source of the snapshot is a copy, wherever it sits', async () => {
    const { units } = await parsePackage({
      'src/diff.js': DIFF_ESM,
      'diff.js': `${DIFF_ESM}//# sourceMappingURL=data:application/json;base64,${Buffer.from(JSON.stringify({ version: 3, sources: ['src/diff.js'], mappings: 'AAAA' })).toString('base64')}\n`,
    });
    expect(units.map((u) => `${u.file}:${u.qualname}`)).toEqual(['src/diff.js:diff']);
  });

  it('chained CommonJS exports: every name exports the value at the end, one unit named by its local name', async () => {
    const { units } = await parsePackage({
      'ini.js': [
        'exports.parse = exports.decode = decode',
        'exports.stringify = exports.encode = encode',
        'module.exports.a = exports.b = function (x) {\n  const y = x + 1;\n  return y;\n}',
        'function decode(s) {\n  const out = {};\n  out.s = s;\n  return out;\n}',
        'function encode(o) {\n  return String(o);\n}',
        '',
      ].join('\n'),
    });
    expect(units.map((u) => u.qualname).sort()).toEqual(['b', 'decode', 'encode']);
  });

  it('the layout names each copy\'s source: a twin its primary, a build copy the source at the same path', () => {
    const files = { 'src/index.ts': '', 'dist/index.js': '', 'dist/index.mjs': '', 'index.mjs': '', 'index.cjs': '' };
    const units = new Map([['src/index.ts', 2], ['index.mjs', 1], ['index.cjs', 1]]);
    const layout = readJavaScriptLayout({ files: Object.keys(files), read: () => '', unitCount: (f) => units.get(f) ?? 0 });
    expect(layout.sources).toEqual(['index.mjs', 'src/index.ts']);
    expect(Object.fromEntries([...layout.copies].map(([path, copy]) => [path, copy.of]))).toEqual({
      'dist/index.js': 'src/index.ts',
      'dist/index.mjs': 'src/index.ts',
      'index.cjs': 'index.mjs',
    });
  });

  it('a bundle whose map names several sources is a copy of the one at its own path; tooling is neither a copy nor a twin', () => {
    const map = JSON.stringify({ version: 3, sources: ['../src/utils.ts', '../src/index.ts'], mappings: 'AAAA' });
    const texts: Record<string, string> = {
      'src/index.ts': '', 'src/utils.ts': '',
      'dist/bundle.js': 'x\n//# sourceMappingURL=bundle.js.map\n', 'dist/bundle.js.map': map,
      'dist/index.js': 'x\n//# sourceMappingURL=index.js.map\n', 'dist/index.js.map': map,
      'build/rollup/config.esm.js': '', 'build/rollup/config.cjs.js': '',
    };
    const units = new Map([['src/index.ts', 1], ['src/utils.ts', 1]]);
    const layout = readJavaScriptLayout({ files: Object.keys(texts), read: (f) => texts[f], unitCount: (f) => units.get(f) ?? 0 });
    expect(layout.sources).toEqual(['build/rollup/config.cjs.js', 'build/rollup/config.esm.js', 'src/index.ts', 'src/utils.ts']);
    expect(layout.copies.get('dist/index.js')).toEqual({ of: 'src/index.ts', rule: 'built copy of src/utils.ts, src/index.ts (its source map names them)' });
    // no source at bundle's own path: what a shim would load is not known
    expect(layout.copies.get('dist/bundle.js')?.of).toBeNull();
  });
});

describe('scrubJavaScriptWorkspace', () => {
  const unitIn = (file: string, module = file.replace(/\.[^.]+$/, '')): Unit => ({ file, module, qualname: 'diff', id: `${module}:diff` }) as Unit;

  it('removes twins, build copies and minified files, and writes shims for entry points', () => {
    const files = fileMap({
      'package.json': JSON.stringify({ type: 'module', main: 'index.cjs', exports: { '.': { require: './index.cjs', import: './index.mjs' } }, browser: './index.min.js' }),
      'index.mjs': DIFF_ESM,
      'index.cjs': DIFF_CJS,
      'index.min.js': DIFF_MIN,
      'vendor/other.min.js': 'var a=1;',
      'README.md': '# diff\n',
    });
    const { remove, keep } = scrubJavaScriptWorkspace({ files, units: [unitIn('index.mjs', 'index')] });
    expect(keep).toEqual([]);
    expect(remove.map((r) => [r.path, r.replacement !== null])).toEqual([
      ['index.cjs', true],
      ['index.min.js', true],
      ['vendor/other.min.js', false],
    ]);
    expect(remove[0]?.rule).toBe('twin of index.mjs (the same module built again); entry point (package.json main) replaced by a shim that loads index.mjs');
    expect(remove[2]?.rule).toBe('minified file');
    const shim = remove[0]?.replacement?.toString() ?? '';
    expect(shim).not.toContain('out.push');
    expect(shim).toContain("require(\"./index.mjs\")");
    // index.min.js is ESM by package.json's type: it re-exports
    expect(remove[1]?.replacement?.toString()).toContain('export * from "./index.mjs";\n');
  });

  it('removes build copies of TypeScript sources without a shim, and says so', () => {
    const files = fileMap({
      'package.json': JSON.stringify({ main: './dist/index.js' }),
      'src/index.ts': 'export function diff(a: number, b: number) {\n  return a - b;\n}\n',
      'dist/index.js': 'exports.diff = function (a, b) { return a - b; };\n',
    });
    const { remove } = scrubJavaScriptWorkspace({ files, units: [unitIn('src/index.ts')] });
    expect(remove).toEqual([{
      path: 'dist/index.js',
      rule: "build output in dist/ (the package's sources are outside build folders); built from src/index.ts; entry point (package.json main) removed without a shim: its source src/index.ts is TypeScript, which no shim can load",
      replacement: null,
    }]);
  });

  it('keeps a dist-only package\'s sources from the generic scrub, and the masked workspace holds no copy of the body', async () => {
    const sources = { 'package.json': JSON.stringify({ main: 'dist/index.js', module: 'dist/index.mjs' }), 'dist/index.js': DIFF_CJS, 'dist/index.mjs': DIFF_ESM, 'dist/index.min.js': DIFF_MIN };
    const { units } = await parsePackage(sources);
    const unit = units.find((u) => u.qualname === 'diff') as Unit;
    const files = fileMap(sources);
    const masked = maskWorkspace({ unit, files, units, maskBody: maskJavaScriptBody, repoTests: javascriptRepoTests, workspaceRules: { scrub: scrubJavaScriptWorkspace } });
    // dist/index.js (main) is a shim now; the minified twin, named by no field, is gone
    expect([...masked.workspace.keys()]).toEqual(['dist/index.js', 'dist/index.mjs', 'package.json']);
    expect(masked.workspace.get('dist/index.mjs')?.toString()).toContain('not implemented');
    expect(masked.workspace.get('dist/index.js')?.toString()).toContain('require("./index.mjs")');
    for (const [path, content] of masked.workspace) expect(content.toString(), path).not.toContain('out.push');
    expect(masked.scrubbed.map((s) => s.path)).toEqual(['dist/index.js', 'dist/index.min.js']);
  });

  it('shims load in node: a CommonJS shim over an ES module primary, and an ES module shim over a CommonJS primary', () => {
    const dir = makeTempDir('js-shim-');
    const write = (path: string, text: string): void => {
      mkdirSync(dirname(join(dir, path)), { recursive: true });
      writeFileSync(join(dir, path), text);
    };
    // package a: ESM primary with a lone default; CJS twin named by main
    const a = { 'a/package.json': JSON.stringify({ main: 'index.js', module: 'index.mjs' }), 'a/index.mjs': 'export default function mri(x) {\n  const y = [x];\n  return y;\n}\n', 'a/index.js': 'module.exports = function mri(x) { return [x]; };\n' };
    // package b: CJS primary (more units than its ESM twin), ESM twin named by exports.import
    const b = {
      'b/package.json': JSON.stringify({ exports: { import: './index.mjs', require: './index.cjs' } }),
      'b/index.cjs': 'function one() {\n  return 1;\n}\nfunction two() {\n  return 2;\n}\nmodule.exports = { one, two };\n',
      'b/index.mjs': 'export function one() { return 1; }\n',
    };
    const units = [unitIn('a/index.mjs'), { ...unitIn('b/index.cjs'), qualname: 'one' }, { ...unitIn('b/index.cjs'), qualname: 'two' }] as Unit[];
    const all = { ...a, ...b };
    const { remove } = scrubJavaScriptWorkspace({ files: fileMap(all), units });
    expect(remove.map((r) => r.path)).toEqual(['a/index.js', 'b/index.mjs']);
    for (const [path, text] of Object.entries(all)) write(path, text);
    for (const r of remove) write(r.path, r.replacement?.toString() ?? '');
    const script = [
      `const m = require(${JSON.stringify(join(dir, 'a/index.js'))});`,
      'console.log(typeof m, JSON.stringify(m(5)));',
      `import(${JSON.stringify(join(dir, 'b/index.mjs'))}).then((b) => console.log(b.one(), b.two(), typeof b.default));`,
    ].join('\n');
    const out = execFileSync(TEST_NODE, ['-e', script], { encoding: 'utf8' });
    expect(out).toBe('function [5]\n1 2 object\n');
  });
});
