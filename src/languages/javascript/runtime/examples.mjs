// Inputs from examples written for people: JSDoc `@example` blocks and the code blocks of a
// package's README (```js, ```javascript, ```ts, untagged, ...). A call of the target with literal
// arguments is an input; so is one whose arguments name constants the example declared before it
// (`const a = new Uint8Array([1, 2]); f(a)`), evaluated with those declarations. A `default` target
// is called in a README by the name the package is imported under (`import ms from 'ms'`,
// `const ms = require('ms')`), a member as `pkg.name(...)`.
import fs from 'node:fs';
import path from 'node:path';
import { exampleCallInputs } from './inputs.mjs';

const FENCE = /^([ \t]*)(```+|~~~+)[ \t]*([\w-]*)[^\n]*\n([\s\S]*?)^[ \t]*\2[ \t]*$/gm;
const CODE_TAGS = new Set(['', 'js', 'javascript', 'mjs', 'cjs', 'jsx', 'ts', 'typescript', 'tsx', 'node', 'sh-session-js']);

/** The code blocks of a Markdown text that hold JavaScript or TypeScript (or say nothing). */
export function codeBlocks(markdown) {
  const out = [];
  for (const m of String(markdown).matchAll(FENCE)) if (CODE_TAGS.has(m[3].toLowerCase())) out.push(m[4]);
  return out;
}

/** The README files at the repository's root (README.md, readme.md, Readme.markdown, ...). */
export function readmeFiles(repoRoot) {
  let names = [];
  try {
    names = fs.readdirSync(repoRoot);
  } catch {
    return [];
  }
  return names.filter((n) => /^readme(?:[.-][\w-]+)*\.(?:md|markdown)$/i.test(n)).sort().map((n) => path.join(repoRoot, n));
}

/** The names a README's code binds the package's default export to (`import ms from 'ms'`, `const x = require('ms')`). */
export function importedDefaultNames(code, packageName) {
  const names = new Set();
  if (!packageName) return names;
  const spec = packageName.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
  for (const m of code.matchAll(new RegExp(`import\\s+([A-Za-z_$][\\w$]*)\\s*(?:,\\s*\\{[^}]*\\})?\\s*from\\s*['"]${spec}['"]`, 'g'))) names.add(m[1]);
  for (const m of code.matchAll(new RegExp(`(?:const|let|var)\\s+([A-Za-z_$][\\w$]*)\\s*=\\s*require\\(\\s*['"]${spec}['"]\\s*\\)`, 'g'))) names.add(m[1]);
  return names;
}

/** The name a package is usually imported under: its name without scope, in camelCase (`@a/compare-versions` → `compareVersions`). */
export function bindingOfPackage(name) {
  const bare = String(name).replace(/^@[^/]+\//, '');
  const camel = bare.replace(/[^A-Za-z0-9_$]+(.)?/g, (_, c) => (c ?? '').toUpperCase());
  return /^[0-9]/.test(camel) ? `_${camel}` : camel;
}

/** The package's name from its package.json, or null. */
export function packageName(repoRoot) {
  try {
    const name = JSON.parse(fs.readFileSync(path.join(repoRoot, 'package.json'), 'utf8')).name;
    return typeof name === 'string' ? name : null;
  } catch {
    return null;
  }
}

/**
 * Inputs from the README's code blocks for the export path `target` (`compareVersions`, `default`,
 * `default.parse`): calls of its last name; for a default export, of the names the package is
 * imported under.
 */
export function readmeInputs(repoRoot, target) {
  const parts = String(target).split('.');
  const last = parts[parts.length - 1];
  const blocks = readmeFiles(repoRoot).flatMap((file) => {
    try {
      return codeBlocks(fs.readFileSync(file, 'utf8'));
    } catch {
      return [];
    }
  });
  const all = blocks.join('\n');
  const pkg = packageName(repoRoot);
  const names = new Set(last === 'default' ? importedDefaultNames(all, pkg) : [last]);
  // a README that never shows the import calls the default export by the package's name (`ms('2d')`)
  if (last === 'default' && names.size === 0 && pkg) names.add(bindingOfPackage(pkg));
  if (names.size === 0) return [];
  return blocks.flatMap((code) => exampleCallInputs(code, [...names]));
}
