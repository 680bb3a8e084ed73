import { describe, expect, it } from 'vitest';
import type { WorkspaceRules } from '../../src/languages/language.js';
import { maskPythonBody } from '../../src/languages/python/mask-body.js';
import { createPythonPlugin } from '../../src/languages/python/python-plugin.js';
import { maskWorkspace } from '../../src/pipeline/mask/mask-workspace.js';
import type { Unit } from '../../src/pipeline/types.js';

const python = createPythonPlugin();

const MODULE = 'def clamp(x, low, high):\n    if x < low:\n        return low\n    return min(x, high)\n';
const unit = {
  id: 'dist.mod:clamp', kind: 'function', module: 'dist.mod', qualname: 'clamp', file: 'dist/mod.py', signature: 'def clamp(x, low, high):',
  params: [], returnAnnotation: null, docstring: null, decorators: [], statementCount: 2, codeLines: 3, calls: [], callSites: [],
  isAsync: false, isGenerator: false, impurities: [], startLine: 1, endLine: 4, bodyStartLine: 2, bodyEndLine: 4,
} as Unit;

describe('maskWorkspace with a language\'s workspace rules', () => {
  const files = new Map<string, Buffer>([
    ['dist/mod.py', Buffer.from(MODULE)],
    ['dist/data.txt', Buffer.from('kept by the language')],
    ['dist/other.txt', Buffer.from('scrubbed by the generic rule')],
    ['copy/mod_built.py', Buffer.from(`# built\n${MODULE}`)],
    ['entry.py', Buffer.from(`# entry point\n${MODULE}`)],
    ['README.md', Buffer.from('# readme\n')],
  ]);

  it('removes what the language removes (with its rule), writes its replacements, and keeps what it keeps from the generic scrub', () => {
    const asked: { files: number; units: string[] }[] = [];
    const rules: WorkspaceRules = {
      scrub: ({ files: all, units }) => {
        asked.push({ files: all.size, units: units.map((u) => u.id) });
        return {
          remove: [
            { path: 'copy/mod_built.py', rule: 'built copy of dist/mod.py', replacement: null },
            { path: 'entry.py', rule: 'built copy; replaced by a shim', replacement: Buffer.from('from dist.mod import *\n') },
            // the target's own file is never removed, whatever a language says
            { path: 'dist/mod.py', rule: 'wrong', replacement: null },
          ],
          keep: ['dist/data.txt'],
        };
      },
    };
    const masked = maskWorkspace({ unit, files, units: [unit], maskBody: maskPythonBody, repoTests: python.repoTests, workspaceRules: rules });
    expect(asked).toEqual([{ files: 6, units: ['dist.mod:clamp'] }]);
    expect([...masked.workspace.keys()]).toEqual(['README.md', 'dist/data.txt', 'dist/mod.py', 'entry.py']);
    expect(masked.workspace.get('entry.py')?.toString()).toBe('from dist.mod import *\n');
    expect(masked.workspace.get('dist/mod.py')?.toString()).toContain('raise NotImplementedError');
    expect(masked.scrubbed).toEqual([
      { path: 'copy/mod_built.py', rule: 'built copy of dist/mod.py' },
      { path: 'dist/other.txt', rule: 'dist/' },
      { path: 'entry.py', rule: 'built copy; replaced by a shim' },
    ]);
  });

  it('Python adds no rule of its own: the generic scrub alone', () => {
    expect(python.workspace.scrub({ files, units: [unit] })).toEqual({ remove: [], keep: [] });
    const withRules = maskWorkspace({ unit, files, maskBody: maskPythonBody, repoTests: python.repoTests, workspaceRules: python.workspace });
    const without = maskWorkspace({ unit, files, maskBody: maskPythonBody, repoTests: python.repoTests });
    expect([...withRules.workspace.keys()]).toEqual([...without.workspace.keys()]);
    expect(withRules.scrubbed).toEqual(without.scrubbed);
  });
});
