import { isPythonTestPath } from '../adapters/python/parse-module-names.js';
import type { MaskBody } from '../adapters/language-adapter.js';
import { removeTestsOfTarget } from '../adapters/python/mask-tests.js';
import type { Unit } from '../types.js';
import { compareStrings } from '../write/stable-json.js';
import { scrubReason } from './scrub-paths.js';

/** Files of a repository, by POSIX path relative to its root. */
export type FileMap = ReadonlyMap<string, Buffer>;

export interface MaskedWorkspace {
  /** The masked codebase, sorted by path. */
  workspace: Map<string, Buffer>;
  /** The reference: the original file(s) changed by masking, at workspace-relative paths. */
  solution: Map<string, Buffer>;
  /** The removed body as written (the leak audit searches for it). */
  removedBody: string;
  /** What was taken out, for report.json. */
  removedTests: { file: string; tests: string[]; fileDeleted: boolean }[];
  /** Paths scrubbed, with the rule that matched (sorted). */
  scrubbed: { path: string; rule: string }[];
}

export interface MaskOptions {
  unit: Unit;
  /** The snapshot's files. */
  files: FileMap;
  maskBody: MaskBody;
}

/**
 * Builds the workspace an agent gets for one unit: scrubbed of everything that could give the body
 * back, the body replaced (signature and docstring kept), the repository's own tests of the target
 * removed, and copies of the original file elsewhere in the tree dropped.
 */
export function maskWorkspace(options: MaskOptions): MaskedWorkspace {
  const { unit, files, maskBody } = options;
  const original = files.get(unit.file);
  if (original === undefined) throw new Error(`${unit.id}: ${unit.file} is not in the snapshot`);
  const originalText = original.toString('utf8');
  const masked = maskBody(originalText, unit);
  const lines = originalText.split(/\r?\n/);
  const removedBody = lines.slice(unit.bodyStartLine - 1, unit.bodyEndLine).join('\n');

  const workspace = new Map<string, Buffer>();
  const scrubbed: MaskedWorkspace['scrubbed'] = [];
  const removedTests: MaskedWorkspace['removedTests'] = [];
  for (const path of [...files.keys()].sort(compareStrings)) {
    const content = files.get(path) ?? Buffer.alloc(0);
    const rule = scrubReason(path);
    if (rule !== null) {
      scrubbed.push({ path, rule });
      continue;
    }
    if (path === unit.file) {
      workspace.set(path, Buffer.from(masked, 'utf8'));
      continue;
    }
    if (content.equals(original)) {
      scrubbed.push({ path, rule: 'copy of the target file' });
      continue;
    }
    if (path.endsWith('.py') && isPythonTestPath(path) && !path.endsWith('conftest.py')) {
      const removal = removeTestsOfTarget(content.toString('utf8'), unit.qualname);
      if (removal.removed.length) {
        removedTests.push({ file: path, tests: removal.removed, fileDeleted: removal.source === null });
        if (removal.source === null) continue;
        workspace.set(path, Buffer.from(removal.source, 'utf8'));
        continue;
      }
    }
    workspace.set(path, content);
  }
  return {
    workspace,
    solution: new Map([[unit.file, original]]),
    removedBody,
    removedTests,
    scrubbed,
  };
}
