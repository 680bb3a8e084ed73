// The JavaScript record run (javascript-recorder.ts; the generic driver is
// src/pipeline/record/record-candidates.ts):
//
//   node record-driver.mjs < config.json
//
// config: {repoRoot, seed, workDir, callTimeoutMs, maxCases, traceTimeoutMs, runRepoTests,
//          typescriptPath, targets: [TARGET...]}, TARGET as javascript-recorder.ts builds it:
//   {unitId, module, file, target, params, docstring, callSites: [{argumentTexts}],
//    initCallSites: [{argumentTexts}], startLine, endLine, proposed?: [{args, init}]}
//
// Per target, inputs in this order: calls the repository's own tests make (`repo-test`,
// trace-tests.mjs: each test file in a process of its own, all within traceTimeoutMs; off with
// runRepoTests: false), JSDoc examples (`doctest`; the JSDoc of a declaration file's declaration
// too), calls in the README's code blocks (`readme`, examples.mjs), call sites' literal arguments
// (`call-site`), proposals (`llm`), values generated from the parameters and the types they are
// declared with (declared-types.mjs), with strings shaped like what the body checks
// (source-strings.mjs) (`type-hint`;
// `constructed` for a method without parameters called on a built instance). A method of a class gets its
// instance from `new Class(...)` calls with literal arguments in the repository, else from a
// constructor without arguments or generated ones. Every input runs in two separate node
// processes (record.mjs); a case is kept when both agree, at most maxCases per target. Inputs whose
// result holds a function are recorded twice again with probes (probes.mjs): the function is kept
// as what it gives for them (codec.mjs's `fncalls`).
// Prints ONE JSON document, recordResultSchema (src/pipeline/record/harness-result-schema.ts).
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { EVALUATE_SCRIPT, INSPECT_SCRIPT, STARTUP_MS, baseRequest, hashText, inputKey, makeCase, pool, recordTwice, runChild, runDriver, seededRandom } from './drive.mjs';
import { createRequire } from 'node:module';
import { createTypeReader, declaredParams } from './declared-types.mjs';
import { readmeInputs } from './examples.mjs';
import { callSiteInputs, constructorInputs, docExampleInputs, generatedInputs, POOLS, sourceFiles, spread, variationsOf, withEvaluator } from './inputs.mjs';
import { findFunction } from './mutants.mjs';
import { probeLists } from './probes.mjs';
import { alikeParams, entryFunction, feedersOf, usageShapes } from './usage-shapes.mjs';
import { sourceStrings } from './source-strings.mjs';
import { traceRepoTests } from './trace-tests.mjs';

/** The lines of the unit in its file (its numbers are boundaries worth trying). */
export function unitText(repoRoot, target) {
  try {
    const lines = fs.readFileSync(path.join(repoRoot, target.file), 'utf8').split('\n');
    return lines.slice(Math.max(0, (target.startLine ?? 1) - 1), target.endLine ?? lines.length).join('\n');
  } catch {
    return '';
  }
}

/**
 * The instances a method is called on: those the repository's tests called it on, constructor call
 * sites, then generated ones; at most 3.
 */
function initsFor(config, target, shape, files, traced = []) {
  const found = [...traced.flatMap((input) => (input.init ? [input.init.args] : [])), ...callSiteInputs(target.initCallSites), ...constructorInputs(files(), shape.className)];
  const n = shape.constructorLength ?? 0;
  found.push([]);
  if (n > 0) {
    found.push(Array.from({ length: n }, (_, i) => ({ t: 'number', v: String(i + 2) })));
    found.push(Array.from({ length: n }, (_, i) => ({ t: 'str', v: 'abc'.slice(0, i + 1) })));
  }
  const seen = new Set();
  const out = [];
  for (const args of found) {
    const key = JSON.stringify(args);
    if (seen.has(key)) continue;
    seen.add(key);
    out.push({ args });
    if (out.length >= 3) break;
  }
  return out;
}

const require = createRequire(import.meta.url);
let typeReader;

/** The `typescript` parser with its cache of files, loaded once per run; null when it cannot be loaded. */
function typeReaderFor(config) {
  if (typeReader === undefined) {
    try {
      typeReader = createTypeReader(require(config.typescriptPath ?? 'typescript'));
    } catch {
      typeReader = null;
    }
  }
  return typeReader;
}

