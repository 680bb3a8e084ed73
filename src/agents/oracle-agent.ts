import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { describeStepError, scriptedRun, type Agent } from './types.js';

/** The reference files of a task, keyed by workspace-relative path. */
export type SolutionSource = (taskId: string) => Promise<ReadonlyMap<string, string>>;

/**
 * Writes the reference solution, then submits: must score 1 (a task it fails is broken). The
 * solution never travels over the wire; the oracle reads it where the suite lies on disk.
 */
export function createOracleAgent(solutions: SolutionSource): Agent {
  return {
    name: 'oracle',
    model: null,
    async run(episode, channel) {
      let files: ReadonlyMap<string, string>;
      try {
        files = await solutions(episode.taskId);
      } catch (err) {
        return scriptedRun('env-error', `no reference solution for ${episode.taskId}: ${describeStepError(err)}`);
      }
      try {
        for (const [file, content] of files) {
          const written = await channel.step({ kind: 'write_file', path: file, content });
          if (written.observation.exitCode !== 0) {
            return scriptedRun('env-error', `write_file ${file} failed: ${written.observation.stderr.trim()}`);
          }
        }
        await channel.step({ kind: 'submit' });
        return scriptedRun('submitted', `wrote ${files.size} reference file${files.size === 1 ? '' : 's'} and submitted`);
      } catch (err) {
        return scriptedRun('env-error', describeStepError(err));
      }
    },
  };
}

/**
 * Reads `<environments>/<suite>/<task>/solution/` (every file, recursively). Throws when the folder
 * is missing or empty, naming it.
 */
export function solutionsFromEnvironments(environmentsDir: string): SolutionSource {
  const cache = new Map<string, Promise<ReadonlyMap<string, string>>>();
  const load = async (taskId: string): Promise<ReadonlyMap<string, string>> => {
    const [suite, name] = taskId.split('/', 2);
    if (!suite || !name) throw new Error(`task id '${taskId}' is not <suite>/<task>`);
    const root = path.join(environmentsDir, suite, name, 'solution');
    const entries = await readdir(root, { recursive: true, withFileTypes: true }).catch((err: unknown) => {
      throw new Error(`cannot read ${root} (${describeStepError(err)}); pass --environments with the folder the server serves`);
    });
    const files = new Map<string, string>();
    const paths = entries.filter((e) => e.isFile()).map((e) => path.join(e.parentPath, e.name)).sort();
    for (const file of paths) files.set(path.relative(root, file).split(path.sep).join('/'), await readFile(file, 'utf8'));
    if (files.size === 0) throw new Error(`${root} holds no files`);
    return files;
  };
  return (taskId) => {
    let pending = cache.get(taskId);
    if (!pending) {
      pending = load(taskId);
      pending.catch(() => cache.delete(taskId));
      cache.set(taskId, pending);
    }
    return pending;
  };
}
