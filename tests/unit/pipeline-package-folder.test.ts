import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { InvalidArgumentError } from '../../src/errors.js';
import { createPythonPlugin } from '../../src/languages/python/python-plugin.js';
import { pythonDependencyRules } from '../../src/languages/python/python-dependencies.js';
import { createSilentLogger } from '../../src/logging.js';
import { createDirectoryImageFileReader } from '../../src/pipeline/audit/image-files.js';
import { BuildFailedError, buildSuite, type PipelineStages } from '../../src/pipeline/build-suite.js';
import type { BuildRun } from '../../src/pipeline/build/build-run.js';
import { declaredDependencies } from '../../src/pipeline/build/declared-dependencies.js';
import { checkPackageFolder, normalizePackageFolder, packageFiles, packageFoldersOf } from '../../src/pipeline/build/package-folder.js';
import type { Unit } from '../../src/pipeline/types.js';
import { createMemorySandboxProvider } from '../../src/sandbox/memory/memory-sandbox-provider.js';

const python = createPythonPlugin();

const MONOREPO = [
  'pyproject.toml',
  'packages/alpha/pyproject.toml',
  'packages/alpha/alpha/__init__.py',
  'packages/alpha/alpha/core.py',
  'packages/beta/setup.cfg',
  'packages/beta/beta/__init__.py',
  'packages/beta/beta/core.py',
  'packages/docs/README.md',
  'tools/deep/er/still/pyproject.toml',
];

describe('normalizePackageFolder', () => {
  it('takes a folder relative to the root in any spelling, and refuses one outside it or the root itself', () => {
    expect(normalizePackageFolder('./packages/beta/')).toBe('packages/beta');
    expect(normalizePackageFolder('packages//beta')).toBe('packages/beta');
    for (const bad of ['../elsewhere', 'packages/../../x', '/abs/packages/beta', '.', '']) {
      expect(() => normalizePackageFolder(bad)).toThrow(InvalidArgumentError);
    }
    expect(() => normalizePackageFolder('/abs')).toThrow(/package: '\/abs' is not a folder inside the repository/);
  });
});

describe('checkPackageFolder', () => {
  it('accepts a folder holding a source file of the language', () => {
    expect(() => checkPackageFolder('packages/beta', MONOREPO, python)).not.toThrow();
  });

  it('refuses a folder that is not there, listing the folders holding a package manifest up to 3 levels down', () => {
    const refused = (() => {
      try {
        checkPackageFolder('packages/nope', MONOREPO, python);
      } catch (error) {
        return error;
      }
      return null;
    })();
    expect(refused).toBeInstanceOf(InvalidArgumentError);
    expect((refused as Error).message).toBe(
      "package: 'packages/nope' is not a folder of the repository; folders that look like packages (holding pyproject.toml, setup.cfg, setup.py): packages/alpha, packages/beta",
    );
  });

  it('refuses a folder with no source file of the language, and says so when no folder looks like a package', () => {
    expect(() => checkPackageFolder('packages/docs', MONOREPO, python)).toThrow(/'packages\/docs' holds no Python source file; folders that look like packages .*: packages\/alpha, packages\/beta$/);
    expect(() => checkPackageFolder('nope', ['a/b.py'], python)).toThrow(/no folder holds pyproject\.toml, setup\.cfg, setup\.py up to 3 levels down/);
  });

  it('does not take a prefix of a folder name for the folder (packages/be is not packages/beta)', () => {
    expect(() => checkPackageFolder('packages/be', MONOREPO, python)).toThrow(/is not a folder of the repository/);
  });
});

describe('packageFoldersOf and packageFiles', () => {
  it('lists manifest folders below the root only, sorted', () => {
    expect(packageFoldersOf(MONOREPO, ['pyproject.toml', 'setup.cfg', 'setup.py'])).toEqual(['packages/alpha', 'packages/beta']);
    expect(packageFoldersOf(['package.json', 'a/b/c/package.json', 'a/package.json'], ['package.json'])).toEqual(['a', 'a/b/c']);
  });

  it('re-roots the files under the folder', () => {
    const files = new Map(MONOREPO.map((f) => [f, Buffer.from(f)]));
    expect([...packageFiles(files, 'packages/beta').keys()]).toEqual(['setup.cfg', 'beta/__init__.py', 'beta/core.py']);
  });
});

