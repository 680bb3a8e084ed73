import test from 'node:test';
import assert from 'node:assert/strict';
import { Matrix } from '../src/index.ts';
import type { Rows } from '../src/index.ts';

test('fromRows copies and checks its input', () => {
  const rows = [[1, 2], [3, 4]];
  const m = Matrix.fromRows(rows);
  rows[0][0] = 99;
  assert.deepEqual(m.toArray(), [[1, 2], [3, 4]]);
  assert.equal(m.rows, 2);
  assert.equal(m.cols, 2);
  assert.throws(() => Matrix.fromRows([]), RangeError);
  assert.throws(() => Matrix.fromRows([[]]), RangeError);
  assert.throws(() => Matrix.fromRows([[1, 2], [3]]), RangeError);
  assert.throws(() => Matrix.fromRows([[1, Number.NaN]]), TypeError);
  assert.throws(() => Matrix.fromRows([1, 2] as unknown as Rows), TypeError);
});

test('identity', () => {
  assert.deepEqual(Matrix.identity(2).toArray(), [[1, 0], [0, 1]]);
  assert.deepEqual(Matrix.identity(1).toArray(), [[1]]);
  assert.throws(() => Matrix.identity(0), RangeError);
  assert.throws(() => Matrix.identity(1.5), RangeError);
});

test('multiply by scalars and matrices', () => {
  const m = Matrix.fromRows([[1, 2], [3, 4]]);
  assert.deepEqual(m.multiply(Matrix.fromRows([[0, 1], [1, 0]])).toArray(), [[2, 1], [4, 3]]);
  assert.deepEqual(m.multiply(Matrix.identity(2)).toArray(), m.toArray());
  assert.deepEqual(Matrix.fromRows([[1, 2, 3]]).multiply(Matrix.fromRows([[1], [1], [1]])).toArray(), [[6]]);
  assert.deepEqual(Matrix.fromRows([[1, -2, 0]]).multiply(-1).toArray(), [[-1, 2, 0]]);
  assert.throws(() => m.multiply(Matrix.fromRows([[1, 2, 3]])), RangeError);
  assert.throws(() => m.multiply(Infinity), TypeError);
  assert.throws(() => m.multiply([[1]] as unknown as Matrix), TypeError);
});

test('transpose', () => {
  assert.deepEqual(Matrix.fromRows([[1, 2, 3]]).transpose().toArray(), [[1], [2], [3]]);
  assert.deepEqual(Matrix.fromRows([[1, 2], [3, 4], [5, 6]]).transpose().toArray(), [[1, 3, 5], [2, 4, 6]]);
});

test('determinant', () => {
  assert.equal(Matrix.fromRows([[1, 2], [3, 4]]).determinant, -2);
  assert.equal(Matrix.fromRows([[0, 1, 2], [1, 0, 3], [4, -3, 8]]).determinant, -2);
  assert.equal(Matrix.fromRows([[7]]).determinant, 7);
  assert.equal(Matrix.fromRows([[1, 2], [2, 4]]).determinant, 0);
  assert.equal(Matrix.fromRows([[0, 0], [0, 5]]).determinant, 0);
  assert.equal(Matrix.identity(5).multiply(3).determinant, 243);
  assert.equal(Matrix.fromRows([[2, -1, 0, 3], [1, 4, -2, 1], [0, 3, 1, -1], [5, 0, 2, 2]]).determinant, -91);
  assert.equal(Matrix.fromRows([[0, 0, 1], [0, 1, 0], [1, 0, 0]]).determinant, -1);
  assert.equal(Matrix.fromRows([[1, 2, 3], [2, 4, 5], [1, 3, 4]]).determinant, 1);
  assert.throws(() => Matrix.fromRows([[1, 2]]).determinant, RangeError);
});
