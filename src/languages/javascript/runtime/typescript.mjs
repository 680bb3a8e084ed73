// TypeScript sources run through a transpile step (ts.transpileModule), for the record harness and
// the subject alike: runtime behaviour is judged, not types. Works on Node 18.19+ (module.register).
//
// ES modules (.mts, and .ts/.tsx in a package whose package.json says "type": "module") go through
// the loader hooks in typescript-hooks.mjs; CommonJS ones (.cts, and .ts/.tsx elsewhere) through
// require extensions registered here. Both transpile with the same options (transpileTypeScript).
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import Module, { createRequire } from 'node:module';
import path from 'node:path';
import { threadId } from 'node:worker_threads';

const require = createRequire(import.meta.url);

/** Loads the `typescript` package: from `path` when given (the sandbox's pinned copy), else as this file resolves it. */
export function loadTypeScript(path) {
  return require(path ?? 'typescript');
}

/** JavaScript for one TypeScript source, as an ES module (`format` 'esm') or CommonJS ('cjs'). */
export function transpileTypeScript(ts, source, fileName, format) {
  const result = ts.transpileModule(source, {
    fileName,
    reportDiagnostics: false,
    compilerOptions: {
      module: format === 'esm' ? ts.ModuleKind.ESNext : ts.ModuleKind.CommonJS,
      target: ts.ScriptTarget.ES2022,
      esModuleInterop: true,
      isolatedModules: true,
      jsx: ts.JsxEmit.ReactJSX,
      sourceMap: false,
      inlineSourceMap: false,
    },
  });
  return result.outputText;
}

/**
 * JavaScript for one TypeScript source: from `cacheDir` when some process already transpiled the
 * same source in the same format (a file named by a hash of both), else transpiled with `getTs()`
 * and stored there. Without `cacheDir`, always transpiled. The record and mutate runs share one
 * cache, so that most of their processes never load the `typescript` package (0.3 s each).
 */
export function transpileCached(getTs, source, fileName, format, cacheDir) {
  if (!cacheDir) return transpileTypeScript(getTs(), source, fileName, format);
  const key = createHash('sha256').update(`${format}\0${fileName}\0${source}`).digest('hex');
  const file = path.join(cacheDir, `${key}.js`);
  try {
    return fs.readFileSync(file, 'utf8');
  } catch {
    // not transpiled yet
  }
  const output = transpileTypeScript(getTs(), source, fileName, format);
  try {
    fs.mkdirSync(cacheDir, { recursive: true });
    const partial = `${file}.${process.pid}.${threadId}.partial`;
    fs.writeFileSync(partial, output);
    fs.renameSync(partial, file);
  } catch {
    // a cache that cannot be written only costs time
  }
  return output;
}

let enabled = false;

/**
 * Makes TypeScript sources loadable in this process (once): ESM loader hooks and CommonJS require
 * extensions. The `typescript` package is loaded when a source is first transpiled, not before;
 * `cacheDir` (optional) is transpileCached's.
 */
export function enableTypeScript(typescriptPath, cacheDir) {
  if (enabled) return;
  enabled = true;
  const resolved = require.resolve(typescriptPath ?? 'typescript');
  let ts = null;
  const getTs = () => (ts ??= loadTypeScript(resolved));
  for (const extension of ['.ts', '.cts', '.tsx']) {
    // eslint-disable-next-line no-underscore-dangle
    Module._extensions[extension] = (module, filename) => {
      // eslint-disable-next-line no-underscore-dangle
      module._compile(transpileCached(getTs, fs.readFileSync(filename, 'utf8'), filename, 'cjs', cacheDir), filename);
    };
  }
  Module.register(new URL('./typescript-hooks.mjs', import.meta.url).href, { data: { typescriptPath: resolved, cacheDir } });
}
