// Runs ONE test file of the repository with the targets traced at the module boundary, for
// trace-tests.mjs (one process per file: a file that exits, loops or crashes loses only itself).
//
//   node trace-run.mjs < {root, file, out, targets: [{index, file, target}], maxPerTarget,
//                         testTimeoutMs, typescriptPath, transpileCache}
//
// `targets[].file` is the absolute file of the target's module and `target` its export path
// (load.mjs's addressing: `padLeft`, `default`, `Rect.square`, `Rect.area` on an instance,
// `default.describe`). Test frameworks are test-standins.mjs's stand-ins (globals, ES modules through
// trace-hooks.mjs, CommonJS through Module._load). A module with targets reaches its importers
// wrapped: functions as proxies that record their arguments, classes as proxies that remember the
// arguments each instance was built with, prototype methods patched to record theirs with them.
// A test helper package that is not installed is required as a stand-in that accepts anything, and
// a .js file in ES module syntax in a CommonJS package (babel-jest's setting) is transpiled first.
//
// Each distinct call (codec-encoded arguments; a call with an unencodable argument is skipped) is
// appended at once to `out` as a JSON line {"target": index, "args": [TAGGED...], "init": {"args":
// [...]} | null}, at most maxPerTarget per target: what a killed run wrote stays. Prints nothing.
import fs from 'node:fs';
import Module from 'node:module';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { encode } from './codec.mjs';
import { readStdin } from './io.mjs';
import { moduleFormat } from './load.mjs';
import { absorbing, createStandins } from './test-standins.mjs';
import { packagePath, repositoryPackages, sourceInstead } from './trace-resolve.mjs';
import { enableTypeScript, loadTypeScript, transpileCached } from './typescript.mjs';

// the tests' output is of no use here (CODEMIDAS_TRACE_DEBUG keeps stderr, for people tuning this);
// a late async error must not end the file's other tests
const debug = process.env.CODEMIDAS_TRACE_DEBUG === '1';
process.stdout.write = () => true;
if (!debug) process.stderr.write = () => true;
process.on('uncaughtException', () => undefined);
process.on('unhandledRejection', () => undefined);

const config = JSON.parse(await readStdin());
const maxPerTarget = config.maxPerTarget ?? 40;

// ---- recording ----

const recorded = new Map(); // target index → Set of lines written
function record(index, args, init) {
  let lines = recorded.get(index);
  if (lines === undefined) recorded.set(index, (lines = new Set()));
  if (lines.size >= maxPerTarget) return;
  let encoded;
  try {
    // a tagged template's strings (`dedent\`a${1}b\``): an array of the cooked strings with `raw`
    // as an own enumerable property, so the codec keeps both (it reads enumerable keys only)
    encoded = Array.from(args, (a) => encode(Array.isArray(a) && Object.hasOwn(a, 'raw') ? Object.assign(Array.from(a), { raw: Array.from(a.raw) }) : a));
  } catch {
    return; // a function, a symbol, a cycle: this call cannot be an input
  }
  const line = JSON.stringify({ target: index, args: encoded, init });
  if (lines.has(line)) return;
  lines.add(line);
  fs.appendFileSync(config.out, `${line}\n`);
}

// ---- wrapping ----

/** A tree of export paths: `{index?, children: Map<name, node>}`, `index` where a target ends. */
function pathTree(targets) {
  const root = { children: new Map() };
  for (const t of targets) {
    let node = root;
    for (const part of String(t.target).split('.')) {
      if (!node.children.has(part)) node.children.set(part, { children: new Map() });
      node = node.children.get(part);
    }
    node.index = t.index;
  }
  return root;
}

const ours = new WeakSet(); // proxies made here: never wrapped again
const cache = new WeakMap(); // original value → Map(node → proxy)
const inits = new WeakMap(); // instance built through a class proxy → {args: [TAGGED...]}
const patched = new WeakSet(); // prototypes whose target methods are patched

