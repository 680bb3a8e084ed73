import type { FileEntry } from '../sandbox/types.js';

/** Why a read-out entry did not reach scoring. */
export type DropReason =
  | 'unsafe-path'
  | 'protected-path'
  | 'runner-config'
  | 'interpreter-hook'
  | 'bytecode-or-binary'
  | 'shadows-test-runner'
  | 'link-or-special'
  | 'file-too-large'
  | 'total-too-large';

export interface DroppedEntry {
  path: string;
  reason: DropReason;
  /** The rule that matched, e.g. `conftest.py`, `*.pth`, `.venv/`. */
  rule: string;
}

export interface ReadoutFilterLimits {
  /** Largest single file kept, in bytes. Default 1 MiB. */
  maxFileBytes: number;
  /** Largest total of kept file bytes; files past it are dropped in path order. Default 16 MiB. */
  maxTotalBytes: number;
}

export const DEFAULT_READOUT_FILTER_LIMITS: Readonly<ReadoutFilterLimits> = Object.freeze({
  maxFileBytes: 1024 * 1024,
  maxTotalBytes: 16 * 1024 * 1024,
});

export interface ReadoutFilterResult {
  /** Plain files and directories that may reach scoring, paths normalised, sorted by path. */
  kept: FileEntry[];
  dropped: DroppedEntry[];
}

interface NameRule {
  reason: DropReason;
  rule: string;
  test: (lowerName: string) => boolean;
}

const exact = (reason: DropReason, ...names: string[]): NameRule[] =>
  names.map((name) => ({ reason, rule: name, test: (n: string) => n === name }));

/** Rules on one path segment (file or folder name), compared in lower case. */
const NAME_RULES: readonly NameRule[] = [
  ...exact('runner-config', 'conftest.py', 'pytest.ini', '.pytest.ini', 'tox.ini', 'setup.cfg', 'pyproject.toml', 'pytest.toml', 'package.json'),
  { reason: 'runner-config', rule: 'vitest.config.*', test: (n) => n.startsWith('vitest.config.') },
  { reason: 'runner-config', rule: 'vitest.workspace.*', test: (n) => n.startsWith('vitest.workspace.') },
  { reason: 'runner-config', rule: 'vite.config.*', test: (n) => n.startsWith('vite.config.') },
  { reason: 'runner-config', rule: 'jest.config.*', test: (n) => n.startsWith('jest.config.') },
  { reason: 'interpreter-hook', rule: 'sitecustomize*', test: (n) => n.startsWith('sitecustomize') },
  { reason: 'interpreter-hook', rule: 'usercustomize*', test: (n) => n.startsWith('usercustomize') },
  { reason: 'interpreter-hook', rule: '*.pth', test: (n) => n.endsWith('.pth') },
  { reason: 'interpreter-hook', rule: '*.dist-info/', test: (n) => n.endsWith('.dist-info') },
  { reason: 'interpreter-hook', rule: '*.egg-info/', test: (n) => n.endsWith('.egg-info') },
  { reason: 'interpreter-hook', rule: '*.egg-link', test: (n) => n.endsWith('.egg-link') },
  ...exact('interpreter-hook', '.venv', 'node_modules'),
  ...exact('bytecode-or-binary', '__pycache__'),
  { reason: 'bytecode-or-binary', rule: '*.pyc', test: (n) => n.endsWith('.pyc') || n.endsWith('.pyo') },
  { reason: 'bytecode-or-binary', rule: '*.so', test: (n) => n.endsWith('.so') || /\.so\.\d/.test(n) },
];

/**
 * Top-level modules of the test runner. The judge appends the workspace to sys.path, so such a
 * file cannot win the import anyway; dropping it as well keeps the tree honest.
 */
const RUNNER_MODULES = new Set(['pytest', '_pytest', 'pluggy', 'iniconfig', 'py']);

const BINARY_SNIFF_BYTES = 8192;

/** Normalises a read-out path; null when it is absolute, climbs out, or is otherwise unsafe. */
export function normaliseWorkspacePath(raw: string): string | null {
  if (raw.length === 0 || raw.includes('\0') || raw.includes('\\')) return null;
  if (raw.startsWith('/')) return null;
  const parts: string[] = [];
  for (const part of raw.split('/')) {
    if (part === '' || part === '.') continue;
    if (part === '..') return null;
    parts.push(part);
  }
  return parts.length === 0 ? null : parts.join('/');
}

function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function isUnder(path: string, prefix: string): boolean {
  return path === prefix || path.startsWith(`${prefix}/`);
}

function matchName(path: string): NameRule | undefined {
  for (const segment of path.split('/')) {
    const lower = segment.toLowerCase();
    const rule = NAME_RULES.find((r) => r.test(lower));
    if (rule) return rule;
  }
  return undefined;
}

