/**
 * The Go record harness and judge (issue 20, first part) against the real docker engine, in the Go
 * image (Debian's golang-go): record_driver.py compiles a generated driver into each package of
 * examples/gokit with `go test` and records what its functions and methods do, twice, with the
 * inputs go-recorder.ts builds from call sites and types; judge.py scores workspaces against those
 * cases as the agent user: the original passes all, a masked body fails its own, and an agent's
 * `init` that exits, or its own TestMain, changes nothing. No Go on the host is needed.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import Dockerode from 'dockerode';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureImages, type ImageTags } from '../../src/images/image-builder.js';
import { createDockerImageResolver } from '../../src/images/docker-image-resolver.js';
import { createGoRecorder, GO_HARNESS_DIR_IN_SANDBOX } from '../../src/languages/go/go-recorder.js';
import { loadGoGrammar } from '../../src/languages/go/go-grammar.js';
import { maskGoBody } from '../../src/languages/go/mask-go-body.js';
import { parseGoUnits } from '../../src/languages/go/parse-go-units.js';
import type { Unit } from '../../src/languages/construction-types.js';
import { createSilentLogger } from '../../src/logging.js';
import { mutateResultSchema, recordResultSchema, type MutateResult, type RecordResult } from '../../src/pipeline/record/harness-result-schema.js';
import { projectRoot } from '../../src/project-root.js';
import { createDockerSandboxProvider } from '../../src/sandbox/docker/docker-sandbox-provider.js';
import type { FileEntry, SandboxProvider } from '../../src/sandbox/types.js';
import { withSandbox } from '../fixtures/with-sandbox.js';

const docker = new Dockerode();
const logger = createSilentLogger();
const serverId = `itest-go-${process.pid}`;
const GOKIT = join(projectRoot(), 'examples/gokit');
const SPIN = 'package loop\n\n// Spin never ends for a positive n.\nfunc Spin(n int) int {\n\tfor n > 0 {\n\t}\n\treturn n * 2\n}\n';

let tags: ImageTags;
let provider: SandboxProvider;
let units: Unit[];
let result: RecordResult;
let stillThere: string;
let mutated: MutateResult;
let afterMutation: string;
let targets: Record<string, unknown>[];
let workspace: FileEntry[];

const GO_SPEC = (role: 'episode' | 'scoring') => ({
  image: tags['go']!,
  role,
  workdir: '/workspace',
  resources: { memoryBytes: 2 * 1024 ** 3, cpus: 2, pids: 1024 },
  labels: { 'codemidas.purpose': `go-${role}` },
  expiresAt: new Date(Date.now() + 600_000),
});

function files(dir: string): string[] {
  const walk = (d: string): string[] => readdirSync(d).flatMap((n) => (statSync(join(d, n)).isDirectory() ? walk(join(d, n)) : [relative(dir, join(d, n))]));
  return walk(dir).sort();
}

beforeAll(async () => {
  tags = (await ensureImages({ docker, logger, languages: ['go'] })).tags;
  provider = createDockerSandboxProvider({ docker, logger, serverId, images: createDockerImageResolver({ docker, logger, tags }) });
  await provider.ping();
  units = (await parseGoUnits({ dir: GOKIT, origin: GOKIT, revision: 'working-tree', files: files(GOKIT) })).units;
  // a package written for this test: a function that never ends for a positive n
  const classes = new Map(units.filter((u) => u.kind === 'class').map((u) => [u.id, u] as const));
  const recorder = createGoRecorder({ seed: 1 });
  targets = units.filter((u) => u.kind !== 'class').map((unit) => recorder.target({ unit, reasons: [] }, classes, []));
  // an input the compiler refuses (a number for a string) is dropped; the others still run
  const reverse = targets.find((t) => t['unitId'] === 'textutil:Reverse')!;
  reverse['inputs'] = [...(reverse['inputs'] as unknown[]), { args: ['42'], source: 'type-hint' }];
  targets.push({ unitId: 'loop:Spin', package: 'loop', target: 'Spin', kind: 'function', params: [{ name: 'n', type: 'int', variadic: false }], inputs: ['0', '1', '-1'].map((n) => ({ args: [n], source: 'type-hint' })) });
  workspace = [
    ...files(GOKIT).map((path): FileEntry => ({ path, type: 'file', mode: 0o644, content: readFileSync(join(GOKIT, path)) })),
    { path: 'loop', type: 'directory', mode: 0o755 },
    { path: 'loop/loop.go', type: 'file', mode: 0o644, content: Buffer.from(SPIN) },
  ];
  await withSandbox(provider, GO_SPEC('episode'), async (sandbox) => {
    await sandbox.putFiles('/workspace', workspace);
    await sandbox.putFiles('/', await recorder.entries());
    const config = { repoRoot: '/workspace', workDir: '/tmp/codemidas-work', callTimeoutMs: 1500, maxCases: 40, targets };
    const run = await sandbox.exec({ argv: recorder.command('record') }, { timeoutMs: 300_000, maxOutputBytes: 64 * 1024 * 1024, cwd: '/workspace', stdin: Buffer.from(JSON.stringify(config)) });
    expect(run.exitCode, run.stderr).toBe(0);
    result = recordResultSchema.parse(JSON.parse(run.stdout));
    stillThere = (await sandbox.exec({ shell: 'ls /workspace/textutil' }, { timeoutMs: 10_000, maxOutputBytes: 4096 })).stdout;
    // the mutate run, on the recorded cases of gokit's own targets
    const withCases = targets.filter((t) => t['unitId'] !== 'loop:Spin').map((t) => ({ ...t, cases: result.targets.find((r) => r.unitId === t['unitId'])!.cases }));
    const mutate = await sandbox.exec({ argv: recorder.command('mutate') }, { timeoutMs: 600_000, maxOutputBytes: 64 * 1024 * 1024, cwd: '/workspace', stdin: Buffer.from(JSON.stringify({ ...config, maxMutants: 150, targets: withCases })) });
    expect(mutate.exitCode, mutate.stderr).toBe(0);
    mutated = mutateResultSchema.parse(JSON.parse(mutate.stdout));
    afterMutation = (await sandbox.exec({ shell: 'cat /workspace/textutil/reverse.go; ls -a /workspace /workspace/textutil' }, { timeoutMs: 10_000, maxOutputBytes: 65536 })).stdout;
  });
}, 600_000);

afterAll(async () => {
  await provider?.close();
  const left = await docker.listContainers({ all: true, filters: { label: [`codemidas.server=${serverId}`] } });
  await Promise.all(left.map((c) => docker.getContainer(c.Id).remove({ force: true }).catch(() => undefined)));
});

describe('the Go record harness in the Go image (issue 20)', () => {
  const target = (id: string): RecordResult['targets'][number] => {
    const found = result.targets.find((t) => t.unitId === id);
    if (found === undefined) throw new Error(`no result for ${id}`);
    return found;
  };
  const expectOf = (id: string, args: string[]): unknown => target(id).cases.find((c) => JSON.stringify(c.args.map((a) => (a as { v: string }).v)) === JSON.stringify(args))?.expect;

  it('records every function and method of the sample, from the harness at its path', () => {
    expect(recordResultSchema.safeParse(result).success).toBe(true);
    expect(createGoRecorder().command('record')).toEqual(['python3', `${GO_HARNESS_DIR_IN_SANDBOX}/record_driver.py`]);
    for (const t of result.targets) {
      expect(t.drop, t.unitId).toBeNull();
      expect(t.cases.length, t.unitId).toBeGreaterThan(0);
    }
  });

  it('keeps exact types: several results, an error as a value, a nil error, maps by sorted keys', () => {
    expect(expectOf('textutil:Reverse', ['"abc"'])).toEqual({ returns: { t: 'results', v: [{ t: 'string', type: 'string', v: 'cba' }, { t: 'nil', type: 'interface {}' }] } });
    expect(expectOf('textutil:Reverse', ['""'])).toEqual({ returns: { t: 'results', v: [{ t: 'string', type: 'string', v: '' }, { t: 'error', type: '*errors.errorString', msg: 'textutil: empty input' }] } });
    expect(expectOf('textutil:WordCount', ['"a b a"'])).toEqual({
      returns: { t: 'results', v: [{ t: 'map', type: 'map[string]int', v: [[{ t: 'string', type: 'string', v: 'a' }, { t: 'int', type: 'int', v: '2' }], [{ t: 'string', type: 'string', v: 'b' }, { t: 'int', type: 'int', v: '1' }]] }] },
    });
    expect(expectOf('textutil:splitWords', ['""'])).toEqual({ returns: { t: 'results', v: [{ t: 'nil', type: '[]string' }] } });
  });

  it('records a panic by the type of its value, and a method on receivers built from the struct, with the receiver after the call', () => {
    const scale = target('geom:Point.Scale');
    const negative = scale.cases.find((c) => (c.args[0] as { v: string }).v === '-2.25');
    expect(negative?.expect).toEqual({ raises: 'string' });
    const scaled = scale.cases.find((c) => (c.init?.args[0] as { v: string }).v === 'Point{X: 1, Y: 1}' && (c.args[0] as { v: string }).v === '1.5');
    expect(scaled?.expect).toEqual({ returns: { t: 'results', v: [] } });
    expect(scaled?.argsAfter?.[0]).toEqual({ t: 'struct', type: 'geom.Point', v: [['X', { t: 'float', type: 'float64', v: '1.5' }], ['Y', { t: 'float', type: 'float64', v: '1.5' }]] });
  });

  it('takes inputs from the repository tests, drops an input the compiler refuses, and puts the tests back', () => {
    // the literal call, then the tests' other string literals (the expected "hello-world" too)
    expect(target('textutil:Slugify').sources['repo-test']?.kept).toBeGreaterThanOrEqual(2);
    expect(expectOf('textutil:Slugify', ['"Hello, World!"'])).toEqual({ returns: { t: 'results', v: [{ t: 'string', type: 'string', v: 'hello-world' }] } });
    expect(expectOf('textutil:Slugify', ['"hello-world"'])).toEqual({ returns: { t: 'results', v: [{ t: 'string', type: 'string', v: 'hello-world' }] } });
    // a table-driven test: its rows' literals, not a literal call, give the inputs
    const parse = target('ledger:ParseCents');
    expect(parse.sources['repo-test']?.kept).toBeGreaterThanOrEqual(9);
    expect(expectOf('ledger:ParseCents', ['"1,234.5"'])).toEqual({ returns: { t: 'results', v: [{ t: 'int', type: 'int', v: '123450' }, { t: 'nil', type: 'interface {}' }] } });
    expect(target('textutil:Reverse').rejected).toEqual({ compile: 1 });
    expect(expectOf('textutil:Reverse', ['42'])).toBeUndefined();
    expect(stillThere.split('\n').filter(Boolean)).toEqual(['reverse.go', 'words.go', 'words_test.go']);
  });

  it('builds receivers with the package\'s own constructor calls, then from the struct', () => {
    const apply = target('ledger:Ledger.Apply');
    const receivers = new Set(apply.cases.map((c) => (c.init?.args[0] as { v: string }).v));
    expect(receivers.has('NewLedger(500)')).toBe(true);
    expect(receivers.has('Ledger{}')).toBe(true);
    // the test's own withdrawal, on the ledger its test builds: within the limit
    const withdraw = apply.cases.find((c) => (c.init?.args[0] as { v: string }).v === 'NewLedger(500)' && (c.args[0] as { v: string }).v === '-400');
    expect(withdraw?.expect).toEqual({ returns: { t: 'results', v: [{ t: 'nil', type: 'interface {}' }] } });
    expect(apply.cases.some((c) => JSON.stringify(c.expect).includes('ledger: over the credit limit'))).toBe(true);
  });

  it('drops a call that does not end and records the rest of the package', () => {
    const spin = target('loop:Spin');
    expect(spin.rejected).toEqual({ timeout: 1 });
    expect(spin.cases.map((c) => [(c.args[0] as { v: string }).v, c.expect])).toEqual([
      ['0', { returns: { t: 'results', v: [{ t: 'int', type: 'int', v: '0' }] } }],
      ['-1', { returns: { t: 'results', v: [{ t: 'int', type: 'int', v: '-2' }] } }],
    ]);
  });
});

describe('the Go mutate run in the Go image (issue 20)', () => {
  const of = (id: string): MutateResult['targets'][number] => mutated.targets.find((t) => t.unitId === id)!;

  it('scores each target by the mutants of its body its cases kill, a surviving mutant named by line', () => {
    // 15 mutants, the two string literals' among them (`"" → "x"`)
    expect(of('textutil:Reverse').mutation).toEqual({ total: 15, killed: 14, score: 14 / 15, survivors: ['line 14: < → <='] });
    // the search ran on the survivor, and no call tells an equivalent mutant apart
    expect(of('textutil:Reverse').search.tried).toBeGreaterThan(10);
    expect(of('textutil:Reverse').newCases).toEqual([]);
    expect(of('geom:Midpoint').mutation).toMatchObject({ total: 8, killed: 8, score: 1 });
    expect(of('geom:Point.Scale').mutation.killed).toBe(of('geom:Point.Scale').mutation.total);
    for (const t of mutated.targets) expect(t.error, t.unitId).toBeNull();
  });

  it('puts every mutated file back, and leaves no build folder in the workspace', () => {
    expect(afterMutation).toContain(readFileSync(join(GOKIT, 'textutil/reverse.go'), 'utf8'));
    expect(afterMutation).not.toContain('.codemidas-go-tmp');
    expect(afterMutation).not.toContain('zz_codemidas');
  });
});

describe('the Go judge in the Go image (issue 20)', () => {
  /** Judges `files` (the workspace, with changes) against every recorded case of gokit, as root in a scoring sandbox; the tests by case id. */
  const judge = async (files: FileEntry[], budgetMs = 240_000): Promise<Map<string, { status: string; message: string }>> => {
    const cases = result.targets.filter((t) => t.unitId !== 'loop:Spin').flatMap((t) => t.cases);
    return withSandbox(provider, GO_SPEC('scoring'), async (sandbox) => {
      await sandbox.putFiles('/workspace', files.map((f) => ({ ...f, uid: 1000, gid: 1000 })));
      await sandbox.putFiles('/', [
        { path: 'var/lib/codemidas/hidden', type: 'directory', mode: 0o700, uid: 0, gid: 0 },
        { path: 'var/lib/codemidas/hidden/cases.json', type: 'file', mode: 0o600, uid: 0, gid: 0, content: Buffer.from(JSON.stringify({ cases })) },
      ]);
      const nonce = 'n0123';
      const config = { workspace: '/workspace', hiddenDir: '/var/lib/codemidas/hidden', cases: 'cases.json', caseTimeoutMs: 3000, budgetMs, uid: 1000, gid: 1000, dropPrivileges: true, nonce };
      const run = await sandbox.exec({ argv: ['python3', '/opt/codemidas/go/judge.py'] }, { timeoutMs: 300_000, maxOutputBytes: 16 * 1024 * 1024, stdin: Buffer.from(JSON.stringify(config)) });
      expect(run.exitCode, run.stderr).toBe(0);
      const line = run.stdout.split('\n').find((l) => l.startsWith(`CODEMIDAS-JUDGE ${nonce} `));
      expect(line, run.stdout + run.stderr).toBeDefined();
      const judged = JSON.parse(line!.slice(`CODEMIDAS-JUDGE ${nonce} `.length)) as { tests: { name: string; status: string; message: string }[]; detail: string };
      expect(judged.detail).not.toContain('privileges not dropped');
      return new Map(judged.tests.map((t) => [t.name.replace(/^case:/, ''), t] as const));
    });
  };
  const idsOf = (unitId: string): string[] => result.targets.find((t) => t.unitId === unitId)!.cases.map((c) => c.id);
  const original = (): FileEntry[] => workspace.filter((f) => !f.path.startsWith('loop'));
  const replaced = (path: string, content: string): FileEntry[] => original().map((f) => (f.path === path ? { ...f, content: Buffer.from(content) } : f));

  it('passes every recorded case on the original, as the agent user', async () => {
    const tests = await judge(original());
    expect(tests.size).toBeGreaterThan(50);
    expect([...tests.values()].filter((t) => t.status !== 'passed')).toEqual([]);
  }, 600_000);

  it("fails a masked body's cases and only those", async () => {
    await loadGoGrammar();
    const reverse = units.find((u) => u.id === 'textutil:Reverse')!;
    const tests = await judge(replaced(reverse.file, maskGoBody(readFileSync(join(GOKIT, reverse.file), 'utf8'), reverse)));
    const own = new Set(idsOf('textutil:Reverse'));
    for (const [id, t] of tests) expect(t.status, id).toBe(own.has(id) ? 'failed' : 'passed');
    expect(tests.get([...own][0]!)?.message).toContain('not implemented');
  }, 600_000);

  it('fails every case when the agent\'s init ends the process, and ignores an agent\'s TestMain', async () => {
    const exits = await judge([...original(), { path: 'textutil/hack.go', type: 'file', mode: 0o644, content: Buffer.from('package textutil\n\nimport "os"\n\nfunc init() { os.Exit(0) }\n') }]);
    for (const id of idsOf('textutil:Slugify')) expect(exits.get(id)?.status).toBe('failed');
    for (const id of idsOf('geom:Midpoint')) expect(exits.get(id)?.status).toBe('passed');
    const main = await judge([...replaced('textutil/reverse.go', 'package textutil\n\nimport "errors"\n\nvar ErrEmpty = errors.New("x")\n\nfunc Reverse(s string) (string, error) { return s, nil }\n'),
      { path: 'textutil/main_test.go', type: 'file', mode: 0o644, content: Buffer.from('package textutil\n\nimport (\n\t"os"\n\t"testing"\n)\n\nfunc TestMain(m *testing.M) { os.Exit(0) }\n') }]);
    expect(idsOf('textutil:Reverse').filter((id) => main.get(id)?.status === 'failed').length).toBeGreaterThan(0);
    for (const id of idsOf('textutil:Slugify')) expect(main.get(id)?.status).toBe('passed');
  }, 600_000);

  it("scores an agent's init that never ends as failed cases within the judge's budget, not as an error", async () => {
    const started = Date.now();
    const hangs = await judge([...original(), { path: 'textutil/hang.go', type: 'file', mode: 0o644, content: Buffer.from('package textutil\n\nfunc init() {\n\tfor {\n\t}\n}\n') }], 40_000);
    expect(Date.now() - started).toBeLessThan(90_000);
    for (const id of idsOf('textutil:Reverse')) expect(hangs.get(id)?.status).toBe('failed');
    for (const id of idsOf('geom:Midpoint')) expect(hangs.get(id)?.status).toBe('passed');
  }, 600_000);
});

