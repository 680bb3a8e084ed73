import { cp, mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import { pino } from 'pino';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { NotFoundError } from '../../src/errors.js';
import { storeSuiteOnce } from '../../src/pipeline/package/store-suite-once.js';
import { pythonTestRunner } from '../../src/languages/python/python-tests.js';
import { listWorkspaceFiles } from '../../src/tasks/list-workspace-files.js';
import { formatTaskLoadProblem, loadCatalog } from '../../src/tasks/load-catalog.js';
import type { TaskLoadProblem } from '../../src/tasks/types.js';

let root: string;

beforeEach(async () => {
  root = await mkdtemp(path.join(tmpdir(), 'codemidas-catalog-'));
});

afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

function validTask(id: string): Record<string, unknown> {
  return {
    schemaVersion: 1,
    id,
    title: 'A task',
    language: 'python',
    source: { repo: 'examples/lib', revision: 'working-tree', path: 'lib/mod.py', symbol: 'f' },
    prompt: '# Implement `f`',
    runtime: { image: 'python' },
    workdir: '/workspace',
    tests: { cases: 'cases.json', scripts: ['tests/test_f.py'], timeoutMs: 60000, caseTimeoutMs: 5000 },
    protectedPaths: [],
    rewardMode: 'fraction',
  };
}

interface TaskLayout {
  /** task.json as text (wins over `json`), e.g. for broken JSON. */
  text?: string;
  json?: Record<string, unknown>;
  workspace?: boolean;
  hiddenFiles?: string[];
}

async function writeTask(suite: string, name: string, layout: TaskLayout = {}): Promise<string> {
  const dir = path.join(root, suite, name);
  await mkdir(dir, { recursive: true });
  const text = layout.text ?? JSON.stringify(layout.json ?? validTask(`${suite}/${name}`), null, 2);
  await writeFile(path.join(dir, 'task.json'), text);
  if (layout.workspace ?? true) {
    await mkdir(path.join(dir, 'workspace', 'lib'), { recursive: true });
    await writeFile(path.join(dir, 'workspace', 'lib', 'mod.py'), 'def f():\n    raise NotImplementedError\n');
  }
  for (const file of layout.hiddenFiles ?? ['cases.json', 'tests/test_f.py']) {
    await mkdir(path.dirname(path.join(dir, 'hidden', file)), { recursive: true });
    await writeFile(path.join(dir, 'hidden', file), file.endsWith('.json') ? '{"schemaVersion":1,"cases":[]}' : 'def test_f():\n    pass\n');
  }
  return dir;
}

async function writeSuite(suite: string, tasks: string[], extra: Record<string, unknown> = {}): Promise<void> {
  await mkdir(path.join(root, suite), { recursive: true });
  await writeFile(path.join(root, suite, 'suite.json'), JSON.stringify({ schemaVersion: 1, name: suite, description: 'test', tasks, ...extra }));
}

function problemFor(problems: readonly TaskLoadProblem[], fileEnd: string): TaskLoadProblem {
  const found = problems.filter((p) => p.path.endsWith(fileEnd));
  expect(found, `one problem for ${fileEnd}, got ${JSON.stringify(problems, null, 1)}`).toHaveLength(1);
  return found[0]!;
}

describe('loadCatalog', () => {
  it('loads a good suite with absolute paths, parsed fields and defaults', async () => {
    await writeSuite('good', ['alpha', 'beta']);
    const alpha = await writeTask('good', 'alpha');
    await writeTask('good', 'beta');

    const catalog = await loadCatalog(root);

    expect(catalog.problems).toEqual([]);
    expect([...catalog.tasks.keys()]).toEqual(['good/alpha', 'good/beta']);
    const task = catalog.get('good/alpha');
    expect(task).toMatchObject({
      id: 'good/alpha',
      suite: 'good',
      name: 'alpha',
      dir: alpha,
      workspace: { layout: 'folder', dir: path.join(alpha, 'workspace') },
      hiddenDir: path.join(alpha, 'hidden'),
      solutionDir: path.join(alpha, 'solution'),
    });
    expect(task?.file.tests.timeoutMs).toBe(60000);
    expect(task?.file.limits).toEqual({});
    expect(task?.file.difficulty).toBeNull();
    expect(catalog.get('good/missing')).toBeUndefined();
  });

  it('lists tasks in suite order and filters by suite and language', async () => {
    await writeSuite('one', ['b', 'a']);
    await writeTask('one', 'a');
    await writeTask('one', 'b');
    await writeSuite('two', ['c']);
    await writeTask('two', 'c', { json: { ...validTask('two/c'), language: 'javascript' } });

    const catalog = await loadCatalog(root);

    expect(catalog.list().map((t) => t.id)).toEqual(['one/b', 'one/a', 'two/c']);
    expect(catalog.list({ suite: 'two' }).map((t) => t.id)).toEqual(['two/c']);
    expect(catalog.list({ language: 'python' }).map((t) => t.id)).toEqual(['one/b', 'one/a']);
    expect(catalog.list({ suite: 'one', language: 'javascript' })).toEqual([]);
  });

  it('skips a task in a language no plugin serves, naming the language and the ones there are', async () => {
    await writeSuite('one', ['a', 'js']);
    await writeTask('one', 'a');
    await writeTask('one', 'js', { json: { ...validTask('one/js'), language: 'javascript' } });

    const catalog = await loadCatalog(root, { languages: ['python'] });

    expect(catalog.list().map((t) => t.id)).toEqual(['one/a']);
    expect(catalog.problems).toEqual([
      { suite: 'one', path: path.join(root, 'one', 'js', 'task.json'), field: 'language', message: 'no language plugin here serves "javascript" (there are: python)' },
    ]);
  });

  it('skips each kind of malformed task, naming the file and the field, and loads the rest', async () => {
    const names = [
      'ok',
      'bad-json',
      'missing-field',
      'wrong-type',
      'id-mismatch',
      'missing-hidden-file',
      'missing-workspace',
      'unknown-field',
      'escaping-path',
      'bad-scrub',
      'not-there',
    ];
    await writeSuite('mixed', names);
    await writeTask('mixed', 'ok');
    await writeTask('mixed', 'bad-json', { text: '{"schemaVersion": 1, "id": ' });
    const { title: _title, ...noTitle } = validTask('mixed/missing-field');
    await writeTask('mixed', 'missing-field', { json: noTitle });
    const wrongType = validTask('mixed/wrong-type');
    wrongType['tests'] = { cases: 'cases.json', scripts: ['tests/test_f.py'], timeoutMs: '60s' };
    await writeTask('mixed', 'wrong-type', { json: wrongType });
    await writeTask('mixed', 'id-mismatch', { json: validTask('mixed/someone-else') });
    await writeTask('mixed', 'missing-hidden-file', { hiddenFiles: ['cases.json'] });
    await writeTask('mixed', 'missing-workspace', { workspace: false });
    await writeTask('mixed', 'unknown-field', { json: { ...validTask('mixed/unknown-field'), extra: true } });
    const escaping = validTask('mixed/escaping-path');
    escaping['tests'] = { cases: '../task.json', scripts: [] };
    await writeTask('mixed', 'escaping-path', { json: escaping });
    await writeTask('mixed', 'bad-scrub', { json: { ...validTask('mixed/bad-scrub'), runtime: { image: 'python', scrub: ['/usr/lib/python3/dist-packages/lib', '/usr'] } } });

    const catalog = await loadCatalog(root, { runners: [pythonTestRunner] });

    expect([...catalog.tasks.keys()]).toEqual(['mixed/ok']);
    expect(catalog.problems.every((p) => p.suite === 'mixed')).toBe(true);

    const badJson = problemFor(catalog.problems, path.join('bad-json', 'task.json'));
    expect(badJson.field).toBe('');
    expect(badJson.message).toMatch(/^invalid JSON: /);

    expect(problemFor(catalog.problems, path.join('missing-field', 'task.json')).field).toBe('title');

    const wrong = problemFor(catalog.problems, path.join('wrong-type', 'task.json'));
    expect(wrong.field).toBe('tests.timeoutMs');
    expect(wrong.message).toMatch(/number/);

    const mismatch = problemFor(catalog.problems, path.join('id-mismatch', 'task.json'));
    expect(mismatch.field).toBe('id');
    expect(mismatch.message).toContain('mixed/id-mismatch');

    const hidden = problemFor(catalog.problems, path.join('missing-hidden-file', 'task.json'));
    expect(hidden.field).toBe('tests.scripts.0');
    expect(hidden.message).toContain(path.join(root, 'mixed', 'missing-hidden-file', 'hidden', 'tests', 'test_f.py'));

    const workspace = problemFor(catalog.problems, path.join('missing-workspace', 'workspace'));
    expect(workspace.message).toMatch(/workspace\//);

    expect(problemFor(catalog.problems, path.join('unknown-field', 'task.json')).field).toBe('extra');

    const escapingProblem = problemFor(catalog.problems, path.join('escaping-path', 'task.json'));
    expect(escapingProblem.field).toBe('tests.cases');
    expect(escapingProblem.message).toMatch(/inside hidden/);

    const badScrub = problemFor(catalog.problems, path.join('bad-scrub', 'task.json'));
    expect(badScrub.field).toBe('runtime.scrub.1');
    expect(badScrub.message).toMatch(/would remove \/usr\/bin/);

    const missingFolder = problemFor(catalog.problems, path.join('mixed', 'suite.json'));
    expect(missingFolder.field).toBe('tasks.10');
    expect(missingFolder.message).toContain('not-there');

    expect(catalog.problems).toHaveLength(names.length - 1);
  });

  it('reads a version-1 task as version 2 with the python runner, equal to the same task written as version 2', async () => {
    await writeSuite('versions', ['v1', 'v2']);
    await writeTask('versions', 'v1');
    const v2 = validTask('versions/v2');
    v2['schemaVersion'] = 2;
    v2['tests'] = { runner: 'python', cases: 'cases.json', scripts: ['tests/test_f.py'], timeoutMs: 60000, caseTimeoutMs: 5000 };
    await writeTask('versions', 'v2', { json: v2 });

    const catalog = await loadCatalog(root, { runners: [pythonTestRunner] });

    expect(catalog.problems).toEqual([]);
    const [one, two] = [catalog.get('versions/v1'), catalog.get('versions/v2')];
    expect(one?.file.schemaVersion).toBe(2);
    expect(one?.file.tests).toEqual({ runner: 'python', cases: 'cases.json', scripts: ['tests/test_f.py'], timeoutMs: 60000, caseTimeoutMs: 5000 });
    expect({ ...one?.file, id: '' }).toEqual({ ...two?.file, id: '' });
  });

  it('validates tests with its runner\'s schema and skips a task whose runner no plugin provides, naming tests.runner', async () => {
    const v2 = (id: string, tests: Record<string, unknown>): Record<string, unknown> => ({ ...validTask(id), schemaVersion: 2, tests });
    await writeSuite('runners', ['ok', 'node', 'no-scripts', 'extra', 'empty', 'v1-javascript']);
    await writeTask('runners', 'ok', { json: v2('runners/ok', { runner: 'python', cases: 'cases.json', scripts: [] }) });
    await writeTask('runners', 'node', { json: v2('runners/node', { runner: 'node', cases: 'cases.json', files: ['a.test.js'] }) });
    await writeTask('runners', 'no-scripts', { json: v2('runners/no-scripts', { runner: 'python', cases: 'cases.json', scripts: 'tests/test_f.py' }) });
    await writeTask('runners', 'extra', { json: v2('runners/extra', { runner: 'python', cases: 'cases.json', scripts: [], files: [] }) });
    await writeTask('runners', 'empty', { json: v2('runners/empty', { runner: 'python', cases: null, scripts: [] }) });
    await writeTask('runners', 'v1-javascript', { json: { ...validTask('runners/v1-javascript'), language: 'javascript' } });

    const catalog = await loadCatalog(root, { runners: [pythonTestRunner], languages: ['python'] });

    expect(catalog.list().map((t) => t.id)).toEqual(['runners/ok']);
    expect(catalog.get('runners/ok')?.file.tests).toEqual({ runner: 'python', cases: 'cases.json', scripts: [], timeoutMs: 120_000, caseTimeoutMs: 10_000 });
    expect(problemFor(catalog.problems, path.join('node', 'task.json'))).toMatchObject({ field: 'tests.runner', message: 'no language plugin here provides the runner "node" (there are: python)' });
    expect(problemFor(catalog.problems, path.join('no-scripts', 'task.json')).field).toBe('tests.scripts');
    expect(problemFor(catalog.problems, path.join('extra', 'task.json'))).toMatchObject({ field: 'tests.files', message: 'unknown field' });
    expect(problemFor(catalog.problems, path.join('empty', 'task.json'))).toMatchObject({ field: 'tests', message: 'a task needs cases or scripts' });
    expect(problemFor(catalog.problems, path.join('v1-javascript', 'task.json')).field).toBe('language');
  });

  it('refuses a schemaVersion it does not know, naming the field', async () => {
    await writeSuite('future', ['t']);
    await writeTask('future', 't', { json: { ...validTask('future/t'), schemaVersion: 3 } });

    const catalog = await loadCatalog(root);

    expect(catalog.tasks.size).toBe(0);
    expect(catalog.problems).toContainEqual({ suite: 'future', path: path.join(root, 'future', 't', 'task.json'), field: 'schemaVersion', message: 'expected 2 (or 1, read as 2)' });
  });

  describe('a suite stored once (base and overlays)', () => {
    /** Three tasks over one library: each masks its own module and trims or deletes a test file. */
    async function writeWholeSuite(suite: string): Promise<void> {
      const names = ['one', 'two', 'three'];
      await writeSuite(suite, names);
      for (const [i, name] of names.entries()) {
        const dir = await writeTask(suite, name, { workspace: false });
        const ws = path.join(dir, 'workspace');
        await mkdir(path.join(ws, 'lib'), { recursive: true });
        await mkdir(path.join(ws, 'tests'), { recursive: true });
        await mkdir(path.join(ws, 'docs', 'img'), { recursive: true });
        for (const [j, module] of ['a', 'b', 'c'].entries()) {
          await writeFile(path.join(ws, 'lib', `${module}.py`), i === j ? 'def f():\n    raise NotImplementedError\n' : `def f():\n    return ${j}\n`);
        }
        await writeFile(path.join(ws, 'README.md'), '# lib\n');
        await writeFile(path.join(ws, 'docs', 'img', 'logo.txt'), 'logo\n');
        if (i !== 0) await writeFile(path.join(ws, 'tests', 'test_a.py'), 'def test_a():\n    pass\n');
        await writeFile(path.join(ws, 'tests', 'test_b.py'), i === 1 ? '# trimmed\n' : 'def test_b():\n    pass\n');
        if (i === 2) await rm(path.join(ws, 'docs'), { recursive: true });
        await mkdir(path.join(dir, 'solution', 'lib'), { recursive: true });
        await writeFile(path.join(dir, 'solution', 'lib', `${['a', 'b', 'c'][i]}.py`), `def f():\n    return ${i}\n`);
      }
    }

    it('gives each task the same workspace entries as the whole-folder layout it was made from', async () => {
      await writeWholeSuite('whole');
      await cp(path.join(root, 'whole'), path.join(root, 'once'), { recursive: true });
      await writeFile(path.join(root, 'once', 'suite.json'), JSON.stringify({ schemaVersion: 1, name: 'once', description: 'test', tasks: ['one', 'two', 'three'] }));
      for (const name of ['one', 'two', 'three']) {
        await writeFile(path.join(root, 'once', name, 'task.json'), JSON.stringify(validTask(`once/${name}`)));
      }
      await storeSuiteOnce(path.join(root, 'once'), ['one', 'two', 'three']);

      const catalog = await loadCatalog(root);

      expect(catalog.problems).toEqual([]);
      for (const name of ['one', 'two', 'three']) {
        const whole = catalog.get(`whole/${name}`);
        const once = catalog.get(`once/${name}`);
        expect(whole?.workspace.layout).toBe('folder');
        expect(once?.workspace.layout).toBe('overlay');
        expect(await listWorkspaceFiles(once!)).toEqual(await listWorkspaceFiles(whole!));
      }
      // The base is the library as the tasks share it; each overlay holds only its task's change.
      const base = await readdir(path.join(root, 'once', '_base'), { recursive: true });
      expect(base.sort()).toEqual(['README.md', 'docs', 'docs/img', 'docs/img/logo.txt', 'lib', 'lib/a.py', 'lib/b.py', 'lib/c.py', 'tests', 'tests/test_a.py', 'tests/test_b.py']);
      expect(await readFile(path.join(root, 'once', '_base', 'lib', 'a.py'), 'utf8')).toBe('def f():\n    return 0\n');
      expect((await readdir(path.join(root, 'once', 'one', 'overlay'), { recursive: true })).sort()).toEqual(['lib', 'lib/a.py']);
      expect((await readdir(path.join(root, 'once', 'two', 'overlay'), { recursive: true })).sort()).toEqual(['lib', 'lib/b.py', 'tests', 'tests/test_b.py']);
      expect(JSON.parse(await readFile(path.join(root, 'once', 'one', 'overlay.json'), 'utf8'))).toEqual({ schemaVersion: 1, base: '_base', deleted: ['tests/test_a.py'] });
      expect(JSON.parse(await readFile(path.join(root, 'once', 'three', 'overlay.json'), 'utf8'))).toEqual({ schemaVersion: 1, base: '_base', deleted: ['docs'] });
    });

    it('stores the same suite to the same bytes, and storing it again changes nothing', async () => {
      await writeWholeSuite('twice');
      await cp(path.join(root, 'twice'), path.join(root, 'copy'), { recursive: true });
      await storeSuiteOnce(path.join(root, 'twice'), ['one', 'two', 'three']);
      await storeSuiteOnce(path.join(root, 'copy'), ['one', 'two', 'three']);
      const snapshot = async (dir: string): Promise<Record<string, string>> => {
        const files = (await readdir(dir, { recursive: true, withFileTypes: true })).filter((e) => e.isFile());
        const out: Record<string, string> = {};
        for (const f of files) out[path.relative(dir, path.join(f.parentPath, f.name))] = await readFile(path.join(f.parentPath, f.name), 'utf8');
        return out;
      };
      const first = await snapshot(path.join(root, 'twice'));
      expect(await snapshot(path.join(root, 'copy'))).toEqual(first);
      await storeSuiteOnce(path.join(root, 'twice'), ['one', 'two', 'three']);
      expect(await snapshot(path.join(root, 'twice'))).toEqual(first);
    });

    it('skips a task whose overlay deletes a path the base lacks, or names a missing base, naming the file and field; the rest loads', async () => {
      await writeWholeSuite('bad');
      await storeSuiteOnce(path.join(root, 'bad'), ['one', 'two', 'three']);
      const overlayOf = (name: string): string => path.join(root, 'bad', name, 'overlay.json');
      await writeFile(overlayOf('one'), JSON.stringify({ schemaVersion: 1, base: '_base', deleted: ['tests/test_a.py', 'no/such.py'] }));
      await writeFile(overlayOf('two'), JSON.stringify({ schemaVersion: 1, base: '_gone', deleted: [] }));
      await writeFile(overlayOf('three'), JSON.stringify({ schemaVersion: 1, base: '_base', deleted: ['../task.json'] }));

      const catalog = await loadCatalog(root);

      expect(catalog.tasks.size).toBe(0);
      expect(problemFor(catalog.problems, path.join('one', 'overlay.json'))).toMatchObject({ field: 'deleted.1', message: `"no/such.py" is not in the base ${path.join(root, 'bad', '_base')}` });
      expect(problemFor(catalog.problems, path.join('two', 'overlay.json'))).toMatchObject({ field: 'base', message: `the suite's base folder ${path.join(root, 'bad', '_gone')} does not exist` });
      expect(problemFor(catalog.problems, path.join('three', 'overlay.json')).field).toBe('deleted.0');

      await rm(path.join(root, 'bad', '_base'), { recursive: true });
      await writeSuite('fine', ['ok']);
      await writeTask('fine', 'ok');
      const again = await loadCatalog(root);
      expect([...again.tasks.keys()]).toEqual(['fine/ok']);
      expect(problemFor(again.problems, path.join('one', 'overlay.json')).field).toBe('base');
    });

    it('refuses a task holding both a workspace/ folder and an overlay.json', async () => {
      await writeSuite('both', ['t']);
      const dir = await writeTask('both', 't');
      await mkdir(path.join(root, 'both', '_base'));
      await writeFile(path.join(dir, 'overlay.json'), JSON.stringify({ schemaVersion: 1, base: '_base', deleted: [] }));

      const catalog = await loadCatalog(root);

      expect(problemFor(catalog.problems, path.join('t', 'workspace')).message).toMatch(/both workspace\/ and overlay.json/);
    });
  });

  it('skips a malformed suite and still loads the other suites', async () => {
    await writeSuite('good', ['a']);
    await writeTask('good', 'a');
    await mkdir(path.join(root, 'broken-json'));
    await writeFile(path.join(root, 'broken-json', 'suite.json'), '{ nope');
    await writeSuite('wrong-name', ['a'], { name: 'other' });
    await writeTask('wrong-name', 'a');
    await writeSuite('bad-tasks', ['a'], { tasks: 'a' });
    await mkdir(path.join(root, 'no-index'));
    await mkdir(path.join(root, '.hidden-folder'));

    const catalog = await loadCatalog(root);

    expect([...catalog.tasks.keys()]).toEqual(['good/a']);
    expect(problemFor(catalog.problems, path.join('broken-json', 'suite.json')).message).toMatch(/^invalid JSON: /);
    expect(problemFor(catalog.problems, path.join('wrong-name', 'suite.json')).field).toBe('name');
    expect(problemFor(catalog.problems, path.join('bad-tasks', 'suite.json')).field).toBe('tasks');
    expect(problemFor(catalog.problems, path.join('no-index', 'suite.json')).message).toMatch(/missing/);
    expect(catalog.problems).toHaveLength(4);
  });

  it('refuses a task listed twice or a listed name that is not a folder name', async () => {
    await writeSuite('dups', ['a', 'a', '../a']);
    await writeTask('dups', 'a');

    const catalog = await loadCatalog(root);

    expect([...catalog.tasks.keys()]).toEqual(['dups/a']);
    expect(catalog.problems.map((p) => p.field).sort()).toEqual(['tasks.1', 'tasks.2']);
  });

  it('throws NotFoundError when the environments folder does not exist', async () => {
    await expect(loadCatalog(path.join(root, 'nowhere'))).rejects.toBeInstanceOf(NotFoundError);
  });

  it('logs one warning per problem that names the file and the field', async () => {
    await writeSuite('s', ['t']);
    await writeTask('s', 't', { json: { ...validTask('s/t'), rewardMode: 'best' } });
    const lines: Array<Record<string, unknown>> = [];
    const sink = new Writable({
      write(chunk: Buffer, _encoding, done) {
        lines.push(JSON.parse(chunk.toString()) as Record<string, unknown>);
        done();
      },
    });

    const catalog = await loadCatalog(root, { logger: pino({ level: 'info' }, sink) });

    expect(catalog.problems).toHaveLength(1);
    const warnings = lines.filter((l) => l['level'] === 40);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatchObject({ component: 'tasks', field: 'rewardMode', path: path.join(root, 's', 't', 'task.json') });
    expect(formatTaskLoadProblem(catalog.problems[0]!)).toMatch(/task\.json: rewardMode: /);
  });
});
