// The subject: runs the agent's code for recorded cases, out of the judge's process (the
// JavaScript twin of src/languages/python/judge/subject.py).
//
//   node subject.mjs <workspace> [<typescript path>]     (started by judge.mjs)
//
// stdin, stdout and stderr are /dev/null; requests and answers are frames (framing.mjs) on fd 3,
// a socket pair with the judge. It never sees an expected value: a request holds a case's inputs
// ({seq, nonce, case: {id, module, target, init, args, probes?}}: probes are the argument lists a
// returned function is called on, codec.mjs's `fncalls`); the answer is the tagged encoding of
// what happened, carrying the request's seq and nonce:
//   {kind: "returns", value, argsAfter, aliases?} | {kind: "raises", type, message, argsAfter} | {kind: "error", message}
// Everything in this process is untrusted once the agent's module has loaded; the judge treats the
// answer as data. What this file needs later (JSON.parse, the channel's write, the
// frame writer's primordials) is captured before any
// workspace code runs, so patching globals changes nothing but the agent's own answers.
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import { aliasesOf, argumentObjects } from './aliases.mjs';
import { encode, encodeResult, thrownClassName } from './codec.mjs';
import { encodeFrame, FrameReader } from './framing.mjs';
import { buildInputs, callTarget, exportedClasses, isPromise, loadModule, resolveModuleFile } from './load.mjs';
import { enableTypeScript } from './typescript.mjs';

const parse = JSON.parse;
const exit = process.exit.bind(process);
const [workspace, typescriptPath] = process.argv.slice(2);

function hardenSelf() {
  try {
    // behind the judge for the sandbox's CPU; an unprivileged process cannot undo it
    os.setPriority(19);
  } catch {
    // not allowed here
  }
  try {
    // under memory pressure the kernel kills this process before the judge
    fs.writeFileSync('/proc/self/oom_score_adj', '1000');
  } catch {
    // not Linux, or not allowed
  }
}

hardenSelf();
const channel = new net.Socket({ fd: 3, readable: true, writable: true });
const send = channel.write.bind(channel);
const reader = new FrameReader(parse);

function shortError(error) {
  try {
    const name = thrownClassName(error);
    const message = error instanceof Error ? error.message : String(error);
    return `${name}: ${message}`.slice(0, 500);
  } catch {
    return 'an unprintable error';
  }
}

function encodeArgs(args) {
  try {
    return args.map((a) => encode(a));
  } catch (error) {
    return { unencodable: shortError(error) };
  }
}

/** The returned value encoded, a function in it called on the case's probes (none: unrecordable). */
function encodeReturned(loaded, request, value) {
  return encodeResult(value, Array.isArray(request.probes) ? request.probes : null, { classes: exportedClasses(loaded) });
}

async function runCase(request) {
  let loaded;
  try {
    loaded = await loadModule(resolveModuleFile(workspace, request.module), { enableTypeScript: () => enableTypeScript(typescriptPath || undefined) });
  } catch (error) {
    return { kind: 'error', message: `cannot load ${request.module}: ${shortError(error)}` };
  }
  let args;
  let init;
  try {
    ({ args, init } = buildInputs(loaded, request.args, request.init));
  } catch (error) {
    return { kind: 'error', message: `cannot build the inputs: ${shortError(error)}` };
  }
  const objects = argumentObjects(args);
  let value;
  try {
    value = callTarget(loaded, request.target, init, args);
    if (isPromise(value)) value = await value;
  } catch (error) {
    if (error?.name === 'LoadError') return { kind: 'error', message: shortError(error) };
    let type;
    try {
      type = thrownClassName(error);
    } catch {
      type = 'Object';
    }
    return { kind: 'raises', type, message: shortError(error), argsAfter: encodeArgs(args) };
  }
  try {
    return withAliases({ kind: 'returns', value: encodeReturned(loaded, request, value), argsAfter: encodeArgs(args) }, value, objects);
  } catch (error) {
    return { kind: 'error', message: `the return value cannot be serialised: ${shortError(error)}` };
  }
}

/** The answer with the objects the result shares with the arguments as given (aliases.mjs), for an object. */
function withAliases(reply, value, objects) {
  let aliases;
  try {
    aliases = aliasesOf(value, objects);
  } catch (error) {
    return { kind: 'error', message: `the result's aliases cannot be read: ${shortError(error)}` };
  }
  return aliases === undefined ? reply : { ...reply, aliases };
}

async function answer(request) {
  let reply;
  try {
    reply = await runCase(request.case ?? {});
  } catch (error) {
    reply = { kind: 'error', message: shortError(error) };
  }
  reply.seq = request.seq;
  reply.nonce = request.nonce;
  let frame;
  try {
    frame = encodeFrame(reply);
  } catch (error) {
    frame = encodeFrame({ seq: request.seq, nonce: request.nonce, kind: 'error', message: shortError(error) });
  }
  send(frame);
}

let queue = Promise.resolve();
channel.on('data', (chunk) => {
  reader.push(chunk);
  for (;;) {
    let request;
    try {
      request = reader.next();
    } catch {
      exit(2); // the judge never sends garbage
    }
    if (request === undefined) break;
    queue = queue.then(() => answer(request));
  }
});
channel.on('end', () => exit(0));
channel.on('error', () => exit(0));
