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

