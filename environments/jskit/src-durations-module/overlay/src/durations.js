// Spans of time written as "1h 30m" or "2w3d", and clock-style formatting of milliseconds.
import { ParseError } from './errors.js';

const UNIT_MS = { w: 604800000, d: 86400000, h: 3600000, m: 60000, s: 1000, ms: 1 };
const UNIT_ORDER = ['w', 'd', 'h', 'm', 's', 'ms'];

/**
 * Parses a span such as "1h 30m" into whole milliseconds.
 *
 * The text is one or more `<integer><unit>` parts, units `w`, `d`, `h`, `m`, `s` and `ms`, each at
 * most once and largest first; parts may be separated by spaces and the units are case-insensitive.
 * Throws TypeError when `text` is not a string, ParseError (with the offset) for an empty text, a
 * number without a unit, an unknown unit or a unit repeated or out of order, and RangeError when
 * the total is above Number.MAX_SAFE_INTEGER.
 *
 * @param {string} text the span
 * @returns {number} the span in milliseconds
 * @example parseSpan('1h 30m') // => 5400000
 * @example parseSpan('2s500ms') // => 2500
 */
export function parseSpan(text) {
  throw new Error('not implemented');
}

/**
 * Formats milliseconds as a clock reading: "m:ss" under one hour, "h:mm:ss" from one hour on (the
 * hours are not wrapped at 24). The time is truncated to the second, or to the tenth of a second
 * when `tenths` is true, which appends ".d". Throws TypeError when `ms` is not an integer and
 * RangeError when it is negative.
 *
 * @param {number} ms a non-negative integer number of milliseconds
 * @param {boolean} [tenths=false] whether to show tenths of a second
 * @returns {string} the clock reading
 * @example formatClock(61000) // => '1:01'
 * @example formatClock(3725999, true) // => '1:02:05.9'
 */
export function formatClock(ms, tenths = false) {
  throw new Error('not implemented');
}
