import test from 'node:test';
import assert from 'node:assert/strict';
import { convert, parseQuantity, ParseError } from '../src/index.js';

test('convert within a dimension', () => {
  assert.equal(convert(1, 'mi', 'km'), 1.609344);
  assert.equal(convert(1, 'lb', 'oz'), 16);
  assert.equal(convert(2.5, 'l', 'ml'), 2500);
  assert.equal(convert(0.1 + 0.2, 'm', 'cm'), 30);
  assert.equal(convert(7, 'kg', 'kg'), 7);
});

test('convert temperatures with offsets', () => {
  assert.equal(convert(100, 'C', 'F'), 212);
  assert.equal(convert(-40, 'F', 'C'), -40);
  assert.equal(convert(32, 'F', 'C'), 0);
  assert.equal(convert(0, 'K', 'C'), -273.15);
  assert.throws(() => convert(-1, 'K', 'C'), RangeError);
  assert.throws(() => convert(-460, 'F', 'K'), RangeError);
});

test('convert errors', () => {
  assert.throws(() => convert(1, 'm', 'kg'), TypeError);
  assert.throws(() => convert(1, 'parsec', 'm'), RangeError);
  assert.throws(() => convert(1, 'toString', 'm'), RangeError);
  assert.throws(() => convert(NaN, 'm', 'm'), TypeError);
  assert.throws(() => convert('1', 'm', 'm'), TypeError);
});

