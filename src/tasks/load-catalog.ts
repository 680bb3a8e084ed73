import { lstat, readdir, readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import type { z } from 'zod';
import { NotFoundError } from '../errors.js';
import type { Logger } from '../logging.js';
import { TASK_LAYOUT } from './package-layout.js';
import { overlayFileSchema, suiteFileSchema, taskFileSchema, type TaskFile } from './task-schema.js';
import type { TestRunner } from './test-runner.js';
import type { LoadedTask, TaskCatalog, TaskLoadProblem, TaskWorkspace } from './types.js';

export interface LoadCatalogOptions {
  /** Gets one warning per problem and a summary line (component `tasks`). Default: no logging. */
  logger?: Logger;
  /** Also load the tasks a suite lists as `retired` (`codemidas filter` attempts them again). Default false. */
  includeRetired?: boolean;
  /**
   * The task.json `language` values this process can serve (the language plugins'); a task in any
   * other is skipped with a problem naming the ones there are. Default: every language loads.
   */
  languages?: readonly string[];
  /**
   * The runners of task.json `tests.runner` this process can judge (the language plugins'
   * `testRunners`): each task's `tests` is validated with its runner's schema, and a task whose
   * runner is not here is skipped with a problem naming the ones there are. Default: every runner
   * loads, its own fields unchecked (the scorer still checks them).
   */
  runners?: readonly TestRunner[];
}

/**
 * Loads every suite under `environmentsDir`: each non-hidden subfolder is a suite with a
 * `suite.json`, whose `tasks` name task folders holding `task.json`, the task's workspace (a whole
 * `workspace/` folder, or `overlay.json` and `overlay/` over the suite's base) and `hidden/` (with
 * the files named in `tests.cases` and in the runner's own fields of `tests`).
 *
 * A malformed suite or task is skipped and reported in `problems` (file path, dotted field, message;
 * a task with several faults gives several problems); everything else still loads. Suites load in
 * folder-name order and tasks in `suite.json` order, so `list()` is stable.
 *
 * Throws `NotFoundError` only when `environmentsDir` itself is missing or not a folder.
 */
export async function loadCatalog(environmentsDir: string, options: LoadCatalogOptions = {}): Promise<TaskCatalog> {
  const root = path.resolve(environmentsDir);
  if (!(await isDirectory(root))) {
    throw new NotFoundError('file', root, 'the environments folder does not exist; build a suite into it or point to another folder');
  }
  const log = options.logger?.child({ component: 'tasks' });
  const tasks: LoadedTask[] = [];
  const problems: TaskLoadProblem[] = [];

  const entries = await readdir(root, { withFileTypes: true });
  const suiteDirs = entries
    .filter((e) => !e.name.startsWith('.') && (e.isDirectory() || e.isSymbolicLink()))
    .map((e) => e.name)
    .sort(compareNames);
  for (const suite of suiteDirs) {
    const suiteDir = path.join(root, suite);
    if (!(await isDirectory(suiteDir))) continue;
    const loaded = await loadSuite(suite, suiteDir, options.includeRetired ?? false, options.runners);
    for (const task of loaded.tasks) {
      if (!options.languages || options.languages.includes(task.file.language)) tasks.push(task);
      else {
        const known = options.languages.join(', ') || 'none';
        problems.push({ suite, path: path.join(task.dir, 'task.json'), field: 'language', message: `no language plugin here serves "${task.file.language}" (there are: ${known})` });
      }
    }
    problems.push(...loaded.problems);
  }

  for (const problem of problems) {
    log?.warn({ suite: problem.suite, path: problem.path, field: problem.field }, `skipped: ${formatTaskLoadProblem(problem)}`);
  }
  log?.info({ dir: root, tasks: tasks.length, problems: problems.length }, 'task catalog loaded');
  return createTaskCatalog(tasks, problems);
}

/** One line for a problem: `<path>: <field>: <message>` (the field left out when it is the whole file). */
export function formatTaskLoadProblem(problem: TaskLoadProblem): string {
  return problem.field ? `${problem.path}: ${problem.field}: ${problem.message}` : `${problem.path}: ${problem.message}`;
}

interface Loaded {
  tasks: LoadedTask[];
  problems: TaskLoadProblem[];
}

async function loadSuite(suite: string, suiteDir: string, includeRetired: boolean, runners: readonly TestRunner[] | undefined): Promise<Loaded> {
  const suiteFile = path.join(suiteDir, 'suite.json');
  const problem = (field: string, message: string, file = suiteFile): TaskLoadProblem => ({ suite, path: file, field, message });

  const json = await readJson(suiteFile, 'every folder under the environments folder is a suite and needs a suite.json');
  if (!json.ok) return { tasks: [], problems: [problem(json.field, json.message)] };
  const parsed = suiteFileSchema.safeParse(json.value);
  if (!parsed.success) return { tasks: [], problems: issuesToProblems(suite, suiteFile, parsed.error) };
  if (parsed.data.name !== suite) {
    return { tasks: [], problems: [problem('name', `expected "${suite}" (the folder's name), found "${parsed.data.name}"`)] };
  }

  const problems: TaskLoadProblem[] = [];
  const pending: Array<Promise<Loaded>> = [];
  const seen = new Set<string>();
  const listed = parsed.data.tasks.map((name, index) => ({ name, field: `tasks.${index}` }));
  if (includeRetired) listed.push(...parsed.data.retired.map((name, index) => ({ name, field: `retired.${index}` })));
  listed.forEach(({ name, field }) => {
    if (!isPlainSegment(name)) {
      problems.push(problem(field, `"${name}" is not a folder name (no slashes, not "." or "..")`));
    } else if (seen.has(name)) {
      problems.push(problem(field, `"${name}" is listed twice`));
    } else {
      seen.add(name);
      pending.push(loadListedTask(suite, suiteDir, name, runners, () => problem(field, `task folder ${path.join(suiteDir, name)} does not exist`)));
    }
  });
  const loaded = await Promise.all(pending);
  return {
    tasks: loaded.flatMap((l) => l.tasks),
    problems: [...problems, ...loaded.flatMap((l) => l.problems)],
  };
}

async function loadListedTask(suite: string, suiteDir: string, name: string, runners: readonly TestRunner[] | undefined, missing: () => TaskLoadProblem): Promise<Loaded> {
  const taskDir = path.join(suiteDir, name);
  if (!(await isDirectory(taskDir))) return { tasks: [], problems: [missing()] };
  const result = await loadTask(suite, suiteDir, name, taskDir, runners);
  return 'problems' in result ? { tasks: [], problems: result.problems } : { tasks: [result.task], problems: [] };
}

async function loadTask(suite: string, suiteDir: string, name: string, dir: string, runners: readonly TestRunner[] | undefined): Promise<{ task: LoadedTask } | { problems: TaskLoadProblem[] }> {
  const taskFile = path.join(dir, 'task.json');
  const problem = (field: string, message: string, file = taskFile): TaskLoadProblem => ({ suite, path: file, field, message });

  const json = await readJson(taskFile, 'every task folder listed in suite.json needs a task.json');
  if (!json.ok) return { problems: [problem(json.field, json.message)] };
  const parsed = taskFileSchema.safeParse(json.value);
  if (!parsed.success) return { problems: issuesToProblems(suite, taskFile, parsed.error) };
  let file: TaskFile = parsed.data;
  const runner = runners?.find((r) => r.name === file.tests.runner);
  if (runners && !runner) {
    const known = runners.map((r) => r.name).sort().join(', ') || 'none';
    return { problems: [problem('tests.runner', `no language plugin here provides the runner "${file.tests.runner}" (there are: ${known})`)] };
  }
  if (runner) {
    const tests = runner.testsSchema.safeParse(file.tests);
    if (!tests.success) return { problems: issuesToProblems(suite, taskFile, tests.error, ['tests']) };
    file = { ...file, tests: tests.data };
  }

  const problems: TaskLoadProblem[] = [];
  const expectedId = `${suite}/${name}`;
  if (file.id !== expectedId) {
    problems.push(problem('id', `expected "${expectedId}" (<suite>/<folder>), found "${file.id}"`));
  }
  const hiddenDir = path.join(dir, 'hidden');
  const workspace = await loadWorkspace(suiteDir, dir, (field, message, file) => problems.push(problem(field, message, file)));
  if (!(await isDirectory(hiddenDir))) {
    problems.push(problem('', 'missing folder: a task needs hidden/ (the tests copied in at scoring)', hiddenDir));
  } else {
    const named: Array<[string, string]> = (runner?.hiddenFiles(file.tests) ?? []).map((f) => [`tests.${f.field}`, f.path]);
    if (file.tests.cases !== null) named.unshift(['tests.cases', file.tests.cases]);
    for (const [field, relative] of named) {
      const fault = await hiddenFileFault(hiddenDir, relative);
      if (fault) problems.push(problem(field, fault));
    }
  }
  if (problems.length > 0 || !workspace) return { problems };

  return {
    task: {
      id: file.id,
      suite,
      name,
      dir,
      workspace,
      hiddenDir,
      solutionDir: path.join(dir, 'solution'),
      file,
    },
  };
}

/**
 * Where the task's workspace is stored, or null after reporting why it is unusable: `overlay.json`
 * (its base a folder of the suite, each deleted path in the base) or else a whole `workspace/`.
 */
async function loadWorkspace(suiteDir: string, dir: string, report: (field: string, message: string, file: string) => void): Promise<TaskWorkspace | null> {
  const workspaceDir = path.join(dir, TASK_LAYOUT.workspaceDir);
  const overlayFile = path.join(dir, TASK_LAYOUT.overlayFile);
  const hasFolder = await isDirectory(workspaceDir);
  if (!(await exists(overlayFile))) {
    if (hasFolder) return { layout: 'folder', dir: workspaceDir };
    report('', `missing folder: a task needs workspace/ (the masked codebase the agent starts from), or ${TASK_LAYOUT.overlayFile} over the suite's base`, workspaceDir);
    return null;
  }
  if (hasFolder) {
    report('', `holds both workspace/ and ${TASK_LAYOUT.overlayFile}: keep one way of storing the workspace`, workspaceDir);
    return null;
  }
  const json = await readJson(overlayFile, `a task stored over the suite's base needs ${TASK_LAYOUT.overlayFile}`);
  if (!json.ok) {
    report(json.field, json.message, overlayFile);
    return null;
  }
  const parsed = overlayFileSchema.safeParse(json.value);
  if (!parsed.success) {
    for (const p of issuesToProblems('', overlayFile, parsed.error)) report(p.field, p.message, overlayFile);
    return null;
  }
  const baseDir = path.join(suiteDir, parsed.data.base);
  if (!(await isDirectory(baseDir))) {
    report('base', `the suite's base folder ${baseDir} does not exist`, overlayFile);
    return null;
  }
  let faults = 0;
  for (const [index, relative] of parsed.data.deleted.entries()) {
    if (!(await exists(path.join(baseDir, ...relative.split('/'))))) {
      report(`deleted.${index}`, `"${relative}" is not in the base ${baseDir}`, overlayFile);
      faults += 1;
    }
  }
  const overlayDir = path.join(dir, TASK_LAYOUT.overlayDir);
  if ((await exists(overlayDir)) && !(await isDirectory(overlayDir))) {
    report('', 'is not a folder: overlay/ holds the files of the task that differ from the base', overlayDir);
    faults += 1;
  }
  return faults > 0 ? null : { layout: 'overlay', baseDir, overlayDir, deleted: parsed.data.deleted };
}

async function exists(file: string): Promise<boolean> {
  try {
    await lstat(file);
    return true;
  } catch {
    return false;
  }
}

/** Why a path named in task.json's `tests` is unusable, or null when it is a file inside hidden/. */
async function hiddenFileFault(hiddenDir: string, relative: string): Promise<string | null> {
  const full = path.resolve(hiddenDir, relative);
  const inside = path.relative(hiddenDir, full);
  if (relative === '' || path.isAbsolute(relative) || inside === '' || inside === '..' || inside.startsWith(`..${path.sep}`) || path.isAbsolute(inside)) {
    return `"${relative}" must be a relative path to a file inside hidden/`;
  }
  try {
    const info = await stat(full);
    return info.isFile() ? null : `${full} is not a regular file`;
  } catch {
    return `${full} does not exist`;
  }
}

type JsonRead = { ok: true; value: unknown } | { ok: false; field: string; message: string };

async function readJson(file: string, whenMissing: string): Promise<JsonRead> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return { ok: false, field: '', message: `file is missing: ${whenMissing}` };
    return { ok: false, field: '', message: `cannot read the file (${code ?? String(err)})` };
  }
  try {
    return { ok: true, value: JSON.parse(text) as unknown };
  } catch (err) {
    return { ok: false, field: '', message: `invalid JSON: ${err instanceof Error ? err.message : String(err)}` };
  }
}

