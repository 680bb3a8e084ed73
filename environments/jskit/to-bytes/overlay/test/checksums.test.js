import test from 'node:test';
import assert from 'node:assert/strict';
import { fletcher16, fnv1a64, dammCheckDigit, isValidDamm, ParseError } from '../src/index.js';


test('fnv1a64 returns a 64-bit BigInt', () => {
  assert.equal(fnv1a64(''), 0xcbf29ce484222325n);
  assert.equal(fnv1a64('a'), 0xaf63dc4c8601ec8cn);
  assert.equal(fnv1a64('foobar'), 0x85944171f73967e8n);
  assert.equal(typeof fnv1a64([1, 2, 3]), 'bigint');
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
