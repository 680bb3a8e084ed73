import assert from 'node:assert/strict';
import { test } from 'node:test';
import { describeDuration, totalDuration, withDefaults } from '../src/index.js';

test('totalDuration', () => {
  assert.equal(totalDuration(['1m', 500]), 60500);
  assert.throws(() => totalDuration(['soon']), RangeError);
});

test('describeDuration', () => {
  assert.equal(describeDuration(3723000), '1h 2m');
  assert.equal(describeDuration(90061000, 3), '1d 1h 1m');
  assert.equal(describeDuration(0), '0s');
});

test('withDefaults', () => {
  assert.deepEqual(withDefaults({ a: 1, b: { c: 2 } }, { b: { d: 3 } }), { a: 1, b: { c: 2, d: 3 } });
});
