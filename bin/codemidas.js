#!/usr/bin/env node
// Runs the compiled CLI when `npm run build` has produced it, else the TypeScript sources through tsx
// in this same process (so signals reach the server directly and its pid owns its sandboxes).
import { existsSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';

const compiled = fileURLToPath(new URL('../dist/cli/main.js', import.meta.url));
if (existsSync(compiled)) {
  await import(pathToFileURL(compiled).href);
} else {
  let register;
  try {
    ({ register } = await import('tsx/esm/api'));
  } catch {
    process.stderr.write("codemidas: no build found (dist/cli/main.js) and tsx is not installed: run 'npm install' then 'npm run build'\n");
    process.exit(1);
  }
  register();
  await import(new URL('../src/cli/main.ts', import.meta.url).href);
}
