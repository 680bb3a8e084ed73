import { join } from 'node:path';
import { projectRoot } from '../../project-root.js';
import type { RepoSnapshot } from '../construction-types.js';
import type { DetectResult, LanguageAdapter, MaskBody } from '../language-adapter.js';
import { isLibraryPath } from './parse-module-names.js';
import { parsePythonUnits } from './parse-python-units.js';

/** Finds Python by file extension: any `.py` file counts, and the reason says how many are library code. */
export function detectPython(snapshot: RepoSnapshot): DetectResult {
  const files = snapshot.files.filter((f) => f.endsWith('.py'));
  const library = files.filter(isLibraryPath).length;
  return {
    language: 'python',
    detected: files.length > 0,
    files,
    reason: files.length === 0 ? 'no .py files' : `${files.length} Python files (${library} library files outside tests, examples and docs)`,
  };
}

/** Folder of the Python adapter's sandbox-side sources (record harness, test templates). */
export function pythonHarnessDir(): string {
  return join(projectRoot(), 'src', 'languages', 'python', 'harness');
}

/** The stages' pieces the Python adapter is composed from, passed in by the composition root. */
export interface PythonAdapterParts {
  maskBody: MaskBody;
  /** Default: `pythonHarnessDir()`. */
  harnessDir?: string;
}

/** The Python language adapter: detection and parsing here, masking and harness from their own stages. */
export function createPythonAdapter(parts: PythonAdapterParts): LanguageAdapter {
  return Object.freeze({
    language: 'python',
    detect: detectPython,
    parseUnits: parsePythonUnits,
    harnessDir: parts.harnessDir ?? pythonHarnessDir(),
    maskBody: parts.maskBody,
    runnerImage: 'python',
  });
}
