#!/usr/bin/env node
// Runs the compiled CLI when `npm run build` has produced it and it is not older than the sources,
// else the TypeScript sources through tsx in this same process (so signals reach the server
// directly and its pid owns its sandboxes). A stale build never runs silently.
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const compiled = fileURLToPath(new URL('../dist/cli/main.js', import.meta.url));
const sources = fileURLToPath(new URL('../src', import.meta.url));

function newestTsMtimeMs(dir) {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) newest = Math.max(newest, newestTsMtimeMs(path));
    else if (entry.name.endsWith('.ts')) newest = Math.max(newest, statSync(path).mtimeMs);
  }
  return newest;
}

const buildIsFresh = existsSync(compiled) && (!existsSync(sources) || statSync(compiled).mtimeMs >= newestTsMtimeMs(sources));
if (buildIsFresh) {
  await import(pathToFileURL(compiled).href);
} else {
  let register;
  try {
    ({ register } = await import('tsx/esm/api'));
  } catch {
    process.stderr.write("codemidas: no up-to-date build (dist/cli/main.js) and tsx is not installed: run 'npm install' then 'npm run build'\n");
    process.exit(1);
  }
  register();
  await import(new URL('../src/cli/main.ts', import.meta.url).href);
}