/**
 * What the sources say about a target beyond its own parameter list: the declared types of its
 * parameters (declared-types.mjs), the JSDoc of its declaration, and strings shaped like what its
 * body checks (source-strings.mjs).
 */
function sourceKnowledge(config, target) {
  const reader = typeReaderFor(config);
  const knowledge = { params: target.params ?? [], docs: null, pools: {}, returns: null };
  if (reader === null) return knowledge;
  const file = path.resolve(config.repoRoot, target.file);
  const declared = declaredParams(reader, config.repoRoot, target);
  if (declared !== null) {
    knowledge.params = knowledge.params.map((p, i) => {
      const d = declared.params[i];
      if (d === undefined) return p;
      return { ...p, shape: d.shape, optional: d.optional || p.defaultValue !== null, annotation: p.annotation ?? d.text };
    });
    // parameters only the declaration names (a transpiled function reading `arguments`)
    if (!knowledge.params.some((p) => p.kind === 'var-positional')) {
      for (const d of declared.params.slice(knowledge.params.length)) {
        knowledge.params.push({ name: d.name, kind: d.rest ? 'var-positional' : 'positional', annotation: d.text, defaultValue: null, shape: d.shape, optional: d.optional });
      }
    }
    knowledge.docs = declared.docs;
    knowledge.returns = declared.returns ?? null;
  }
  const sf = reader.parse(file);
  const fn = sf === null ? null : findFunction(reader.ts, sf, target.startLine ?? 1, target.endLine ?? Number.MAX_SAFE_INTEGER);
  const strings = sourceStrings(reader, file, fn === null ? null : { start: fn.getStart(sf), end: fn.getEnd() }, POOLS.string);
  if (strings !== null) knowledge.pools.strings = strings;
  // objects the body reads properties of, where no type says what they hold (an internal unit: its entry's use)
  const entry = sf === null ? null : target.via ? entryFunction(reader.ts, sf, target.target) : fn;
  const usage = entry === null ? [] : usageShapes(reader.ts, sf, entry);
  knowledge.params = knowledge.params.map((p, i) => (usage[i] && !(p.shape?.k === 'object' && p.shape.props.length > 0) ? { ...p, usage: usage[i] } : p));
  // a module-internal unit: the export's parameters may carry what its body checks, whatever their names say
  if (target.via) knowledge.params = knowledge.params.map((p) => ({ ...p, reachesBody: true }));
  // the functions of this file whose results are passed to this one, by parameter position
  knowledge.feeders = sf === null || target.via ? new Map() : feedersOf(reader.ts, sf, String(target.target).split('.').pop());
  // parameters the body compares with each other (an equality, a diff): given alike values too
  knowledge.alike = entry === null ? [] : alikeParams(reader.ts, entry);
  return knowledge;
}

/**
 * Every input of a target in source order (the repository's tests' calls, doc examples, README
 * examples, call sites, proposals, then generated ones), de-duplicated, at most `limit`.
 */
/**
 * Inputs where a parameter takes what another function of the file returned when recorded before
 * (`tokensToRegexp(parse(path))`: parse's recorded results as tokens), the other parameters as in `base`.
 */
function fedInputs(feeders, produced, base) {
  const out = [];
  for (const [position, names] of feeders) {
    if (base === undefined || position >= base.length) continue;
    for (const name of names) for (const value of produced.get(name) ?? []) out.push(base.map((v, j) => (j === position ? value : v)));
  }
  return out;
}

const MAX_ALIKE = 40;

/**
 * For parameters the body compares with each other (`foo === bar`, `foo.size !== bar.size`): each
 * of `inputs` with one of the pair given the other's value (equal, not the same object: each
 * argument is built on its own), then a few variations of it (equal but for one part).
 */
function alikeInputs(pairs, inputs, strings) {
  const out = [];
  for (const args of inputs) {
    for (const [i, j] of pairs) {
      if (i >= args.length || j >= args.length || out.length >= MAX_ALIKE) continue;
      out.push(args.map((v, k) => (k === j ? args[i] : v)));
      for (const variant of variationsOf(args[i], [], strings).slice(0, 3)) out.push(args.map((v, k) => (k === j ? variant : v)));
    }
  }
  return out.slice(0, MAX_ALIKE);
}

