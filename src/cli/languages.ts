import type { DependencyInstaller } from '../images/dependency-image.js';
import { createGoPlugin } from '../languages/go/go-plugin.js';
import { createJavaPlugin } from '../languages/java/java-plugin.js';
import { createJavaScriptPlugin } from '../languages/javascript/javascript-plugin.js';
import { createPythonPlugin } from '../languages/python/python-plugin.js';
import { createRustPlugin } from '../languages/rust/rust-plugin.js';
import { createLanguageRegistry, type LanguageRegistry } from '../languages/registry.js';

/** The language plugins this build of CodeMidas has: one line per language. */
export function createLanguages(): LanguageRegistry {
  return createLanguageRegistry([createPythonPlugin(), createJavaScriptPlugin(), createGoPlugin(), createRustPlugin(), createJavaPlugin()]);
}

/** The dependency installers of `languages`' plugins by tool (`apt`, `npm`), for the image resolver. */
export function dependencyInstallers(languages: LanguageRegistry): ReadonlyMap<string, DependencyInstaller> {
  return new Map(languages.list().map((plugin) => [plugin.dependencies.installer.tool, plugin.dependencies.installer]));
}
