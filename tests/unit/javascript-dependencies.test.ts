import { describe, expect, it } from 'vitest';
import { compactRange, declaredJavaScriptDependencies, importedSpecifiers, javascriptDependencyRules, missingJavaScriptModule } from '../../src/languages/javascript/javascript-dependencies.js';
import { createJavaScriptPlugin } from '../../src/languages/javascript/javascript-plugin.js';
import { DEPENDENCY_PACKAGE, MISSING_DEPENDENCIES_FILE } from '../../src/sandbox/runtime-dependencies.js';

/** A snapshot of `files` (path → text). */
function snapshot(files: Record<string, string | object>): Map<string, Buffer> {
  return new Map(Object.entries(files).map(([path, content]) => [path, Buffer.from(typeof content === 'string' ? content : JSON.stringify(content))]));
}

describe('declared JavaScript dependencies', () => {
  it('declares dependencies, optionalDependencies and peerDependencies, sorted, the first section naming a package giving its from', () => {
    const declared = declaredJavaScriptDependencies(snapshot({
      'package.json': {
        dependencies: { zed: '^1.0.0', '@scope/pkg': '~2.1.0', both: '1.0.0' },
        optionalDependencies: { fsevents: '2.3.3', both: '^2.0.0' },
        peerDependencies: { react: '>=16' },
      },
    }));
    expect(declared).toEqual([
      { name: '@scope/pkg', from: 'package.json dependencies', install: '@scope/pkg@~2.1.0', modules: ['@scope/pkg'] },
      { name: 'both', from: 'package.json dependencies', install: 'both@1.0.0', modules: ['both'] },
      { name: 'fsevents', from: 'package.json optionalDependencies', install: 'fsevents@2.3.3', modules: ['fsevents'] },
      { name: 'react', from: 'package.json peerDependencies', install: 'react@>=16', modules: ['react'] },
      { name: 'zed', from: 'package.json dependencies', install: 'zed@^1.0.0', modules: ['zed'] },
    ]);
  });

  it('declares a devDependency that a source file requires, as deepmerge requires is-mergeable-object it bundles into dist/', () => {
    const declared = declaredJavaScriptDependencies(snapshot({
      'package.json': { name: 'deepmerge', main: 'dist/cjs.js', devDependencies: { 'is-mergeable-object': '1.1.0', rollup: '^1.0.0', tape: '^4.0.0' } },
      'index.js': "var defaultIsMergeableObject = require('is-mergeable-object')\nfunction deepmerge(a, b) { return a }\nmodule.exports = deepmerge\n",
      'dist/cjs.js': "'use strict';\nvar isMergeableObject = function isMergeableObject(value) { return true };\nmodule.exports = function deepmerge() {};\n",
      'rollup.config.js': "import resolve from 'rollup'\nexport default {}\n",
      'test/merge.js': "var test = require('tape')\nvar merge = require('../')\n",
    }));
    expect(declared).toEqual([{ name: 'is-mergeable-object', from: 'package.json devDependencies', install: 'is-mergeable-object@1.1.0', modules: ['is-mergeable-object'] }]);
  });

  it('leaves out a devDependency that only tests, tooling, built copies or node_modules import', () => {
    const declared = declaredJavaScriptDependencies(snapshot({
      'package.json': { devDependencies: { chai: '^4', esbuild: '^0.20', lodash: '^4', tslib: '^2', left: '^1' } },
      'src/index.ts': "export function f(): number { return 1 }\n// require('left') in a comment does not count\n",
      'src/index.test.ts': "import { expect } from 'chai'\n",
      'scripts/build.mjs': "import { build } from 'esbuild'\n",
      'dist/index.js': "const _ = require('lodash')\nexports.f = function f() { return 1 }\n",
      'node_modules/x/index.js': "require('tslib')\n",
    }));
    expect(declared).toEqual([]);
  });

  it('maps subpaths to their package and skips relative, absolute, node: and built-in specifiers', () => {
    const declared = declaredJavaScriptDependencies(snapshot({
      'package.json': { type: 'module', devDependencies: { a: '1.0.0', '@s/b': '1.0.0', c: '1.0.0', d: '1.0.0', e: '1.0.0', events: '3.3.0', f: '1.0.0', g: '1.0.0', h: '1.0.0' } },
      'index.js': [
        "import x from 'a/sub/path.js'",
        "import '@s/b/deep'",
        "export { y } from 'c'",
        "export * from \"d\"",
        "const e = await import('e')",
        "import { EventEmitter } from 'events'",
        "import fs from 'node:fs'",
        "import p from 'fs/promises'",
        "import './f.js'",
        "import type { T } from 'g'",
        "import { type U, v } from 'h'",
      ].join('\n'),
    }));
    expect(declared.map((d) => d.name)).toEqual(['@s/b', 'a', 'c', 'd', 'e', 'h']);
  });

  it('takes exact versions from a v3 package-lock.json, and from a v1 npm-shrinkwrap.json', () => {
    const manifest = { dependencies: { ms: '^2.1.0', '@s/x': '^1.0.0', other: '~3.0.0' } };
    const v3 = declaredJavaScriptDependencies(snapshot({
      'package.json': manifest,
      'package-lock.json': { lockfileVersion: 3, packages: { '': { dependencies: manifest.dependencies }, 'node_modules/ms': { version: '2.1.3' }, 'node_modules/@s/x': { version: '1.4.0' }, 'node_modules/@s/x/node_modules/ms': { version: '1.0.0' } } },
    }));
    expect(v3.map((d) => d.install)).toEqual(['@s/x@1.4.0', 'ms@2.1.3', 'other@~3.0.0']);
    const v1 = declaredJavaScriptDependencies(snapshot({
      'package.json': manifest,
      'npm-shrinkwrap.json': { lockfileVersion: 1, dependencies: { ms: { version: '2.1.2' }, other: { version: 'github:u/other#abc' } } },
    }));
    expect(v1.map((d) => d.install)).toEqual(['@s/x@^1.0.0', 'ms@2.1.2', 'other@~3.0.0']);
  });

  it('installs nothing for specs that are not registry versions, and says what to do', () => {
    const declared = declaredJavaScriptDependencies(snapshot({
      'package.json': {
        dependencies: { local: 'file:../local', linked: 'link:./x', ws: 'workspace:*', git: 'git+https://github.com/u/r.git', gh: 'github:u/r', short: 'u/r', tarball: 'https://example.com/r.tgz', alias: 'npm:other@^1' },
      },
    }));
    for (const dependency of declared) {
      expect(dependency.install, dependency.name).toBeNull();
      expect(dependency.why, dependency.name).toMatch(/: /);
    }
    expect(declared.map((d) => d.name)).toEqual(['alias', 'gh', 'git', 'linked', 'local', 'short', 'tarball', 'ws']);
    expect(declared.find((d) => d.name === 'local')?.why).toContain('a local path: vendor the package into the repository or publish it');
    expect(declared.find((d) => d.name === 'gh')?.why).toContain('a git repository');
    expect(declared.find((d) => d.name === 'short')?.why).toContain('GitHub repository');
  });

  it('writes every install without a space: wildcards become latest, comparator sets keep their upper bound', () => {
    const declared = declaredJavaScriptDependencies(snapshot({
      'package.json': { dependencies: { a: '*', b: 'latest', c: '', d: '>= 1.2 < 2', e: '^1.0.0 || ^2.0.0', f: '1.2.3 - 2.3', g: 'next', h: '=1.0.0', i: '>1 <2 <3' } },
    }));
    expect(declared.map((d) => d.install)).toEqual(['a@latest', 'b@latest', 'c@latest', 'd@<2', 'e@^1.0.0||^2.0.0', 'f@<=2.3', 'g@next', 'h@1.0.0', 'i@latest']);
    expect(compactRange('x')).toBe('latest');
    expect(compactRange(' ~ 1.2 ')).toBe('~1.2');
  });

  it('declares nothing for a missing or malformed package.json, and ignores malformed sections and lockfiles', () => {
    expect(declaredJavaScriptDependencies(snapshot({ 'index.js': "require('x')" }))).toEqual([]);
    expect(declaredJavaScriptDependencies(snapshot({ 'package.json': '{ "dependencies": ' }))).toEqual([]);
    expect(declaredJavaScriptDependencies(snapshot({ 'package.json': '[1, 2]' }))).toEqual([]);
    const declared = declaredJavaScriptDependencies(snapshot({
      'package.json': { dependencies: ['ms'], peerDependencies: { ok: '1.0.0', bad: 42 }, devDependencies: 'x' },
      'package-lock.json': '{ not json',
      'index.js': "require('x'\n`unterminated",
    }));
    expect(declared).toEqual([{ name: 'ok', from: 'package.json peerDependencies', install: 'ok@1.0.0', modules: ['ok'] }]);
  });

  it('reads require, import and export specifiers without counting comments or property calls', () => {
    expect(importedSpecifiers("require('a'); x.require('b'); /* import 'c' */ import(`d`); import(`e${f}`); Array.from('g'); import h, { i } from 'h'")).toEqual(['a', 'd', 'h']);
  });
});

