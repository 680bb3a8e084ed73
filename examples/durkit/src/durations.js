import ms from 'ms';

/**
 * The total of several durations, in milliseconds. Each item is a number of milliseconds or a
 * string `ms` reads (`'1.5h'`, `'2 days'`, `'90s'`); an item `ms` cannot read throws a `RangeError`
 * naming it.
 * @param {(number|string)[]} items
 * @returns {number}
 * @example totalDuration(['1m', 500]) // => 60500
 */
export function totalDuration(items) {
  let total = 0;
  for (const item of items) {
    const value = typeof item === 'number' ? item : ms(String(item));
    if (value === undefined || Number.isNaN(value)) throw new RangeError(`not a duration: ${item}`);
    total += value;
  }
  return total;
}

/**
 * A duration in milliseconds as the largest whole units first, at most `parts` of them
 * (`3723000` → `'1h 2m 3s'`); zero gives `'0s'`, a negative duration gets a leading `-`.
 * @param {number} millis
 * @param {number} [parts=2]
 * @returns {string}
 * @example describeDuration(90061000, 3) // => '1d 1h 1m'
 */
export function describeDuration(millis, parts = 2) {
  const units = [['d', ms('1d')], ['h', ms('1h')], ['m', ms('1m')], ['s', ms('1s')]];
  let rest = Math.abs(Math.round(millis / 1000)) * 1000;
  const out = [];
  for (const [label, size] of units) {
    if (out.length >= parts) break;
    const count = Math.floor(rest / size);
    rest -= count * size;
    if (count > 0) out.push(`${count}${label}`);
  }
  if (out.length === 0) return '0s';
  return (millis < 0 ? '-' : '') + out.join(' ');
}