function memberOwner(value, name) {
  for (let o = value; o !== null && o !== undefined; o = Object.getPrototypeOf(o)) {
    if (Object.getOwnPropertyDescriptor(o, name) !== undefined) return o;
    if (o === Function.prototype || o === Object.prototype) break;
  }
  return null;
}

/** Patches the prototype members of `klass` named by `node`'s children (not static ones) to record calls on traced instances. */
function patchPrototype(klass, node) {
  const proto = klass.prototype;
  if (proto === null || typeof proto !== 'object' || patched.has(proto)) return;
  patched.add(proto);
  for (const [name, child] of node.children) {
    if (child.index === undefined || memberOwner(klass, name) !== null) continue;
    const desc = Object.getOwnPropertyDescriptor(proto, name);
    if (desc === undefined || !desc.configurable) continue;
    const index = child.index;
    const initOf = (self) => (self !== null && typeof self === 'object' ? inits.get(self) : undefined);
    if (typeof desc.value === 'function') {
      const original = desc.value;
      const method = {
        [name](...args) {
          const init = initOf(this);
          if (init !== undefined) record(index, args, init);
          return Reflect.apply(original, this, args);
        },
      }[name];
      Object.defineProperty(proto, name, { ...desc, value: method });
    } else if (desc.get !== undefined || desc.set !== undefined) {
      const { get, set } = desc;
      Object.defineProperty(proto, name, {
        ...desc,
        ...(get ? { get() { const init = initOf(this); if (init !== undefined) record(index, [], init); return Reflect.apply(get, this, []); } } : {}),
        ...(set ? { set(v) { const init = initOf(this); if (init !== undefined) record(index, [v], init); Reflect.apply(set, this, [v]); } } : {}),
      });
    }
  }
}

/**
 * `value` with the targets at and under `node` traced (the same proxy for the same value and node).
 * `aliases` (a module's exports only): target functions by value, so that a function exported
 * under two names (`export function dedent` and `export default dedent`) is traced under either.
 */
function wrap(value, node, aliases = null) {
  if (value === null || (typeof value !== 'function' && typeof value !== 'object') || ours.has(value)) return value;
  if (node.index === undefined && node.children.size === 0) return value;
  let byNode = cache.get(value);
  if (byNode === undefined) cache.set(value, (byNode = new Map()));
  if (byNode.has(node)) return byNode.get(node);
  const isFunction = typeof value === 'function';
  const instanceTargets = isFunction && [...node.children].some(([name, c]) => c.index !== undefined && memberOwner(value, name) === null);
  if (instanceTargets) patchPrototype(value, node);
  const handler = {
    get(target, prop, receiver) {
      const member = Reflect.get(target, prop, receiver);
      const child = typeof prop === 'string' ? (node.children.get(prop) ?? (typeof member === 'function' ? aliases?.get(member) : undefined)) : undefined;
      if (child === undefined) return member;
      const desc = Object.getOwnPropertyDescriptor(target, prop);
      if (desc !== undefined && !desc.configurable && desc.writable === false) return member; // a proxy must give this one as it is
      return wrap(member, child);
    },
  };
  if (isFunction && node.index !== undefined) {
    const index = node.index;
    handler.apply = (target, thisArg, args) => {
      record(index, args, null);
      return Reflect.apply(target, thisArg, args);
    };
  }
  let proxy;
  if (instanceTargets) {
    handler.construct = (target, args, newTarget) => {
      let init;
      if (newTarget === proxy) {
        try {
          init = { args: Array.from(args, (a) => encode(a)) };
        } catch {
          init = undefined;
        }
      }
      const instance = Reflect.construct(target, args, newTarget === proxy ? target : newTarget);
      if (init !== undefined && instance !== null && typeof instance === 'object') inits.set(instance, init);
      return instance;
    };
  }
  proxy = new Proxy(value, handler);
  ours.add(proxy);
  byNode.set(node, proxy);
  return proxy;
}

const trees = new Map(); // absolute module file → path tree of its targets
for (const t of config.targets ?? []) {
  if (!trees.has(t.file)) trees.set(t.file, []);
  trees.get(t.file).push(t);
}
for (const [file, targets] of trees) trees.set(file, pathTree(targets));

