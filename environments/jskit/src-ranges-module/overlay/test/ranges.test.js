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


