import test from 'node:test';
import assert from 'node:assert/strict';
import { convert, parseQuantity, ParseError } from '../src/index.js';




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
