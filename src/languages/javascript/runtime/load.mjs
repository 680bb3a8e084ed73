// Loading a workspace module and reaching a target in it, the way the package itself loads: ES
// modules with import(), CommonJS with require (createRequire). Shared by the record harness and
// the subject; TypeScript sources are made loadable through typescript.mjs first.
//
// A target is a path from the module's exports (how parse-javascript-units.ts names units):
// `padLeft`, `default` (a default export; for CommonJS, module.exports itself, or its `default`
// when it was compiled from ES syntax and says so with `__esModule`), `Rect.square`
// (a static method), `default.describe` (a member of an exported object). With `init`
// ({args}), the path's last part is a method of an instance: the class at the path before it is
// constructed with init.args, and the method is called on the instance; a getter is read, a setter
// assigned its one argument.
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { decode } from './codec.mjs';

/** Extensions tried in order to find a module's file from its name (repository path without extension). */
export const SOURCE_EXTENSIONS = ['.js', '.mjs', '.cjs', '.ts', '.mts', '.cts', '.jsx', '.tsx'];

/** The module or its target cannot be found or loaded (not the target's own behaviour). */
export class LoadError extends Error {
  constructor(message) {
    super(message);
    this.name = 'LoadError';
  }
}

/**
 * The absolute file of module `name` under `root`: `src/text` is the first of `src/text.js`,
 * `src/text.mjs`, ... that exists; a name with its extension (`index.mjs`, given where a twin
 * `index.js` would be found first) is that file.
 */
export function resolveModuleFile(root, name) {
  if (SOURCE_EXTENSIONS.some((extension) => name.endsWith(extension))) {
    const file = path.resolve(root, name);
    try {
      if (file.startsWith(path.resolve(root) + path.sep) && fs.statSync(file).isFile()) return file;
    } catch {
      // not a file of that name: try the extensions
    }
  }
  for (const extension of SOURCE_EXTENSIONS) {
    const file = path.resolve(root, name + extension);
    if (!file.startsWith(path.resolve(root) + path.sep)) break;
    try {
      if (fs.statSync(file).isFile()) return file;
    } catch {
      // not this extension
    }
  }
  throw new LoadError(`no source file for module ${name}`);
}

/** Node's rule: .mjs/.mts are ES modules, .cjs/.cts CommonJS, else the nearest package.json's "type". */
export function moduleFormat(file) {
  if (/\.m[jt]s$/.test(file)) return 'esm';
  if (/\.c[jt]s$/.test(file)) return 'cjs';
  let dir = path.dirname(file);
  for (;;) {
    let text = null;
    try {
      text = fs.readFileSync(path.join(dir, 'package.json'), 'utf8');
    } catch {
      text = null;
    }
    if (text !== null) {
      try {
        return JSON.parse(text).type === 'module' ? 'esm' : 'cjs';
      } catch {
        return 'cjs';
      }
    }
    const parent = path.dirname(dir);
    if (parent === dir) return 'cjs';
    dir = parent;
  }
}

/**
 * Loads `file`: `{ exports, commonjs }` where `exports` is the ES module namespace or CommonJS
 * `module.exports`. `options.enableTypeScript` is called first for a TypeScript file.
 */
export async function loadModule(file, options = {}) {
  if (/\.(?:[mc]?ts|tsx)$/.test(file)) {
    if (options.enableTypeScript === undefined) throw new LoadError('a TypeScript module needs the transpile step');
    await options.enableTypeScript();
  }
  if (moduleFormat(file) === 'esm') return { exports: await import(pathToFileURL(file).href), commonjs: false };
  return { exports: createRequire(file)(file), commonjs: true };
}

function accessor(object, name) {
  for (let o = object; o !== null && o !== undefined; o = Object.getPrototypeOf(o)) {
    const desc = Object.getOwnPropertyDescriptor(o, name);
    if (desc !== undefined) return desc.get !== undefined || desc.set !== undefined ? desc : null;
  }
  return null;
}

