/**
 * The Java record harness, mutate run and judge against the real docker engine, in the Java image
 * (Debian's default-jdk-headless): record_driver.py compiles a generated driver class into each
 * target's package of examples/javakit with javac and records what its methods and constructors do,
 * twice, with the inputs java-recorder.ts builds from call sites and types; mutate_driver.py scores
 * the recorded cases by the mutants they kill; judge.py scores workspaces against those cases as the
 * agent user: the original passes all, a masked body fails its own, and an agent's static
 * initialiser that exits or prints a fake verdict, a class named like the driver, a class named
 * `Object` in the package, or a `META-INF/services` file change nothing they should not. No Java on
 * the host is needed.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import Dockerode from 'dockerode';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureImages, type ImageTags } from '../../src/images/image-builder.js';
import { createDockerImageResolver } from '../../src/images/docker-image-resolver.js';
import { createJavaRecorder, JAVA_HARNESS_DIR_IN_SANDBOX } from '../../src/languages/java/java-recorder.js';
import { loadJavaGrammar } from '../../src/languages/java/java-grammar.js';
import { maskJavaBody } from '../../src/languages/java/mask-java-body.js';
import { parseJavaUnits } from '../../src/languages/java/parse-java-units.js';
import type { Unit } from '../../src/languages/construction-types.js';
import { createSilentLogger } from '../../src/logging.js';
import { mutateResultSchema, recordResultSchema, type MutateResult, type RecordResult } from '../../src/pipeline/record/harness-result-schema.js';
import { projectRoot } from '../../src/project-root.js';
import { createDockerSandboxProvider } from '../../src/sandbox/docker/docker-sandbox-provider.js';
import type { FileEntry, SandboxProvider } from '../../src/sandbox/types.js';
import { withSandbox } from '../fixtures/with-sandbox.js';

const docker = new Dockerode();
const logger = createSilentLogger();
const serverId = `itest-java-${process.pid}`;
const JAVAKIT = join(projectRoot(), 'examples/javakit');
const SPIN_FILE = 'src/main/java/org/javakit/loop/Spin.java';
const SPIN = 'package org.javakit.loop;\n\npublic class Spin {\n    /** Never ends for a positive n. */\n    public static int spin(int n) {\n        while (n > 0) {\n        }\n        return n * 2;\n    }\n}\n';
const STRINGS = 'src/main/java/org/javakit/text/Strings.java';

let tags: ImageTags;
let provider: SandboxProvider;
let units: Unit[];
let result: RecordResult;
let mutated: MutateResult;
let afterRun: string;
let targets: Record<string, unknown>[];
let workspace: FileEntry[];

const JAVA_SPEC = (role: 'episode' | 'scoring') => ({
  image: tags['java']!,
  role,
  workdir: '/workspace',
  resources: { memoryBytes: 2 * 1024 ** 3, cpus: 2, pids: 1024 },
  labels: { 'codemidas.purpose': `java-${role}` },
  expiresAt: new Date(Date.now() + 600_000),
});

function files(dir: string): string[] {
  const walk = (d: string): string[] => readdirSync(d).flatMap((n) => (statSync(join(d, n)).isDirectory() ? walk(join(d, n)) : [relative(dir, join(d, n))]));
  return walk(dir).sort();
}

const MUTATED = ['org.javakit.text:Strings.reverse', 'org.javakit.num:Ints.gcd', 'org.javakit.num:Vec2.scale'];

