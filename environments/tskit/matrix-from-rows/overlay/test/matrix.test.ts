import test from 'node:test';
import assert from 'node:assert/strict';
import { Matrix } from '../src/index.ts';
import type { Rows } from '../src/index.ts';


test('identity', () => {
  assert.deepEqual(Matrix.identity(2).toArray(), [[1, 0], [0, 1]]);
  assert.deepEqual(Matrix.identity(1).toArray(), [[1]]);
  assert.throws(() => Matrix.identity(0), RangeError);
  assert.throws(() => Matrix.identity(1.5), RangeError);
});