describe('missing JavaScript modules', () => {
  it.each([
    ["Error: Cannot find module 'x'\nRequire stack:\n- /workspace/index.js", 'x'],
    ["Cannot find module 'x/lib/y'", 'x'],
    ["Cannot find module '@s/x/lib/y'", '@s/x'],
    ["Error [ERR_MODULE_NOT_FOUND]: Cannot find package 'x' imported from /workspace/index.js", 'x'],
    ["Error [ERR_MODULE_NOT_FOUND]: Cannot find package '@s/x' imported from /workspace/index.mjs", '@s/x'],
    ["Cannot find module './util'", null],
    ["Cannot find module '/workspace/x.js' imported from /workspace/index.mjs", null],
    ["Cannot find module 'node:nothing'", null],
    ['TypeError: x is not a function', null],
  ])('%s gives %s', (message, expected) => {
    expect(missingJavaScriptModule(message)).toBe(expected);
  });
});

describe('the JavaScript plugin', () => {
  it('has the npm dependency rules', () => {
    expect(createJavaScriptPlugin().dependencies).toBe(javascriptDependencyRules);
    expect(javascriptDependencyRules.installer.tool).toBe('npm');
  });
});

describe('the npm installer against the real registry', () => {
  it('pins ranges to exact versions and installs a layer that lists what it could not install', async () => {
    const { installer } = javascriptDependencyRules;
    const pinned = await installer.pin(['ms@^2.1.0', 'ms@2.1.3'], {});
    expect(pinned).toEqual(['ms@2.1.3']);
    for (const pkg of pinned) expect(pkg).toMatch(DEPENDENCY_PACKAGE);
    expect(await installer.pin(['codemidas-no-such-package-xyz@^1.0.0'], {})).toEqual(['codemidas-no-such-package-xyz@^1.0.0']);

    const lines: string[] = [];
    const layer = await installer.layer(['ms@2.1.3', 'codemidas-no-such-package-xyz@1.0.0'], { onLine: (line) => lines.push(line) });
    const paths = layer.files.map((f) => f.path);
    expect(paths).toContain('node_modules');
    expect(paths).toContain('node_modules/ms/package.json');
    expect(JSON.parse(layer.files.find((f) => f.path === 'node_modules/ms/package.json')?.content?.toString('utf8') ?? '{}')).toMatchObject({ name: 'ms', version: '2.1.3' });
    expect(layer.files.find((f) => f.path === 'missing.txt')?.content?.toString('utf8')).toBe('codemidas-no-such-package-xyz@1.0.0\n');
    expect(layer.dockerfile).toBe(`COPY node_modules/ /node_modules/\nCOPY missing.txt ${MISSING_DEPENDENCIES_FILE}\n`);
    expect(lines.some((line) => line.includes('404'))).toBe(true);
  }, 120_000);

  it('gives an empty install a node_modules folder and an empty missing.txt', async () => {
    const layer = await javascriptDependencyRules.installer.layer([], {});
    expect(layer.files).toEqual([
      { path: 'node_modules', type: 'directory', mode: 0o755 },
      { path: 'missing.txt', type: 'file', mode: 0o644, content: Buffer.from('') },
    ]);
  });
});
