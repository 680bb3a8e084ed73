// The JavaScript mutate run (javascript-recorder.ts; the generic driver is
// src/pipeline/record/record-candidates.ts):
//
//   node mutate-driver.mjs < config.json
//
// config: {repoRoot, seed, workDir, callTimeoutMs, search, maxNewCases, maxMutants, typescriptPath,
//          targets: [{...TARGET (record-driver.mjs), cases: [RECORDED CASE...]}]}
//
// Per target: the recorded cases are replayed on the original in one process (a case that does not
// reproduce there is a baseline mismatch, left out of the comparison and of the `cases` given back
// when there is any); mutants of the function's
// body (mutants.mjs; at most maxMutants, a seeded sample beyond) each run the cases in a fresh
// process with the mutated source in place of the module's file (mutant.mjs), two at a time (not a
// mutant whose statement no case began, by the original's block coverage: it survives unrun);
// a mutant is killed when any case's outcome differs or the process fails or hangs. With `search`,
// variations of the recorded inputs are recorded twice on the original, and for each survivor the
// first one that tells the mutant apart becomes a `mutant-search` case (at most maxNewCases). The
// variations come in groups, one per parameter and per field of an object argument (each field
// varied, and each field the parameter's declared type or the body's reads name added where the
// object lacks it: the options a call left out); each group takes its turn, so a pool of at most
// SEARCH_POOL holds some of every one. SEARCH_ROUNDS rounds: each later one (at most LATER_POOL
// inputs) varies, per survivor in turn, a few inputs that ran its code (V8 block coverage; any
// input without it), more widely and only in the fields and parameters its line names where it
// names any (`typeof opt.mode === 'string'` → `mode` in capitals). A
// survivor of the whole search whose mutated code ran (V8 block coverage of the original) for 16
// inputs or more that returned, with two results at least, is likely equivalent: left out of the
// score, listed last among the survivors as "likely equivalent (not counted): ..." (JavaScript
// files; not in a branch of a conditional expression or a right operand of `&&`/`||`/`??`, which
// may not run when their block does: mutants.mjs `guarded`). A case whose expectation holds
// a returned function (codec.mjs's `fncalls`) is replayed with its probes, so a mutant that changes
// what the function gives is killed; search inputs of such a unit get the same probes.
// Prints ONE JSON document, mutateResultSchema (src/pipeline/record/harness-result-schema.ts).
import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { probesOf } from './codec.mjs';
import { baseRequest, expectedOutcome, hashText, inputKey, makeCase, pool, recordOnce, recordTwice, runDriver, sameOutcome, seededRandom, shuffled } from './drive.mjs';
import { fieldAdditions, fieldVariations, neighbourNumbers, variationsOf } from './inputs.mjs';
import { createTypeReader, declaredParams } from './declared-types.mjs';
import { applyMutant, findFunction, mutantsOf } from './mutants.mjs';
import { sourceStrings } from './source-strings.mjs';
import { entryFunction, usageShapes } from './usage-shapes.mjs';
import { moduleFormat } from './load.mjs';
import { transpileTypeScript } from './typescript.mjs';

const require = createRequire(import.meta.url);
const PARALLEL = Math.max(1, Math.min(2, os.cpus().length));
/** Search inputs recorded per target in the first round, at most. */
const SEARCH_POOL = 240;
/** Rounds of the search: the first varies the recorded inputs, each later one the inputs that ran a survivor's code. */
const SEARCH_ROUNDS = 3;
/** Search inputs recorded per later round, at most. */
const LATER_POOL = 120;
/** Items of a list whose fields the search varies (the first ones). */
const MAX_ITEMS_VARIED = 3;
/** Inputs that ran a survivor's code varied for it in a later round, each field in this many ways. */
const NEAREST_PER_SURVIVOR = 3;
const NEAR_WIDTH = 12;

/** Survivors the score leaves out are listed with this prefix (as the Python harness does). */
const EQUIVALENT_PREFIX = 'likely equivalent (not counted): ';
/** Distinct inputs that must run a survivor's mutated code, with two results at least, for it to count as likely equivalent. */
const EQUIVALENT_MIN_REACHING = 16;

