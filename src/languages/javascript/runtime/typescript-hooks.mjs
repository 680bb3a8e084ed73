// ESM loader hooks for TypeScript sources (registered by typescript.mjs with module.register, Node
// 18.19+ and 20.6+; on Node 20+ they run on a loader thread). `resolve` lets `./util.js` name
// `util.ts` (TypeScript's own convention) and `./util` name `util.ts`; `load` transpiles
// TypeScript that is an ES module and hands CommonJS TypeScript to the require extensions.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadTypeScript, transpileCached } from './typescript.mjs';
import { moduleFormat } from './load.mjs';

let settings = null;
let ts = null;
const getTs = () => (ts ??= loadTypeScript(settings.typescriptPath));

export function initialize(data) {
  settings = data;
}

function candidates(specifier) {
  if (/\.js$/.test(specifier)) return [specifier.replace(/\.js$/, '.ts'), specifier.replace(/\.js$/, '.tsx')];
  if (/\.mjs$/.test(specifier)) return [specifier.replace(/\.mjs$/, '.mts')];
  if (/\.cjs$/.test(specifier)) return [specifier.replace(/\.cjs$/, '.cts')];
  if (/\.[a-z]+$/i.test(specifier)) return [];
  return ['.ts', '.tsx', '.mts', '.js', '/index.ts', '/index.js'].map((e) => specifier + e);
}

export async function resolve(specifier, context, next) {
  try {
    return await next(specifier, context);
  } catch (error) {
    if (!(specifier.startsWith('./') || specifier.startsWith('../')) || context.parentURL === undefined) throw error;
    for (const candidate of candidates(specifier)) {
      try {
        return await next(candidate, context);
      } catch {
        // try the next spelling
      }
    }
    throw error;
  }
}

export async function load(url, context, next) {
  if (!url.startsWith('file:') || !/\.(?:[mc]?ts|tsx)$/.test(url)) return next(url, context);
  const file = fileURLToPath(url);
  if (moduleFormat(file) === 'cjs') return { format: 'commonjs', shortCircuit: true };
  const source = transpileCached(getTs, fs.readFileSync(file, 'utf8'), path.basename(file), 'esm', settings.cacheDir);
  return { format: 'module', source, shortCircuit: true };
}
