import type { CallSite, Unit } from './construction-types.js';

/** A call found in a file, with the column that orders calls on one line. */
export interface FoundCall {
  column: number;
  site: CallSite;
}

/**
 * Resolves every call of every parsed file to the unit it calls (`resolve`: undefined when it calls
 * none) and sets each unit's `callSites`, sorted by file, line and column, so the order never
 * depends on the order files were parsed in.
 */
export function attachCallSites<F extends { calls: readonly FoundCall[] }>(parsed: readonly F[], resolve: (call: F['calls'][number], file: F) => Unit | undefined): void {
  const sites = new Map<Unit, FoundCall[]>();
  for (const file of parsed) {
    for (const call of file.calls) {
      const unit = resolve(call, file);
      if (unit === undefined) continue;
      const list = sites.get(unit) ?? [];
      list.push({ column: call.column, site: call.site });
      sites.set(unit, list);
    }
  }
  for (const [unit, list] of sites) {
    list.sort((a, b) => compareStrings(a.site.file, b.site.file) || a.site.line - b.site.line || a.column - b.column);
    unit.callSites = list.map((s) => s.site);
  }
}

/** Code-point order of two strings (never the locale's). */
export function compareStrings(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/**
 * The lines a prompt lists for an undocumented unit (issue 19, part 5): how the repository's own
 * code calls it, up to three call sites outside tests, as `- name(args) in caller (file, line N)`;
 * none when it has no such call.
 */
export function callSiteLines(unit: Unit, isTestFile: (file: string) => boolean): string[] {
  const sites = unit.callSites.filter((site) => !isTestFile(site.file)).slice(0, 3);
  if (sites.length === 0) return [];
  const name = unit.qualname.split('.').at(-1) ?? unit.qualname;
  return ['', 'The repository calls it like this:', '', ...sites.map((site) => `- \`${name}(${site.argumentTexts.join(', ')})\` in \`${site.caller}\` (\`${site.file}\`, line ${site.line})`)];
}
