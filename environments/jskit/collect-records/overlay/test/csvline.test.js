import test from 'node:test';
import assert from 'node:assert/strict';
import { splitFields, joinFields, collectRecords, ParseError } from '../src/index.js';

test('splitFields with quotes and other delimiters', () => {
  assert.deepEqual(splitFields('a,"b,c",d'), ['a', 'b,c', 'd']);
  assert.deepEqual(splitFields('x;"say ""hi"""', { delimiter: ';' }), ['x', 'say "hi"']);
  assert.deepEqual(splitFields(''), ['']);
  assert.deepEqual(splitFields(','), ['', '']);
  assert.deepEqual(splitFields('"a",'), ['a', '']);
  assert.deepEqual(splitFields(" a |'b|c'", { delimiter: '|', quote: "'" }), [' a ', 'b|c']);
});

test('splitFields errors', () => {
  assert.throws(() => splitFields('"abc'), { name: 'ParseError', offset: 0 });
  assert.throws(() => splitFields('"a"b'), { name: 'ParseError', offset: 3 });
  assert.throws(() => splitFields('a', { delimiter: '"' }), RangeError);
  assert.throws(() => splitFields(null), TypeError);
});

test('joinFields quotes only where needed and round-trips', () => {
  assert.equal(joinFields(['a', 'b,c', 3]), 'a,"b,c",3');
  assert.equal(joinFields([' pad', null], ';'), '" pad";');
  assert.equal(joinFields(['']), '""');
  assert.equal(joinFields([]), '');
  assert.equal(joinFields(['q"x', 10n, true]), '"q""x",10,true');
  const fields = ['', 'a "b"', 'x,y', ' z'];
  assert.deepEqual(splitFields(joinFields(fields)), fields);
  assert.throws(() => joinFields([{}]), TypeError);
  assert.throws(() => joinFields(['a'], '"'), RangeError);
});

