// Versions ("1.4.0-rc.2") and a small range language of its own:
//   alternatives separated by "|", each a ","-separated list of terms that must all hold;
//   a term is a pattern ("1", "1.2", "1.2.x", "1.2.3", "*"), "A+" (A or later),
//   "A..B" (from A to the end of B, both ends included) or "!P" (anything outside pattern P).

/** A parsed version; build metadata ("+build.5") is dropped. */
export interface Version {
  major: number;
  minor: number;
  patch: number;
  /** Pre-release identifiers: numeric ones as numbers ("rc.2" is ["rc", 2]); empty for a release. */
  prerelease: ReadonlyArray<string | number>;
}

/** Options of `satisfies` and `maxSatisfying`. */
export interface MatchOptions {
  /** Let any pre-release version match when its precedence is inside a term (default false). */
  includePrerelease?: boolean;
}

interface Term {
  low?: Version;
  high?: Version;
  highInclusive: boolean;
  negate: boolean;
  names: Version[];
}

const NUMBER = '(0|[1-9]\\d*)';
const VERSION = new RegExp(`^v?${NUMBER}\\.${NUMBER}\\.${NUMBER}(?:-([0-9A-Za-z-]+(?:\\.[0-9A-Za-z-]+)*))?(?:\\+[0-9A-Za-z-]+(?:\\.[0-9A-Za-z-]+)*)?$`);

/**
 * Parses "MAJOR.MINOR.PATCH", optionally prefixed by "v" and followed by "-PRERELEASE" (dot-separated
 * identifiers of letters, digits and "-") and "+BUILD" (dropped). Numbers have no leading zeros,
 * nor do numeric pre-release identifiers, which become numbers. Throws TypeError when `text` is
 * not a string, SyntaxError for any other form, and RangeError for a number above
 * Number.MAX_SAFE_INTEGER.
 *
 * @param text the version
 * @returns the parsed version
 * @example parseVersion('v1.4.0-rc.2+b7') // => { major: 1, minor: 4, patch: 0, prerelease: ['rc', 2] }
 * @example parseVersion('2.0.0') // => { major: 2, minor: 0, patch: 0, prerelease: [] }
 */
export function parseVersion(text: string): Version {
  if (typeof text !== 'string') throw new TypeError('version must be a string');
  const match = VERSION.exec(text.trim());
  if (match === null) throw new SyntaxError(`not a version: "${text}"`);
  const [major, minor, patch] = [match[1], match[2], match[3]].map(Number);
  const prerelease = (match[4] ?? '').split('.').filter((id) => id !== '').map((id) => {
    if (!/^\d+$/.test(id)) return id;
    if (id.length > 1 && id.startsWith('0')) throw new SyntaxError(`numeric pre-release identifier with a leading zero: "${id}"`);
    return Number(id);
  });
  if (![major, minor, patch, ...prerelease].every((n) => typeof n === 'string' || Number.isSafeInteger(n))) {
    throw new RangeError(`number too large in "${text}"`);
  }
  return { major, minor, patch, prerelease };
}

/**
 * Compares two versions by precedence: major, minor and patch numerically; then a version with a
 * pre-release is lower than the same version without; pre-release identifiers are compared in
 * order, numbers numerically and below any text, texts by code unit, and a shorter list that is a
 * prefix of the other is lower. Strings are parsed with `parseVersion` (and throw as it does).
 *
 * @param a a version or its text
 * @param b a version or its text
 * @returns -1 when a is lower, 1 when higher, 0 when of equal precedence
 * @example compareVersions('1.2.10', '1.2.9') // => 1
 * @example compareVersions('1.0.0-alpha.2', '1.0.0-alpha.beta') // => -1
 */
export function compareVersions(a: string | Version, b: string | Version): -1 | 0 | 1 {
  const x = typeof a === 'string' ? parseVersion(a) : a;
  const y = typeof b === 'string' ? parseVersion(b) : b;
  for (const key of ['major', 'minor', 'patch'] as const) {
    if (x[key] !== y[key]) return x[key] < y[key] ? -1 : 1;
  }
  if (x.prerelease.length === 0 || y.prerelease.length === 0) {
    return x.prerelease.length === y.prerelease.length ? 0 : x.prerelease.length === 0 ? 1 : -1;
  }
  for (let i = 0; i < Math.min(x.prerelease.length, y.prerelease.length); i++) {
    const [p, q] = [x.prerelease[i], y.prerelease[i]];
    if (p === q) continue;
    if (typeof p !== typeof q) return typeof p === 'number' ? -1 : 1;
    return p < q ? -1 : 1;
  }
  return x.prerelease.length === y.prerelease.length ? 0 : x.prerelease.length < y.prerelease.length ? -1 : 1;
}

