/**
 * What masking removes from a workspace besides the target's body: version control, caches and
 * bytecode, build output and bundles, source maps, virtual environments and installed copies of
 * packages, archives that could hold the original. The leak audit then checks what is left.
 */
const SCRUBBED_DIRS = new Set([
  '.git',
  '.hg',
  '.svn',
  '__pycache__',
  '.eggs',
  '.tox',
  '.nox',
  '.venv',
  'venv',
  'site-packages',
  'dist-packages',
  '.pytest_cache',
  '.mypy_cache',
  '.ruff_cache',
  '.hypothesis',
  'node_modules',
  'htmlcov',
]);
const ROOT_ONLY_DIRS = new Set(['build', 'dist']);
const SCRUBBED_DIR_SUFFIXES = ['.egg-info', '.dist-info'];
/**
 * What stays of a distribution's metadata folder at the root (an installed package's): its name,
 * version and requirements, headers only (ingest cut the description off), which code that reads
 * its own version (`importlib.metadata.version`) needs in the task as it had it when recorded.
 */
export const KEPT_METADATA_FILES: ReadonlySet<string> = new Set(['PKG-INFO', 'METADATA', 'requires.txt']);
const SCRUBBED_FILE_SUFFIXES = ['.pyc', '.pyo', '.map', '.whl', '.egg', '.tar.gz', '.tgz', '.tar.bz2', '.tar.xz', '.zip', '.orig', '.rej', '.coverage'];

/** The reason a workspace path is scrubbed, or null when it stays. */
export function scrubReason(path: string): string | null {
  const parts = path.split('/');
  const dirs = parts.slice(0, -1);
  const base = parts.at(-1) ?? '';
  // build/ and dist/ only at the root: a package may have a subpackage of that name
  if (dirs[0] !== undefined && ROOT_ONLY_DIRS.has(dirs[0])) return `${dirs[0]}/`;
  if (dirs.length === 1 && SCRUBBED_DIR_SUFFIXES.some((s) => dirs[0]?.endsWith(s)) && KEPT_METADATA_FILES.has(base)) return null;
  for (const dir of dirs) {
    if (SCRUBBED_DIRS.has(dir)) return `${dir}/`;
    const suffix = SCRUBBED_DIR_SUFFIXES.find((s) => dir.endsWith(s));
    if (suffix) return `*${suffix}/`;
  }
  if (SCRUBBED_DIRS.has(base) || SCRUBBED_DIR_SUFFIXES.some((s) => base.endsWith(s))) return `${base}`;
  const fileSuffix = SCRUBBED_FILE_SUFFIXES.find((s) => base.endsWith(s));
  if (fileSuffix) return `*${fileSuffix}`;
  if (base === '.coverage' || base.startsWith('.coverage.')) return '.coverage';
  return null;
}
