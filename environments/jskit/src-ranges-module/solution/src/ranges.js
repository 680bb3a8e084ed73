// Page selections such as "1-3, 8-, odd", runs of consecutive integers, and sorted-array cleanup.
import { ParseError } from './errors.js';

/**
 * Parses a page selection against a document of `pageCount` pages into the sorted, duplicate-free
 * list of selected page numbers (1-based).
 *
 * Items are separated by commas and may be surrounded by spaces: `N` (one page), `A-B` (A to B
 * inclusive), `A-` (A to the last page), `-B` (first page to B), and the words `odd` and `even`.
 * Throws TypeError when `text` is not a string or `pageCount` is not a positive integer,
 * ParseError (with the item's offset) for an empty or malformed item, and RangeError for a page
 * of 0 or above `pageCount`, or a range whose start is above its end.
 *
 * @param {string} text the selection
 * @param {number} pageCount the number of pages in the document
 * @returns {number[]} the selected pages, ascending
 * @example parsePageSelection('1-3, 8-', 9) // => [1, 2, 3, 8, 9]
 * @example parsePageSelection('even,-2', 6) // => [1, 2, 4, 6]
 */
export function parsePageSelection(text, pageCount) {
  if (typeof text !== 'string') throw new TypeError('selection must be a string');
  if (!Number.isInteger(pageCount) || pageCount < 1) throw new TypeError('pageCount must be a positive integer');
  const selected = new Set();
  let offset = 0;
  for (const raw of text.split(',')) {
    const item = raw.trim().toLowerCase();
    const start = offset + raw.length - raw.trimStart().length;
    offset += raw.length + 1;
    if (item === 'odd' || item === 'even') {
      for (let page = item === 'odd' ? 1 : 2; page <= pageCount; page += 2) selected.add(page);
      continue;
    }
    const match = /^(\d*)\s*(-?)\s*(\d*)$/.exec(item);
    if (match === null || item === '' || item === '-' || (match[2] === '' && match[3] !== '')) {
      throw new ParseError(`bad page item "${raw.trim()}"`, start);
    }
    const from = match[1] === '' ? 1 : Number(match[1]);
    const to = match[2] === '' ? from : match[3] === '' ? pageCount : Number(match[3]);
    if (from < 1 || to < 1 || from > pageCount || to > pageCount) throw new RangeError(`page out of 1..${pageCount} in "${raw.trim()}"`);
    if (from > to) throw new RangeError(`reversed range "${raw.trim()}"`);
    for (let page = from; page <= to; page++) selected.add(page);
  }
  return [...selected].sort((a, b) => a - b);
}

/**
 * Yields the runs of consecutive integers in an ascending list, as `{ start, end, length }`
 * objects (`end` inclusive). Equal neighbours belong to the same run and are counted once. The
 * list is checked lazily: a TypeError is thrown when an element that is not an integer is reached,
 * and a RangeError when an element is smaller than the one before it.
 *
 * @param {number[]} numbers ascending integers
 * @returns {Generator<{start: number, end: number, length: number}>} the runs, in order
 * @example [...runsOf([1, 2, 3, 7])] // => [{ start: 1, end: 3, length: 3 }, { start: 7, end: 7, length: 1 }]
 */
export function* runsOf(numbers) {
  let run = null;
  for (const n of numbers) {
    if (!Number.isInteger(n)) throw new TypeError(`not an integer: ${String(n)}`);
    if (run !== null && n < run.end) throw new RangeError('numbers are not in ascending order');
    if (run !== null && n <= run.end + 1) {
      run.end = n;
      run.length = run.end - run.start + 1;
      continue;
    }
    if (run !== null) yield run;
    run = { start: n, end: n, length: 1 };
  }
  if (run !== null) yield run;
}

/**
 * Writes a list of integers compactly: runs of at least `minRun` consecutive numbers become
 * "start-end", shorter runs are listed one by one, all joined with ",". The input does not have to
 * be sorted or duplicate-free (a sorted copy is used; the argument is left unchanged). An empty
 * list gives "". Throws TypeError for an element that is not an integer and RangeError when
 * `minRun` is below 2.
 *
 * @param {number[]} numbers integers in any order
 * @param {number} [minRun=3] the shortest run written as a range
 * @returns {string} the compact form
 * @example compactNumbers([5, 1, 2, 3, 6]) // => '1-3,5,6'
 * @example compactNumbers([1, 2, 4], 2) // => '1-2,4'
 */
export function compactNumbers(numbers, minRun = 3) {
  if (!Number.isInteger(minRun) || minRun < 2) throw new RangeError('minRun must be an integer of at least 2');
  const sorted = [...numbers].sort((a, b) => a - b);
  const parts = [];
  for (const { start, end, length } of runsOf(sorted)) {
    if (length >= minRun) parts.push(`${start}-${end}`);
    else for (let n = start; n <= end; n++) parts.push(String(n));
  }
  return parts.join(',');
}

/**
 * Removes repeated values from an ascending array in place, keeping the first of each, and
 * shortens the array: `[1, 1, 2, 3, 3]` becomes `[1, 2, 3]`. Values are compared with `===` (so
 * NaN values are never merged). Returns the number of elements removed. Throws TypeError when
 * `values` is not an array and RangeError (the array possibly already partly compacted) when an
 * element is smaller than its predecessor.
 *
 * @param {Array<number|string>} values an ascending array, changed in place
 * @returns {number} how many elements were removed
 * @example dedupeSortedInPlace([1, 1, 2, 3, 3]) // => 2
 * @example dedupeSortedInPlace(['a', 'b']) // => 0
 */
export function dedupeSortedInPlace(values) {
  if (!Array.isArray(values)) throw new TypeError('values must be an array');
  let write = 0;
  for (let read = 0; read < values.length; read++) {
    if (read > 0 && values[read] < values[read - 1]) throw new RangeError(`values not ascending at index ${read}`);
    if (write > 0 && values[read] === values[write - 1]) continue;
    values[write] = values[read];
    write++;
  }
  const removed = values.length - write;
  values.length = write;
  return removed;
}
