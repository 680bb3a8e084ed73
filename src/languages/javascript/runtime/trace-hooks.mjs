// ESM loader hooks of trace-run.mjs (registered with module.register; on Node 20 they run on a
// loader thread, so what they serve reads the main thread's state through globalThis when it runs):
//
// - the test frameworks' modules (`vitest`, `mocha`, `node:test`, ... : STANDIN_EXPORTS) are served
//   from test-standins.mjs's objects (`globalThis.__codemidasStandins`);
// - a module that holds targets is served, to every importer but its own wrapper, as a wrapper
//   module: `export *` from the original, and the targets' top-level exports (and `default`)
//   replaced by traced ones (`globalThis.__codemidasTrace.wrapNamespace`). Local exports take
//   precedence over `export *`, so every other name stays the original's.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { STANDIN_EXPORTS } from './test-standins.mjs';
import { packagePath, repositoryPackages, sourceInstead } from './trace-resolve.mjs';

const STANDIN_SCHEME = 'codemidas-standin:';
const WRAPPER_MARK = 'codemidas-trace-wrapper';
const IDENTIFIER = /^[A-Za-z_$][\w$]*$/;

/** URL of each module with targets → the top-level export names its targets start with. */
let wrapped = {};
let root = null;
let packages = new Map();

export function initialize(data) {
  wrapped = data?.wrapped ?? {};
  root = data?.root ?? null;
  packages = root === null ? new Map() : repositoryPackages(root);
}

/** trace-resolve.mjs's source for a path or own-package specifier that did not resolve, as a URL; else null. */
function sourceUrl(specifier, parentURL) {
  if (root === null) return null;
  let named = null;
  if (/^\.{1,2}(?:\/|$)/.test(specifier) && parentURL?.startsWith('file:')) named = path.resolve(path.dirname(fileURLToPath(parentURL)), specifier);
  else if (specifier.startsWith('file:')) named = fileURLToPath(specifier);
  else named = packagePath(specifier, packages);
  const found = named === null ? null : sourceInstead(named, root);
  return found === null ? null : pathToFileURL(found).href;
}

const isWrapper = (url) => typeof url === 'string' && url.includes(`?${WRAPPER_MARK}`);

export async function resolve(specifier, context, next) {
  if (Object.hasOwn(STANDIN_EXPORTS, specifier)) return { url: STANDIN_SCHEME + specifier, shortCircuit: true };
  let resolved;
  try {
    resolved = await next(specifier, context);
  } catch (error) {
    // a path into build output that is not there: its source instead
    const url = sourceUrl(specifier, context.parentURL);
    if (url === null) throw error;
    resolved = { url, shortCircuit: true };
  }
  if (isWrapper(context.parentURL) || !Object.hasOwn(wrapped, resolved.url)) return resolved;
  return { ...resolved, url: `${resolved.url}?${WRAPPER_MARK}`, format: 'module' };
}

function standinSource(name) {
  const names = STANDIN_EXPORTS[name].filter((n) => IDENTIFIER.test(n));
  const lines = [`const m = globalThis.__codemidasStandins[${JSON.stringify(name)}];`, 'export default m.default;'];
  if (names.length > 0) lines.push(`export const { ${names.join(', ')} } = m;`);
  return lines.join('\n');
}

/**
 * Names the module exports as functions or constants (`export function dedent`, `export const f =`,
 * `export { a as b }`), read from its source: a target's function may be exported under one of
 * them too. A name missed here is only not traced; one that is not an export is undefined.
 */
function declaredExports(url) {
  let source = '';
  try {
    source = fs.readFileSync(fileURLToPath(url), 'utf8');
  } catch {
    return [];
  }
  const names = [];
  for (const m of source.matchAll(/^\s*export\s+(?:async\s+)?(?:function\s*\*?\s*|const\s+)([A-Za-z_$][\w$]*)/gm)) names.push(m[1]);
  for (const m of source.matchAll(/^\s*export\s*\{([^}]*)\}/gm)) {
    for (const part of m[1].split(',')) {
      const name = part.trim().split(/\s+as\s+/).pop()?.trim();
      if (name) names.push(name);
    }
  }
  return names;
}

function wrapperSource(url) {
  const original = url.slice(0, url.indexOf(`?${WRAPPER_MARK}`));
  const names = [...new Set([...wrapped[original], ...declaredExports(original)])].filter((n) => n !== 'default' && IDENTIFIER.test(n) && !n.startsWith('__codemidas'));
  // the wrapper's own bindings must not clash with an export's name
  return [
    `import * as __codemidasOriginal from ${JSON.stringify(original)};`,
    `export * from ${JSON.stringify(original)};`,
    `const __codemidasTraced = globalThis.__codemidasTrace.wrapNamespace(${JSON.stringify(original)}, __codemidasOriginal, ${JSON.stringify(names)});`,
    // `var`, not `const`: in an import cycle a module may read an export before this wrapper has run;
    // it then sees undefined (a hoisted function would have been there) instead of a ReferenceError
    ...names.map((n) => `export var ${n} = __codemidasTraced[${JSON.stringify(n)}];`),
    'export default __codemidasTraced.default;',
  ].join('\n');
}

export async function load(url, context, next) {
  if (url.startsWith(STANDIN_SCHEME)) return { format: 'module', source: standinSource(url.slice(STANDIN_SCHEME.length)), shortCircuit: true };
  if (isWrapper(url)) return { format: 'module', source: wrapperSource(url), shortCircuit: true };
  return next(url, context);
}