describe('declaredDependencies with --package', () => {
  it("reads the package's manifests (from under its folder) and the root's, the package's first", async () => {
    const rules = { ...pythonDependencyRules, installer: { ...pythonDependencyRules.installer, pin: async (requested: readonly string[]) => [...requested] } };
    const files = new Map([
      ['pyproject.toml', Buffer.from('[project]\nname = "mono"\ndependencies = ["six", "attrs"]\n')],
      ['packages/beta/pyproject.toml', Buffer.from('[project]\nname = "beta"\ndependencies = ["six>=1", "pyyaml"]\n')],
      ['packages/alpha/pyproject.toml', Buffer.from('[project]\nname = "alpha"\ndependencies = ["requests"]\n')],
    ]);
    const run = { options: { language: { dependencies: rules } }, packageFolder: 'packages/beta', progress: () => undefined, timed: (_s: string, fn: () => unknown) => fn(), signalOption: {} } as unknown as BuildRun;
    const found = await declaredDependencies(run, { files });
    expect(found.declared.map((d) => [d.name, d.from])).toEqual([
      ['attrs', 'pyproject.toml'],
      ['pyyaml', 'packages/beta/pyproject.toml'],
      ['six', 'packages/beta/pyproject.toml'],
    ]);
    const whole = await declaredDependencies({ ...run, packageFolder: null } as BuildRun, { files });
    expect(whole.declared.map((d) => d.name)).toEqual(['attrs', 'six']);
  });
});

function unitIn(file: string, qualname: string): Unit {
  const module = file.replace(/^packages\/[^/]+\//, '').replace(/\.py$/, '').replace(/\//g, '.');
  return {
    id: `${module}:${qualname}`,
    kind: 'function',
    module,
    qualname,
    file,
    startLine: 1,
    endLine: 4,
    bodyStartLine: 2,
    bodyEndLine: 4,
    signature: `def ${qualname}(x):`,
    params: [],
    returnAnnotation: null,
    docstring: null,
    decorators: [],
    statementCount: 3,
    codeLines: 3,
    calls: [],
    callSites: [],
    isAsync: false,
    isGenerator: false,
    impurities: [],
  };
}

describe('buildSuite with --package (fake stages)', () => {
  let root: string;
  const units = [unitIn('packages/alpha/alpha/core.py', 'f'), unitIn('packages/beta/beta/core.py', 'g'), unitIn('packages/beta/beta/core.py', 'h')];
  let selected: string[];
  let analyzed: boolean;
  const stages: PipelineStages = {
    ingest: async (source) => ({ dir: root, origin: source, revision: 'working-tree', files: MONOREPO }),
    analyze: async () => {
      analyzed = true;
      return { units, problems: [] };
    },
    select: (given) => {
      selected = given.map((u) => u.id);
      return { candidates: [], drops: given.map((u) => ({ unitId: u.id, stage: 'select' as const, code: 'too-small', reason: 'fake' })) };
    },
    record: async () => ({ recordings: [], drops: [] }),
  };
  const build = (pkg: string): ReturnType<typeof buildSuite> =>
    buildSuite({
      source: 'mono',
      suite: 'mono',
      package: pkg,
      outDir: join(root, 'out'),
      provider: createMemorySandboxProvider(),
      logger: createSilentLogger(),
      imageReader: createDirectoryImageFileReader({ root }),
      stages,
      language: python,
      workRoot: join(root, 'work'),
    });

  beforeEach(async () => {
    root = await mkdtemp(join(tmpdir(), 'codemidas-package-unit-'));
    selected = [];
    analyzed = false;
  });
  afterEach(async () => {
    await rm(root, { recursive: true, force: true });
  });

  it('hands select only the units under the package; the others are select:outside-package drops, and the funnel names the package', async () => {
    const failure = await build('./packages/beta/').catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(BuildFailedError);
    expect(selected).toEqual(['beta.core:g', 'beta.core:h']);
    const funnel = JSON.parse(await readFile(join(root, 'out', 'mono.funnel.json'), 'utf8'));
    expect(funnel.source).toMatchObject({ package: 'packages/beta' });
    expect(funnel.funnel.units).toBe(3);
    expect(funnel.funnel.drops.filter((d: { code: string }) => d.code === 'outside-package')).toEqual([
      { unitId: 'alpha.core:f', stage: 'select', code: 'outside-package', reason: 'packages/alpha/alpha/core.py is outside --package packages/beta' },
    ]);
  });

  it('refuses a package that is no folder of the snapshot before analyzing, listing the package folders', async () => {
    await expect(build('packages/nope')).rejects.toThrow(/package: 'packages\/nope' is not a folder of the repository; .*: packages\/alpha, packages\/beta/);
    expect(analyzed).toBe(false);
    await expect(build('../outside')).rejects.toThrow(/package: '\.\.\/outside' is not a folder inside the repository/);
  });
});
