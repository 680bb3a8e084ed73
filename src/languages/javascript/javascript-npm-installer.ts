import { spawn } from 'node:child_process';
import { lstatSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { UnavailableError } from '../../errors.js';
import type { DependencyInstaller } from '../../images/dependency-image.js';
import { DEPENDENCY_PACKAGE, MISSING_DEPENDENCIES_FILE } from '../../sandbox/runtime-dependencies.js';
import type { FileEntry } from '../../sandbox/types.js';
import { compareStrings } from '../call-sites.js';

/** An exact version, which `pin` keeps without asking the registry. */
const EXACT_VERSION = /^\d+\.\d+\.\d+(?:-[0-9A-Za-z.-]+)?(?:\+[0-9A-Za-z.-]+)?$/;
/** How many `npm view` calls `pin` runs at once. */
const PIN_CONCURRENCY = 8;
/**
 * `npm install` without lifecycle scripts (a dependency's install script never runs on the host),
 * audit, funding notes, lockfile or `.bin` links; peer dependencies are installed (npm 7+), dev
 * dependencies of the packages are not. Each package is saved to the scratch package.json, so a
 * later install (the one-by-one fallback) keeps those before it instead of pruning them.
 */
const INSTALL_FLAGS = ['--ignore-scripts', '--no-audit', '--no-fund', '--no-package-lock', '--no-bin-links', '--omit=dev', '--save-exact'];
const SCRATCH_MANIFEST = `${JSON.stringify({ name: 'codemidas-dependencies', private: true })}\n`;

/**
 * The npm installer of the JavaScript plugin: pins ranges with `npm view`, and installs on the host
 * into a scratch folder whose `node_modules/` the layer copies to `/node_modules` of the image. The
 * sandbox runs the repository at `/workspace`, and Node looks for packages in the `node_modules` of
 * every folder above a file, `/` included, for `require` and `import` alike.
 */
export function createNpmInstaller(): DependencyInstaller {
  return Object.freeze({ tool: 'npm', pin: pinNpmPackages, layer: npmLayer });
}

/**
 * Each `name@spec` as `name@<highest version the registry has in spec>`, sorted and de-duplicated;
 * exact versions are kept without a registry call, and a spec that does not resolve (no such
 * package, no version in range, registry unreachable) is kept as requested.
 */
export async function pinNpmPackages(requested: readonly string[], options: { signal?: AbortSignal } = {}): Promise<string[]> {
  const unique = [...new Set(requested)];
  const pinned = new Array<string>(unique.length);
  let next = 0;
  const worker = async (): Promise<void> => {
    for (let i = next++; i < unique.length; i = next++) pinned[i] = await pinOne(unique[i] as string, options.signal);
  };
  await Promise.all(Array.from({ length: Math.min(PIN_CONCURRENCY, unique.length) }, worker));
  return [...new Set(pinned)].sort(compareStrings);
}

/** One package pinned, or as requested when the registry does not resolve it. */
async function pinOne(requested: string, signal: AbortSignal | undefined): Promise<string> {
  const { name, spec } = splitPackage(requested);
  if (EXACT_VERSION.test(spec)) return requested;
  const result = await runNpm(['view', `${name}@${spec}`, 'version', '--json'], { cwd: tmpdir(), signal });
  if (result.code !== 0) return requested;
  const version = highestOf(result.stdout);
  const exact = version === null ? null : `${name}@${version}`;
  return exact !== null && DEPENDENCY_PACKAGE.test(exact) ? exact : requested;
}

/** `npm view … version --json` prints one version as a string, several as an array in ascending order. */
function highestOf(stdout: string): string | null {
  try {
    const value = JSON.parse(stdout) as unknown;
    const last = Array.isArray(value) ? (value.at(-1) as unknown) : value;
    return typeof last === 'string' && EXACT_VERSION.test(last) ? last : null;
  } catch {
    return null;
  }
}

/** `name` and `spec` of `name@spec` (`@scope/name@spec` too); `latest` when there is no spec. */
function splitPackage(pkg: string): { name: string; spec: string } {
  const at = pkg.indexOf('@', 1);
  return at === -1 ? { name: pkg, spec: 'latest' } : { name: pkg.slice(0, at), spec: pkg.slice(at + 1) };
}

/**
 * The layer installing `packages`: npm installs them all at once on the host; when that fails,
 * one at a time, and those that fail are the missing ones. The scratch folder goes in any case.
 */
async function npmLayer(packages: readonly string[], options: { signal?: AbortSignal; onLine?: (line: string) => void }): Promise<{ dockerfile: string; files: FileEntry[] }> {
  const dir = mkdtempSync(join(tmpdir(), 'codemidas-npm-layer-'));
  try {
    const missing = await installAll(dir, packages, options);
    const modules = join(dir, 'node_modules');
    mkdirSync(modules, { recursive: true });
    const files = [{ path: 'node_modules', type: 'directory' as const, mode: 0o755 }, ...treeEntries(modules, 'node_modules')];
    files.push({ path: 'missing.txt', type: 'file', mode: 0o644, content: Buffer.from(missing.map((p) => `${p}\n`).join('')) });
    return { dockerfile: `COPY node_modules/ /node_modules/\nCOPY missing.txt ${MISSING_DEPENDENCIES_FILE}\n`, files };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Installs `packages` into `dir`; returns those npm could not install, sorted. */
async function installAll(dir: string, packages: readonly string[], options: { signal?: AbortSignal; onLine?: (line: string) => void }): Promise<string[]> {
  writeFileSync(join(dir, 'package.json'), SCRATCH_MANIFEST);
  if (packages.length === 0) return [];
  const run = (specs: readonly string[]): Promise<{ code: number | null }> => runNpm(['install', ...INSTALL_FLAGS, ...specs], { cwd: dir, ...options });
  if ((await run(packages)).code === 0) return [];
  // npm rolls a failed install back; start the one-by-one installs from a clean folder all the same
  rmSync(join(dir, 'node_modules'), { recursive: true, force: true });
  writeFileSync(join(dir, 'package.json'), SCRATCH_MANIFEST);
  const missing: string[] = [];
  for (const pkg of [...packages].sort(compareStrings)) {
    if ((await run([pkg])).code !== 0) missing.push(pkg);
  }
  return missing;
}

/** The directories and regular files below `dir` as entries at `prefix/…`, parents first; links are left out. */
function treeEntries(dir: string, prefix: string): FileEntry[] {
  const entries: FileEntry[] = [];
  for (const name of readdirSync(dir).sort(compareStrings)) {
    const full = join(dir, name);
    const path = `${prefix}/${name}`;
    const stat = lstatSync(full);
    if (stat.isDirectory()) entries.push({ path, type: 'directory', mode: 0o755 }, ...treeEntries(full, path));
    else if (stat.isFile()) entries.push({ path, type: 'file', mode: (stat.mode & 0o111) !== 0 ? 0o755 : 0o644, content: readFileSync(full) });
  }
  return entries;
}

/**
 * Runs npm with `args` (argv, no shell) in `cwd`: its exit code and stdout; stderr goes to `onLine`
 * a line at a time. Not finding npm at all throws `UnavailableError`; an abort rejects with its reason.
 */
function runNpm(args: readonly string[], options: { cwd: string; signal?: AbortSignal | undefined; onLine?: ((line: string) => void) | undefined }): Promise<{ code: number | null; stdout: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn('npm', args, { cwd: options.cwd, stdio: ['ignore', 'pipe', 'pipe'], ...(options.signal === undefined ? {} : { signal: options.signal }) });
    const stdout: Buffer[] = [];
    let partial = '';
    child.stdout.on('data', (chunk: Buffer) => stdout.push(chunk));
    child.stderr.on('data', (chunk: Buffer) => {
      const lines = (partial + chunk.toString('utf8')).split('\n');
      partial = lines.pop() ?? '';
      for (const line of lines) options.onLine?.(line);
    });
    child.on('error', (error: NodeJS.ErrnoException) => {
      if (options.signal?.aborted === true) reject(options.signal.reason as Error);
      else reject(new UnavailableError(`could not run npm (${args.slice(0, 2).join(' ')}): ${error.message}; install Node.js with npm on this machine and put npm on PATH`, { cause: error }));
    });
    child.on('close', (code) => {
      if (partial !== '') options.onLine?.(partial);
      resolve({ code, stdout: Buffer.concat(stdout).toString('utf8') });
    });
  });
}
