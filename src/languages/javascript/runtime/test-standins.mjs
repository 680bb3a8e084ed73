// Stand-ins for the test frameworks a repository's test files use, for trace-run.mjs: the record
// sandbox has plain Node and no framework installed, and tracing needs the test bodies to run, not
// to pass. Tests register as their framework would (jest/vitest/mocha globals and modules, node:test,
// ava, tape, uvu) and `createStandins(...).run()` runs them one after another, each under a limit,
// an exception or a failed assertion ending that test only. Assertions check nothing (the expected
// values of a task come from recording, never from the test's asserts) but run what they are given:
// `expect(fn).toThrow()`, `assert.throws(fn)`, `t.throwsAsync(fn)` call `fn`, `.resolves` waits.
//
// Importing this file has no side effect: trace-hooks.mjs imports STANDIN_EXPORTS on the loader
// thread to write the ES modules it serves for `import … from 'vitest'`.
import assert from 'node:assert';

/** Named exports of each module served by a stand-in (ES modules need the names to be listed). */
export const STANDIN_EXPORTS = Object.freeze({
  vitest: ['describe', 'it', 'test', 'suite', 'expect', 'vi', 'vitest', 'beforeAll', 'afterAll', 'beforeEach', 'afterEach',
    'onTestFinished', 'onTestFailed', 'bench', 'assert', 'chai', 'should', 'expectTypeOf', 'assertType', 'xit', 'xdescribe', 'xtest', 'fit', 'fdescribe'],
  '@jest/globals': ['describe', 'it', 'test', 'expect', 'jest', 'beforeAll', 'afterAll', 'beforeEach', 'afterEach', 'xit', 'xdescribe', 'xtest', 'fit', 'fdescribe'],
  mocha: ['describe', 'it', 'before', 'after', 'beforeEach', 'afterEach', 'context', 'specify', 'suite', 'test', 'setup', 'teardown',
    'suiteSetup', 'suiteTeardown', 'xit', 'xdescribe', 'xcontext', 'xspecify', 'run'],
  ava: ['test'],
  tape: ['test'],
  chai: ['expect', 'assert', 'should', 'use', 'config', 'AssertionError', 'util'],
  expect: ['expect'],
  'expect.js': [],
  uvu: ['test', 'suite', 'exec'],
  'uvu/assert': ['ok', 'is', 'equal', 'type', 'instance', 'match', 'snapshot', 'fixture', 'throws', 'unreachable', 'not', 'Assertion'],
  'node:test': ['test', 'describe', 'it', 'suite', 'before', 'after', 'beforeEach', 'afterEach', 'mock', 'skip', 'todo', 'only', 'run'],
  'power-assert': [],
});

/** The names test files use without importing them (jest, vitest with globals, mocha). */
const GLOBAL_NAMES = ['describe', 'it', 'test', 'expect', 'before', 'after', 'beforeAll', 'afterAll', 'beforeEach', 'afterEach',
  'context', 'specify', 'suite', 'setup', 'teardown', 'suiteSetup', 'suiteTeardown', 'xit', 'xdescribe', 'xcontext', 'xspecify',
  'xtest', 'fit', 'fdescribe', 'jest', 'vi'];

/** Assertion methods that are given code to run: the function (or promise) among their arguments is run. */
const RUNS_ITS_ARGUMENT = /^(?:throws|throw|throwsAsync|notThrows|notThrowsAsync|doesNotThrow|rejects|doesNotReject|isRejected|isFulfilled|try|Throw|throwException)$/;
/** Matchers that run the value under test (`expect(fn).toThrow()`, chai's `expect(fn).to.throw()`). */
const RUNS_THE_SUBJECT = /^(?:toThrow\w*|throw|throws|Throw|throwError|throwException|fail)$/;

const noop = () => undefined;
const settled = (value) => Promise.resolve(value).then(noop, noop);

