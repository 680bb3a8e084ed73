// Runs the tskit tests without a TypeScript runner: transpiles src/*.ts and test/*.ts with the
// `typescript` package (ts.transpileModule, ES2022 modules; types are erased, not checked) into a
// temporary folder, rewrites relative `.ts` import specifiers to `.js`, then runs `node --test` on
// the transpiled test files. Exits with node's status. Usage: node test/run.mjs
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const ts = createRequire(import.meta.url)('typescript');
const out = fs.mkdtempSync(path.join(os.tmpdir(), 'tskit-test-'));
const RELATIVE_TS = /(\bfrom\s*|\bimport\s*\(\s*|\bimport\s+)(['"])(\.{1,2}\/[^'"]*)\.ts\2/g;

function transpileFolder(folder) {
  const written = [];
  fs.mkdirSync(path.join(out, folder), { recursive: true });
  for (const name of fs.readdirSync(path.join(root, folder)).sort()) {
    if (!name.endsWith('.ts') || name.endsWith('.d.ts')) continue;
    const source = fs.readFileSync(path.join(root, folder, name), 'utf8');
    const result = ts.transpileModule(source, {
      fileName: name,
      reportDiagnostics: true,
      compilerOptions: { target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.ES2022, sourceMap: false },
    });
    if (result.diagnostics.length > 0) {
      const text = ts.formatDiagnostics(result.diagnostics, {
        getCanonicalFileName: (f) => f,
        getCurrentDirectory: () => root,
        getNewLine: () => '\n',
      });
      throw new Error(`${folder}/${name} does not transpile:\n${text}`);
    }
    const target = path.join(out, folder, name.replace(/\.ts$/, '.js'));
    fs.writeFileSync(target, result.outputText.replace(RELATIVE_TS, '$1$2$3.js$2'));
    written.push(target);
  }
  return written;
}

let status = 1;
try {
  fs.writeFileSync(path.join(out, 'package.json'), JSON.stringify({ type: 'module' }));
  transpileFolder('src');
  const tests = transpileFolder('test').filter((file) => file.endsWith('.test.js'));
  if (tests.length === 0) throw new Error('no test/*.test.ts files');
  status = spawnSync(process.execPath, ['--test', ...tests], { cwd: out, stdio: 'inherit' }).status ?? 1;
} catch (error) {
  console.error(error.message);
} finally {
  fs.rmSync(out, { recursive: true, force: true });
}
process.exit(status);
