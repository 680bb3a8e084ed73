import type { Unit, UnitEntry } from '../types.js';

/** Entries tried per weak unit, at most (each is one more mutate run of its cases). */
export const MAX_ENTRIES_PER_UNIT = 2;

/** How many calls up the same file's call graph an entry may be. */
const MAX_CALLER_DEPTH = 4;

/** A weak unit and a recorded unit to try it through. */
export interface EntryAttempt {
  helper: Unit;
  entry: Unit;
}

const lastName = (name: string): string => name.slice(name.lastIndexOf('.') + 1);
const ownerOf = (u: Unit): string => u.qualname.slice(0, Math.max(0, u.qualname.lastIndexOf('.')));
const isPublic = (u: Unit): boolean => !lastName(u.qualname).startsWith('_');

/**
 * For each weak unit, up to MAX_ENTRIES_PER_UNIT units of `passing` (recorded, their own cases
 * strong) in the same file whose calls may reach it, nearest first: its callers, then theirs (up to
 * MAX_CALLER_DEPTH calls up), a call matched by the last part of its name (`self._parse(…)`,
 * `_helper(…)`, `this.step(…)`); with no caller found, the public method of its class, then the
 * public unit of its file, whose calls reach most of the file (a parser's `parse`, a visitor's
 * `visit`: a dispatch by name, `getattr(self, 'visit_' + kind)`, leaves no call to follow). Whether
 * an entry's cases really reach the unit is for its mutate run to tell: mutants they never reach
 * survive, and the attempt fails. Language-neutral: it reads only `Unit.calls`, names and files.
 */
export function entryAttempts(weak: readonly Unit[], passing: ReadonlySet<string>, units: readonly Unit[]): EntryAttempt[] {
  const byFile = new Map<string, Unit[]>();
  for (const u of units) if (u.kind !== 'class') (byFile.get(u.file) ?? byFile.set(u.file, []).get(u.file)!).push(u);
  const reached = new Map<string, number>();
  const reachOf = (u: Unit): number => reached.get(u.id) ?? reached.set(u.id, reach(u, byFile.get(u.file) ?? [])).get(u.id)!;
  const attempts: EntryAttempt[] = [];
  for (const helper of weak) {
    if (helper.kind === 'class' || helper.via !== undefined) continue;
    const sameFile = byFile.get(helper.file) ?? [];
    const entries: Unit[] = [];
    const add = (u: Unit): void => {
      if (u.id !== helper.id && passing.has(u.id) && u.via === undefined && !entries.includes(u)) entries.push(u);
    };
    // callers, breadth first
    let frontier = [helper];
    const seen = new Set([helper.id]);
    for (let depth = 0; depth < MAX_CALLER_DEPTH && frontier.length > 0 && entries.length < MAX_ENTRIES_PER_UNIT; depth += 1) {
      const next: Unit[] = [];
      for (const callee of frontier) {
        const name = lastName(callee.qualname);
        for (const u of sameFile) {
          if (seen.has(u.id) || !u.calls.some((c) => lastName(c) === name)) continue;
          seen.add(u.id);
          add(u);
          next.push(u);
        }
      }
      frontier = next;
    }
    // no caller found by name: the public units of its class, then of its file, that reach the most
    // of the file by their calls (a parser's `parse`, a visitor's `visit`) first
    const owner = ownerOf(helper);
    const hubs = (pick: (u: Unit) => boolean): Unit[] =>
      sameFile.filter((u) => pick(u) && isPublic(u) && passing.has(u.id)).sort((a, b) => reachOf(b) - reachOf(a) || (a.id < b.id ? -1 : 1));
    if (entries.length === 0) {
      const [ofClass] = owner === '' ? [] : hubs((u) => u.kind === 'method' && ownerOf(u) === owner);
      if (ofClass) add(ofClass);
      for (const u of hubs(() => true)) if (entries.length < MAX_ENTRIES_PER_UNIT) add(u);
    }
    for (const entry of entries.slice(0, MAX_ENTRIES_PER_UNIT)) attempts.push({ helper, entry });
  }
  return attempts;
}

/** How many units of `sameFile` `from`'s calls reach, directly or through others (matched by last name). */
function reach(from: Unit, sameFile: readonly Unit[]): number {
  const seen = new Set<string>([from.id]);
  let frontier = [from];
  while (frontier.length > 0) {
    const names = new Set(frontier.flatMap((u) => u.calls.map(lastName)));
    frontier = sameFile.filter((u) => !seen.has(u.id) && names.has(lastName(u.qualname)));
    for (const u of frontier) seen.add(u.id);
  }
  return seen.size - 1;
}

/** What a task of a unit recorded through `entry` needs of it (`Unit.via`). */
export function unitEntry(entry: Unit): UnitEntry {
  const { id, kind, qualname, signature, params, returnAnnotation, docstring, decorators, isAsync, callSites } = entry;
  return { id, kind, qualname, signature, params, returnAnnotation, docstring, decorators, isAsync, callSites };
}