beforeAll(async () => {
  tags = (await ensureImages({ docker, logger, languages: ['java'] })).tags;
  provider = createDockerSandboxProvider({ docker, logger, serverId, images: createDockerImageResolver({ docker, logger, tags }) });
  await provider.ping();
  units = (await parseJavaUnits({ dir: JAVAKIT, origin: JAVAKIT, revision: 'working-tree', files: files(JAVAKIT) })).units;
  const classes = new Map(units.filter((u) => u.kind === 'class').map((u) => [u.id, u] as const));
  const recorder = createJavaRecorder({ seed: 1 });
  targets = units.filter((u) => u.kind !== 'class').map((unit) => recorder.target({ unit, reasons: [] }, classes, []));
  // an input javac refuses (a number for a String) is dropped; the others still run
  const reverse = targets.find((t) => t['unitId'] === 'org.javakit.text:Strings.reverse')!;
  reverse['inputs'] = [...(reverse['inputs'] as unknown[]), { args: ['42'], source: 'type-hint' }];
  // a class written for this test: a method that never ends for a positive n
  targets.push({ unitId: 'org.javakit.loop:Spin.spin', package: 'org.javakit.loop', file: SPIN_FILE, cls: 'Spin', member: 'spin', target: 'Spin.spin', static: true, ctor: false, void: false, params: [{ name: 'n', type: 'int' }], inputs: ['0', '1', '-1'].map((n) => ({ args: [n], source: 'type-hint' })) });
  workspace = files(JAVAKIT).map((path): FileEntry => ({ path, type: 'file', mode: 0o644, content: readFileSync(join(JAVAKIT, path)) }));
  const withSpin: FileEntry[] = [...workspace, { path: 'src/main/java/org/javakit/loop', type: 'directory', mode: 0o755 }, { path: SPIN_FILE, type: 'file', mode: 0o644, content: Buffer.from(SPIN) }];
  await withSandbox(provider, JAVA_SPEC('episode'), async (sandbox) => {
    await sandbox.putFiles('/workspace', withSpin);
    await sandbox.putFiles('/', await recorder.entries());
    const config = { repoRoot: '/workspace', workDir: '/tmp/codemidas-work', callTimeoutMs: 1500, maxCases: 40, targets };
    const run = await sandbox.exec({ argv: recorder.command('record') }, { timeoutMs: 300_000, maxOutputBytes: 64 * 1024 * 1024, cwd: '/workspace', stdin: Buffer.from(JSON.stringify(config)) });
    expect(run.exitCode, run.stderr).toBe(0);
    result = recordResultSchema.parse(JSON.parse(run.stdout));
    const withCases = targets.filter((t) => MUTATED.includes(t['unitId'] as string)).map((t) => ({ ...t, cases: result.targets.find((r) => r.unitId === t['unitId'])!.cases }));
    const mutate = await sandbox.exec({ argv: recorder.command('mutate') }, { timeoutMs: 600_000, maxOutputBytes: 64 * 1024 * 1024, cwd: '/workspace', stdin: Buffer.from(JSON.stringify({ ...config, maxMutants: 150, targets: withCases })) });
    expect(mutate.exitCode, mutate.stderr).toBe(0);
    mutated = mutateResultSchema.parse(JSON.parse(mutate.stdout));
    afterRun = (await sandbox.exec({ shell: `cat /workspace/${STRINGS}; find /workspace -name '*.class' -o -name 'Codemidas*'; ls /tmp/codemidas-work` }, { timeoutMs: 10_000, maxOutputBytes: 65536 })).stdout;
  });
}, 600_000);

afterAll(async () => {
  await provider?.close();
  const left = await docker.listContainers({ all: true, filters: { label: [`codemidas.server=${serverId}`] } });
  await Promise.all(left.map((c) => docker.getContainer(c.Id).remove({ force: true }).catch(() => undefined)));
});