/** Runs `f` if it is a function (or waits for it if it is a promise); whatever it throws is swallowed. */
function runGiven(f) {
  try {
    const result = typeof f === 'function' ? f() : f;
    if (result !== null && typeof result === 'object' && typeof result.then === 'function') return settled(result);
  } catch {
    // a throw is what the assertion looks for
  }
  return undefined;
}

/**
 * A value that accepts anything: every property is a callable chain, every call returns a chain,
 * and it is never a thenable (so `await` on it goes on at once). `onCall(name, args)` may return
 * what a named call gives instead. Also what trace-run.mjs serves for a test helper package that
 * is not installed.
 */
export function absorbing(onCall = () => undefined, name = '') {
  const target = function absorbed() {};
  return new Proxy(target, {
    get(_, prop) {
      if (prop === 'then' || typeof prop === 'symbol') return undefined;
      if (prop === 'prototype') return target.prototype;
      return absorbing(onCall, String(prop));
    },
    apply(_, __, args) {
      const given = onCall(name, args);
      return given === undefined ? absorbing(onCall, name) : given;
    },
    construct() {
      return absorbing(onCall, name);
    },
    set() {
      return true;
    },
  });
}

/** An assertion API (chai's assert, uvu/assert, ava's and tape's `t`): checks nothing, runs what it is given. */
function assertionApi(onAssert = noop) {
  return absorbing((name, args) => {
    onAssert(name);
    if (RUNS_ITS_ARGUMENT.test(name)) return runGiven(args.find((a) => typeof a === 'function' || (a !== null && typeof a?.then === 'function')));
    return null;
  });
}

/** `expect(subject)`: jest, vitest and chai style chains; with `.resolves`/`.rejects` a matcher returns a promise. */
function expectChain(subject, pending) {
  const target = function expectation() {};
  const chain = new Proxy(target, {
    get(_, prop) {
      if (prop === 'then' || typeof prop === 'symbol') return undefined;
      if (prop === 'resolves' || prop === 'rejects' || prop === 'eventually') return expectChain(subject, true);
      if (RUNS_THE_SUBJECT.test(String(prop))) {
        return (...args) => {
          const done = pending ? settled(typeof subject === 'function' ? runGiven(subject) : subject) : runGiven(subject);
          return pending || done !== undefined ? (done ?? Promise.resolve()) : chain;
        };
      }
      return expectChain(subject, pending);
    },
    apply() {
      return pending ? settled(subject) : chain;
    },
  });
  return chain;
}

function makeExpect() {
  const expect = (subject) => expectChain(subject, false);
  const extras = absorbing();
  return new Proxy(expect, {
    get(t, prop) {
      if (prop === 'soft') return expect;
      if (prop === 'poll') return (f) => expectChain(f, true);
      if (prop === 'then' || typeof prop === 'symbol') return undefined;
      return extras[prop];
    },
  });
}

/** A spy (`vi.fn`, `jest.fn`, node:test `mock.fn`): calls its implementation, remembers its calls. */
function makeSpy(impl, original) {
  let current = impl;
  const once = [];
  const spy = function spy(...args) {
    spy.mock.calls.push(Object.assign([...args], { arguments: args }));
    const f = once.length > 0 ? once.shift() : current;
    return typeof f === 'function' ? Reflect.apply(f, this, args) : undefined;
  };
  spy.mock = { calls: [], results: [], instances: [], callCount: () => spy.mock.calls.length, mockImplementation: (f) => { current = f; }, resetCalls: () => { spy.mock.calls.length = 0; }, restore: noop };
  const chainable = {
    mockImplementation: (f) => { current = f; },
    mockImplementationOnce: (f) => { once.push(f); },
    mockReturnValue: (v) => { current = () => v; },
    mockReturnValueOnce: (v) => { once.push(() => v); },
    mockResolvedValue: (v) => { current = () => Promise.resolve(v); },
    mockResolvedValueOnce: (v) => { once.push(() => Promise.resolve(v)); },
    mockRejectedValue: (v) => { current = () => Promise.reject(v); },
    mockRejectedValueOnce: (v) => { once.push(() => Promise.reject(v)); },
    mockReturnThis: () => { current = function self() { return this; }; },
    mockClear: () => { spy.mock.calls.length = 0; },
    mockReset: () => { spy.mock.calls.length = 0; current = undefined; },
    mockRestore: () => { current = original; },
    mockName: noop,
    withImplementation: (f, run) => { const saved = current; current = f; const r = run?.(); current = saved; return r; },
  };
  for (const [name, f] of Object.entries(chainable)) spy[name] = (...args) => { f(...args); return spy; };
  spy.getMockName = () => 'spy';
  spy.getMockImplementation = () => current;
  return spy;
}