function inputsFor(config, target, shape, files, limit, traced = [], produced = new Map()) {
  const random = seededRandom((Number(config.seed) || 0) ^ hashText(target.unitId));
  const name = String(target.target).split('.').pop();
  const body = unitText(config.repoRoot, target);
  const inits = shape.kind === 'instance' ? initsFor(config, target, shape, files, traced) : [null];
  const crossed = (argLists) => argLists.flatMap((args) => inits.map((init) => ({ args, init })));
  const known = sourceKnowledge(config, target);
  const traceInputs = traced.filter((input) => (shape.kind === 'instance') === (input.init !== null));
  const docInputs = [...docExampleInputs(target.docstring, name), ...docExampleInputs(known.docs, name)];
  const readme = readmeInputs(config.repoRoot, target.target);
  const sites = callSiteInputs(target.callSites);
  const examples = [...traceInputs.map((input) => input.args), ...docInputs, ...readme, ...sites];
  const generated = generatedInputs(known.params, body, random, 8, known.pools, examples);
  const lists = [
    // a method's traced calls carry the instance they were made on; a function's carry none
    ['repo-test', traceInputs],
    ['doctest', crossed(docInputs)],
    ['readme', crossed(readme)],
    ['call-site', crossed([...sites, ...fedInputs(known.feeders, produced, generated[0])])],
    // proposals come with their own instance, else the first one built here
    ['llm', (target.proposed ?? []).map((p) => ({ args: p.args ?? [], init: p.init ? { args: p.init.args ?? [] } : inits[0] }))],
    ['type-hint', crossed([...alikeInputs(known.alike, generated, known.pools.strings ?? []), ...generated])],
  ];
  const out = [];
  const seen = new Set();
  for (const [source, inputs] of lists) {
    for (const input of inputs) {
      const key = inputKey(input);
      if (seen.has(key) || out.length >= limit) continue;
      seen.add(key);
      const label = source === 'type-hint' && input.init !== null && input.args.length === 0 ? 'constructed' : source;
      out.push({ source: label, input });
    }
  }
  return out;
}

/** Limit of one evaluate.mjs run (literal texts take no time; one that loops does). */
const EVALUATE_DEADLINE_MS = 5000;

/**
 * Values of literal texts, evaluated in evaluate.mjs processes: all at once, and when that run fails
 * (a text exited or looped), each text alone, so that only the bad ones are lost.
 */
async function evaluateInChild(texts) {
  const values = new Map();
  const ask = (batch) => runChild(EVALUATE_SCRIPT, { texts: batch }, { cwd: process.cwd(), deadlineMs: EVALUATE_DEADLINE_MS });
  const all = await ask(texts);
  if (!all.timeout && Array.isArray(all.document?.values)) {
    texts.forEach((text, i) => values.set(text, all.document.values[i] ?? null));
    return values;
  }
  await pool(texts, 2, async (text) => {
    const one = await ask([text]);
    values.set(text, !one.timeout && Array.isArray(one.document?.values) ? (one.document.values[0] ?? null) : null);
  });
  return values;
}

/**
 * The inputs whose result held a function (verdict `unrecordable:function`, with its arity) recorded
 * twice again, their returned functions called on the unit's probe lists (probes.mjs; one set for
 * every input, as long as the longest function's length); their verdicts replaced in place.
 */
async function recordProbed(config, target, base, inputs, verdicts, callTimeoutMs) {
  const returning = verdicts.flatMap((v, i) => (v.reason === 'unrecordable:function' && v.arity ? [i] : []));
  if (returning.length === 0) return;
  const known = sourceKnowledge(config, target);
  const probes = probeLists({ arity: Math.max(...returning.map((i) => verdicts[i].arity)), inputs, strings: known.pools.strings ?? [], returns: known.returns });
  const again = await recordTwice({ ...base, probes }, returning.map((i) => inputs[i]), callTimeoutMs);
  returning.forEach((index, k) => (verdicts[index] = again[k]));
}

function summary(rejected) {
  return Object.entries(rejected).map(([k, v]) => `${k}: ${v}`).join(', ') || 'no input';
}

