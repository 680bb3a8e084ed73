/**
 * The roots below which at least half of `files` (a library's paths, relative to its root) sit: a
 * path of `paths` that ends in `/<file>` puts that file below the part before it. In the order the
 * roots are first met.
 */
export function libraryCopyRoots(paths: Iterable<string>, files: readonly string[]): string[] {
  const found = new Map<string, Set<string>>();
  for (const path of paths) {
    for (const file of files) {
      if (!path.endsWith(`/${file}`)) continue;
      const root = path.slice(0, path.length - file.length - 1);
      found.set(root, (found.get(root) ?? new Set()).add(file));
    }
  }
  return [...found].filter(([, held]) => held.size * 2 >= files.length).map(([root]) => root);
}