describe('the Java record harness in the Java image', () => {
  const target = (id: string): RecordResult['targets'][number] => {
    const found = result.targets.find((t) => t.unitId === id);
    if (found === undefined) throw new Error(`no result for ${id}`);
    return found;
  };
  const caseOf = (id: string, args: string[], receiver?: string) =>
    target(id).cases.find((c) => JSON.stringify(c.args.map((a) => (a as { v: string }).v)) === JSON.stringify(args) && (receiver === undefined || (c.init?.args[0] as { v: string } | undefined)?.v === receiver));

  it('records every method and constructor of the sample, from the harness at its path', () => {
    expect(createJavaRecorder().command('record')).toEqual(['python3', `${JAVA_HARNESS_DIR_IN_SANDBOX}/record_driver.py`]);
    for (const t of result.targets) {
      expect(t.drop, `${t.unitId} ${JSON.stringify(t.drop)} ${JSON.stringify(t.rejected)}`).toBeNull();
      expect(t.cases.length, t.unitId).toBeGreaterThan(0);
    }
  });

  it('keeps exact types: strings, longs, int arrays, maps by sorted keys, lists, objects by their fields', () => {
    expect(caseOf('org.javakit.text:Strings.reverse', ['"abc"'])?.expect).toEqual({ returns: { t: 'str', v: 'cba' } });
    expect(caseOf('org.javakit.num:Ints.digitSum', ['42L'])?.expect).toEqual({ returns: { t: 'int', type: 'long', v: '6' } });
    expect(caseOf('org.javakit.num:Ints.prefixSums', ['new int[] {1, -1}'])?.expect).toEqual({ returns: { t: 'array', type: 'int[]', v: [{ t: 'int', type: 'int', v: '1' }, { t: 'int', type: 'int', v: '0' }] } });
    expect(caseOf('org.javakit.text:WordCounter.count', ['"A B a"'])?.expect).toEqual({
      returns: { t: 'map', type: 'Map', v: [[{ t: 'str', v: 'a' }, { t: 'int', type: 'int', v: '2' }], [{ t: 'str', v: 'b' }, { t: 'int', type: 'int', v: '1' }]] },
    });
    expect(caseOf('org.javakit.text:Strings.splitWords', ['"a-b_c"'])?.expect).toEqual({ returns: { t: 'list', type: 'List', v: [{ t: 'str', v: 'a' }, { t: 'str', v: 'b' }, { t: 'str', v: 'c' }] } });
    expect(caseOf('org.javakit.num:Vec2.new', ['1.0', '-2.25'])?.expect).toEqual({
      returns: { t: 'obj', type: 'org.javakit.num.Vec2', v: [['x', { t: 'float', type: 'double', v: '1.0' }], ['y', { t: 'float', type: 'double', v: '-2.25' }]] },
    });
  });

  it('calls a generic method with Integer for its type variable', () => {
    expect(caseOf('org.javakit.text:Lists.rotate', ['new java.util.ArrayList<>(java.util.List.of(1, -1))', '1'])?.expect).toEqual({ returns: { t: 'list', type: 'List', v: [{ t: 'int', type: 'int', v: '-1' }, { t: 'int', type: 'int', v: '1' }] } });
    expect(caseOf('org.javakit.text:Lists.rotate', ['new java.util.ArrayList<>(java.util.List.of(1, -1))', '1'])?.args[0]).toMatchObject({ type: 'List<Integer>' });
  });

  it('calls a private method through reflection, and records what it throws as itself', () => {
    expect(caseOf('org.javakit.text:Strings.isVowel', ["'a'"])?.expect).toEqual({ returns: { t: 'bool', v: true } });
    expect(caseOf('org.javakit.text:Strings.isVowel', ["'Z'"])?.expect).toEqual({ returns: { t: 'bool', v: false } });
    const call = (caseOf('org.javakit.text:Strings.isVowel', ["'a'"])?.init?.kwargs as { call: { reflect?: boolean } }).call;
    expect(call.reflect).toBe(true);
  });

  it('records an exception by its class, and an instance method on receivers built from the constructor, with the receiver after the call', () => {
    expect(caseOf('org.javakit.text:Strings.reverse', ['""'])?.expect).toEqual({ raises: 'java.lang.IllegalArgumentException' });
    expect(caseOf('org.javakit.text:Strings.reverse', ['null'])?.expect).toEqual({ raises: 'java.lang.NullPointerException' });
    const scaled = caseOf('org.javakit.num:Vec2.scale', ['1.5'], 'new Vec2(1.0, 1.0)');
    expect(scaled?.expect).toEqual({ returns: { t: 'void' } });
    expect(scaled?.argsAfter?.[0]).toEqual({ t: 'obj', type: 'org.javakit.num.Vec2', v: [['x', { t: 'float', type: 'double', v: '1.5' }], ['y', { t: 'float', type: 'double', v: '1.5' }]] });
    expect(caseOf('org.javakit.num:Vec2.scale', ['-2.25'], 'new Vec2(1.0, 1.0)')?.expect).toEqual({ raises: 'java.lang.IllegalArgumentException' });
    expect(caseOf('org.javakit.num:IntStack.pop', [], 'new IntStack()')?.expect).toEqual({ raises: 'java.lang.IllegalStateException' });
    // a receiver warmed by the class's void method first: the last value pushed comes back
    const warmed = '((CodemidasMake<IntStack>) () -> { IntStack codemidasW = new IntStack(); codemidasW.push(2); codemidasW.push(7); return codemidasW; }).make()';
    expect(caseOf('org.javakit.num:IntStack.pop', [], warmed)?.expect).toEqual({ returns: { t: 'int', type: 'int', v: '7' } });
  });

  it('takes inputs from the repository tests, drops an input javac refuses, and leaves the repository as it was', () => {
    expect(target('org.javakit.text:Strings.slugify').sources['repo-test']).toEqual({ tried: 1, kept: 1 });
    expect(caseOf('org.javakit.text:Strings.slugify', ['"Hello, World!"'])?.expect).toEqual({ returns: { t: 'str', v: 'hello-world' } });
    expect(target('org.javakit.text:Strings.reverse').rejected).toEqual({ compile: 1 });
    expect(caseOf('org.javakit.text:Strings.reverse', ['42'])).toBeUndefined();
    expect(afterRun).toContain(readFileSync(join(JAVAKIT, STRINGS), 'utf8'));
    expect(afterRun).not.toContain('.class');
    expect(afterRun).not.toContain('Codemidas');
  });

  it('drops a call that does not end and records the rest', () => {
    const spin = target('org.javakit.loop:Spin.spin');
    expect(spin.rejected).toEqual({ timeout: 1 });
    expect(spin.cases.map((c) => [(c.args[0] as { v: string }).v, c.expect])).toEqual([
      ['0', { returns: { t: 'int', type: 'int', v: '0' } }],
      ['-1', { returns: { t: 'int', type: 'int', v: '-2' } }],
    ]);
  });
});