function spyOn(object, name, impl) {
  let original;
  try {
    original = object[name];
  } catch {
    original = undefined;
  }
  const spy = makeSpy(impl ?? original, original);
  try {
    object[name] = spy;
  } catch {
    // a module namespace or a frozen object: the spy stays unattached
  }
  return spy;
}

/** `vi` / `jest`: spies work, module mocks and fake timers are no-ops, anything else absorbs. */
function makeMocker() {
  const known = {
    fn: (impl) => makeSpy(impl),
    spyOn: (object, name) => spyOn(object, name),
    isMockFunction: (f) => typeof f === 'function' && f.name === 'spy' && 'mock' in f,
    mocked: (x) => x,
    stubGlobal: (name, value) => { globalThis[name] = value; },
    importActual: (specifier) => import(specifier),
    requireActual: (specifier) => { throw new Error(`requireActual(${specifier}) is not served`); },
    waitFor: async (f) => f(),
    waitUntil: async (f) => f(),
  };
  const rest = absorbing();
  const mocker = new Proxy(known, { get: (t, prop) => (prop in t ? t[prop] : prop === 'then' || typeof prop === 'symbol' ? undefined : rest[prop]) });
  return mocker;
}

/** node:test's `mock`: fn and method give spies, timers and modules are no-ops. */
function makeNodeMock() {
  const known = {
    fn: (original, impl) => makeSpy(impl ?? original ?? noop),
    method: (object, name, impl) => spyOn(object, name, impl),
    getter: (object, name) => spyOn(object, name),
    setter: (object, name) => spyOn(object, name),
  };
  const rest = absorbing();
  return new Proxy(known, { get: (t, prop) => (prop in t ? t[prop] : prop === 'then' || typeof prop === 'symbol' ? undefined : rest[prop]) });
}

/** Values of a jest `each` table written as a template (`a | b ${1} | ${2}`): one object per row. */
function templateRows(strings, values) {
  const names = strings[0].split('|').map((s) => s.trim()).filter(Boolean);
  const rows = [];
  for (let i = 0; names.length > 0 && i + names.length <= values.length; i += names.length) {
    rows.push(Object.fromEntries(names.map((n, k) => [n, values[i + k]])));
  }
  return rows;
}

/** The rows of an `each(...)` call, each as the argument list its test function gets. */
function eachRows(args) {
  const [first, ...values] = args;
  if (Array.isArray(first) && Array.isArray(first.raw)) return templateRows(first, values).map((row) => [row]);
  const table = Array.isArray(first) ? first : [];
  return table.map((row) => (Array.isArray(row) ? row : [row]));
}

/** The title, the options object and the function of a registration, in any of the orders frameworks allow. */
function parseRegistration(args) {
  let name = '';
  let options = {};
  let fn;
  for (const a of args) {
    if (typeof a === 'function' && fn === undefined) fn = a;
    else if (typeof a === 'string') name = a;
    else if (a !== null && typeof a === 'object' && fn === undefined) options = a;
  }
  return { name, options, fn };
}

