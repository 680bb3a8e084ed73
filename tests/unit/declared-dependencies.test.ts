import { describe, expect, it } from 'vitest';
import { javascriptDependencyRules } from '../../src/languages/javascript/javascript-dependencies.js';
import type { DeclaredDependency } from '../../src/languages/language.js';
import { pythonDependencyRules } from '../../src/languages/python/python-dependencies.js';
import { blameMissingDependencies, declaredDependencies, missingDependencies, undeclaredDependencies, type Dependencies } from '../../src/pipeline/build/declared-dependencies.js';
import type { BuildRun } from '../../src/pipeline/build/build-run.js';
import type { Drop } from '../../src/pipeline/types.js';
import { runtimeDependenciesProblem } from '../../src/sandbox/runtime-dependencies.js';
import { taskFileSchema } from '../../src/tasks/task-schema.js';

const declared: DeclaredDependency[] = [
  { name: 'absent', from: 'pyproject.toml', install: 'python3-absent', modules: ['absent'] },
  { name: 'python-dateutil', from: 'setup.cfg', install: 'python3-dateutil', modules: ['dateutil'] },
  { name: 'six', from: 'pyproject.toml', install: 'python3-six', modules: ['six'] },
  { name: 'vendored', from: 'requirements.txt', install: null, why: 'a local path: vendor it', modules: ['vendored'] },
];
const deps: Dependencies = { declared, runtime: { tool: 'apt', packages: ['python3-absent', 'python3-dateutil', 'python3-six'] } };
const pythonRules = { missingModule: (message: string) => /No module named '([^'.]+)/.exec(message)?.[1] ?? null };

describe('missingDependencies', () => {
  it('lists what nothing maps and what the installer could not install, with why', () => {
    expect(missingDependencies(deps, ['python3-absent'])).toEqual([
      { name: 'absent', from: 'pyproject.toml', reason: expect.stringContaining('apt could not install python3-absent') },
      { name: 'vendored', from: 'requirements.txt', reason: 'a local path: vendor it' },
    ]);
    expect(missingDependencies(deps, [])).toEqual([expect.objectContaining({ name: 'vendored' })]);
  });

  it("says a dependency only the tests import leaves their tests traced with a stand-in", () => {
    const forTests: Dependencies = {
      declared: [{ name: 'capturer', from: 'requirements-tests.txt', install: 'python3-capturer', modules: ['capturer'], forTests: true }],
      runtime: { tool: 'apt', packages: ['python3-capturer'] },
    };
    expect(missingDependencies(forTests, ['python3-capturer'])).toEqual([
      { name: 'capturer', from: 'requirements-tests.txt', reason: expect.stringContaining("which only the repository's tests import: they are traced with a stand-in for it") },
    ]);
  });

  it('matches npm packages by name whatever version was pinned', () => {
    const npm: Dependencies = {
      declared: [
        { name: '@scope/kit', from: 'package.json dependencies', install: '@scope/kit@^1.0.0', modules: ['@scope/kit'] },
        { name: 'ms', from: 'package.json dependencies', install: 'ms@^2.1.0', modules: ['ms'] },
      ],
      runtime: { tool: 'npm', packages: ['@scope/kit@1.4.0', 'ms@2.1.3'] },
    };
    expect(missingDependencies(npm, ['@scope/kit@1.4.0']).map((m) => m.name)).toEqual(['@scope/kit']);
  });

  it('counts a package the installer could not pin (the registry did not answer) as missing', () => {
    const npm: Dependencies = {
      declared: [{ name: 'ms', from: 'package.json dependencies', install: 'ms@^2.1.0', modules: ['ms'] }],
      runtime: undefined,
      unpinned: ['ms@^2.1.0'],
    };
    expect(missingDependencies(npm, [])).toEqual([{ name: 'ms', from: 'package.json dependencies', reason: expect.stringContaining('could not install ms@^2.1.0') }]);
  });
});

describe('blameMissingDependencies', () => {
  const drops: Drop[] = [
    { unitId: 'pkg.a.f', stage: 'record', code: 'import-error', reason: "ModuleNotFoundError: No module named 'absent'" },
    { unitId: 'pkg.b.g', stage: 'record', code: 'import-error', reason: "ModuleNotFoundError: No module named 'elsewhere'" },
    { unitId: 'pkg.c.h', stage: 'record', code: 'import-error', reason: "No module named 'dateutil'" },
    { unitId: 'pkg.d.i', stage: 'select', code: 'too-small', reason: "No module named 'absent'" },
  ];

  it('relabels record drops importing a missing dependency, naming the package, where it is declared and why', () => {
    const out = blameMissingDependencies(drops, pythonRules, deps, missingDependencies(deps, ['python3-absent']));
    expect(out[0]).toEqual({
      unitId: 'pkg.a.f',
      stage: 'record',
      code: 'dependency-missing',
      reason: expect.stringMatching(/imports absent from absent \(declared in pyproject\.toml\), which the build could not install: apt could not install python3-absent/),
    });
    // a module no declared dependency provides, an installed dependency, another stage: unchanged
    expect(out.slice(1)).toEqual(drops.slice(1));
  });

  it('changes nothing when nothing is missing', () => {
    expect(blameMissingDependencies(drops, pythonRules, deps, [])).toEqual(drops);
  });
});

