/**
 * The Rust record harness, mutate run and judge against the real docker engine, in the Rust image
 * (Debian's rustc-web and cargo-web): record_driver.py compiles a generated driver module into each
 * module of examples/rustkit (a crate written here) and records what its functions and methods do,
 * twice, with the inputs rust-recorder.ts builds from call sites and types; mutate_driver.py scores
 * the cases by the token mutants they kill; judge.py scores workspaces as the agent user: the
 * original passes all, a masked body fails its own, and an exiting constructor, `process::exit`, a
 * build script or `panic = "abort"` do not help the agent. No Rust on the host is needed.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import Dockerode from 'dockerode';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureImages, type ImageTags } from '../../src/images/image-builder.js';
import { createDockerImageResolver } from '../../src/images/docker-image-resolver.js';
import type { Unit } from '../../src/languages/construction-types.js';
import { maskRustBody } from '../../src/languages/rust/mask-rust-body.js';
import { createRustPlugin } from '../../src/languages/rust/rust-plugin.js';
import { createRustRecorder, RUST_HARNESS_DIR_IN_SANDBOX } from '../../src/languages/rust/rust-recorder.js';
import { createSilentLogger } from '../../src/logging.js';
import { mutateResultSchema, recordResultSchema, type MutateResult, type RecordResult } from '../../src/pipeline/record/harness-result-schema.js';
import { projectRoot } from '../../src/project-root.js';
import { createDockerSandboxProvider } from '../../src/sandbox/docker/docker-sandbox-provider.js';
import type { FileEntry, SandboxProvider } from '../../src/sandbox/types.js';
import { withSandbox } from '../fixtures/with-sandbox.js';

const docker = new Dockerode();
const logger = createSilentLogger();
const serverId = `itest-rust-${process.pid}`;
const RUSTKIT = join(projectRoot(), 'examples/rustkit');
const SPIN = '/// Never ends for a positive n.\npub fn spin(n: i32) -> i32 {\n    let mut k = n;\n    while k > 0 {\n        k = n;\n    }\n    k * 2\n}\n';
const TARGETS = ['src/text.rs:slugify', 'src/text.rs:capitalize', 'src/numbers.rs:gcd', 'src/numbers.rs:floor_div', 'src/numbers.rs:kth_smallest', 'src/numbers.rs:mean', 'src/geom.rs:Point.shift'];

let tags: ImageTags;
let provider: SandboxProvider;
let units: Unit[];
let result: RecordResult;
let restored: string;
let mutated: MutateResult;
let afterMutation: string;
let workspace: FileEntry[];

const RUST_SPEC = (role: 'episode' | 'scoring') => ({
  image: tags['rust']!,
  role,
  workdir: '/workspace',
  resources: { memoryBytes: 2 * 1024 ** 3, cpus: 2, pids: 1024 },
  labels: { 'codemidas.purpose': `rust-${role}` },
  expiresAt: new Date(Date.now() + 600_000),
});

function files(dir: string): string[] {
  const walk = (d: string): string[] => readdirSync(d).flatMap((n) => (statSync(join(d, n)).isDirectory() ? walk(join(d, n)) : [relative(dir, join(d, n))]));
  return walk(dir).filter((f) => !f.startsWith('target/')).sort();
}

beforeAll(async () => {
  tags = (await ensureImages({ docker, logger, languages: ['rust'] })).tags;
  provider = createDockerSandboxProvider({ docker, logger, serverId, images: createDockerImageResolver({ docker, logger, tags }) });
  await provider.ping();
  units = (await createRustPlugin().parseUnits({ dir: RUSTKIT, origin: RUSTKIT, revision: 'working-tree', files: files(RUSTKIT) })).units;
  const classes = new Map(units.filter((u) => u.kind === 'class').map((u) => [u.id, u] as const));
  const recorder = createRustRecorder({ seed: 1 });
  const targets = TARGETS.map((id) => recorder.target({ unit: units.find((u) => u.id === id)!, reasons: [] }, classes, []));
  // an input the compiler refuses (a number for a &str) is dropped; the others still run
  const slugify = targets.find((t) => t['unitId'] === 'src/text.rs:slugify')!;
  slugify['inputs'] = [...(slugify['inputs'] as unknown[]), { args: ['42'], source: 'type-hint' }];
  // a module written for this test: a function that never ends for a positive n
  targets.push({ unitId: 'src/spin.rs:spin', module: 'src/spin.rs', target: 'spin', kind: 'function', params: [{ name: 'n', type: 'i32' }], inputs: ['0', '1', '-1'].map((n) => ({ args: [n], source: 'type-hint' })) });
  workspace = [
    ...files(RUSTKIT).map((path): FileEntry => ({ path, type: 'file', mode: 0o644, content: path === 'src/lib.rs' ? Buffer.from(`${readFileSync(join(RUSTKIT, path), 'utf8')}\npub mod spin;\n`) : readFileSync(join(RUSTKIT, path)) })),
    { path: 'src/spin.rs', type: 'file', mode: 0o644, content: Buffer.from(SPIN) },
  ];
  await withSandbox(provider, RUST_SPEC('episode'), async (sandbox) => {
    await sandbox.putFiles('/workspace', workspace);
    await sandbox.putFiles('/', await recorder.entries());
    const config = { repoRoot: '/workspace', workDir: '/tmp/codemidas-work', callTimeoutMs: 1500, maxCases: 40, targets };
    const run = await sandbox.exec({ argv: recorder.command('record') }, { timeoutMs: 300_000, maxOutputBytes: 64 * 1024 * 1024, cwd: '/workspace', stdin: Buffer.from(JSON.stringify(config)) });
    expect(run.exitCode, run.stderr).toBe(0);
    result = recordResultSchema.parse(JSON.parse(run.stdout));
    restored = (await sandbox.exec({ shell: 'cat /workspace/src/lib.rs /workspace/src/text.rs /workspace/Cargo.toml; ls -a /workspace /workspace/src' }, { timeoutMs: 10_000, maxOutputBytes: 65536 })).stdout;
    // the mutate run, on the recorded cases of two targets
    const withCases = targets.filter((t) => ['src/numbers.rs:floor_div', 'src/numbers.rs:gcd'].includes(t['unitId'] as string)).map((t) => ({ ...t, cases: result.targets.find((r) => r.unitId === t['unitId'])!.cases }));
    const mutate = await sandbox.exec({ argv: recorder.command('mutate') }, { timeoutMs: 600_000, maxOutputBytes: 64 * 1024 * 1024, cwd: '/workspace', stdin: Buffer.from(JSON.stringify({ ...config, maxMutants: 150, targets: withCases })) });
    expect(mutate.exitCode, mutate.stderr).toBe(0);
    mutated = mutateResultSchema.parse(JSON.parse(mutate.stdout));
    afterMutation = (await sandbox.exec({ shell: 'cat /workspace/src/numbers.rs; ls -a /workspace /workspace/src' }, { timeoutMs: 10_000, maxOutputBytes: 65536 })).stdout;
  });
}, 600_000);

afterAll(async () => {
  await provider?.close();
  const left = await docker.listContainers({ all: true, filters: { label: [`codemidas.server=${serverId}`] } });
  await Promise.all(left.map((c) => docker.getContainer(c.Id).remove({ force: true }).catch(() => undefined)));
});

const target = (id: string): RecordResult['targets'][number] => {
  const found = result.targets.find((t) => t.unitId === id);
  if (found === undefined) throw new Error(`no result for ${id}`);
  return found;
};
const argsOf = (c: { args: unknown[] }): string[] => c.args.map((a) => (a as { v: string }).v);
const expectOf = (id: string, args: string[]): unknown => target(id).cases.find((c) => JSON.stringify(argsOf(c)) === JSON.stringify(args))?.expect;

describe('the Rust record harness in the Rust image', () => {
  it('records every target, from the harness at its path', () => {
    expect(createRustRecorder().command('record')).toEqual(['python3', `${RUST_HARNESS_DIR_IN_SANDBOX}/record_driver.py`]);
    for (const id of TARGETS) {
      expect(target(id).drop, id).toBeNull();
      expect(target(id).cases.length, id).toBeGreaterThan(0);
    }
  });

  it('keeps types: a String, a Result with its Err, an Option of a float, a panic; a private function reached from its module', () => {
    expect(expectOf('src/text.rs:slugify', ['"Hello, World!"'])).toEqual({ returns: { t: 'rust', type: 'alloc::string::String', v: '"hello-world"' } });
    expect(target('src/text.rs:slugify').sources['repo-test']).toEqual({ tried: 2, kept: 2 });
    expect(expectOf('src/numbers.rs:floor_div', ['1', '-5'])).toEqual({ returns: { t: 'rust', type: 'core::result::Result<i32, alloc::string::String>', v: 'Ok(-1)' } });
    const err = target('src/numbers.rs:floor_div').cases.find((c) => argsOf(c)[1] === '0');
    expect(err?.expect).toEqual({ returns: { t: 'rust', type: 'core::result::Result<i32, alloc::string::String>', v: 'Err("division by zero")' } });
    expect(err?.path).toBe('returns Err');
    expect(expectOf('src/numbers.rs:mean', ['&[]'])).toEqual({ returns: { t: 'rust', type: 'core::option::Option<f64>', v: 'None' } });
    expect(expectOf('src/numbers.rs:kth_smallest', ['&[]', '0'])).toEqual({ raises: 'panic' });
    expect(expectOf('src/text.rs:capitalize', ['"abc"'])).toEqual({ returns: { t: 'rust', type: 'alloc::string::String', v: '"Abc"' } });
  });

  it('calls a &mut self method on its receivers and records the receiver afterwards', () => {
    const onNew = target('src/geom.rs:Point.shift').cases.filter((c) => (c.init?.args[0] as { v: string }).v === 'Point::new(1, 2)');
    expect(onNew.length).toBeGreaterThan(3);
    for (const c of onNew) {
      const [dx, dy] = argsOf(c).map(Number) as [number, number];
      expect(c.expect).toEqual({ returns: { t: 'rust', type: 'i32', v: String(Math.abs(1 + dx) + Math.abs(2 + dy)) } });
      // argsAfter only where the call changed something
      if (dx === 0 && dy === 0) expect(c.argsAfter).toBeNull();
      else expect(c.argsAfter?.[0]).toEqual({ t: 'rust', type: 'rustkit::geom::Point', v: `Point { x: ${1 + dx}, y: ${2 + dy} }` });
    }
  });

  it('drops an input the compiler refuses and a call that does not end, records the rest, and puts the crate back', () => {
    expect(target('src/text.rs:slugify').rejected).toEqual({ compile: 1 });
    expect(expectOf('src/text.rs:slugify', ['42'])).toBeUndefined();
    const spin = target('src/spin.rs:spin');
    expect(spin.rejected).toEqual({ timeout: 1 });
    expect(spin.cases.map((c) => [argsOf(c), c.expect])).toEqual([
      [['0'], { returns: { t: 'rust', type: 'i32', v: '0' } }],
      [['-1'], { returns: { t: 'rust', type: 'i32', v: '-2' } }],
    ]);
    expect(restored).toContain(`${readFileSync(join(RUSTKIT, 'src/lib.rs'), 'utf8')}\npub mod spin;\n`);
    expect(restored).toContain(readFileSync(join(RUSTKIT, 'src/text.rs'), 'utf8'));
    expect(restored).toContain(readFileSync(join(RUSTKIT, 'Cargo.toml'), 'utf8'));
    expect(restored).not.toContain('zz_codemidas');
    expect(restored).not.toContain('.codemidas-rust-target');
  });
});

describe('the Rust mutate run in the Rust image', () => {
  const of = (id: string): MutateResult['targets'][number] => mutated.targets.find((t) => t.unitId === id)!;

  it('scores each target by the mutants of its body its cases kill, a surviving mutant named by line', () => {
    for (const t of mutated.targets) expect(t.error, t.unitId).toBeNull();
    const gcd = of('src/numbers.rs:gcd').mutation;
    expect(gcd.total).toBeGreaterThan(0);
    expect(gcd.killed).toBe(gcd.total);
    const floorDiv = of('src/numbers.rs:floor_div').mutation;
    expect(floorDiv.total).toBeLessThanOrEqual(24);
    expect(floorDiv.killed).toBeGreaterThan(floorDiv.total / 2);
    for (const s of floorDiv.survivors) expect(s).toMatch(/^line \d+: \S+ → \S+$/);
  });

  it('puts every mutated file back, and leaves no build folder in the workspace', () => {
    expect(afterMutation).toContain(readFileSync(join(RUSTKIT, 'src/numbers.rs'), 'utf8'));
    expect(afterMutation).not.toContain('.codemidas-rust-target');
    expect(afterMutation).not.toContain('zz_codemidas');
  });
});

describe('the Rust judge in the Rust image', () => {
  /** Judges `files` (the workspace, with changes) against the recorded cases of the targets, as root in a scoring sandbox; the tests by case id. */
  const judge = async (files: FileEntry[], budgetMs = 240_000): Promise<Map<string, { status: string; message: string }>> => {
    const cases = TARGETS.flatMap((id) => target(id).cases);
    return withSandbox(provider, RUST_SPEC('scoring'), async (sandbox) => {
      await sandbox.putFiles('/workspace', files.map((f) => ({ ...f, uid: 1000, gid: 1000 })));
      await sandbox.putFiles('/', [
        { path: 'var/lib/codemidas/hidden', type: 'directory', mode: 0o700, uid: 0, gid: 0 },
        { path: 'var/lib/codemidas/hidden/cases.json', type: 'file', mode: 0o600, uid: 0, gid: 0, content: Buffer.from(JSON.stringify({ cases })) },
      ]);
      const nonce = 'n0123';
      const config = { workspace: '/workspace', hiddenDir: '/var/lib/codemidas/hidden', cases: 'cases.json', caseTimeoutMs: 3000, budgetMs, uid: 1000, gid: 1000, dropPrivileges: true, nonce };
      const run = await sandbox.exec({ argv: ['python3', '/opt/codemidas/rust/judge.py'] }, { timeoutMs: 300_000, maxOutputBytes: 16 * 1024 * 1024, stdin: Buffer.from(JSON.stringify(config)) });
      expect(run.exitCode, run.stderr).toBe(0);
      const line = run.stdout.split('\n').find((l) => l.startsWith(`CODEMIDAS-JUDGE ${nonce} `));
      expect(line, run.stdout + run.stderr).toBeDefined();
      const judged = JSON.parse(line!.slice(`CODEMIDAS-JUDGE ${nonce} `.length)) as { tests: { name: string; status: string; message: string }[]; detail: string };
      expect(judged.detail).not.toContain('privileges not dropped');
      return new Map(judged.tests.map((t) => [t.name.replace(/^case:/, ''), t] as const));
    });
  };
  const idsOf = (unitId: string): string[] => target(unitId).cases.map((c) => c.id);
  const original = (): FileEntry[] => workspace.filter((f) => f.path !== 'src/spin.rs').map((f) => (f.path === 'src/lib.rs' ? { ...f, content: readFileSync(join(RUSTKIT, 'src/lib.rs')) } : f));
  const replaced = (path: string, edit: (text: string) => string): FileEntry[] => original().map((f) => (f.path === path ? { ...f, content: Buffer.from(edit(f.content!.toString('utf8'))) } : f));
  const statuses = (tests: Map<string, { status: string }>, unitId: string): string[] => [...new Set(idsOf(unitId).map((id) => tests.get(id)?.status ?? 'missing'))];

  it('passes every recorded case on the original, as the agent user', async () => {
    const tests = await judge(original());
    expect(tests.size).toBe(TARGETS.reduce((n, id) => n + target(id).cases.length, 0));
    expect([...tests.values()].filter((t) => t.status !== 'passed')).toEqual([]);
  }, 600_000);

  it("fails a masked body's cases and only those; a workspace that does not compile fails every case", async () => {
    const slugify = units.find((u) => u.id === 'src/text.rs:slugify')!;
    const tests = await judge(replaced('src/text.rs', (text) => maskRustBody(text, slugify)));
    const own = new Set(idsOf('src/text.rs:slugify'));
    for (const [id, t] of tests) expect(t.status, id).toBe(own.has(id) ? 'failed' : 'passed');
    expect(tests.get([...own][0]!)?.message).toContain('not implemented');
    const broken = await judge(replaced('src/numbers.rs', (text) => text.replace('pub fn gcd(a: u64, b: u64) -> u64 {', 'pub fn gcd(a: u64, b: u64) -> u64 { let oops: u32 = "x";')));
    expect([...new Set([...broken.values()].map((t) => t.status))]).toEqual(['failed']);
  }, 600_000);

  it('fails every case when a constructor ends the process, and the cases of a body that calls process::exit', async () => {
    const constructor = '\n#[used]\n#[link_section = ".init_array"]\nstatic CODEMIDAS_TEST_EXIT: extern "C" fn() = {\n    extern "C" fn exit_now() {\n        std::process::exit(0)\n    }\n    exit_now\n};\n';
    const exits = await judge(replaced('src/lib.rs', (text) => text + constructor));
    expect([...new Set([...exits.values()].map((t) => t.status))]).toEqual(['failed']);
    const gcd = units.find((u) => u.id === 'src/numbers.rs:gcd')!;
    const exitBody = await judge(replaced('src/numbers.rs', (text) => maskRustBody(text, gcd).replace('pub fn gcd(a: u64, b: u64) -> u64 {\n    unimplemented!()', 'pub fn gcd(a: u64, b: u64) -> u64 {\n    std::process::exit(0)')));
    expect(statuses(exitBody, 'src/numbers.rs:gcd')).toEqual(['failed']);
    expect(statuses(exitBody, 'src/text.rs:slugify')).toEqual(['passed']);
    expect(statuses(exitBody, 'src/numbers.rs:floor_div')).toEqual(['passed']);
  }, 600_000);

  it('never writes through a link the agent planted: a module file that is a link fails its cases, the build folder is made afresh', async () => {
    const linked = await judge([
      ...original().filter((f) => f.path !== 'src/text.rs'),
      { path: 'src/text.rs', type: 'symlink', mode: 0o777, linkTarget: '/etc/hostname' },
      // a link at the judge's build folder name for a range of pids: handed to the agent user it would give away the folder it points to
      ...Array.from({ length: 200 }, (_, k): FileEntry => ({ path: `.codemidas-rust-target-${k + 1}`, type: 'symlink', mode: 0o777, linkTarget: '/var/lib/codemidas/hidden' })),
    ]);
    expect(statuses(linked, 'src/text.rs:slugify')).toEqual(['failed']);
    expect([...linked.values()].length).toBe(TARGETS.reduce((n, id) => n + target(id).cases.length, 0));
  }, 600_000);

  it('never runs the agent\'s build.rs, and panic = "abort" in Cargo.toml does not stop panics from being caught', async () => {
    const buildScript = { path: 'build.rs', type: 'file' as const, mode: 0o644, content: Buffer.from('fn main() {\n    panic!("the build script ran");\n}\n') };
    const withBuild = await judge([...replaced('Cargo.toml', (text) => text.replace('[package]\n', '[package]\nbuild = "build.rs"\n')), buildScript]);
    expect([...withBuild.values()].filter((t) => t.status !== 'passed')).toEqual([]);
    const abort = await judge(replaced('Cargo.toml', (text) => `${text}\n[profile.dev]\npanic = "abort"\n\n[profile.test]\npanic = "abort"\n`));
    expect([...abort.values()].filter((t) => t.status !== 'passed')).toEqual([]);
    expect(statuses(abort, 'src/numbers.rs:kth_smallest')).toEqual(['passed']);
  }, 600_000);
});