async function recordTarget(config, target, files, traced, produced) {
  const result = { unitId: target.unitId, cases: [], sources: {}, rejected: {}, drop: null };
  const callTimeoutMs = config.callTimeoutMs ?? 2000;
  const base = baseRequest(config, target);
  const inspected = await runChild(INSPECT_SCRIPT, base, { cwd: config.repoRoot, deadlineMs: STARTUP_MS + callTimeoutMs });
  const shape = inspected.document ?? {};
  if (inspected.timeout) {
    result.drop = { code: 'import-error', reason: `loading ${target.module} ran past ${STARTUP_MS + callTimeoutMs} ms` };
    return result;
  }
  if (shape.error) {
    result.drop = { code: 'import-error', reason: String(shape.error).slice(0, 300) };
    return result;
  }
  // a module-internal unit keeps only the calls of its export that reach it (mutate-driver.mjs): more are recorded
  const maxCases = (config.maxCases ?? 40) * (target.via ? 2 : 1);
  const all = await withEvaluator(() => inputsFor(config, target, shape, files, Math.max(60, maxCases * 3), traced, produced), evaluateInChild);
  const verdicts = await recordTwice(base, all.map((e) => e.input), callTimeoutMs);
  await recordProbed(config, target, base, all.map((e) => e.input), verdicts, callTimeoutMs);
  let timeouts = 0;
  // calls that throw fill at most half the cases while calls that return are left: a task of mostly
  // errors says little of what the function does
  const returning = verdicts.filter((v) => v.outcome !== undefined && 'returns' in v.outcome).length;
  const maxRaising = Math.max(maxCases - returning, Math.ceil(maxCases / 2));
  let raising = 0;
  for (const [i, { source, input }] of all.entries()) {
    const counts = (result.sources[source] ??= { tried: 0, kept: 0 });
    counts.tried += 1;
    const verdict = verdicts[i];
    if (verdict.outcome === undefined) {
      const reason = verdict.reason.startsWith('unrecordable') ? 'unrecordable' : verdict.reason;
      result.rejected[reason] = (result.rejected[reason] ?? 0) + 1;
      if (reason === 'timeout') timeouts += 1;
      continue;
    }
    if (result.cases.length >= maxCases) continue;
    if ('raises' in verdict.outcome && raising >= maxRaising) continue;
    if ('raises' in verdict.outcome) raising += 1;
    counts.kept += 1;
    result.cases.push(makeCase(target, input, verdict.outcome, source));
  }
  if (result.cases.length === 0) {
    result.drop = timeouts === all.length && all.length > 0
      ? { code: 'timeout', reason: `every input ran past ${callTimeoutMs} ms` }
      : { code: 'no-cases', reason: `no input gave a deterministic, serialisable result (${summary(result.rejected)})` };
  } else if (result.cases.length >= 3 && new Set(result.cases.map((c) => JSON.stringify(c.expect))).size === 1 && result.cases.every((c) => c.argsAfter === null)) {
    result.drop = { code: 'constant-result', reason: `all ${result.cases.length} recorded inputs gave the same result; a task would be passed by returning it` };
  }
  return result;
}

const MAX_PRODUCED = 12;

/** The distinct structured results of `cases` (objects, arrays, ...), at most MAX_PRODUCED spread over them, under `name`. */
function noteProduced(produced, name, cases) {
  const distinct = new Map();
  for (const c of cases) {
    const value = c.expect?.returns;
    if (value !== undefined && ['array', 'object', 'instance', 'map', 'set'].includes(value.t)) distinct.set(JSON.stringify(value), value);
  }
  const values = [...distinct.values()];
  // spread over the list: its later inputs are other sorts (the pools' punctuation after plain words)
  const picked = spread(values, MAX_PRODUCED);
  if (picked.length > 0) produced.set(name, picked);
}

export async function record(config) {
  let files = null;
  const lazyFiles = () => (files ??= sourceFiles(config.repoRoot));
  const traced = await traceRepoTests(config);
  const targets = [];
  // what each function recorded so far returned (objects and arrays), by name: inputs of the functions it feeds
  const produced = new Map();
  for (const [index, target] of (config.targets ?? []).entries()) {
    const started = performance.now();
    try {
      const result = await recordTarget(config, target, lazyFiles, traced.inputs[index] ?? [], produced);
      targets.push({ ...result, ms: Math.round(performance.now() - started) });
      if (!target.via) noteProduced(produced, String(target.target).split('.').pop(), result.cases);
    } catch (error) {
      targets.push({ unitId: target.unitId, cases: [], sources: {}, rejected: {}, drop: { code: 'harness-error', reason: String(error?.message ?? error).slice(0, 300) } });
    }
  }
  return { targets, traces: traced.traces };
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) await runDriver(record);