// A pattern's ends. An exact version is both ends, inclusive; a partial one ("1", "1.2", "1.2.x")
// runs from its lowest possible version (1.2.0-0) up to, not including, that of the next (1.3.0-0);
// "*" has no ends.
function patternBounds(text: string): { low?: Version; high?: Version; exact: boolean } {
  throw new Error('not implemented');
}

function parseTerm(text: string): Term {
  if (text === '') throw new SyntaxError('empty term');
  if (text.startsWith('!')) {
    const { low, high, exact } = patternBounds(text.slice(1).trim());
    return { low, high, highInclusive: exact, negate: true, names: [] };
  }
  if (text.endsWith('+')) {
    const { low, exact } = patternBounds(text.slice(0, -1).trim());
    if (low === undefined) throw new SyntaxError(`"${text}" has no lower end`);
    return { low, highInclusive: false, negate: false, names: exact ? [low] : [] };
  }
  const [from, to, ...rest] = text.split('..').map((part) => part.trim());
  if (rest.length > 0) throw new SyntaxError(`more than one ".." in "${text}"`);
  const start = patternBounds(from);
  const end = to === undefined ? start : patternBounds(to);
  if (to !== undefined && (start.low === undefined || end.high === undefined)) throw new SyntaxError(`open end in "${text}"`);
  const order = start.low !== undefined && end.high !== undefined ? compareVersions(start.low, end.high) : -1;
  if (order > 0 || (order === 0 && !end.exact)) throw new RangeError(`empty range "${text}"`);
  const names = [start.exact ? start.low : undefined, end.exact ? end.high : undefined];
  return { low: start.low, high: end.high, highInclusive: end.exact, negate: false, names: names.filter((v) => v !== undefined) };
}

function inside(version: Version, term: Term): boolean {
  if (term.low !== undefined && compareVersions(version, term.low) < 0) return false;
  if (term.high === undefined) return true;
  const upper = compareVersions(version, term.high);
  return term.highInclusive ? upper <= 0 : upper < 0;
}

function parseRange(range: string): Term[][] {
  if (typeof range !== 'string') throw new TypeError('range must be a string');
  if (range.trim() === '') throw new SyntaxError('empty range');
  return range.split('|').map((alternative) => alternative.split(',').map((term) => parseTerm(term.trim())));
}

function matches(version: Version, alternatives: Term[][], includePrerelease: boolean): boolean {
  return alternatives.some((terms) => {
    if (!terms.every((term) => inside(version, term) !== term.negate)) return false;
    if (version.prerelease.length === 0 || includePrerelease) return true;
    return terms.some((term) =>
      term.names.some((v) => v.prerelease.length > 0 && compareVersions({ ...v, prerelease: [] }, { ...version, prerelease: [] }) === 0),
    );
  });
}

/**
 * Tells whether a version is in a range (see the range language at the top of this module). A
 * version is in a range when it satisfies every term of at least one alternative. A pre-release
 * version only matches when `includePrerelease` is set, or when a term of that alternative names
 * a pre-release of the same MAJOR.MINOR.PATCH ("1.3.0-rc.1+" admits "1.3.0-rc.2", not
 * "1.4.0-rc.1"). Throws TypeError for a range that is not a string, SyntaxError for a malformed
 * range or version, and RangeError for a term whose start is after its end.
 *
 * @param version the version or its text
 * @param range the range
 * @param options whether any pre-release may match
 * @returns whether the version is in the range
 * @example satisfies('1.4.2', '1.2..1.4, !1.3') // => true
 * @example satisfies('2.0.0-beta', '1+') // => false
 */
export function satisfies(version: string | Version, range: string, options: MatchOptions = {}): boolean {
  const alternatives = parseRange(range);
  const parsed = typeof version === 'string' ? parseVersion(version) : version;
  return matches(parsed, alternatives, options.includePrerelease ?? false);
}

/**
 * Picks, from a list of version texts, the highest one in the range, as it was written (the
 * first of equal precedence). Texts that are not versions are skipped. Returns null when none
 * matches. Throws as `satisfies` does for a bad range.
 *
 * @param versions candidate version texts
 * @param range the range
 * @param options whether any pre-release may match
 * @returns the highest matching text, or null
 * @example maxSatisfying(['1.2.0', '1.10.1', '2.0.0', 'junk'], '1') // => '1.10.1'
 * @example maxSatisfying(['0.9.0'], '1.x | 2.x') // => null
 */
export function maxSatisfying(versions: readonly string[], range: string, options: MatchOptions = {}): string | null {
  const alternatives = parseRange(range);
  let best: { text: string; version: Version } | null = null;
  for (const text of versions) {
    let version: Version;
    try {
      version = parseVersion(text);
    } catch {
      continue;
    }
    if (!matches(version, alternatives, options.includePrerelease ?? false)) continue;
    if (best === null || compareVersions(version, best.version) > 0) best = { text, version };
  }
  return best?.text ?? null;
}
