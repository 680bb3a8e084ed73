import { createJavaScriptPlugin } from '../languages/javascript/javascript-plugin.js';
import { createPythonPlugin } from '../languages/python/python-plugin.js';
import { createLanguageRegistry, type LanguageRegistry } from '../languages/registry.js';

/** The language plugins this build of CodeMidas has: one line per language. */
export function createLanguages(): LanguageRegistry {
  return createLanguageRegistry([createPythonPlugin(), createJavaScriptPlugin()]);
}
