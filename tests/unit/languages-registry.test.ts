import { describe, expect, it } from 'vitest';
import { InvalidArgumentError } from '../../src/errors.js';
import { createLanguageScorer } from '../../src/languages/language-scorer.js';
import type { LanguagePlugin } from '../../src/languages/language.js';
import { createPythonPlugin } from '../../src/languages/python/python-plugin.js';
import { createLanguageRegistry } from '../../src/languages/registry.js';
import { createLanguages } from '../../src/cli/languages.js';
import { createSilentLogger } from '../../src/logging.js';
import { createMemorySandboxProvider } from '../../src/sandbox/memory/memory-sandbox-provider.js';
import type { ScoreRequest, ScoreResult } from '../../src/scoring/types.js';
import type { LoadedTask } from '../../src/tasks/types.js';
import { makeUnit } from '../fixtures/units.js';

/** A plugin whose scorer answers with its own name, counting the scorers made. */
function fakePlugin(language: string, taskLanguages: string[], made: string[]): LanguagePlugin {
  const python = createPythonPlugin();
  return {
    ...python,
    language,
    taskLanguages,
    createScorer: () => {
      made.push(language);
      return { score: async (): Promise<ScoreResult> => ({ reward: 1, outcome: 'SCORED', passed: 1, total: 1, tests: [], detail: `scored by ${language}`, durationMs: 0 }) };
    },
  };
}

function request(language: string): ScoreRequest {
  return { task: { id: `s/${language}`, file: { language } } as unknown as LoadedTask, workspace: [] };
}

describe('language registry', () => {
  it('serves each task language from its plugin, and names the ones there are for any other', () => {
    const made: string[] = [];
    const registry = createLanguageRegistry([fakePlugin('python', ['python'], made), fakePlugin('javascript', ['javascript', 'typescript'], made)]);
    expect(registry.get('typescript').language).toBe('javascript');
    expect(registry.has('python')).toBe(true);
    expect(registry.has('go')).toBe(false);
    expect(registry.taskLanguages()).toEqual(['javascript', 'python', 'typescript']);
    expect(() => registry.get('go')).toThrow(InvalidArgumentError);
    expect(() => registry.get('go')).toThrow("no language plugin serves 'go' (there are: javascript, python, typescript)");
  });

  it('refuses two plugins claiming one language', () => {
    expect(() => createLanguageRegistry([fakePlugin('a', ['python'], []), fakePlugin('b', ['python'], [])])).toThrow(/'python' is claimed by two plugins \(a and b\)/);
  });

  it('the language scorer hands each request to its plugin\'s scorer, made once per plugin', async () => {
    const made: string[] = [];
    const registry = createLanguageRegistry([fakePlugin('python', ['python'], made), fakePlugin('javascript', ['javascript', 'typescript'], made)]);
    const scorer = createLanguageScorer(registry, { provider: createMemorySandboxProvider(), logger: createSilentLogger() });
    expect((await scorer.score(request('typescript'))).detail).toBe('scored by javascript');
    expect((await scorer.score(request('python'))).detail).toBe('scored by python');
    expect((await scorer.score(request('javascript'))).detail).toBe('scored by javascript');
    expect(made).toEqual(['javascript', 'python']);
    await expect(scorer.score(request('go'))).rejects.toThrow(/no language plugin serves 'go'/);
  });

  it('this build has the Python, JavaScript, Go, Rust and Java plugins; Python: its image, and units below the root are buildable', () => {
    const languages = createLanguages();
    expect(languages.taskLanguages()).toEqual(['go', 'java', 'javascript', 'python', 'rust', 'typescript']);
    expect(languages.get('rust').image).toBe('rust');
    expect(languages.get('java').image).toBe('java');
    expect(languages.get('go').image).toBe('go');
    expect(languages.get('go').testRunners.map((r) => r.name)).toEqual(['go']);
    expect(languages.get('typescript')).toBe(languages.get('javascript'));
    expect(languages.get('javascript').image).toBe('node');
    expect(languages.get('javascript').testRunners.map((r) => r.name)).toEqual(['node']);
    const python = languages.get('python');
    expect(python.image).toBe('python');
    expect(python.unbuildable(makeUnit({ module: 'pkg.core', file: 'pkg/core.py' }))).toBeNull();
    // scored with task.json tests.importRoots
    expect(python.unbuildable(makeUnit({ module: 'pkg.core', file: 'src/pkg/core.py' }))).toBeNull();
    expect(python.unbuildable(makeUnit({ module: 'beta.core', file: 'packages/beta/beta/core.py' }))).toBeNull();
    expect(python.unbuildable(makeUnit({ module: 'my-tool.core', file: 'my-tool/core.py' }))).toMatchObject({ code: 'not-importable' });
  });
});
