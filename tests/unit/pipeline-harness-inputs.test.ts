/**
 * Where record.py's generated inputs come from when type hints say nothing useful, run on the host
 * with /usr/bin/python3: strings that match the module's regexes (regex_strings.py) and the
 * docstrings' quoted examples reach the valid branch of a regex-guarded parser; callables, dicts and
 * sequences suggested by parameter names (`func`, `d`, `seq`, `*dicts`) or a `Callable` hint reach
 * the work of dict/functional helpers. The recorded cases then kill >= 80% of the mutants, and the
 * generated `lambda` inputs survive the judge and the readable test rendering.
 */
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Unit } from '../../src/pipeline/types.js';
import { renderPrompt } from '../../src/languages/python/render-prompt.js';
import { renderReadableTest } from '../../src/languages/python/render-readable-test.js';
import { FIXTURE, judgeCases, PYTHON, root, runHarness, runWithHarnessModule, target } from './pipeline-harness-helpers.js';
import { useTempDirs } from './temp-dirs.js';

const tempDir = useTempDirs();

const HARNESS = join(root, 'src', 'languages', 'python', 'harness');

function python(script: string, input = '', env: Record<string, string> = {}): { status: number | null; stdout: string; stderr: string } {
  const result = spawnSync(PYTHON, ['-I', '-B', '-c', script], {
    input,
    encoding: 'utf8',
    timeout: 120_000,
    env: { ...process.env, ...env },
    maxBuffer: 64 * 1024 * 1024,
  });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

const REGEX_SCRIPT = `
import importlib.util, json, re, sys, time
spec = importlib.util.spec_from_file_location("rs", ${JSON.stringify(join(HARNESS, 'regex_strings.py'))})
rs = importlib.util.module_from_spec(spec); spec.loader.exec_module(rs)
patterns = json.loads(sys.stdin.read())
out = []
for text, flags, seed in patterns:
    p = re.compile(text, flags)
    t = time.monotonic()
    made = rs.strings_for(p, seed=seed)
    out.append({"pattern": text, "strings": made, "seconds": time.monotonic() - t,
                "allMatch": all(p.fullmatch(s) is not None or p.match(s) is not None for s in made)})
print(json.dumps(out))
`;

const SEMVER = String.raw`^(?P<major>0|[1-9]\d*)\.(?P<minor>0|[1-9]\d*)\.(?P<patch>0|[1-9]\d*)(?:-(?P<pre>(?:0|[1-9]\d*|\d*[a-zA-Z-][0-9a-zA-Z-]*)(?:\.(?:0|[1-9]\d*|\d*[a-zA-Z-][0-9a-zA-Z-]*))*))?(?:\+(?P<build>[0-9a-zA-Z-]+(?:\.[0-9a-zA-Z-]+)*))?$`;
const PATTERNS: [string, number, number][] = [
  [SEMVER, 0, 1],
  [String.raw`^#([a-fA-F0-9]{3}|[a-fA-F0-9]{6})$`, 0, 1],
  [String.raw`(\w+)@(\w+)\.com`, 0, 2],
  [String.raw`[^abc]+\s\S\D\W`, 0, 3],
  [String.raw`(a)(b)?(?(2)c|d)\1`, 0, 4],
  [String.raw`\d+(?=px)`, 0, 5],
  [String.raw`hello world`, 2 /* re.IGNORECASE */, 6],
  [String.raw`^v(\d{1,3})_(\d{1,3})(?:_(alpha|beta))?$`, 0, 0],
];
// pathological: nested unbounded repeats (catastrophic backtracking on a miss), a huge fixed repeat
const PATHOLOGICAL: [string, number, number][] = [
  [String.raw`^(?:(?:(?:(?:(?:a+)+)+)+)+)+$`, 0, 0],
  [String.raw`^((a|aa)*)*(?=b)c$`, 0, 0],
  [String.raw`x{100000}y`, 0, 0],
  [String.raw`(?<=q)z`, 0, 0],
];

describe('regex_strings.py', () => {
  it('builds strings that each pattern accepts, deterministically for a seed', () => {
    const first = python(REGEX_SCRIPT, JSON.stringify(PATTERNS), { PYTHONHASHSEED: '1' });
    expect(first.status, first.stderr).toBe(0);
    const runs = JSON.parse(first.stdout);
    for (const run of runs) {
      expect(run.strings.length, run.pattern).toBeGreaterThan(0);
      expect(run.allMatch, run.pattern).toBe(true);
    }
    const semver = runs[0].strings as string[];
    expect(semver).toContain('0.0.0'); // the shortest match comes first
    expect(semver.some((s) => s.includes('-') || s.includes('+'))).toBe(true); // and a longer one
    expect(runs[1].strings.some((s: string) => s.length === 4) && runs[1].strings.some((s: string) => s.length === 7)).toBe(true);
    expect(runs[5].strings.every((s: string) => /^\d+px$/.test(s))).toBe(true); // a trailing look-ahead's text is written
    const tags = runs[7].strings.join(' ');
    expect(tags).toContain('_alpha'); // every alternative shows up among the first strings
    expect(tags).toContain('_beta');

    const second = python(REGEX_SCRIPT, JSON.stringify(PATTERNS), { PYTHONHASHSEED: '2' });
    expect(JSON.parse(second.stdout).map((r: any) => r.strings)).toEqual(runs.map((r: any) => r.strings));
    const otherSeed = python(REGEX_SCRIPT, JSON.stringify(PATTERNS.map(([p, f, s]) => [p, f, s + 100])));
    expect(JSON.parse(otherSeed.stdout).map((r: any) => r.strings)).not.toEqual(runs.map((r: any) => r.strings));
  });

  it('returns quickly, possibly empty, for pathological patterns', () => {
    const run = python(REGEX_SCRIPT, JSON.stringify(PATHOLOGICAL));
    expect(run.status, run.stderr).toBe(0);
    for (const r of JSON.parse(run.stdout)) {
      expect(r.seconds, r.pattern).toBeLessThan(2);
      expect(r.allMatch, r.pattern).toBe(true);
    }
  });
});

let byId: Map<string, any>;
let mutated: Map<string, any>;

const TARGETS = [
  target('parse_version', 'recfix.versions'),
  target('tag_rank', 'recfix.versions'),
  target('newer', 'recfix.versions'),
  target('expand_hex', 'recfix.swatches'),
  target('swatch_name', 'recfix.swatches'),
  target('valmap', 'recfix.dicts'),
  target('keyfilter', 'recfix.dicts'),
  target('merge_with', 'recfix.dicts'),
  target('unique', 'recfix.dicts'),
  target('iterate', 'recfix.dicts'),
  target('differing', 'recfix.dicts'),
  target('apply_twice', 'recfix.hinted'),
  target('Release.label', 'recfix.releases'),
  target('take_evens', 'recfix.iterables'),
  target('count_until', 'recfix.iterables'),
  target('make_scaler', 'recfix.closures'),
  target('Span.count', 'recfix.spans'),
  target('Span.__getitem__', 'recfix.spans'),
  target('Span.__init__', 'recfix.spans'),
  target('Release.__init__', 'recfix.releases'),
  target('bump_command', 'recfix.commands'),
];

beforeAll(() => {
  const recorded = runHarness('record.py', { runRepoTests: false, targets: TARGETS });
  byId = new Map(recorded.targets.map((t: any) => [t.unitId, t]));
  const withCases = TARGETS.map((t: any) => ({ ...t, cases: byId.get(t.unitId).cases }));
  const result = runHarness('mutate.py', { targets: withCases });
  mutated = new Map(result.targets.map((t: any) => [t.unitId, t]));
}, 300_000);

const returning = (id: string): any[] => byId.get(id).cases.filter((c: any) => 'returns' in c.expect);

describe('record.py instances for methods', () => {
  it("builds instances with the class's own parser and keeps the constructor arguments its repr shows", () => {
    const cases = returning('recfix.releases:Release.label');
    // keyword inits come from `Release.parse(<regex match>)` and its repr `Release(major=.., minor=.., pre=..)`
    const fromFactory = cases.filter((c: any) => c.init && 'pre' in (c.init.kwargs ?? {}) && c.init.kwargs.pre.t === 'str');
    expect(fromFactory.length).toBeGreaterThan(0);
    const labels = cases.map((c: any) => c.expect.returns.v as string);
    expect(labels.some((l) => l.includes('(final)'))).toBe(true);
    expect(labels.some((l) => /\((alpha|beta|release candidate) [1-9]\)/.test(l))).toBe(true);
    expect(mutated.get('recfix.releases:Release.label').mutation.score).toBeGreaterThanOrEqual(0.8);
  });
});

describe('record.py inputs without useful type hints', () => {
  it('reaches the valid branch of a parser guarded by a module-level regex', () => {
    const t = byId.get('recfix.versions:parse_version');
    expect(t.drop).toBeNull();
    const valid = returning('recfix.versions:parse_version');
    expect(valid.length).toBeGreaterThanOrEqual(3);
    expect(valid.some((c: any) => c.args[0].v === '0.0.0')).toBe(true); // the regex's shortest match
    expect(valid.some((c: any) => c.args[0].v.includes('-'))).toBe(true); // and one with a pre-release
    expect(t.cases.some((c: any) => c.expect.raises === 'builtins.ValueError')).toBe(true);
  });

  it('follows the calls: untyped parameters of a function whose callee checks the regex get matching strings', () => {
    const valid = returning('recfix.versions:newer');
    expect(valid.length).toBeGreaterThanOrEqual(3);
    expect(valid.every((c: any) => c.args.every((a: any) => a.t === 'str'))).toBe(true);
    expect(new Set(valid.map((c: any) => c.expect.returns.v))).toEqual(new Set([true, false]));
  });

  it('uses a regex held as a class attribute, alternatives included', () => {
    const valid = returning('recfix.versions:tag_rank').map((c: any) => c.args[0].v as string);
    expect(valid.length).toBeGreaterThanOrEqual(3);
    expect(valid.every((v) => /^v\d{1,3}_\d{1,3}(_(alpha|beta))?$/.test(v))).toBe(true);
    expect(valid.some((v) => v.endsWith('_alpha'))).toBe(true);
  });

  it('uses the quoted examples of the docstrings', () => {
    const valid = returning('recfix.swatches:expand_hex').map((c: any) => [c.args[0].v, c.expect.returns.v]);
    expect(valid).toEqual(expect.arrayContaining([['#A0B', '#aa00bb'], ['#a0b1c2', '#a0b1c2']]));
  });

  it('looks up the keys of the tables the body names, and the members of the one it checks a parameter against', () => {
    const t = byId.get('recfix.swatches:swatch_name');
    // the module holds more literals than its sampled literals keep: the table keys come from the tables
    const names = returning('recfix.swatches:swatch_name').map((c: any) => c.expect.returns.v as string);
    expect(names.length).toBeGreaterThanOrEqual(2);
    expect(names.every((n) => ['red', 'lime', 'blue', 'white', 'black', 'signal red', 'ink', 'paper'].includes(n))).toBe(true);
    // `palette not in PALETTES`: both palettes are tried
    const palettes = new Set(t.cases.map((c: any) => (c.args[1] ?? c.kwargs.palette)?.v));
    expect(palettes.has('print') && palettes.has('web')).toBe(true);
    expect(mutated.get('recfix.swatches:swatch_name').mutation.score).toBeGreaterThanOrEqual(0.8);
  });

  it('passes callables and dicts to parameters named func / predicate / d, and dicts to *dicts', () => {
    const valmap = returning('recfix.dicts:valmap').filter((c: any) => c.args[1].t === 'dict' && c.args[1].v.length > 0);
    expect(valmap.length).toBeGreaterThan(3);
    const lambda = valmap.find((c: any) => c.args[0].t === 'repr' && c.args[0].v.startsWith('lambda'));
    expect(lambda).toBeDefined();
    expect(lambda.argsAfter).toBeNull(); // a lambda cannot be read back after the call
    expect(lambda.source).toBe('type-hint');
    expect(returning('recfix.dicts:keyfilter').some((c: any) => c.args[0].t === 'repr' && c.expect.returns.v.length > 0)).toBe(true);
    const merged = returning('recfix.dicts:merge_with').filter((c: any) => c.args.length >= 3);
    expect(merged.length).toBeGreaterThan(0);
    expect(merged.every((c: any) => c.args.slice(1).every((a: any) => a.t === 'dict'))).toBe(true);
    const unique = returning('recfix.dicts:unique');
    expect(unique.some((c: any) => c.args[0].t === 'list' && c.args[0].v.length > 1)).toBe(true);
    expect(unique.some((c: any) => c.args[1]?.t === 'repr')).toBe(true); // key=None varied with callables
  });

  it('passes the keys the body reads from **kwargs (kwargs.get("key")) as optional keyword arguments', () => {
    const cases = returning('recfix.dicts:differing');
    const keyed = cases.filter((c: any) => 'key' in c.kwargs);
    expect(keyed.length).toBeGreaterThan(1);
    expect(keyed.some((c: any) => c.kwargs.key.t === 'repr')).toBe(true);
    expect(cases.some((c: any) => Object.keys(c.kwargs).length === 0)).toBe(true);
  });

  it('reads option attributes only from a parameter the body calls no method on, and literal **kwargs keys', () => {
    const source = [
      'def a(args):', '    return args.version + args.part',
      'def b(self, other):', '    return other.to_tuple() < other.major',
      'def c(*seqs, **kwargs):', '    if "default" in kwargs:', '        return kwargs["default"]', '    return kwargs.get("key"), kwargs.pop("x", 1), kwargs.get(name)',
    ].join('\n');
    const read = runWithHarnessModule('worker', ['fn = ast.parse(sys.stdin.read()).body',
      'print(json.dumps([worker._attributes_read(fn[0], "args"), worker._attributes_read(fn[1], "other"), worker._keys_read(fn[2], "kwargs")]))'], source);
    expect(read).toEqual([['part', 'version'], [], ['default', 'key', 'x']]);
  });

  it('passes callables to a typing.Callable parameter', () => {
    const valid = returning('recfix.hinted:apply_twice');
    expect(valid.some((c: any) => c.args[0].v === 'lambda x: x + 1' && c.expect.returns.v === String(Number(c.args[1].v) + 2))).toBe(true);
  });

  it('passes one-shot iterators where a name (`items`) or an Iterable hint allows them, not judged after the call', () => {
    for (const id of ['recfix.iterables:take_evens', 'recfix.iterables:count_until']) {
      const iterators = returning(id).filter((c: any) => c.args[0].t === 'repr' && /^iter\(\[.*\]\)$/.test(c.args[0].v));
      expect(iterators.length, id).toBeGreaterThan(0);
      for (const c of iterators) {
        expect(c.argsAfter, id).toBeNull();
        expect(c.source, id).toBe('type-hint');
      }
    }
    // the lazy branch: an iterator stops at its first odd item, a list does not
    const evens = returning('recfix.iterables:take_evens');
    const stopped = evens.filter((c: any) => c.args[0].t === 'repr' && /^iter\(\[1, /.test(c.args[0].v));
    expect(stopped.length, JSON.stringify(evens.map((c: any) => [c.args[0].v, c.expect]))).toBeGreaterThan(0);
    for (const c of stopped) expect(c.expect.returns).toEqual({ t: 'list', v: [] });
  });

  it('judges a returned function by calling it on probe arguments, in the form the task evaluates', () => {
    const recorded = byId.get('recfix.closures:make_scaler');
    expect(recorded.drop).toBeNull();
    const probed = recorded.cases.filter((c: any) => Array.isArray(c.probe));
    expect(probed.length).toBeGreaterThanOrEqual(4);
    expect(recorded.rejected['callable-result']).toBeGreaterThan(0);
    // the task's form: list(<module>.make_scaler(<args>)(<probe>) for _ in (0,)), expecting [value]
    const judged = mutated.get('recfix.closures:make_scaler').cases;
    expect(judged.length).toBe(recorded.cases.length);
    for (const c of judged) {
      expect([c.module, c.target, c.args[0].t]).toEqual(['builtins', 'list', 'repr']);
      expect(c.args[0].v).toMatch(/^\(recfix\.closures\.make_scaler\(.*\)\(.*\) for _ in \(0,\)\)$/);
      expect('probe' in c).toBe(false);
    }
    const values = new Set(judged.filter((c: any) => 'returns' in c.expect).map((c: any) => JSON.stringify(c.expect.returns)));
    expect(values.size).toBeGreaterThan(3);
  });

  it('builds instances of a class whose constructor takes only *args from small ints', () => {
    const cases = returning('recfix.spans:Span.count');
    const sizes = new Set(cases.map((c: any) => c.init.args.length));
    expect(sizes.has(1) && sizes.has(2)).toBe(true);
    expect(new Set(cases.map((c: any) => c.expect.returns.v)).size).toBeGreaterThan(2);
  });

  it('passes slices where ints were seen for an index (`key`), and to a body reading key.start / key.step', () => {
    const cases = returning('recfix.spans:Span.__getitem__');
    const sliced = cases.filter((c: any) => c.args[0].t === 'repr' && /^slice\(/.test(c.args[0].v));
    expect(sliced.length).toBeGreaterThan(2);
    expect(sliced.every((c: any) => c.argsAfter === null && c.expect.returns.t === 'list')).toBe(true);
    expect(cases.some((c: any) => c.args[0].t === 'int')).toBe(true);
  });

  it('passes an object with just the attributes the body reads to an untyped parameter (args.version, args.part)', () => {
    const cases = returning('recfix.commands:bump_command');
    const namespaces = cases.filter((c: any) => c.args[0].t === 'repr' && c.args[0].v.startsWith('types.SimpleNamespace('));
    expect(namespaces.length).toBeGreaterThan(2);
    expect(namespaces.every((c: any) => /part=/.test(c.args[0].v) && /version=/.test(c.args[0].v))).toBe(true);
    expect(namespaces[0].source).toBe('type-hint');
    // every part reached: a major, a minor and a patch bump
    const bumped = namespaces.map((c: any) => c.expect.returns.v as string);
    expect(bumped.some((v) => /^\d+\.0\.0$/.test(v)) && bumped.some((v) => /\.0$/.test(v))).toBe(true);
  });

  it('kills at least 80% of the mutants with those cases', () => {
    for (const t of TARGETS) {
      const m = mutated.get(t.unitId as string);
      expect(m.error, String(t.unitId)).toBeNull();
      expect(m.mutation.total, String(t.unitId)).toBeGreaterThan(0);
      expect(m.mutation.score, `${t.unitId}: ${m.mutation.survivors.join('; ')}`).toBeGreaterThanOrEqual(0.8);
    }
  });
});

describe('generated callables downstream', () => {

  it('decodes and passes in the subject and the judge: lambdas, iterators, namespaces, generator and probed cases', () => {
    const cases = ['recfix.dicts:valmap', 'recfix.dicts:merge_with', 'recfix.hinted:apply_twice', 'recfix.commands:bump_command', 'recfix.iterables:take_evens'].flatMap((id) => byId.get(id).cases);
    const iterate = mutated.get('recfix.dicts:iterate').cases ?? [];
    const probed = mutated.get('recfix.closures:make_scaler').cases ?? [];
    expect(probed.length).toBeGreaterThan(0);
    const all = [...cases, ...iterate, ...probed];
    for (const form of ['lambda', 'iter([', 'types.SimpleNamespace(']) expect(all.some((c: any) => JSON.stringify(c.args).includes(form)), form).toBe(true);
    expect(judgeCases(all).filter(([ok]) => !ok)).toEqual([]);
  });

  it('judges a constructor by the state it leaves (vars, or the slots set), in the subject and the judge, and fails a wrong one', () => {
    const span = mutated.get('recfix.spans:Span.__init__').cases as any[];
    const release = mutated.get('recfix.releases:Release.__init__').cases as any[];
    for (const cases of [span, release]) {
      expect(cases.length).toBeGreaterThan(2);
      for (const c of cases) {
        expect([c.module, c.target, c.init]).toEqual(['builtins', 'list', null]);
        expect(c.args[0].v).toMatch(/ for _ in \(0,\) for _o in \(recfix\.(spans\.Span|releases\.Release)\(.*\),\)\)$/);
      }
    }
    // a dict-based instance gives its attributes, a __slots__ one the slots it set
    const state = (c: any): string[] => c.expect.returns.v[0].v.map(([k]: any) => k.v);
    expect(span.some((c: any) => 'returns' in c.expect && state(c).join() === 'start,stop,step')).toBe(true);
    expect(release.some((c: any) => 'returns' in c.expect && state(c).join() === 'major,minor,pre')).toBe(true);
    expect(release.some((c: any) => c.expect.raises === 'builtins.ValueError')).toBe(true);
    expect(judgeCases([...span, ...release]).filter(([ok]) => !ok)).toEqual([]);
    // the prompt shows the constructor call and the attributes it leaves
    const shown = release.find((c: any) => 'returns' in c.expect && c.args[0].v.includes('Release(1, 0)')) ?? release.find((c: any) => 'returns' in c.expect);
    const unit = { id: 'recfix.releases:Release.__init__', kind: 'method', module: 'recfix.releases', qualname: 'Release.__init__', file: 'recfix/releases.py', startLine: 16, endLine: 19,
      bodyStartLine: 17, bodyEndLine: 19, signature: 'def __init__(self, major, minor, pre=None):', params: [], returnAnnotation: null, docstring: null, decorators: [],
      statementCount: 3, codeLines: 4, calls: [], callSites: [], isAsync: false, isGenerator: false, impurities: [] } as Unit;
    const prompt = renderPrompt({ unit, cases: [shown], libraryName: 'recfix' });
    expect(prompt).toMatch(/>>> vars\(recfix\.releases\.Release\(.*\)\)\n\{'major': /);
  });

  it('renders as valid Python in the readable test, which passes', () => {
    const dir = tempDir('codemidas-readable-');
    for (const id of ['recfix.dicts:valmap', 'recfix.dicts:merge_with', 'recfix.dicts:unique']) {
      const [module, qualname] = id.split(':');
      const text = renderReadableTest({ taskId: id, module, target: qualname, cases: byId.get(id).cases });
      expect(text).toMatch(/lambda|operator\./);
      const file = join(dir, `test_${qualname}.py`);
      writeFileSync(file, text);
      const run = spawnSync(PYTHON, ['-B', '-m', 'pytest', '-q', '-p', 'no:cacheprovider', file], {
        encoding: 'utf8',
        cwd: dir,
        env: { ...process.env, PYTHONPATH: FIXTURE },
        timeout: 120_000,
      });
      expect(run.status, run.stdout + run.stderr).toBe(0);
    }
  });
});

describe('record.py inputs held in module data', () => {
  it("takes a traced argument with no repr (a spec holding a lambda) by its path in the module's registry; the cases pass the subject and judge", () => {
    const spec = target('accepts', 'recfix.specs');
    const recorded = runHarness('record.py', { runRepoTests: true, targets: [spec] });
    const t = recorded.targets[0];
    const traced = t.cases.filter((c: any) => c.source === 'repo-test');
    expect(traced.length).toBeGreaterThanOrEqual(6);
    const paths = traced.flatMap((c: any) => c.args[0].v.filter((x: any) => x.t === 'repr').map((x: any) => x.v as string));
    expect(paths).toEqual(expect.arrayContaining(["recfix.specs.REGISTRY['inc'][1]", "recfix.specs.REGISTRY['add'][1]", 'len']));
    expect(new Set(traced.map((c: any) => c.expect.returns?.v))).toEqual(new Set([true, false]));
    expect(judgeCases(t.cases).every(([ok]) => ok)).toBe(true);
    const mutated = runHarness('mutate.py', { targets: [{ ...spec, cases: t.cases }] });
    expect(mutated.targets[0].mutation.score).toBeGreaterThanOrEqual(0.8);
  }, 120_000);

  it('gives no path for an object the module does not hold, and none outside the HOME modules', () => {
    const out = runWithHarnessModule('worker', [
      'import types',
      'm = types.ModuleType("specmod"); sys.modules["specmod"] = m',
      'exec(sys.stdin.read(), vars(m))',
      'values = worker.values',
      'def tagged(v):',
      '    try:',
      '        return values.to_input(v)',
      '    except values.NotAnInput:',
      '        return None',
      'values.HOME = []',
      'outside = tagged(m.TABLE[0][1])',
      'values.HOME = ["specmod"]',
      'held = tagged(m.TABLE[0][1]); loose = tagged(lambda: 1); keyed = tagged(m.BY_FN[max][1])',
      'print(json.dumps([outside, held, worker.codec.decode(held) is m.TABLE[0][1], loose, keyed, worker._holds_callable(m.TABLE[0])]))',
    ], 'TABLE = [(0, lambda: 0)]\nBY_FN = {max: (2, lambda a, b: a)}\n');
    expect(out).toEqual([
      null,
      { t: 'repr', v: 'specmod.TABLE[0][1]', imports: ['specmod'] },
      true,
      null,
      { t: 'repr', v: 'specmod.BY_FN[max][1]', imports: ['specmod'] },
      true,
    ]);
  });
});

describe('values: receivers rebuilt from their attributes', () => {
  it("names an attribute kept from a default of the class's __init__ (a lambda no repr gives back) by that default", () => {
    const out = runWithHarnessModule('values', [
      `sys.path.insert(0, ${JSON.stringify(FIXTURE)})`,
      'values.codec = _load.load("codec")',
      'from recfix import bookings',
      'r = bookings.Reminder(9); r.send("a")',
      'tagged = values.to_input(r)',
      'back = values.codec.decode(tagged)',
      'other = bookings.Reminder(9, notify=print); other.notify = lambda t: t',
      'try:',
      '    values.to_input(other); refused = False',
      'except values.NotAnInput:',
      '    refused = True',
      'print(json.dumps({"source": tagged["v"], "same": back.notify is r.notify and back.sent == ["a"], "refused": refused}))',
    ], '');
    expect(out.source).toContain("'notify': (recfix.bookings.Reminder.__init__.__defaults__[0])");
    expect(out.same).toBe(true);
    // a lambda that is no default of the constructor still has no source form
    expect(out.refused).toBe(true);
  });
});