function score(total, killedSet, mutants, equivalent = new Set()) {
  const counted = total - equivalent.size;
  const survivors = mutants.flatMap((m, i) => (killedSet.has(i) || equivalent.has(i) ? [] : [m.description]));
  survivors.push(...[...equivalent].sort((a, b) => a - b).map((i) => EQUIVALENT_PREFIX + mutants[i].description));
  return { total: counted, killed: killedSet.size, score: counted ? killedSet.size / counted : 1, survivors };
}

/**
 * Whether any of `outcomes` (runs on the original, with the function's block coverage) began the
 * statement holding `mutant` (mutants.mjs `runsAt`); true when one has no coverage (a TypeScript
 * file, a run that failed) or the mutant has no such statement. A mutant whose statement none of
 * them began gives every one of them the original's outcome, run together in one process as they
 * were: its process is not started.
 */
function anyReaches(outcomes, mutant) {
  return mutant.runsAt === null || outcomes.some((o) => o?.coverage === undefined || countAt(o.coverage, mutant.runsAt) > 0);
}

/** The times a position ran: the count of the smallest covered range holding it (0 when none does). */
function countAt(ranges, position) {
  let best = null;
  for (const [start, end, count] of ranges ?? []) {
    if (start <= position && position < end && (best === null || end - start < best[1] - best[0])) best = [start, end, count];
  }
  return best === null ? 0 : best[2];
}

/**
 * A survivor of the whole search whose mutated code ran for at least EQUIVALENT_MIN_REACHING of the
 * inputs seen (recorded cases and search candidates, each with its block coverage of the original)
 * that returned, with two different results at least, and behaved like the original on all: likely
 * an equivalent mutant. Not for a guarded mutant (a branch of a conditional expression, a right
 * operand of `&&`/`||`/`??`: reaching its block does not mean the mutated part ran), nor without
 * coverage (TypeScript).
 */
function likelyEquivalent(mutant, outcomes) {
  if (mutant.guarded) return false;
  const reaching = outcomes.filter((o) => o && 'returns' in o && o.coverage && countAt(o.coverage, mutant.start) > 0);
  const results = new Set(reaching.map((o) => JSON.stringify(o.returns)));
  return reaching.length >= EQUIVALENT_MIN_REACHING && results.size >= 2;
}

function emptyResult(unitId) {
  const zero = { total: 0, killed: 0, score: 1, survivors: [] };
  return { unitId, mutation: zero, before: zero, newCases: [], search: { tried: 0, found: 0 }, baselineMismatches: 0, error: null };
}

/**
 * The value of a constant numeric expression (`1000`, `s * 60`, `(h * 24) * 365.25`, `-1`) over the
 * module's numeric constants found so far, or null.
 */
function foldNumber(ts, node, numbers) {
  if (ts.isNumericLiteral(node)) return Number(node.text.replace(/_/g, ''));
  if (ts.isIdentifier(node)) return numbers.get(node.text) ?? null;
  if (ts.isParenthesizedExpression(node)) return foldNumber(ts, node.expression, numbers);
  if (ts.isPrefixUnaryExpression(node) && node.operator === ts.SyntaxKind.MinusToken) {
    const v = foldNumber(ts, node.operand, numbers);
    return v === null ? null : -v;
  }
  if (ts.isBinaryExpression(node)) {
    const a = foldNumber(ts, node.left, numbers);
    const b = foldNumber(ts, node.right, numbers);
    if (a === null || b === null) return null;
    switch (node.operatorToken.kind) {
      case ts.SyntaxKind.PlusToken: return a + b;
      case ts.SyntaxKind.MinusToken: return a - b;
      case ts.SyntaxKind.AsteriskToken: return a * b;
      case ts.SyntaxKind.SlashToken: return b === 0 ? null : a / b;
      case ts.SyntaxKind.AsteriskAsteriskToken: return a ** b;
      default: return null;
    }
  }
  return null;
}

/**
 * The neighbours of the numbers the function names rather than writes: module-level
 * `const MAX_BLOCK_SIZE = 65_535` or `var d = h * 24` read in its body.
 */
