// The examples gate's evaluator (issue 19, part 2): runs a prompt's Node REPL examples on a
// workspace and prints what a REPL prints for each input line. Started by judge.mjs (as the agent
// user, like a subject) only for a task's examples check, on the reference.
//
//   node examples-eval.mjs < {"workspace", "typescriptPath", "module", "binding": {"name", "export"},
//                             "examples": [[input line, ...], ...], "nonce"}
//
// The unit's module is loaded as the subject loads it; its exports become globals (the prompt's
// import binds `binding.name` to export `binding.export`; classes an example names come from the
// same module), as the prompt's "imported as above" says. Each input is evaluated as the REPL does:
// an indirect eval in the global scope (a `var` binds a global), a leading `await` settled, the
// value shown with util.inspect, a throw as `Uncaught <the error's first line>`.
//
// Prints ONE line on stdout: `CODEMIDAS-EXAMPLES <nonce> <json>` with {"printed": [[text, ...], ...]}
// in the examples' order, or {"error": "..."} when the module cannot be loaded. The module's own
// output goes to stderr.
import { inspect } from 'node:util';
import { readStdin } from './io.mjs';
import { exportOf, loadModule, resolveModuleFile } from './load.mjs';
import { enableTypeScript } from './typescript.mjs';

const write = process.stdout.write.bind(process.stdout);
// the library's console output must not reach the one line this prints
console.log = console.info = console.debug = console.warn;
process.stdout.write = process.stderr.write.bind(process.stderr);

function firstLine(error) {
  try {
    return inspect(error).split('\n')[0];
  } catch {
    return 'an unprintable error';
  }
}

async function evaluate(line) {
  const awaited = line.startsWith('await ');
  try {
    const value = (0, eval)(awaited ? line.slice('await '.length) : line);
    return inspect(awaited ? await value : value);
  } catch (error) {
    return `Uncaught ${firstLine(error)}`;
  }
}

async function main() {
  const request = JSON.parse(await readStdin());
  const done = (result) => write(`CODEMIDAS-EXAMPLES ${request.nonce} ${JSON.stringify(result)}\n`, () => process.exit(0));
  let loaded;
  try {
    loaded = await loadModule(resolveModuleFile(request.workspace, request.module), { enableTypeScript: () => enableTypeScript(request.typescriptPath || undefined) });
  } catch (error) {
    done({ error: `cannot load ${request.module}: ${firstLine(error)}` });
    return;
  }
  const exports = loaded.exports;
  if (exports !== null && (typeof exports === 'object' || typeof exports === 'function')) {
    for (const key of Object.keys(exports)) if (key !== 'default' && /^[A-Za-z_$][\w$]*$/.test(key)) globalThis[key] = exports[key];
  }
  globalThis[request.binding.name] = exportOf(loaded, request.binding.export);
  const printed = [];
  for (const lines of request.examples) {
    const shown = [];
    for (const line of lines) shown.push(await evaluate(line));
    printed.push(shown);
  }
  done({ printed });
}

main().catch((error) => {
  process.stderr.write(`examples-eval: ${error?.stack ?? error}\n`);
  process.exit(1);
});
