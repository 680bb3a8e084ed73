import test from 'node:test';
import assert from 'node:assert/strict';
import { parsePageSelection, runsOf, compactNumbers, dedupeSortedInPlace, ParseError } from '../src/index.js';



test('runsOf groups consecutive numbers lazily', () => {
  assert.deepEqual([...runsOf([1, 2, 3, 7])], [{ start: 1, end: 3, length: 3 }, { start: 7, end: 7, length: 1 }]);
  assert.deepEqual([...runsOf([4, 4, 5])], [{ start: 4, end: 5, length: 2 }]);
  assert.deepEqual([...runsOf([])], []);
  const runs = runsOf([1, 5, 2]);
  assert.deepEqual(runs.next().value, { start: 1, end: 1, length: 1 });
  assert.throws(() => runs.next(), RangeError);
  assert.throws(() => [...runsOf([1, 'x'])], TypeError);
});

test('compactNumbers writes long runs as ranges', () => {
  assert.equal(compactNumbers([5, 1, 2, 3, 6]), '1-3,5,6');
  assert.equal(compactNumbers([1, 2, 4], 2), '1-2,4');
  assert.equal(compactNumbers([]), '');
  const input = [3, 3, 2, 1];
  assert.equal(compactNumbers(input), '1-3');
  assert.deepEqual(input, [3, 3, 2, 1]);
  assert.throws(() => compactNumbers([1], 1), RangeError);
});

test('dedupeSortedInPlace shortens the array it is given', () => {
  const xs = [1, 1, 2, 3, 3];
  assert.equal(dedupeSortedInPlace(xs), 2);
  assert.deepEqual(xs, [1, 2, 3]);
  const words = ['a', 'b'];
  assert.equal(dedupeSortedInPlace(words), 0);
  assert.deepEqual(words, ['a', 'b']);
  assert.throws(() => dedupeSortedInPlace([1, 3, 2]), RangeError);
  assert.throws(() => dedupeSortedInPlace('aab'), TypeError);
});