/**
 * True when export `name` of a CommonJS module is module.exports itself: its `default`, unless the
 * module is a transpiled ES module (`__esModule`) with a default export of its own.
 */
export function isWholeModule(loaded, name) {
  if (!loaded.commonjs || name !== 'default') return false;
  const exports = loaded.exports;
  return !(exports !== null && typeof exports === 'object' && exports.__esModule === true && 'default' in exports);
}

/** Export `name` of a loaded module (a CommonJS `default`: as `isWholeModule` says). */
export function exportOf(loaded, name) {
  return isWholeModule(loaded, name) ? loaded.exports : loaded.exports?.[name];
}

function walk(loaded, parts) {
  const whole = isWholeModule(loaded, parts[0]);
  let value = exportOf(loaded, parts[0]);
  let holder = loaded.exports;
  if (whole) holder = undefined;
  for (const part of parts.slice(1)) {
    if (value === null || value === undefined) throw new LoadError(`nothing at ${parts.join('.')}`);
    holder = value;
    value = value[part];
  }
  return { holder, value };
}

/**
 * Calls the target with `args` (decoded values) and returns what it returns (a promise is awaited
 * by the caller). Throws LoadError when the target is missing; anything else the target throws
 * propagates as the target's own behaviour.
 */
export function callTarget(loaded, target, init, args) {
  const parts = String(target).split('.');
  if (init === null || init === undefined) {
    const { holder, value } = walk(loaded, parts);
    const last = parts[parts.length - 1];
    const desc = parts.length > 1 ? accessor(holder, last) : null;
    if (desc !== null) return readOrWrite(holder, last, desc, args);
    if (typeof value !== 'function') throw new LoadError(`${target} is not a function`);
    return Reflect.apply(value, holder, args);
  }
  const name = parts[parts.length - 1];
  const { value: klass } = walk(loaded, parts.slice(0, -1));
  if (typeof klass !== 'function') throw new LoadError(`${parts.slice(0, -1).join('.')} is not a class`);
  const instance = Reflect.construct(klass, init.args ?? []);
  const desc = accessor(instance, name);
  if (desc !== null) return readOrWrite(instance, name, desc, args);
  const method = instance[name];
  if (typeof method !== 'function') throw new LoadError(`${target} is not a method`);
  return Reflect.apply(method, instance, args);
}

function readOrWrite(object, name, desc, args) {
  if (args.length === 0 && desc.get !== undefined) return Reflect.apply(desc.get, object, []);
  if (desc.set !== undefined) {
    Reflect.apply(desc.set, object, [args[0]]);
    return undefined;
  }
  throw new LoadError(`${name} is a getter: it takes no arguments`);
}

/** True for a native promise (awaited); any other thenable is a value like others. */
export function isPromise(value) {
  return Object.prototype.toString.call(value) === '[object Promise]';
}

/**
 * Fresh argument values for one call from their tagged forms (`args`, and `init.args` when the
 * target is an instance method), `instance` tags built from the module's exported classes.
 */
export function buildInputs(loaded, args, init) {
  const options = { classes: exportedClasses(loaded) };
  return {
    args: (args ?? []).map((a) => decode(a, options)),
    init: init ? { args: (init.args ?? []).map((a) => decode(a, options)) } : null,
  };
}

/** Classes the module exports, by name (and by their own name): what `instance` inputs are built from. */
export function exportedClasses(loaded) {
  const classes = {};
  const exports = loaded.exports;
  const candidates = loaded.commonjs ? [['default', exports], ...Object.entries(exports ?? {})] : Object.entries(exports);
  for (const [key, value] of candidates) {
    if (typeof value !== 'function') continue;
    if (key !== 'default') classes[key] = value;
    if (typeof value.name === 'string' && value.name !== '' && !(value.name in classes)) classes[value.name] = value;
  }
  return classes;
}