function shadowsRunner(path: string, isDir: boolean): string | undefined {
  const segments = path.split('/');
  const first = segments[0]!;
  if (segments.length > 1 || isDir) return RUNNER_MODULES.has(first) ? `${first}/` : undefined;
  return first.endsWith('.py') && RUNNER_MODULES.has(first.slice(0, -3)) ? first : undefined;
}

function looksBinary(content: Buffer): boolean {
  return content.subarray(0, BINARY_SNIFF_BYTES).includes(0);
}

/**
 * Keeps only what of an episode's workspace read-out may reach scoring. Every dropped entry is
 * recorded with its reason; a directory that matches a rule takes everything under it along.
 */
export function filterReadout(
  entries: readonly FileEntry[],
  options: { protectedPaths: readonly string[]; limits?: Partial<ReadoutFilterLimits> },
): ReadoutFilterResult {
  const limits = { ...DEFAULT_READOUT_FILTER_LIMITS, ...options.limits };
  const protectedPaths = options.protectedPaths
    .map((p) => normaliseWorkspacePath(p))
    .filter((p): p is string => p !== null);
  const dropped: DroppedEntry[] = [];
  const candidates: FileEntry[] = [];
  // Entries beneath a dropped link or special file are dropped too: nothing reaches scoring
  // through a path that was not a plain directory in the episode.
  const blockedPrefixes: string[] = [];

  const normalised = entries
    .map((entry) => ({ entry, path: normaliseWorkspacePath(entry.path) }))
    .sort((a, b) => compareText(a.path ?? a.entry.path, b.path ?? b.entry.path));

  for (const { entry, path } of normalised) {
    if (path === null) {
      dropped.push({ path: entry.path, reason: 'unsafe-path', rule: 'absolute, empty or .. path' });
      continue;
    }
    const isDir = entry.type === 'directory';
    const isFile = entry.type === 'file';
    if (!isDir && !isFile) {
      dropped.push({ path, reason: 'link-or-special', rule: entry.type });
      blockedPrefixes.push(path);
      continue;
    }
    const blocked = blockedPrefixes.find((p) => path !== p && isUnder(path, p));
    if (blocked !== undefined) {
      dropped.push({ path, reason: 'link-or-special', rule: `under ${blocked}` });
      continue;
    }
    const protectedHit = protectedPaths.find((p) => isUnder(path, p));
    if (protectedHit !== undefined) {
      dropped.push({ path, reason: 'protected-path', rule: protectedHit });
      continue;
    }
    const rule = matchName(path);
    if (rule) {
      dropped.push({ path, reason: rule.reason, rule: rule.rule });
      continue;
    }
    const runner = shadowsRunner(path, isDir);
    if (runner !== undefined) {
      dropped.push({ path, reason: 'shadows-test-runner', rule: runner });
      continue;
    }
    if (isFile) {
      const content = entry.content ?? Buffer.alloc(0);
      const size = entry.content === undefined ? (entry.size ?? 0) : content.length;
      if (size > limits.maxFileBytes) {
        dropped.push({ path, reason: 'file-too-large', rule: `> ${limits.maxFileBytes} bytes` });
        continue;
      }
      if (entry.content === undefined && entry.size !== undefined) {
        // Read past without its bytes (the read-out's total ran out): it cannot be scored.
        dropped.push({ path, reason: 'total-too-large', rule: 'over the read-out total' });
        continue;
      }
      if (looksBinary(content)) {
        dropped.push({ path, reason: 'bytecode-or-binary', rule: 'NUL byte in the first 8 KiB' });
        continue;
      }
    }
    candidates.push({ ...entry, path });
  }

  const kept: FileEntry[] = [];
  let total = 0;
  for (const entry of candidates) {
    if (entry.type === 'file') {
      const size = entry.content?.length ?? 0;
      if (total + size > limits.maxTotalBytes) {
        dropped.push({ path: entry.path, reason: 'total-too-large', rule: `> ${limits.maxTotalBytes} bytes in all` });
        continue;
      }
      total += size;
    }
    kept.push(entry);
  }
  return { kept, dropped };
}

/** One line for `ScoreResult.detail`: how many entries were dropped and why. */
export function summariseDropped(dropped: readonly DroppedEntry[], maxPaths = 8): string {
  if (dropped.length === 0) return 'no files dropped';
  const byReason = new Map<string, number>();
  for (const d of dropped) byReason.set(d.reason, (byReason.get(d.reason) ?? 0) + 1);
  const counts = [...byReason].map(([reason, n]) => `${reason} ${n}`).join(', ');
  const paths = dropped.slice(0, maxPaths).map((d) => `${d.path} (${d.rule})`).join(', ');
  const more = dropped.length > maxPaths ? `, +${dropped.length - maxPaths} more` : '';
  return `dropped ${dropped.length} files [${counts}]: ${paths}${more}`;
}