describe('runtime.dependencies in task.json', () => {
  const task = (dependencies: unknown): unknown => ({
    schemaVersion: 2,
    id: 's/t',
    title: 't',
    language: 'python',
    source: { repo: 'r', revision: 'v', path: 'm.py', symbol: 'f' },
    prompt: 'p',
    runtime: { image: 'python', dependencies },
    tests: { runner: 'python', cases: 'cases.json', scripts: [] },
    rewardMode: 'fraction',
  });

  it('takes an installer name and plain package names, and refuses shell or option syntax', () => {
    expect(runtimeDependenciesProblem({ tool: 'apt', packages: ['python3-six', 'python3-dateutil'] })).toBeNull();
    expect(runtimeDependenciesProblem({ tool: 'npm', packages: ['@scope/kit@1.4.0', 'ms@2.1.3'] })).toBeNull();
    expect(runtimeDependenciesProblem({ tool: 'apt', packages: ['--allow-unauthenticated'] })).toMatch(/not a package/);
    expect(runtimeDependenciesProblem({ tool: 'apt', packages: ['six; rm -rf /'] })).toMatch(/not a package/);
    expect(runtimeDependenciesProblem({ tool: 'npm', packages: ['ms@^2.1.0'] })).toMatch(/not a package/);
    expect(runtimeDependenciesProblem({ tool: 'Apt Get', packages: [] })).toMatch(/not an installer/);
    const parsed = taskFileSchema.safeParse(task({ tool: 'apt', packages: ['python3-six'] }));
    expect(parsed.success ? parsed.data.runtime.dependencies : parsed.error.message).toEqual({ tool: 'apt', packages: ['python3-six'] });
    expect(taskFileSchema.safeParse(task({ tool: 'apt', packages: ['$(reboot)'] })).success).toBe(false);
    expect(taskFileSchema.safeParse(task({ tool: 'apt', packages: ['python3-six'], extra: 1 })).success).toBe(false);
  });
});

describe('undeclaredDependencies', () => {
  const files = new Map([
    ['pkg/__init__.py', Buffer.from('')],
    ['pkg/core.py', Buffer.from('import six\n')],
    ['src/localmod.py', Buffer.from('')],
  ]);
  const none: Dependencies = { declared: [], runtime: undefined };
  const rules = { ...pythonRules, forModule: pythonDependencyRules.forModule };

  it('names a package for each module the code imports undeclared, with the units that failed on it', () => {
    const drops: Drop[] = [
      { unitId: 'pkg.core:a', stage: 'record', code: 'import-error', reason: "ModuleNotFoundError: No module named 'six'" },
      { unitId: 'pkg.core:b', stage: 'record', code: 'import-error', reason: "ModuleNotFoundError: No module named 'six.moves'" },
      { unitId: 'pkg.core:c', stage: 'record', code: 'import-error', reason: "ModuleNotFoundError: No module named 'yaml'" },
      { unitId: 'pkg.core:d', stage: 'record', code: 'import-error', reason: "ModuleNotFoundError: No module named 'localmod'" },
      { unitId: 'pkg.core:e', stage: 'record', code: 'import-error', reason: "ModuleNotFoundError: No module named 'pkg'" },
      { unitId: 'pkg.core:f', stage: 'record', code: 'no-cases', reason: 'nothing recorded' },
    ];
    const { found, unitIds } = undeclaredDependencies(drops, rules, none, files);
    expect(found.map((d) => [d.name, d.install, d.modules])).toEqual([
      ['pyyaml', 'python3-yaml', ['yaml']],
      ['six', 'python3-six', ['six']],
    ]);
    expect(found[0]?.from).toMatch(/no manifest declares it/);
    expect([...unitIds].sort()).toEqual(['pkg.core:a', 'pkg.core:b', 'pkg.core:c']);
  });

  it('leaves out modules a declared dependency provides (installed or not)', () => {
    const drops: Drop[] = [{ unitId: 'pkg.core:a', stage: 'record', code: 'import-error', reason: "No module named 'six'" }];
    expect(undeclaredDependencies(drops, rules, deps, files).found).toEqual([]);
    const withSix: Dependencies = { declared: [{ name: 'six', from: 'setup.py', install: 'python3-six', modules: ['six'] }], runtime: { tool: 'apt', packages: ['python3-six'] } };
    expect(undeclaredDependencies(drops, rules, withSix, files)).toEqual({ found: [], unitIds: new Set() });
  });

  it('JavaScript: the latest version of a package the code imports undeclared, never the package itself', () => {
    const js = new Map([['package.json', Buffer.from('{"name":"durkit"}')]]);
    expect(javascriptDependencyRules.forModule('is-plain-obj', js)).toMatchObject({ name: 'is-plain-obj', install: 'is-plain-obj@latest', modules: ['is-plain-obj'] });
    expect(javascriptDependencyRules.forModule('durkit', js)).toBeNull();
    expect(javascriptDependencyRules.forModule('../x', js)).toBeNull();
  });
});

describe('declaredDependencies', () => {
  it('puts on the image only what the installer pinned; a range it could not pin is kept aside as missing', async () => {
    const rules = {
      ...javascriptDependencyRules,
      installer: { ...javascriptDependencyRules.installer, pin: async (requested: readonly string[]) => requested.map((r) => (r === 'ms@^2.1.0' ? r : r.replace(/@.*$/, '@1.0.0'))) },
    };
    const run = { options: { language: { dependencies: rules } }, progress: () => undefined, timed: (_stage: string, fn: () => unknown) => fn(), signalOption: {} } as unknown as BuildRun;
    const files = new Map([['package.json', Buffer.from(JSON.stringify({ name: 'x', dependencies: { ms: '^2.1.0', kit: '^1.0.0' } }))]]);
    const found = await declaredDependencies(run, { files });
    expect(found.runtime).toEqual({ tool: 'npm', packages: ['kit@1.0.0'] });
    expect(found.unpinned).toEqual(['ms@^2.1.0']);
    expect(missingDependencies(found, []).map((m) => m.name)).toEqual(['ms']);
  });
});
