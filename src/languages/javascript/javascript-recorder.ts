import { readdir, readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { Candidate, InputProposal, Unit } from '../construction-types.js';
import type { FileEntry } from '../../sandbox/types.js';
import type { RecordHarness } from '../language.js';
import { javascriptRuntimeDir } from './record-javascript-cases.js';

/** Where the runtime files go inside the sandbox (never /tmp: the scrubbed images mount it). */
export const JAVASCRIPT_HARNESS_DIR_IN_SANDBOX = '/var/lib/codemidas/js-harness';

/** The `typescript` package as the harness finds it in the sandbox (transpiling .ts sources, parsing for mutants). */
export const TYPESCRIPT_IN_SANDBOX = `${JAVASCRIPT_HARNESS_DIR_IN_SANDBOX}/node_modules/typescript`;

/** The host's `typescript` package: its folder and version. */
function hostTypeScript(): { dir: string; main: string } {
  const main = createRequire(import.meta.url).resolve('typescript');
  return { dir: dirname(dirname(main)), main };
}

/**
 * The runtime's .mjs files plus the `typescript` package's one-file build (lib/typescript.js, about
 * 9 MB) with a minimal package.json, as sandbox entries relative to `/`. The sandbox has Node and
 * nothing else: these are everything the drivers import beyond `node:` modules.
 */
export async function javascriptHarnessEntries(runtimeDir: string = javascriptRuntimeDir()): Promise<FileEntry[]> {
  const base = JAVASCRIPT_HARNESS_DIR_IN_SANDBOX.slice(1);
  const ts = TYPESCRIPT_IN_SANDBOX.slice(1);
  const entries: FileEntry[] = [
    { path: 'var/lib/codemidas', type: 'directory', mode: 0o755 },
    { path: base, type: 'directory', mode: 0o755 },
  ];
  for (const name of (await readdir(runtimeDir)).filter((n) => n.endsWith('.mjs')).sort()) {
    entries.push({ path: `${base}/${name}`, type: 'file', mode: 0o644, content: await readFile(join(runtimeDir, name)) });
  }
  const host = hostTypeScript();
  const version = (JSON.parse(await readFile(join(host.dir, 'package.json'), 'utf8')) as { version?: string }).version ?? '0.0.0';
  const packageJson = `${JSON.stringify({ name: 'typescript', version, main: './lib/typescript.js' })}\n`;
  entries.push(
    { path: `${base}/node_modules`, type: 'directory', mode: 0o755 },
    { path: ts, type: 'directory', mode: 0o755 },
    { path: `${ts}/lib`, type: 'directory', mode: 0o755 },
    { path: `${ts}/package.json`, type: 'file', mode: 0o644, content: Buffer.from(packageJson) },
    { path: `${ts}/lib/typescript.js`, type: 'file', mode: 0o644, content: await readFile(host.main) },
  );
  return entries;
}

/**
 * One candidate as record-driver.mjs and mutate-driver.mjs take it: the module (repository path
 * without extension) and its file, the export path (`padLeft`, `default`, `Rect.area`,
 * `default.describe`; whether a method needs an instance the driver finds out by loading the
 * module), the parameters, the JSDoc, call sites with literal arguments (the class's, for a
 * constructor, when the parser gave class units), the unit's lines (mutants stay inside them) and
 * proposals (codec-encoded).
 */
export function javascriptTarget(candidate: Candidate, classes: ReadonlyMap<string, Unit>, proposals: readonly InputProposal[]): Record<string, unknown> {
  const u = candidate.unit;
  // a module-internal function is called through its entry; its own lines stay the mutants' place
  const called = u.via ?? u;
  const owner = called.kind === 'method' ? classes.get(`${u.module}:${called.qualname.split('.').slice(0, -1).join('.')}`) : undefined;
  return {
    unitId: u.id,
    module: u.module,
    file: u.file,
    target: called.qualname,
    ...(u.via !== undefined ? { via: true } : {}),
    params: called.params,
    docstring: called.docstring,
    callSites: called.callSites.filter((c) => c.allLiteral).map((c) => ({ argumentTexts: c.argumentTexts })),
    initCallSites: (owner?.callSites ?? []).filter((c) => c.allLiteral).map((c) => ({ argumentTexts: c.argumentTexts })),
    startLine: u.startLine,
    endLine: u.endLine,
    bodyStartLine: u.bodyStartLine,
    bodyEndLine: u.bodyEndLine,
    ...(proposals.length > 0 ? { proposed: proposals.map((p) => ({ args: p.args, init: p.init ? { args: p.init.args } : null })) } : {}),
  };
}

/**
 * JavaScript's record harness (`runtime/record-driver.mjs`, `runtime/mutate-driver.mjs`, run as
 * `node <dir>/<script>-driver.mjs`), with the `typescript` package for TypeScript sources and mutants.
 * `typescriptPath` replaces the sandbox's copy (tests run the drivers on the host).
 */
export function createJavaScriptRecorder(options: { runtimeDir?: string; typescriptPath?: string } = {}): RecordHarness {
  return Object.freeze({
    entries: () => javascriptHarnessEntries(options.runtimeDir),
    command: (script: 'record' | 'mutate') => ['node', `${JAVASCRIPT_HARNESS_DIR_IN_SANDBOX}/${script}-driver.mjs`],
    config: () => ({ typescriptPath: options.typescriptPath ?? TYPESCRIPT_IN_SANDBOX }),
    target: javascriptTarget,
  });
}
