import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { projectRoot } from '../project-root.js';
import type { FileEntry } from '../sandbox/types.js';

/** The Python the Go, Rust and Java runtimes share (bounded runs of the agent's code, the judges' float and message helpers). */
export const COMPILED_RUNTIME_DIR = join(projectRoot(), 'src', 'languages', 'compiled-runtime');
const COMPILED_RUNTIME_FILES = ['bounded_run.py', 'judge_values.py', 'token_mutants.py'];

/**
 * A compiled language's record harness as files for the record sandbox: the folders down to
 * `dirInSandbox`, `files` of its `runtimeDir`, and beside them the shared runtime files (its image
 * puts both in one folder too: sandbox-images/<language>/sources.txt).
 */
export async function compiledHarnessEntries(dirInSandbox: string, runtimeDir: string, files: readonly string[]): Promise<FileEntry[]> {
  const base = dirInSandbox.replace(/^\/+/, '');
  const entries: FileEntry[] = [];
  const parts = base.split('/');
  for (let i = 1; i <= parts.length; i += 1) entries.push({ path: parts.slice(0, i).join('/'), type: 'directory', mode: 0o755 });
  const sources = [...files.map((name) => ({ name, dir: runtimeDir })), ...COMPILED_RUNTIME_FILES.map((name) => ({ name, dir: COMPILED_RUNTIME_DIR }))];
  for (const { name, dir } of sources) entries.push({ path: `${base}/${name}`, type: 'file', mode: 0o644, content: await readFile(join(dir, name)) });
  return entries;
}