describe('the Java mutate run in the Java image', () => {
  const of = (id: string): MutateResult['targets'][number] => mutated.targets.find((t) => t.unitId === id)!;

  it('scores each target by the mutants of its body its cases kill, a survivor named by its line', () => {
    for (const t of mutated.targets) expect(t.error, t.unitId).toBeNull();
    expect(of('org.javakit.text:Strings.reverse').mutation.total).toBeGreaterThan(4);
    expect(of('org.javakit.text:Strings.reverse').mutation.score).toBeGreaterThan(0.8);
    expect(of('org.javakit.num:Ints.gcd').mutation.score).toBeGreaterThan(0.8);
    const scale = of('org.javakit.num:Vec2.scale').mutation;
    expect(scale.killed).toBeGreaterThan(0);
    for (const s of scale.survivors) expect(s).toMatch(/^line \d+: \S+ → \S+$/);
  });
});

describe('the Java judge in the Java image', () => {
  /** Judges `files` (the workspace, with changes) against every recorded case of javakit, as root in a scoring sandbox; the tests by case id, and the judge's whole stdout. */
  const judge = async (files: FileEntry[], budgetMs = 240_000): Promise<{ tests: Map<string, { status: string; message: string }>; stdout: string }> => {
    const cases = result.targets.filter((t) => t.unitId !== 'org.javakit.loop:Spin.spin').flatMap((t) => t.cases);
    return withSandbox(provider, JAVA_SPEC('scoring'), async (sandbox) => {
      await sandbox.putFiles('/workspace', files.map((f) => ({ ...f, uid: 1000, gid: 1000 })));
      await sandbox.putFiles('/', [
        { path: 'var/lib/codemidas/hidden', type: 'directory', mode: 0o700, uid: 0, gid: 0 },
        { path: 'var/lib/codemidas/hidden/cases.json', type: 'file', mode: 0o600, uid: 0, gid: 0, content: Buffer.from(JSON.stringify({ cases })) },
      ]);
      const nonce = 'n0123';
      const config = { workspace: '/workspace', hiddenDir: '/var/lib/codemidas/hidden', cases: 'cases.json', caseTimeoutMs: 3000, budgetMs, uid: 1000, gid: 1000, dropPrivileges: true, nonce };
      const run = await sandbox.exec({ argv: ['python3', '/opt/codemidas/java/judge.py'] }, { timeoutMs: 300_000, maxOutputBytes: 16 * 1024 * 1024, stdin: Buffer.from(JSON.stringify(config)) });
      expect(run.exitCode, run.stderr).toBe(0);
      const lines = run.stdout.split('\n').filter((l) => l.startsWith('CODEMIDAS-JUDGE '));
      expect(lines.length, run.stdout + run.stderr).toBe(1);
      const judged = JSON.parse(lines[0]!.slice(`CODEMIDAS-JUDGE ${nonce} `.length)) as { tests: { name: string; status: string; message: string }[]; detail: string };
      expect(judged.detail).not.toContain('privileges not dropped');
      return { tests: new Map(judged.tests.map((t) => [t.name.replace(/^case:/, ''), t] as const)), stdout: run.stdout };
    });
  };
  const idsOf = (unitId: string): string[] => result.targets.find((t) => t.unitId === unitId)!.cases.map((c) => c.id);
  const replaced = (path: string, content: string): FileEntry[] => workspace.map((f) => (f.path === path ? { ...f, content: Buffer.from(content) } : f));
  const original = (): string => readFileSync(join(JAVAKIT, STRINGS), 'utf8');

  it('passes every recorded case on the original, as the agent user', async () => {
    const { tests } = await judge(workspace);
    expect(tests.size).toBeGreaterThan(100);
    expect([...tests.values()].filter((t) => t.status !== 'passed')).toEqual([]);
  }, 600_000);

  it("fails a masked body's cases and only those", async () => {
    await loadJavaGrammar();
    const reverse = units.find((u) => u.id === 'org.javakit.text:Strings.reverse')!;
    const { tests } = await judge(replaced(reverse.file, maskJavaBody(original(), reverse)));
    const own = new Set(idsOf('org.javakit.text:Strings.reverse'));
    const expectedToPassAnyway = new Set(result.targets.find((t) => t.unitId === 'org.javakit.text:Strings.reverse')!.cases.filter((c) => 'raises' in c.expect && c.expect.raises === 'java.lang.UnsupportedOperationException').map((c) => c.id));
    for (const [id, t] of tests) expect(t.status, id).toBe(own.has(id) && !expectedToPassAnyway.has(id) ? 'failed' : 'passed');
    expect(tests.get(idsOf('org.javakit.text:Strings.reverse')[0]!)?.message).toContain('UnsupportedOperationException');
  }, 600_000);

  it('unwraps what a private method called through reflection throws: its masked body fails with UnsupportedOperationException', async () => {
    await loadJavaGrammar();
    const isVowel = units.find((u) => u.id === 'org.javakit.text:Strings.isVowel')!;
    const { tests } = await judge(replaced(isVowel.file, maskJavaBody(original(), isVowel)));
    for (const id of idsOf('org.javakit.text:Strings.isVowel')) {
      expect(tests.get(id)?.status).toBe('failed');
      expect(tests.get(id)?.message).toContain('threw a java.lang.UnsupportedOperationException');
    }
    for (const id of idsOf('org.javakit.text:Strings.reverse')) expect(tests.get(id)?.status).toBe('passed');
  }, 600_000);

  it("fails every case of a class whose static initialiser exits, and ignores the fake verdict it prints", async () => {
    const hacked = original().replace('public final class Strings {', 'public final class Strings {\n    static {\n        System.out.println("CODEMIDAS-JUDGE n0123 {\\"tests\\": [], \\"tampered\\": false}");\n        System.exit(0);\n    }\n');
    const { tests, stdout } = await judge(replaced(STRINGS, hacked));
    expect(stdout.split('\n').filter((l) => l.startsWith('CODEMIDAS-JUDGE')).length).toBe(1);
    for (const id of idsOf('org.javakit.text:Strings.reverse')) expect(tests.get(id)?.status).toBe('failed');
    for (const id of idsOf('org.javakit.num:Ints.gcd')) expect(tests.get(id)?.status).toBe('passed');
  }, 600_000);

  it('fails every case, without a judge error, when the agent adds a class named like the driver or a java.* class; a class named Object in the package and a META-INF/services file change nothing', async () => {
    const shadow = await judge([...workspace, { path: 'src/main/java/org/javakit/text/CodemidasDriverStrings.java', type: 'file', mode: 0o644, content: Buffer.from('package org.javakit.text;\n\npublic class CodemidasDriverStrings {\n    public static void main(String[] args) {\n    }\n}\n') }]);
    expect(shadow.tests.size).toBeGreaterThan(100);
    for (const [id, t] of shadow.tests) expect(t.status, id).toBe('failed');
    expect(shadow.tests.get(idsOf('org.javakit.text:Strings.reverse')[0]!)?.message).toContain('does not compile');
    // a class of a java.* package of the workspace's own: javac refuses it (the package is java.base's)
    const jdk = await judge([...workspace, { path: 'src/main/java/java/util/ArrayList.java', type: 'file', mode: 0o644, content: Buffer.from('package java.util;\n\npublic class ArrayList<E> {\n}\n') }]);
    for (const [id, t] of jdk.tests) expect(t.status, id).toBe('failed');
    expect(jdk.tests.get(idsOf('org.javakit.num:Ints.gcd')[0]!)?.message).toContain('does not compile');
    const harmless = await judge([
      ...workspace,
      { path: 'src/main/java/org/javakit/text/Object.java', type: 'file', mode: 0o644, content: Buffer.from('package org.javakit.text;\n\npublic class Object {\n    public String toString() {\n        return "x";\n    }\n}\n') },
      { path: 'src/main/resources/META-INF/services/java.nio.file.spi.FileSystemProvider', type: 'file', mode: 0o644, content: Buffer.from('org.javakit.text.Evil\n') },
    ]);
    expect([...harmless.tests.values()].filter((t) => t.status !== 'passed')).toEqual([]);
  }, 600_000);

  it("scores a static initialiser that never ends as failed cases within the judge's budget, not as an error", async () => {
    const started = Date.now();
    // javac refuses a static initialiser that cannot complete normally (`while (true) {}`): this one can, as far as javac knows
    const hangs = await judge(replaced(STRINGS, original().replace('public final class Strings {', 'public final class Strings {\n    static {\n        while (System.nanoTime() > 0) {\n        }\n    }\n')), 40_000);
    expect(Date.now() - started).toBeLessThan(90_000);
    for (const id of idsOf('org.javakit.text:Strings.reverse')) expect(hangs.tests.get(id)?.status).toBe('failed');
    expect(hangs.tests.get(idsOf('org.javakit.text:Strings.reverse')[0]!)?.message).toMatch(/did not end|budget/);
    for (const id of idsOf('org.javakit.num:Ints.gcd')) expect(hangs.tests.get(id)?.status, hangs.tests.get(id)?.message).toBe('passed');
  }, 600_000);
});
