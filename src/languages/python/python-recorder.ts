import { readdir, readFile } from 'node:fs/promises';
import { join, posix } from 'node:path';
import { projectRoot } from '../../project-root.js';
import type { Candidate, Unit } from '../construction-types.js';
import type { InputProposal } from '../construction-types.js';
import type { FileEntry } from '../../sandbox/types.js';
import type { RecordHarness } from '../language.js';

/** Where the harness and the codec go inside the sandbox (never /tmp: the scrubbed images mount it). */
export const PYTHON_HARNESS_DIR_IN_SANDBOX = '/var/lib/codemidas/harness';

/** Folder of the Python record harness in this checkout. */
export function harnessSourceDir(root: string = projectRoot()): string {
  return join(root, 'src', 'languages', 'python', 'harness');
}

/** The harness's .py files plus the scoring codec, as sandbox entries relative to `/`. */
export async function harnessEntries(root: string = projectRoot()): Promise<FileEntry[]> {
  const dir = harnessSourceDir(root);
  const names = (await readdir(dir)).filter((n) => n.endsWith('.py')).sort();
  const base = PYTHON_HARNESS_DIR_IN_SANDBOX.slice(1);
  const entries: FileEntry[] = [
    { path: 'var/lib/codemidas', type: 'directory', mode: 0o755 },
    { path: base, type: 'directory', mode: 0o755 },
  ];
  for (const name of names) entries.push({ path: `${base}/${name}`, type: 'file', mode: 0o644, content: await readFile(join(dir, name)) });
  entries.push({ path: `${base}/codec.py`, type: 'file', mode: 0o644, content: await readFile(join(root, 'src', 'languages', 'python', 'judge', 'codec.py')) });
  return entries;
}

/** Import roots of the candidates: `src/pkg/mod.py` with module `pkg.mod` → `/workspace/src`. */
export function importRoots(candidates: readonly Candidate[], workspace: string): string[] {
  const roots = new Set<string>([workspace]);
  for (const { unit } of candidates) {
    const modulePath = unit.module.split('.').join('/');
    const file = unit.file.replace(/\.py$/, '').replace(/\/__init__$/, '');
    if (file.endsWith(modulePath)) {
      const prefix = file.slice(0, file.length - modulePath.length).replace(/\/$/, '');
      roots.add(prefix ? posix.join(workspace, prefix) : workspace);
    }
  }
  return [...roots].sort((a, b) => (a === workspace ? -1 : b === workspace ? 1 : a.localeCompare(b)));
}

/** One candidate as record.py and mutate.py take it. */
function pythonTarget(candidate: Candidate, classes: ReadonlyMap<string, Unit>, proposed: readonly InputProposal[]): Record<string, unknown> {
  const u = candidate.unit;
  const owner = u.kind === 'method' ? classes.get(`${u.module}:${u.qualname.split('.').slice(0, -1).join('.')}`) : undefined;
  return {
    unitId: u.id,
    module: u.module,
    qualname: u.qualname,
    kind: u.kind === 'method' ? 'method' : 'function',
    params: u.params,
    docstring: u.docstring,
    callSites: u.callSites.filter((c) => c.allLiteral).map((c) => ({ argumentTexts: c.argumentTexts, allLiteral: c.allLiteral })),
    initCallSites: (owner?.callSites ?? []).filter((c) => c.allLiteral).map((c) => ({ argumentTexts: c.argumentTexts, allLiteral: true })),
    // absent when empty, so a build without proposals sends record.py the config it always did
    ...(proposed.length > 0 ? { proposed: proposed.map((p) => ({ args: p.args, kwargs: p.kwargs, init: p.init })) } : {}),
  };
}

/**
 * Python's record harness (`harness/record.py`, `harness/mutate.py`, with the scoring codec): run
 * as `python3 -I -B`, the candidates' import roots on `sys.path`.
 */
export function createPythonRecorder(root?: string): RecordHarness {
  return Object.freeze({
    entries: () => harnessEntries(root),
    command: (script: 'record' | 'mutate') => ['python3', '-I', '-B', `${PYTHON_HARNESS_DIR_IN_SANDBOX}/${script}.py`],
    config: (candidates: readonly Candidate[], workspace: string) => ({ sysPath: importRoots(candidates, workspace) }),
    target: pythonTarget,
    mutatesThroughEntries: true,
  });
}