/** One problem per zod issue; an unknown key is reported as its own dotted field. */
function issuesToProblems(suite: string, file: string, error: z.ZodError, under: readonly string[] = []): TaskLoadProblem[] {
  return error.issues.flatMap((issue) => {
    const base = [...under, ...issue.path.map((part) => String(part))].join('.');
    if (issue.code === 'unrecognized_keys') {
      return issue.keys.map((key) => ({ suite, path: file, field: base ? `${base}.${key}` : key, message: 'unknown field' }));
    }
    return [{ suite, path: file, field: base, message: issue.message }];
  });
}

function createTaskCatalog(loaded: readonly LoadedTask[], problems: readonly TaskLoadProblem[]): TaskCatalog {
  const tasks: ReadonlyMap<string, LoadedTask> = new Map(loaded.map((task) => [task.id, task]));
  const frozenProblems = Object.freeze([...problems]);
  return Object.freeze({
    tasks,
    problems: frozenProblems,
    get: (taskId: string) => tasks.get(taskId),
    list: (filter: { suite?: string; language?: string } = {}) =>
      loaded.filter(
        (task) =>
          (filter.suite === undefined || task.suite === filter.suite) &&
          (filter.language === undefined || task.file.language === filter.language),
      ),
  });
}

function isPlainSegment(name: string): boolean {
  return name !== '' && name !== '.' && name !== '..' && !name.includes('/') && !name.includes('\\') && !name.includes('\0');
}

async function isDirectory(dir: string): Promise<boolean> {
  try {
    return (await stat(dir)).isDirectory();
  } catch {
    return false;
  }
}

/** Code-point order, independent of the locale. */
function compareNames(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
