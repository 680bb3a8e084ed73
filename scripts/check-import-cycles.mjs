#!/usr/bin/env node
// Lists import cycles between the top-level folders of src/ (STYLE.md lesson 1: dependencies point
// one way). Files directly under src/ (errors.ts, logging.ts, ...) are neutral and not counted;
// each language plugin folder counts as a folder of its own.
// Usage: node scripts/check-import-cycles.mjs [--edges]   (exits 1 when there is a cycle)
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const src = resolve(dirname(fileURLToPath(import.meta.url)), '..', 'src');
const files = [];
const walk = (dir) => {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) walk(path);
    else if (name.endsWith('.ts')) files.push(path);
  }
};
walk(src);

/**
 * The top-level folder of a file under src/, or null for a file directly under src/. A language
 * plugin (`languages/<id>/`) is a node of its own: it implements the contract in `languages/` and
 * uses the generic pipeline, which knows only the contract.
 */
const folderOf = (path) => {
  const parts = relative(src, path).split('/');
  if (parts.length === 1) return null;
  return parts[0] === 'languages' && parts.length > 2 ? `languages/${parts[1]}` : parts[0];
};

/** "from -> to" between folders, with the file imports behind each. */
const edges = new Map();
for (const file of files) {
  const text = readFileSync(file, 'utf8');
  for (const match of text.matchAll(/(?:import|export)\s[^'"]*?from\s+['"](\.[^'"]+)['"]/g)) {
    const target = resolve(dirname(file), match[1]).replace(/\.js$/, '.ts');
    const from = folderOf(file);
    const to = folderOf(target);
    if (from === null || to === null || from === to) continue;
    const key = `${from} -> ${to}`;
    edges.set(key, [...(edges.get(key) ?? []), `${relative(src, file)} -> ${relative(src, target)}`]);
  }
}

const next = new Map();
for (const key of edges.keys()) {
  const [from, to] = key.split(' -> ');
  next.set(from, [...(next.get(from) ?? []), to]);
}
const reaches = (from, to, seen = new Set()) => {
  if (from === to) return true;
  if (seen.has(from)) return false;
  seen.add(from);
  return (next.get(from) ?? []).some((n) => reaches(n, to, seen));
};

if (process.argv.includes('--edges')) for (const key of [...edges.keys()].sort()) console.log(key);
const onCycles = [...edges].filter(([key]) => {
  const [from, to] = key.split(' -> ');
  return reaches(to, from);
});
for (const [key, imports] of onCycles) console.log(`on a cycle: ${key}\n  ${imports.join('\n  ')}`);
console.log(onCycles.length === 0 ? 'no import cycle between the top-level folders of src/' : `${onCycles.length} folder edges lie on cycles`);
process.exitCode = onCycles.length === 0 ? 0 : 1;
