import type { Unit } from '../construction-types.js';
import type { WorkspaceRules, WorkspaceScrub } from '../language.js';
import { DEFAULT_PACKAGE } from './parse-java-units.js';

/**
 * The Java plugin's workspace scrub: compiled copies of the library's classes the repository
 * carries (a committed `bin/org/x/Foo.class`, `Foo$1.class` too), whatever folder they sit in: their
 * bytecode holds every body. Jars are left alone (a jar of the repository may be a dependency).
 */
export function scrubJavaWorkspace(snapshot: { files: ReadonlyMap<string, Buffer>; units: readonly Unit[] }): WorkspaceScrub {
  const classes = new Set(snapshot.units.filter((u) => u.kind === 'class').map((u) => `${u.module === DEFAULT_PACKAGE ? '' : `${u.module.replace(/\./g, '/')}/`}${u.qualname}`));
  const remove: WorkspaceScrub['remove'] = [];
  for (const path of [...snapshot.files.keys()].sort()) {
    if (!path.endsWith('.class')) continue;
    const stem = path.slice(0, -'.class'.length).replace(/\$.*$/, '');
    if ([...classes].some((c) => stem === c || stem.endsWith(`/${c}`))) remove.push({ path, rule: 'compiled copy of a library class (.class)', replacement: null });
  }
  return { remove, keep: [] };
}

export const javaWorkspaceRules: WorkspaceRules = Object.freeze({ scrub: scrubJavaWorkspace });
