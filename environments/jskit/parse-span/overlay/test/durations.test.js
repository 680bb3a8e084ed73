import test from 'node:test';
import assert from 'node:assert/strict';
import { parseSpan, formatClock, ParseError } from '../src/index.js';



test('formatClock switches to hours at one hour and truncates', () => {
  assert.equal(formatClock(0), '0:00');
  assert.equal(formatClock(61000), '1:01');
  assert.equal(formatClock(3599999), '59:59');
  assert.equal(formatClock(3600000), '1:00:00');
  assert.equal(formatClock(3725999, true), '1:02:05.9');
  assert.equal(formatClock(90000000), '25:00:00');
  assert.throws(() => formatClock(-1), RangeError);
  assert.throws(() => formatClock(1.5), TypeError);
});