/** The top-level target functions of a module's exports by value (see `wrap`). */
function aliasesOf(exportsValue, tree) {
  const out = new Map();
  for (const [name, child] of tree.children) {
    if (child.index === undefined) continue;
    try {
      const value = exportsValue[name];
      if (typeof value === 'function' && !out.has(value)) out.set(value, child);
    } catch {
      // not initialised yet
    }
  }
  return out;
}

/**
 * CommonJS: `module.exports` is `default`, and also holds the named exports (load.mjs's rule); a
 * module compiled from ES syntax (`__esModule`, TypeScript's output) keeps `default` as a property.
 */
function commonjsTree(tree, exportsValue) {
  if (exportsValue !== null && typeof exportsValue === 'object' && exportsValue.__esModule === true) return tree;
  const merged = { index: tree.children.get('default')?.index, children: new Map(tree.children.get('default')?.children ?? []) };
  for (const [name, child] of tree.children) if (name !== 'default' && !merged.children.has(name)) merged.children.set(name, child);
  return merged;
}

globalThis.__codemidasTrace = {
  /**
   * The wrapper module's values (trace-hooks.mjs): each top-level export its targets start with,
   * traced, and `names` (other exports the wrapper re-exports): traced where they are a target's
   * function under another name, else as they are.
   */
  wrapNamespace(url, namespace, names = []) {
    const file = url.startsWith('file:') ? fileURLToPath(url) : url;
    const tree = trees.get(file) ?? { children: new Map() };
    const commonjs = moduleFormat(file) === 'cjs';
    const out = {};
    if (commonjs) {
      const exportsValue = namespace.default;
      const merged = commonjsTree(tree, exportsValue);
      out.default = wrap(exportsValue, merged, exportsValue?.__esModule === true ? aliasesOf(exportsValue, merged) : null);
      for (const [name, child] of tree.children) {
        if (name === 'default') continue;
        try {
          out[name] = wrap(name in namespace ? namespace[name] : exportsValue?.[name], child);
        } catch {
          out[name] = undefined;
        }
      }
      return out;
    }
    out.default = undefined;
    const aliases = aliasesOf(namespace, tree);
    for (const name of new Set(['default', ...tree.children.keys(), ...names])) {
      try {
        const value = namespace[name];
        const node = tree.children.get(name) ?? (typeof value === 'function' ? aliases.get(value) : undefined) ?? { children: new Map() };
        out[name] = wrap(value, node);
      } catch {
        out[name] = undefined; // not initialised yet (an import cycle)
      }
    }
    return out;
  },
};

// ---- frameworks, TypeScript, hooks ----

const standins = createStandins({ testTimeoutMs: config.testTimeoutMs ?? 5000 });
globalThis.__codemidasStandins = standins.modules;
for (const [name, value] of Object.entries(standins.globals)) if (!(name in globalThis)) globalThis[name] = value;
process.env.NODE_ENV ??= 'test';

enableTypeScript(config.typescriptPath, config.transpileCache);

