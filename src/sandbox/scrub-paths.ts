import { posix } from 'node:path';
import { InvalidArgumentError } from '../errors.js';

/**
 * Paths of a language image that a task's sandboxes must not contain: the copies of the library
 * under construction that the image carries (a distro package, a tool's vendored copy). The docker
 * adapter runs such a task on a derived image with them deleted; the local adapter covers them.
 */
export const SCRUB_PATH_PATTERN = /^\/[A-Za-z0-9._+@-]+(\/[A-Za-z0-9._+@-]+)*$/;

/** Folders the sandbox itself needs: a scrub path may be neither one of them, nor above, nor inside. */
const ESSENTIAL = ['/opt/codemidas', '/bin', '/sbin', '/lib', '/lib64', '/usr/bin', '/usr/sbin', '/usr/lib', '/usr/lib/python3', '/usr/lib/python3/dist-packages', '/etc', '/proc', '/dev', '/tmp', '/workspace', '/var/lib/codemidas'];

/** What is wrong with `path` as a scrub path, or null when it is one. */
export function scrubPathProblem(path: string): string | null {
  if (!SCRUB_PATH_PATTERN.test(path)) return `'${path}' is not an absolute path of letters, digits and ._+@-`;
  if (posix.normalize(path) !== path || path.split('/').some((part) => part === '.' || part === '..')) return `'${path}' is not a normalised path`;
  for (const essential of ESSENTIAL) {
    if (path === essential || essential.startsWith(`${path}/`)) return `'${path}' would remove ${essential}, which every sandbox needs`;
    if (essential === '/opt/codemidas' && path.startsWith(`${essential}/`)) return `'${path}' is inside ${essential}, which every sandbox needs`;
  }
  if (path.startsWith('/proc/') || path.startsWith('/dev/') || path.startsWith('/tmp/')) return `'${path}' is not part of an image's filesystem`;
  return null;
}

/** Sorted, without duplicates or paths below another one of the list. */
export function normaliseScrubPaths(paths: readonly string[]): string[] {
  const sorted = [...new Set(paths)].sort();
  return sorted.filter((path) => !sorted.some((other) => other !== path && path.startsWith(`${other}/`)));
}

/** Throws `InvalidArgumentError` naming the first path of `scrub` that is not a scrub path. */
export function assertScrubPaths(scrub: readonly string[]): void {
  for (const path of scrub) {
    const problem = scrubPathProblem(path);
    if (problem) throw new InvalidArgumentError('scrub', `cannot remove ${problem}`);
  }
}

/** True when `path` is one of `roots` or lies below one. */
export function isUnderAny(path: string, roots: readonly string[]): boolean {
  return roots.some((root) => path === root || path.startsWith(`${root}/`));
}
