// A mutant of one source file, run in place of the file itself (mutate-driver.mjs): the file keeps
// its path, so its relative imports and its package's module format stay as they are. ES modules
// get the mutated source from the loader hook in mutant-hooks.mjs, CommonJS ones from a require
// extension that compiles it for that one file. `source` is JavaScript (a TypeScript mutant is
// transpiled by the driver). Call after enableTypeScript: hooks registered later run first.
import Module from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { moduleFormat } from './load.mjs';

/** Serves `source` for `file` in this process, for import() and require alike. */
export function installMutant({ file, source }) {
  if (moduleFormat(file) === 'esm') {
    Module.register(new URL('./mutant-hooks.mjs', import.meta.url).href, { data: { url: pathToFileURL(file).href, source } });
    return;
  }
  const extension = path.extname(file);
  // eslint-disable-next-line no-underscore-dangle
  const original = Module._extensions[extension] ?? Module._extensions['.js'];
  // eslint-disable-next-line no-underscore-dangle
  Module._extensions[extension] = (module, filename) => {
    // eslint-disable-next-line no-underscore-dangle
    if (filename === file) return module._compile(source, filename);
    return original(module, filename);
  };
}
