import type { Unit } from '../types.js';

/** Helpers a feature may remove besides its entry, at most. */
export const MAX_FEATURE_HELPERS = 6;

/** How many calls down the same file's call graph a helper may be from its entry. */
const MAX_CALL_DEPTH = 4;

/** A public entry point and the private helpers only it reaches: one feature-level task. */
export interface FeatureSlice {
  entry: Unit;
  helpers: Unit[];
}

const lastName = (name: string): string => name.slice(name.lastIndexOf('.') + 1);
const isPrivate = (u: Unit): boolean => {
  const name = lastName(u.qualname);
  return name.startsWith('_') && !(name.startsWith('__') && name.endsWith('__'));
};
const isPublic = (u: Unit): boolean => !lastName(u.qualname).startsWith('_');

/** The units of `sameFile` that `from`'s calls reach, directly or through others, up to MAX_CALL_DEPTH calls down (matched by last name). */
function reachedFrom(from: Unit, sameFile: readonly Unit[]): Unit[] {
  const seen = new Set<string>([from.id]);
  const reached: Unit[] = [];
  let frontier = [from];
  for (let depth = 0; depth < MAX_CALL_DEPTH && frontier.length > 0; depth += 1) {
    const names = new Set(frontier.flatMap((u) => u.calls.map(lastName)));
    frontier = sameFile.filter((u) => !seen.has(u.id) && names.has(lastName(u.qualname)));
    for (const u of frontier) {
      seen.add(u.id);
      reached.push(u);
    }
  }
  return reached;
}

/**
 * The features of a repository (issue 19, part 1): each public unit of `entries` (recorded on its
 * own) with the private units of its file that its calls reach and no other public unit's or
 * dunder's calls reach (its call-tree slice: `self._parse(…)`, `_helper(…)`, matched by last name, as the entry
 * pass matches them), between 1 and MAX_FEATURE_HELPERS of them. Whether the entry's cases really
 * pin the helpers down is for their mutation run to tell. Language-neutral: it reads `Unit.calls`,
 * names and files only. Sorted by entry id.
 */
export function featureSlices(units: readonly Unit[], entries: ReadonlySet<string>): FeatureSlice[] {
  const byFile = new Map<string, Unit[]>();
  for (const u of units) if (u.kind !== 'class') (byFile.get(u.file) ?? byFile.set(u.file, []).get(u.file)!).push(u);
  const slices: FeatureSlice[] = [];
  for (const [, sameFile] of byFile) {
    // public units and dunders (called implicitly: `repr(x)`, `a + b`) are the ways into a file's private units
    const ways = sameFile.filter((u) => !isPrivate(u));
    const reach = new Map(ways.map((p) => [p.id, reachedFrom(p, sameFile)] as const));
    // how many of them reach each private unit
    const reachers = new Map<string, number>();
    for (const list of reach.values()) for (const u of list) reachers.set(u.id, (reachers.get(u.id) ?? 0) + 1);
    for (const entry of ways.filter(isPublic)) {
      if (!entries.has(entry.id)) continue;
      const helpers = (reach.get(entry.id) ?? []).filter((u) => isPrivate(u) && reachers.get(u.id) === 1);
      if (helpers.length >= 1 && helpers.length <= MAX_FEATURE_HELPERS) slices.push({ entry, helpers: [...helpers].sort((a, b) => (a.id < b.id ? -1 : 1)) });
    }
  }
  return slices.sort((a, b) => (a.entry.id < b.entry.id ? -1 : a.entry.id > b.entry.id ? 1 : 0));
}