// A test file in ES module syntax in a CommonJS package (babel-jest's usual setting): transpiled
// to CommonJS by the TypeScript step; any other .js file loads as it is.
let ts = null;
const getTs = () => (ts ??= loadTypeScript(config.typescriptPath));
const ESM_SYNTAX = /^\s*(?:import\s*[\w*{'"]|export\s+(?:default|const|let|var|function|class|async|\{|\*))/m;
const jsLoader = Module._extensions['.js'];
// eslint-disable-next-line no-underscore-dangle
Module._extensions['.js'] = (module, filename) => {
  if (!filename.includes(`${path.sep}node_modules${path.sep}`)) {
    const source = fs.readFileSync(filename, 'utf8');
    if (ESM_SYNTAX.test(source)) {
      // eslint-disable-next-line no-underscore-dangle
      return module._compile(transpileCached(getTs, source, filename, 'cjs', config.transpileCache), filename);
    }
  }
  return jsLoader(module, filename);
};

Module.register(new URL('./trace-hooks.mjs', import.meta.url).href, {
  data: {
    root: config.root, wrapped: Object.fromEntries([...trees].map(([file, tree]) => [pathToFileURL(file).href, [...tree.children.keys()]])) },
});

const packages = repositoryPackages(config.root);

/** The absolute path a specifier names when it is a path or one of the repository's packages, else null. */
function namedPath(request, parentFile) {
  if (/^\.{1,2}(?:\/|$)/.test(request)) return path.resolve(path.dirname(parentFile), request);
  if (path.isAbsolute(request)) return request;
  return packagePath(request, packages);
}

const sourcesForBuilds = new Set(); // sources required in place of a CommonJS build (`asBundled`)

// a path into build output that is not there resolves to its source (trace-resolve.mjs)
// eslint-disable-next-line no-underscore-dangle
const resolveFilename = Module._resolveFilename;
// eslint-disable-next-line no-underscore-dangle
Module._resolveFilename = function traceResolveFilename(request, parent, ...rest) {
  try {
    return Reflect.apply(resolveFilename, this, [request, parent, ...rest]);
  } catch (error) {
    const named = error?.code === 'MODULE_NOT_FOUND' && typeof parent?.filename === 'string' ? namedPath(request, parent.filename) : null;
    const found = named === null ? null : sourceInstead(named, config.root);
    if (found === null) throw error;
    if (/(?:^|[\\/])(?:dist|build|out|cjs|umd)[\\/]|\.cjs$/.test(request)) sourcesForBuilds.add(found);
    return found;
  }
};

/** A bare specifier (`mock-property`, `@scope/pkg/sub`), not a path or a builtin. */
const isPackageName = (request) => !/^(?:\.{1,2}(?:\/|$)|\/|node:|file:)/.test(request) && !Module.isBuiltin(request);

// eslint-disable-next-line no-underscore-dangle
const load = Module._load;
// eslint-disable-next-line no-underscore-dangle
Module._load = function traceLoad(request, parent, isMain) {
  if (Object.hasOwn(standins.modules, request)) {
    const m = standins.modules[request];
    return m.commonjs ?? m.default ?? m;
  }
  let exports;
  try {
    exports = Reflect.apply(load, this, [request, parent, isMain]);
  } catch (error) {
    // a test helper package that is not installed (devDependencies seldom are): a stand-in that
    // accepts anything, so that the file's other tests still run
    if (error?.code === 'MODULE_NOT_FOUND' && isPackageName(request) && namedPath(request, config.root) === null && !String(parent?.filename ?? '').includes(`${path.sep}node_modules${path.sep}`)) return absorbing();
    throw error;
  }
  if (trees.size === 0 || request.startsWith('node:')) return exports;
  let filename;
  try {
    // eslint-disable-next-line no-underscore-dangle
    filename = Module._resolveFilename(request, parent, isMain);
  } catch {
    return exports;
  }
  const tree = trees.get(filename);
  const traced = tree === undefined ? exports : wrap(exports, commonjsTree(tree, exports), aliasesOf(exports, commonjsTree(tree, exports)));
  return sourcesForBuilds.has(filename) ? asBundled(traced) : traced;
};

/**
 * A source required in place of its CommonJS build (`require('../build/index.cjs')`): a bundler's
 * output is the default export itself (`module.exports = parser`) where the transpiled source has
 * `{ __esModule, default }`; the default function, with the named exports beside it, stands for it.
 */
function asBundled(exports) {
  if (exports === null || typeof exports !== 'object' || exports.__esModule !== true || typeof exports.default !== 'function') return exports;
  const main = exports.default;
  return new Proxy(main, { get: (target, prop, receiver) => (prop in target ? Reflect.get(target, prop, receiver) : exports[prop]) });
}

// ---- the file ----

const file = path.resolve(config.root, config.file);
try {
  if (moduleFormat(file) === 'esm') await import(pathToFileURL(file).href);
  else Module.createRequire(file)(file);
} catch (error) {
  // a file that does not load to its end keeps the tests it registered before the error
  if (debug) console.error('trace-run: the test file stopped loading:', error);
}
await standins.run();
process.exit(0);
