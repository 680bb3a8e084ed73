// What record-driver.mjs asks of a target before building its inputs: can its module be loaded, and
// is the target called on an instance (a method on the prototype of an exported class).
//
//   node inspect.mjs < {"root", "module", "target", "typescriptPath"}
//
// Prints ONE JSON document: {"kind": "function"|"instance", "length": N, "className": "Rect",
// "constructorLength": N} or {"error": "..."} (the module does not load, or nothing at the path).
import { thrownClassName } from './codec.mjs';
import { readStdin } from './io.mjs';
import { exportOf, loadModule, resolveModuleFile } from './load.mjs';
import { enableTypeScript } from './typescript.mjs';

const writeOut = process.stdout.write.bind(process.stdout);
process.stdout.write = process.stderr.write.bind(process.stderr);

function finish(document) {
  writeOut(`${JSON.stringify(document)}\n`, () => process.exit(0));
}

function memberOf(owner, name) {
  for (let o = owner; o !== null && o !== undefined; o = Object.getPrototypeOf(o)) {
    const desc = Object.getOwnPropertyDescriptor(o, name);
    if (desc !== undefined) return desc;
  }
  return undefined;
}

function lengthOf(desc) {
  if (desc === undefined) return 0;
  if (typeof desc.value === 'function') return desc.value.length;
  return desc.get !== undefined && desc.set === undefined ? 0 : 1;
}

async function main() {
  const config = JSON.parse(await readStdin());
  let loaded;
  try {
    loaded = await loadModule(resolveModuleFile(config.root, config.module), { enableTypeScript: () => enableTypeScript(config.typescriptPath, config.transpileCache) });
  } catch (error) {
    return finish({ error: `cannot load ${config.module}: ${thrownClassName(error)}: ${String(error?.message ?? error).slice(0, 300)}` });
  }
  const parts = String(config.target).split('.');
  let owner = loaded.exports;
  let ownerIsDefault = false;
  for (const [i, part] of parts.slice(0, -1).entries()) {
    if (owner === null || owner === undefined) break;
    owner = i === 0 ? exportOf(loaded, part) : owner[part];
    ownerIsDefault = ownerIsDefault || (i === 0 && part === 'default');
  }
  const name = parts[parts.length - 1];
  if (parts.length === 1) {
    const value = exportOf(loaded, name);
    if (typeof value !== 'function') return finish({ error: `${config.target} is not a function` });
    return finish({ kind: 'function', length: value.length });
  }
  if (owner === null || owner === undefined) return finish({ error: `nothing at ${parts.slice(0, -1).join('.')}` });
  const own = memberOf(owner, name);
  const isClass = typeof owner === 'function' && owner.prototype !== undefined;
  if (own === undefined && isClass) {
    const desc = memberOf(owner.prototype, name);
    if (desc === undefined) return finish({ error: `${config.target} is not a method` });
    return finish({ kind: 'instance', length: lengthOf(desc), className: owner.name || parts[parts.length - 2], constructorLength: owner.length });
  }
  if (own === undefined) return finish({ error: `${config.target} is not a function` });
  return finish({ kind: 'function', length: lengthOf(own), default: ownerIsDefault });
}

main().catch((error) => finish({ error: `inspect failed: ${String(error?.message ?? error)}` }));
