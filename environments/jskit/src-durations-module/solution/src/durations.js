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
  if (typeof text !== 'string') throw new TypeError('span must be a string');
  const pattern = /\s*(\d+)\s*(ms|[wdhms])\s*/iy;
  let total = 0;
  let lastRank = -1;
  let offset = 0;
  while (offset < text.length) {
    pattern.lastIndex = offset;
    const match = pattern.exec(text);
    if (match === null) {
      if (text.slice(offset).trim() === '') break;
      throw new ParseError('expected <number><unit>', offset);
    }
    const unit = match[2].toLowerCase();
    const rank = UNIT_ORDER.indexOf(unit);
    if (rank <= lastRank) throw new ParseError(`unit "${unit}" repeated or out of order`, offset);
    lastRank = rank;
    total += Number(match[1]) * UNIT_MS[unit];
    offset = pattern.lastIndex;
  }
  if (lastRank === -1) throw new ParseError('empty span', 0);
  if (total > Number.MAX_SAFE_INTEGER) throw new RangeError('span too large');
  return total;
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
  if (!Number.isInteger(ms)) throw new TypeError('ms must be an integer');
  if (ms < 0) throw new RangeError('ms must not be negative');
  const totalSeconds = Math.floor(ms / 1000);
  const hours = Math.floor(totalSeconds / 3600);
  const minutes = Math.floor(totalSeconds / 60) % 60;
  const seconds = String(totalSeconds % 60).padStart(2, '0');
  let out = hours > 0 ? `${hours}:${String(minutes).padStart(2, '0')}:${seconds}` : `${minutes}:${seconds}`;
  if (tenths) out += `.${Math.floor((ms % 1000) / 100)}`;
  return out;
}
