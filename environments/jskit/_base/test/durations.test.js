import test from 'node:test';
import assert from 'node:assert/strict';
import { parseSpan, formatClock, ParseError } from '../src/index.js';

test('parseSpan adds up the parts', () => {
  assert.equal(parseSpan('1h 30m'), 5400000);
  assert.equal(parseSpan('2s500ms'), 2500);
  assert.equal(parseSpan(' 1W 2d '), 777600000);
  assert.equal(parseSpan('0s'), 0);
});

test('parseSpan rejects malformed spans', () => {
  for (const bad of ['', '   ', '5', 'h', '3x', '1h 2']) assert.throws(() => parseSpan(bad), ParseError);
  assert.throws(() => parseSpan('1m1h'), { name: 'ParseError', offset: 2 });
  assert.throws(() => parseSpan('1s1s'), ParseError);
  assert.throws(() => parseSpan(5), TypeError);
  assert.throws(() => parseSpan('99999999999w'), RangeError);
});

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
