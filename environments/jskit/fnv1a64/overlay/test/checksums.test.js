import test from 'node:test';
import assert from 'node:assert/strict';
import { fletcher16, fnv1a64, dammCheckDigit, isValidDamm, ParseError } from '../src/index.js';

test('fletcher16 over strings and bytes', () => {
  assert.equal(fletcher16('abcde'), 0xc8f0);
  assert.equal(fletcher16('abcdef'), 0x2057);
  assert.equal(fletcher16([]), 0);
  assert.equal(fletcher16(new Uint8Array([97, 98, 99, 100, 101])), 0xc8f0);
  assert.equal(fletcher16('é'), fletcher16([0xc3, 0xa9]));
  assert.throws(() => fletcher16([256]), RangeError);
  assert.throws(() => fletcher16({}), TypeError);
});


test('dammCheckDigit and isValidDamm', () => {
  assert.equal(dammCheckDigit('572'), 4);
  assert.equal(dammCheckDigit('0'), 0);
  assert.equal(isValidDamm('5724'), true);
  assert.equal(isValidDamm('5274'), false);
  assert.equal(isValidDamm('5'), false);
  assert.equal(isValidDamm(5724), false);
  assert.throws(() => dammCheckDigit(''), RangeError);
  assert.throws(() => dammCheckDigit('12a'), { name: 'ParseError', offset: 2 });
  assert.throws(() => dammCheckDigit('1 2'), ParseError);
  assert.throws(() => dammCheckDigit(12), TypeError);
});
