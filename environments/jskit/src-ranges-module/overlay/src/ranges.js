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
  throw new Error('not implemented');
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
  throw new Error('not implemented');
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
  throw new Error('not implemented');
}