/** True when a test function's first parameter is destructured (`({ expect }) =>`): a vitest context, not mocha's `done`. */
function takesContext(fn) {
  const text = Function.prototype.toString.call(fn);
  return /^(?:async\s*)?(?:function\s*\w*\s*)?\(\s*\{/.test(text);
}

class Suite {
  constructor(name, parent) {
    this.name = name;
    this.parent = parent;
    this.children = [];
    this.hooks = { beforeAll: [], afterAll: [], beforeEach: [], afterEach: [] };
    // mocha shares `this` between a suite's hooks and tests; a nested suite inherits it
    this.ctx = parent === null ? mochaContext() : Object.create(parent.ctx);
  }
}

function mochaContext() {
  const ctx = {};
  for (const name of ['timeout', 'slow', 'retries', 'enableTimeouts']) ctx[name] = () => ctx;
  ctx.skip = () => {
    throw new SkipTest();
  };
  return ctx;
}

class SkipTest extends Error {}

/**
 * The frameworks' APIs over one registry of tests, and `run()`, which runs them in order:
 * `{ globals, modules, run }`. `modules` maps each STANDIN_EXPORTS name to the object a `require`
 * of it returns (its named exports as properties, `default` for an ES default import).
 * `testTimeoutMs` limits each test and each hook (a synchronous loop is the caller's to stop).
 */
export function createStandins({ testTimeoutMs = 5000 } = {}) {
  const root = new Suite('', null);
  let current = root;

  /**
   * Calls `fn` and resolves when it is done: its promise settles, `done` is called, or the limit
   * passes. `args` is the argument list, or a function of the `done` callback giving it.
   */
  function settle(fn, thisArg, args, waitsForDone) {
    return new Promise((resolve) => {
      let finished = false;
      let timer = null;
      const finish = () => {
        if (finished) return;
        finished = true;
        if (timer !== null) clearTimeout(timer);
        resolve();
      };
      timer = setTimeout(finish, testTimeoutMs);
      try {
        // a `done` callback (mocha, jest, node:test's second argument) ends the call when called
        const given = typeof args === 'function' ? args(finish) : args;
        const result = Reflect.apply(fn, thisArg, [...given]);
        if (result !== null && typeof result === 'object' && typeof result.then === 'function') result.then(finish, finish);
        else if (!waitsForDone) finish();
      } catch {
        finish();
      }
    });
  }

  function register(kind, style, flags, args) {
    const { name, options, fn } = parseRegistration(args);
    if (flags.skip || options.skip || options.todo || typeof fn !== 'function') return undefined;
    if (kind === 'suite') {
      const suite = new Suite(name, current);
      current.children.push(suite);
      const saved = current;
      current = suite;
      try {
        const result = style === 'node' ? fn(nodeContext(name)) : fn.call(suite.ctx);
        if (result !== null && typeof result === 'object' && typeof result.then === 'function') result.then(noop, noop);
      } catch {
        // a suite whose body throws keeps the tests it registered before
      } finally {
        current = saved;
      }
      return undefined;
    }
    current.children.push({ name, fn, style, extra: flags.extra ?? [] });
    return undefined;
  }

  function hook(kind, fn, style = 'jest') {
    if (typeof fn === 'function') current.hooks[kind].push({ fn, style });
  }

  /** `describe`/`it`-like function of `kind` in `style`, with `.skip`, `.only`, `.each`, `.todo` and the rest. */
  function variant(kind, style, flags = {}) {
    const f = (...args) => register(kind, style, flags, args);
    const modifiers = {
      skip: () => variant(kind, style, { ...flags, skip: true }),
      todo: () => variant(kind, style, { ...flags, skip: true }),
      only: () => variant(kind, style, flags),
      concurrent: () => variant(kind, style, flags),
      sequential: () => variant(kind, style, flags),
      serial: () => variant(kind, style, flags),
      fails: () => variant(kind, style, flags),
      failing: () => variant(kind, style, flags),
      shuffle: () => variant(kind, style, flags),
      each: () => (...table) => (name, fn) => {
        for (const row of eachRows(table)) register(kind, style, flags, [String(name), function eachCase(...rest) { return fn.call(this, ...row, ...rest.slice(0, Math.max(0, fn.length - row.length))); }]);
      },
      for: () => (table) => (name, fn) => {
        for (const row of Array.isArray(table) ? table : []) register(kind, style, flags, [String(name), function forCase(ctx) { return fn.call(this, row, ctx); }]);
      },
      skipIf: () => (condition) => variant(kind, style, condition ? { ...flags, skip: true } : flags),
      runIf: () => (condition) => variant(kind, style, condition ? flags : { ...flags, skip: true }),
    };
    for (const [name, make] of Object.entries(modifiers)) Object.defineProperty(f, name, { get: make, configurable: true });
    return f;
  }

  // ---- per-style arguments a test function gets ----

  /** mocha's and jest's `done`, which also carries vitest's context (a test may use either). */
  function doneCallback(finish, name) {
    return Object.assign(() => finish(), vitestContext(name), { fail: () => finish() });
  }

  function vitestContext(name) {
    return { expect, task: { name }, skip: () => { throw new SkipTest(); }, onTestFinished: noop, onTestFailed: noop, signal: new AbortController().signal };
  }

  /** node:test's `t`: subtests run at once (their promise is awaited by the test). */
  function nodeContext(name) {
    const t = {
      name,
      fullName: name,
      signal: new AbortController().signal,
      assert,
      mock: makeNodeMock(),
      diagnostic: noop,
      plan: noop,
      runOnly: noop,
      skip: noop,
      todo: noop,
      before: noop,
      after: noop,
      beforeEach: noop,
      afterEach: noop,
      test: (...args) => {
        const { name: sub, options, fn } = parseRegistration(args);
        if (typeof fn !== 'function' || options.skip || options.todo) return Promise.resolve();
        return runTest({ name: sub, fn, style: 'node', extra: [] }, [], null);
      },
    };
    return t;
  }

  const expect = makeExpect();

  /** ava's `t`: `t.context` shared with its hooks, teardowns run after the test. */
  function avaContext(context, teardowns) {
    const api = assertionApi();
    const known = { context, teardown: (f) => teardowns.push(f), log: noop, plan: noop, timeout: noop, pass: noop, title: '' };
    return new Proxy(known, { get: (t, prop) => (prop in t ? t[prop] : api[prop]) });
  }

  /** tape's `t`: the test ends at `t.end()` or when its plan is met; subtests run after it. */
  function tapeContext(onEnd, subtests) {
    let planned = Infinity;
    let asserted = 0;
    const api = assertionApi(() => {
      asserted += 1;
      if (asserted >= planned) onEnd();
    });
    const known = {
      end: () => onEnd(),
      plan: (n) => { planned = Number(n); if (asserted >= planned) onEnd(); },
      // a subtest counts toward the plan, as one assertion
      test: (...args) => {
        subtests.push(args);
        asserted += 1;
        if (asserted >= planned) onEnd();
      },
      teardown: noop,
      timeoutAfter: noop,
      comment: noop,
    };
    return new Proxy(known, { get: (t, prop) => (prop in t ? t[prop] : api[prop]) });
  }

  /** Runs hooks in order; each gets what its framework gives (`t`, a context, or mocha's `done`). */
  async function runHooks(hooks, suite) {
    for (const { fn, style } of hooks) {
      if (style === 'ava') await settle(fn, undefined, [avaContext(suite.avaContext ??= {}, [])], false);
      else if (style === 'node') await settle(fn, undefined, (done) => [nodeContext(suite.name), done], fn.length >= 2);
      else if (style === 'uvu') await settle(fn, undefined, [suite.uvuContext ?? {}], false);
      else if (fn.length >= 1 && !takesContext(fn)) await settle(fn, suite.ctx, (done) => [doneCallback(done, suite.name)], true);
      else await settle(fn, suite.ctx, [vitestContext(suite.name)], false);
    }
  }

  /** Runs one test with the beforeEach/afterEach hooks of `chain` (outermost suite first). */
  async function runTest(test, chain, suite) {
    const ctx = suite?.ctx ?? root.ctx;
    const { fn, style } = test;
    for (const s of chain) await runHooks(s.hooks.beforeEach, s);
    try {
      if (style === 'node') {
        const t = nodeContext(test.name);
        await settle(fn, t, (done) => [t, done], fn.length >= 2);
      } else if (style === 'ava') {
        const teardowns = [];
        await settle(fn, undefined, [avaContext(suite?.avaContext ?? {}, teardowns), ...test.extra], false);
        for (const f of teardowns) await settle(f, undefined, [], false);
      } else if (style === 'tape') {
        const subtests = [];
        // the test ends at t.end(), when its plan is met, when its promise settles, or at the limit
        await settle(fn, undefined, (done) => [tapeContext(done, subtests)], true);
        for (const args of subtests) {
          const { name, fn: sub } = parseRegistration(args);
          if (typeof sub === 'function') await runTest({ name, fn: sub, style: 'tape', extra: [] }, [], suite);
        }
      } else if (style === 'uvu') {
        await settle(fn, undefined, [suite?.uvuContext ?? {}], false);
      } else if (fn.length >= 1 && !takesContext(fn)) {
        await settle(fn, ctx, (done) => [doneCallback(done, test.name)], true);
      } else {
        await settle(fn, ctx, [vitestContext(test.name)], false);
      }
    } catch {
      // the test failed: its calls are recorded all the same
    }
    for (const s of [...chain].reverse()) await runHooks(s.hooks.afterEach, s);
  }

  async function runSuite(suite, chain) {
    const saved = current;
    current = suite;
    const here = [...chain, suite];
    await runHooks(suite.hooks.beforeAll, suite);
    // tests registered while running (node:test's top-level calls in a test) join the end
    for (let i = 0; i < suite.children.length; i++) {
      const child = suite.children[i];
      if (child instanceof Suite) await runSuite(child, here);
      else await runTest(child, here, suite);
    }
    await runHooks(suite.hooks.afterAll, suite);
    current = saved;
  }

  // ---- the frameworks ----

  const describe = variant('suite', 'jest');
  const it = variant('test', 'jest');
  const hooks = {
    beforeAll: (fn) => hook('beforeAll', fn),
    afterAll: (fn) => hook('afterAll', fn),
    beforeEach: (fn) => hook('beforeEach', fn),
    afterEach: (fn) => hook('afterEach', fn),
  };
  const mocker = makeMocker();
  const skipped = variant('test', 'jest', { skip: true });
  const skippedSuite = variant('suite', 'jest', { skip: true });
  const globals = {
    describe, it, test: it, expect, jest: mocker, vi: mocker,
    context: describe, specify: it, suite: describe, setup: hooks.beforeEach, teardown: hooks.afterEach,
    suiteSetup: hooks.beforeAll, suiteTeardown: hooks.afterAll,
    before: hooks.beforeAll, after: hooks.afterAll, ...hooks,
    xit: skipped, xtest: skipped, xspecify: skipped, xdescribe: skippedSuite, xcontext: skippedSuite,
    fit: it, fdescribe: describe,
  };

  const nodeTest = variant('test', 'node');
  const nodeDescribe = variant('suite', 'node');
  const nodeModule = Object.assign(nodeTest, {
    test: nodeTest, it: nodeTest, describe: nodeDescribe, suite: nodeDescribe,
    before: (fn) => hook('beforeAll', fn, 'node'), after: (fn) => hook('afterAll', fn, 'node'),
    beforeEach: (fn) => hook('beforeEach', fn, 'node'), afterEach: (fn) => hook('afterEach', fn, 'node'),
    mock: makeNodeMock(), run: () => absorbing(),
  });
  for (const name of ['skip', 'todo', 'only']) Object.defineProperty(nodeModule, name, { value: variant('test', 'node', name === 'only' ? {} : { skip: true }), configurable: true });

  function avaTest() {
    const f = (...args) => {
      const [first, ...rest] = args;
      if (typeof first === 'function') return register('test', 'ava', { extra: rest }, ['', first]);
      const fnAt = rest.findIndex((a) => typeof a === 'function');
      if (fnAt < 0) return undefined;
      return register('test', 'ava', { extra: rest.slice(fnAt + 1) }, [String(first), rest[fnAt]]);
    };
    const avaHook = (kind) => (...args) => hook(kind, args.find((a) => typeof a === 'function'), 'ava');
    Object.assign(f, {
      serial: f, only: f, failing: f, cb: f, skip: noop, todo: noop,
      before: avaHook('beforeAll'), after: avaHook('afterAll'), beforeEach: avaHook('beforeEach'), afterEach: avaHook('afterEach'),
      macro: (m) => m, meta: { file: '', snapshotDirectory: '' },
    });
    f.serial = Object.assign((...args) => f(...args), f);
    f.after.always = f.after;
    f.afterEach.always = f.afterEach;
    return f;
  }
  const ava = avaTest();

  const tape = Object.assign((...args) => register('test', 'tape', {}, args), {
    test: (...args) => register('test', 'tape', {}, args),
    skip: noop, only: (...args) => register('test', 'tape', {}, args), onFinish: noop, onFailure: noop,
    createStream: () => absorbing(), createHarness: () => tape,
  });

  /** uvu's `suite(name, context)`: tests registered on it run in `run()` (every registered test runs at the end anyway). */
  function uvuSuite(name = '', context = {}) {
    const suite = new Suite(name, root);
    suite.uvuContext = context;
    root.children.push(suite);
    const add = (...args) => {
      const saved = current;
      current = suite;
      register('test', 'uvu', {}, args);
      current = saved;
    };
    const on = (kind) => (fn) => { if (typeof fn === 'function') suite.hooks[kind].push({ fn, style: 'uvu' }); };
    add.before = Object.assign(on('beforeAll'), { each: on('beforeEach') });
    add.after = Object.assign(on('afterAll'), { each: on('afterEach') });
    add.skip = noop;
    add.only = add;
    add.run = noop;
    return add;
  }

  const chaiAssert = assertionApi();
  const chai = {
    expect, assert: chaiAssert, AssertionError: assert.AssertionError, util: absorbing(), config: {},
    use: () => chai,
    should: () => {
      try {
        Object.defineProperty(Object.prototype, 'should', { get() { return expectChain(this, false); }, set: noop, configurable: true });
      } catch {
        // already there
      }
      return absorbing();
    },
  };

  const uvuAssert = assertionApi();
  const modules = {
    vitest: { ...globals, vitest: mocker, suite: describe, onTestFinished: noop, onTestFailed: noop, bench: skipped, assert: chaiAssert, chai, should: chai.should, expectTypeOf: absorbing(), assertType: noop },
    '@jest/globals': globals,
    mocha: { ...globals, run: noop, default: absorbing() },
    ava: { test: ava, default: ava },
    tape: { test: tape, default: tape },
    chai: { ...chai, default: chai },
    expect: { expect, default: expect },
    'expect.js': { default: expect, commonjs: expect },
    uvu: { test: uvuSuite(), suite: uvuSuite, exec: async () => true },
    'uvu/assert': Object.fromEntries(STANDIN_EXPORTS['uvu/assert'].map((n) => [n, uvuAssert[n]])),
    'node:test': { ...Object.fromEntries(STANDIN_EXPORTS['node:test'].map((n) => [n, nodeModule[n]])), default: nodeModule, commonjs: nodeModule },
    'power-assert': { default: assert, commonjs: assert },
  };
  modules.ava.commonjs = ava;
  modules.tape.commonjs = tape;
  modules.chai.commonjs = chai;
  modules.expect.commonjs = expect;

  return {
    globals: Object.fromEntries(GLOBAL_NAMES.map((n) => [n, globals[n]])),
    modules,
    run: () => runSuite(root, []),
  };
}
