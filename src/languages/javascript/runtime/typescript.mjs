// TypeScript sources run through a transpile step (ts.transpileModule), for the record harness and
// the subject alike: runtime behaviour is judged, not types. Works on Node 18.19+ (module.register).
//
// ES modules (.mts, and .ts/.tsx in a package whose package.json says "type": "module") go through
// the loader hooks in typescript-hooks.mjs; CommonJS ones (.cts, and .ts/.tsx elsewhere) through
// require extensions registered here. Both transpile with the same options (transpileTypeScript).
import fs from 'node:fs';
import Module, { createRequire } from 'node:module';

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

let enabled = false;

/** Makes TypeScript sources loadable in this process (once): ESM loader hooks and CommonJS require extensions. */
export function enableTypeScript(typescriptPath) {
  if (enabled) return;
  enabled = true;
  const resolved = require.resolve(typescriptPath ?? 'typescript');
  const ts = loadTypeScript(resolved);
  for (const extension of ['.ts', '.cts', '.tsx']) {
    // eslint-disable-next-line no-underscore-dangle
    Module._extensions[extension] = (module, filename) => {
      // eslint-disable-next-line no-underscore-dangle
      module._compile(transpileTypeScript(ts, fs.readFileSync(filename, 'utf8'), filename, 'cjs'), filename);
    };
  }
  Module.register(new URL('./typescript-hooks.mjs', import.meta.url).href, { data: { typescriptPath: resolved } });
}
