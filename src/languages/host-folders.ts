import { readdirSync } from 'node:fs';

/**
 * The folders directly under each of `bases` (relative to `/`) whose name `matches`, as
 * `<base>/<name>`, sorted within each base; bases absent on this host give none.
 */
export function foldersNamed(bases: readonly string[], matches: (name: string) => boolean): string[] {
  const out: string[] = [];
  for (const base of bases) {
    try {
      for (const entry of readdirSync(`/${base}`, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1))) {
        if (entry.isDirectory() && matches(entry.name)) out.push(`${base}/${entry.name}`);
      }
    } catch {
      // folder absent on this host
    }
  }
  return out;
}