export function namedConstants(ts, sourceFile, fn) {
  const numbers = new Map();
  for (const statement of sourceFile.statements) {
    if (!ts.isVariableStatement(statement)) continue;
    for (const d of statement.declarationList.declarations) {
      if (!ts.isIdentifier(d.name) || d.initializer === undefined) continue;
      const value = foldNumber(ts, d.initializer, numbers);
      if (value !== null && Number.isFinite(value)) numbers.set(d.name.text, value);
    }
  }
  const out = [];
  const visit = (node) => {
    const value = ts.isIdentifier(node) ? numbers.get(node.text) : undefined;
    // its neighbours, large ones too (a unit size of 86400000 is one on purpose)
    if (value !== undefined && Math.abs(value) < 1e15) out.push(value - 1, value, value + 1);
    ts.forEachChild(node, visit);
  };
  if (numbers.size > 0) visit(fn);
  return out;
}

/** The JavaScript a mutated source runs as (TypeScript transpiled in the module's format). */
function runnable(ts, file, source) {
  if (!/\.(?:[mc]?ts|tsx)$/.test(file)) return source;
  return transpileTypeScript(ts, source, path.basename(file), moduleFormat(file));
}

/** The source with the function's body replaced as masking replaces it. */
function maskedSource(source, sourceFile, fn) {
  return `${source.slice(0, fn.body.getStart(sourceFile))}{ throw new Error('not implemented'); }${source.slice(fn.body.getEnd())}`;
}

/** `{probes}` for a case that expects a returned function (its expectation's probe lists), else nothing. */
function caseProbes(c) {
  const probes = 'returns' in c.expect ? probesOf(c.expect.returns) : null;
  return probes === null ? {} : { probes };
}

/** The probe lists of the unit's first case that has them (the record run gives every case the same), or null. */
function unitProbes(cases) {
  for (const c of cases) {
    const { probes } = caseProbes(c);
    if (probes !== undefined) return probes;
  }
  return null;
}

/** True when a replay of `inputs` gave exactly the `expected` outcomes. */
function differs(outcomes, expected) {
  return outcomes.map((o, i) => !sameOutcome(o, expected[i]));
}

/** The member of a SHAPE (alone or in a union) of kind `k` (an object's: with fields), or null. */
function memberOf(shape, k) {
  if (shape?.k === k && (k !== 'object' || shape.props.length > 0)) return shape;
  return shape?.k === 'union' ? (shape.of.map((s) => memberOf(s, k)).find((s) => s !== null) ?? null) : null;
}

/** What a parameter of SHAPE is, as the search varies it: the object it is, or the object its items are. */
function objectShapes(shape) {
  return { object: memberOf(shape, 'object'), item: memberOf(memberOf(shape, 'array')?.of, 'object') };
}

/**
 * Per parameter position, the object SHAPEs (objectShapes) its declared type gives
 * (declared-types.mjs), else those the body's reads give (usage-shapes.mjs; an internal unit: its
 * entry's).
 */
function paramObjectShapes(ts, reader, repoRoot, target, sourceFile, fn) {
  let declared = null;
  try {
    declared = declaredParams(reader, repoRoot, target);
  } catch {
    // no declaration read
  }
  const entry = target.via ? entryFunction(ts, sourceFile, target.target) : fn;
  const usage = entry === null ? [] : usageShapes(ts, sourceFile, entry);
  const count = Math.max(usage.length, declared?.params.length ?? 0);
  return Array.from({ length: count }, (_, i) => {
    const fromType = objectShapes(declared?.params[i]?.shape);
    const fromUse = objectShapes(usage[i]);
    return { object: fromType.object ?? fromUse.object, item: fromType.item ?? fromUse.item };
  });
}

