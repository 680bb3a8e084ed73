// tskit: identifier case conversion, a version-range matcher and a matrix class.
export { splitWords, convertCase } from './identifiers.ts';
export type { CaseStyle, CaseOptions } from './identifiers.ts';
export { parseVersion, compareVersions, satisfies, maxSatisfying } from './semver-range.ts';
export type { Version, MatchOptions } from './semver-range.ts';
export { Matrix } from './matrix.ts';
export type { Rows } from './matrix.ts';
