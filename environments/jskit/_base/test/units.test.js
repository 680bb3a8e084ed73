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

test('parseQuantity', () => {
  assert.deepEqual(parseQuantity('3.5 km'), { value: 3.5, unit: 'km', dimension: 'length' });
  assert.deepEqual(parseQuantity('-40°F'), { value: -40, unit: 'F', dimension: 'temperature' });
  assert.deepEqual(parseQuantity(' 1e3 g '), { value: 1000, unit: 'g', dimension: 'mass' });
  assert.deepEqual(parseQuantity('.5l'), { value: 0.5, unit: 'l', dimension: 'volume' });
  assert.throws(() => parseQuantity('5'), { name: 'ParseError', offset: 1 });
  assert.throws(() => parseQuantity('km'), ParseError);
  assert.throws(() => parseQuantity('3 km/h'), { name: 'ParseError', offset: 4 });
  assert.throws(() => parseQuantity('3 parsec'), RangeError);
  assert.throws(() => parseQuantity(3), TypeError);
});
