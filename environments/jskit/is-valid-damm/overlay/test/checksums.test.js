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

test('fnv1a64 returns a 64-bit BigInt', () => {
  assert.equal(fnv1a64(''), 0xcbf29ce484222325n);
  assert.equal(fnv1a64('a'), 0xaf63dc4c8601ec8cn);
  assert.equal(fnv1a64('foobar'), 0x85944171f73967e8n);
  assert.equal(typeof fnv1a64([1, 2, 3]), 'bigint');
});

