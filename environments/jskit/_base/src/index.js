// jskit: parsers, checksums, unit conversions and a small ledger.
export { ParseError } from './errors.js';
export { parseSpan, formatClock } from './durations.js';
export { parsePageSelection, runsOf, compactNumbers, dedupeSortedInPlace } from './ranges.js';
export { fletcher16, fnv1a64, dammCheckDigit, isValidDamm } from './checksums.js';
export { splitFields, joinFields, collectRecords } from './csvline.js';
export { convert, parseQuantity } from './units.js';
export { Ledger } from './ledger.js';