async function mutateTarget(config, ts, target, random) {
  const result = emptyResult(target.unitId);
  const callTimeoutMs = config.callTimeoutMs ?? 2000;
  const file = path.join(config.repoRoot, target.file);
  const base = baseRequest(config, target);
  const inputsOf = (cases) => cases.map((c) => ({ args: c.args, init: c.init ? { args: c.init.args } : null, ...caseProbes(c) }));

  const source = fs.readFileSync(file, 'utf8');
  const sourceFile = ts.createSourceFile(file, source, ts.ScriptTarget.Latest, true, /\.[jt]sx$/.test(file) ? ts.ScriptKind.TSX : /\.[mc]?ts$/.test(file) ? ts.ScriptKind.TS : ts.ScriptKind.JS);
  const fn = findFunction(ts, sourceFile, target.startLine ?? 1, target.endLine ?? Number.MAX_SAFE_INTEGER);
  if (fn === null) {
    result.error = { code: 'mutation-error', reason: `no function found at lines ${target.startLine}-${target.endLine} of ${target.file}` };
    return result;
  }
  // block coverage of the function per input (JavaScript only: a transpiled file's offsets differ),
  // for telling likely-equivalent survivors of the search
  const covered = config.search && !/\.(?:[mc]?ts|tsx)$/.test(file) ? { ...base, coverage: { start: fn.getStart(sourceFile), end: fn.getEnd() } } : base;

  // the baseline: the cases replayed together in one process, as every mutant runs them
  const baseline = await recordOnce(covered, inputsOf(target.cases), callTimeoutMs);
  let cases = target.cases.filter((c, i) => sameOutcome(baseline[i], expectedOutcome(c)));
  result.baselineMismatches = target.cases.length - cases.length;
  if (cases.length === 0) {
    result.error = { code: 'no-cases', reason: 'no recorded case reproduces in one process' };
    return result;
  }
  // the task keeps only cases that reproduce when run together (the judge runs them in one process)
  if (result.baselineMismatches > 0) result.cases = cases;
  if (target.via) {
    // a module-internal function is called through its entry: only the calls its masked body changes test it
    const stub = await recordOnce({ ...base, mutant: { file, source: runnable(ts, file, maskedSource(source, sourceFile, fn)) } }, inputsOf(cases), callTimeoutMs);
    const reaching = cases.filter((c, i) => !sameOutcome(stub[i], expectedOutcome(c)));
    if (reaching.length < cases.length) result.rejected = { unreached: cases.length - reaching.length };
    if (reaching.length === 0) {
      result.error = { code: 'unreached', reason: `no recorded call of ${target.target} behaves differently with this function's body masked` };
      return result;
    }
    cases = reaching;
    result.cases = cases;
  }

  let mutants = mutantsOf(ts, sourceFile, fn);
  const maxMutants = config.maxMutants ?? 150;
  if (mutants.length > maxMutants) mutants = shuffled(mutants, random).slice(0, maxMutants).sort((a, b) => a.start - b.start || a.end - b.end);
  const sources = mutants.map((m) => runnable(ts, file, applyMutant(source, m)));
  // a call that never returns on a mutant is stopped after callTimeoutMs (and a margin); the inputs after it are not run
  const run = (i, inputs) => recordOnce({ ...base, mutant: { file, source: sources[i] } }, inputs, callTimeoutMs);

  const expected = cases.map(expectedOutcome);
  const killed = new Set();
  const replayed = cases.map((c) => baseline[target.cases.indexOf(c)]);
  await pool(mutants, PARALLEL, async (_, i) => {
    if (!anyReaches(replayed, mutants[i])) return;
    const outcomes = await run(i, inputsOf(cases));
    if (differs(outcomes, expected).some(Boolean)) killed.add(i);
  });
  result.before = score(mutants.length, killed, mutants);
  result.mutation = result.before;
  if (!config.search || killed.size === mutants.length) return result;

  // the search: variations of the recorded inputs, recorded twice on the original
  const boundaries = [...new Set([...neighbourNumbers(source.slice(fn.getStart(sourceFile), fn.getEnd())), ...namedConstants(ts, sourceFile, fn)])];
  const known = new Set(target.cases.map((c) => inputKey({ args: c.args, init: c.init ? { args: c.init.args } : null })));
  const probes = unitProbes(cases);
  const range = { start: fn.getStart(sourceFile), end: fn.getEnd() };
  const reader = createTypeReader(ts);
  const strings = sourceStrings(reader, file, range, []) ?? [];
  const shapes = paramObjectShapes(ts, reader, config.repoRoot, target, sourceFile, fn);
  const numbers = boundaries.filter((n) => Number.isFinite(n));
  const fieldPools = { strings: strings.length > 0 ? strings : undefined, numbers: numbers.length > 0 ? numbers : undefined };
  const paramNames = (target.params ?? []).map((p) => p.name);
  /**
   * The new inputs one input's variations give, by group (`<position>:<name>`, the name a field's
   * or a parameter's): each argument varied, each field of an object argument varied and the
   * fields it lacks added, alike arguments, the instance varied. With `focus` (the names a
   * survivor's line reads), only the groups of those names where there are any.
   */
  const vary = (input, { width = 4, focus = null } = {}) => {
    const groups = new Map();
    const add = (group, variant) => {
      const key = inputKey(variant);
      if (known.has(key)) return;
      if (!groups.has(group)) groups.set(group, []);
      groups.get(group).push([key, probes === null ? variant : { ...variant, probes }]);
    };
    const { args, init } = input;
    const at = (position, variant) => ({ args: args.map((a, j) => (j === position ? variant : a)), init });
    for (const [position, arg] of args.entries()) {
      const name = paramNames[position] ?? String(position);
      // an options object, or a list of records (`tokens`): each field varied, and each field an
      // object lacks (its type's or the body's reads) added
      const fieldsOf = (object, shape, put) => {
        for (const { field, variants } of fieldVariations(object, boundaries, strings, width)) for (const v of variants) add(`${position}:${field}`, put(v));
        for (const v of fieldAdditions(object, shape, fieldPools)) add(`${position}:${v.v[v.v.length - 1][0]}`, put(v));
      };
      if (arg?.t === 'object') fieldsOf(arg, shapes[position]?.object, (v) => at(position, v));
      if (arg?.t === 'array') {
        for (const [i, item] of (arg.v ?? []).slice(0, MAX_ITEMS_VARIED).entries()) {
          if (item?.t === 'object') fieldsOf(item, shapes[position]?.item, (v) => at(position, { ...arg, v: arg.v.map((x, j) => (j === i ? v : x)) }));
        }
      }
      for (const v of variationsOf(arg, boundaries, strings, width)) add(`${position}:${name}`, at(position, v));
      // an argument the same as another (comparisons and equality checks), or varied from it
      for (const [other, value] of args.entries()) {
        if (other === position) continue;
        // of another kind too (`dequal(date, 1)` → `dequal(date, date)`); its variations only of the same kind
        add(`${position}:${name}`, at(position, value));
        if (value.t !== arg.t) continue;
        for (const v of variationsOf(value, boundaries).slice(0, 12)) add(`${position}:${name}`, at(position, v));
      }
    }
    // a method's instance varied too (its constructor's arguments)
    for (const [position, arg] of (init?.args ?? []).entries()) {
      for (const v of variationsOf(arg, boundaries)) add(`init:${position}`, { args, init: { args: init.args.map((a, j) => (j === position ? v : a)) } });
    }
    const named = focus === null ? [] : [...groups.keys()].filter((g) => focus.has(g.slice(g.indexOf(':') + 1)));
    return named.length > 0 ? new Map(named.map((g) => [g, groups.get(g)])) : groups;
  };
  /** The groups of several inputs' variations, those of the same name pooled (a field's additions are one group). */
  const pooled = (maps) => {
    const out = new Map();
    for (const m of maps) {
      for (const [g, list] of m) {
        if (!out.has(g)) out.set(g, []);
        out.get(g).push(...list);
      }
    }
    return [...out.values()];
  };
  /** `[key, input]` lists taken in turn, each shuffled, without known inputs or repeats: every group (a field, a parameter) gets its share of a pool. */
  const inTurn = (lists, limit) => {
    const out = [];
    const taken = new Set();
    const shuffledLists = lists.map((l) => shuffled(l, random));
    for (let k = 0; out.length < limit && shuffledLists.some((l) => k < l.length); k++) {
      for (const l of shuffledLists) {
        if (k >= l.length || out.length >= limit || known.has(l[k][0]) || taken.has(l[k][0])) continue;
        taken.add(l[k][0]);
        out.push(l[k]);
      }
    }
    return out;
  };
  /** The inputs of a round's pool, marked known (no later round tries them again). */
  const take = (pairs) => pairs.map(([key, input]) => (known.add(key), input));
  /** The names a mutant's line reads (`opt.priority` → opt, priority): the fields and parameters worth varying for it. */
  const lineNames = (mutant) => {
    const from = source.lastIndexOf('\n', mutant.start) + 1;
    const to = source.indexOf('\n', mutant.end);
    return new Set(source.slice(from, to === -1 ? undefined : to).match(/[A-Za-z_$][\w$]*/g) ?? []);
  };
  let candidates = take(inTurn(pooled(cases.map((c) => vary({ args: c.args, init: c.init ? { args: c.init.args } : null }))), SEARCH_POOL));

  const chosen = [];
  const maxNewCases = config.maxNewCases ?? 20;
  const searchKilled = new Set(killed);
  const seen = [...replayed];
  let survivors = mutants.map((_, i) => i).filter((i) => !killed.has(i));
  let tried = 0;
  for (let round = 0; round < SEARCH_ROUNDS && survivors.length > 0 && candidates.length > 0; round++) {
    tried += candidates.length;
    const verdicts = await recordTwice(base, candidates, callTimeoutMs);
    const found = candidates.map((input, i) => ({ input, outcome: verdicts[i].outcome })).filter((x) => x.outcome !== undefined);
    if (found.length === 0) break;
    // the pool replayed together on the original, as on each mutant: only what reproduces that way counts
    const replay = await recordOnce(covered, found.map((x) => x.input), callTimeoutMs);
    const usable = found.flatMap((x, i) => (sameOutcome(replay[i], x.outcome) ? [{ ...x, seen: replay[i] }] : []));
    const roundSeen = usable.map((x) => x.seen);
    seen.push(...roundSeen);
    const roundInputs = usable.map((x) => x.input);
    const roundOutcomes = usable.map((x) => x.outcome);
    const reached = survivors.filter((i) => anyReaches(roundSeen, mutants[i]));
    const verdictsBySurvivor = await pool(reached, PARALLEL, (i) => run(i, roundInputs));
    for (const [k, i] of reached.entries()) {
      const outcomes = verdictsBySurvivor[k];
      // inputs after a hang were not run (marked timeout): only outcomes the mutant gave count
      const killers = differs(outcomes, roundOutcomes).flatMap((d, j) => (d && !('timeout' in outcomes[j]) ? [usable[j]] : []));
      if (killers.length === 0) continue;
      if (killers.some((x) => chosen.includes(x))) {
        searchKilled.add(i);
      } else if (chosen.length < maxNewCases) {
        chosen.push(killers[0]);
        searchKilled.add(i);
      }
    }
    survivors = survivors.filter((i) => !searchKilled.has(i));
    // the next round, for each survivor in turn: a few of the inputs that ran its code (any of them
    // without coverage, or where none did), varied more widely in the fields and parameters its line reads
    const lists = survivors.map((i) => {
      const ran = usable.filter((x) => x.seen.coverage === undefined || countAt(x.seen.coverage, mutants[i].start) > 0);
      const reaching = ran.length > 0 ? ran : usable;
      const focus = lineNames(mutants[i]);
      return inTurn(pooled(shuffled(reaching, random).slice(0, NEAREST_PER_SURVIVOR).map((x) => vary(x.input, { width: NEAR_WIDTH, focus }))), LATER_POOL);
    });
    candidates = take(inTurn(lists, LATER_POOL));
  }
  result.search.tried = tried;
  result.newCases = chosen.map((x) => makeCase(target, x.input, x.outcome, 'mutant-search'));
  result.search.found = result.newCases.length;
  const equivalent = new Set(survivors.filter((i) => likelyEquivalent(mutants[i], seen)));
  result.mutation = score(mutants.length, searchKilled, mutants, equivalent);
  return result;
}

export async function mutate(config) {
  let ts = null;
  let loadError = null;
  try {
    ts = require(config.typescriptPath ?? 'typescript');
  } catch (error) {
    loadError = String(error?.message ?? error);
  }
  const targets = [];
  for (const target of config.targets ?? []) {
    if (ts === null) {
      targets.push({ ...emptyResult(target.unitId), error: { code: 'mutation-error', reason: `the typescript package (the parser) cannot be loaded: ${loadError}`.slice(0, 300) } });
      continue;
    }
    const random = seededRandom((Number(config.seed) || 0) ^ hashText(target.unitId));
    const started = performance.now();
    try {
      targets.push({ ...(await mutateTarget(config, ts, target, random)), ms: Math.round(performance.now() - started) });
    } catch (error) {
      targets.push({ ...emptyResult(target.unitId), error: { code: 'mutation-error', reason: String(error?.message ?? error).slice(0, 300) } });
    }
  }
  return { targets };
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) await runDriver(mutate);
