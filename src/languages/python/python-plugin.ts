import { maskPythonBody } from '../../pipeline/adapters/python/mask-body.js';
import { importRootOf } from '../../pipeline/adapters/python/parse-module-names.js';
import { createPythonAdapter } from '../../pipeline/adapters/python/python-adapter.js';
import { createPythonScorer } from '../../scoring/python-scorer.js';
import { pythonTestRunner } from '../../scoring/python-tests.js';
import type { LanguagePlugin } from '../language.js';

/** Python: tree-sitter units, the Python record harness and judge (pytest for test scripts), the `python` image. */
export function createPythonPlugin(): LanguagePlugin {
  const adapter = createPythonAdapter({ maskBody: maskPythonBody });
  const plugin: LanguagePlugin = {
    ...adapter,
    taskLanguages: ['python'],
    image: 'python',
    testRunners: [pythonTestRunner],
    createScorer: ({ provider, logger }) => createPythonScorer({ provider, logger }),
    unbuildable: (unit) => {
      const root = importRootOf(unit);
      return root === '' ? null : { code: 'import-root', reason: `${unit.module} is imported from ${root}/, but scoring imports from the workspace root` };
    },
  };
  return Object.freeze(plugin);
}
