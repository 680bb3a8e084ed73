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


test('collectRecords from arrays and async iterables', async () => {
  assert.deepEqual(await collectRecords(['id,name', '1,ada', '2']), {
    header: ['id', 'name'],
    rows: [{ id: '1', name: 'ada' }],
    rejected: [3],
  });
  async function* lines() {
    yield '# comment';
    yield '';
    yield ' a ; b ';
    yield '1;2';
    yield '3;4;5';
  }
  assert.deepEqual(await collectRecords(lines(), { delimiter: ';' }), {
    header: ['a', 'b'],
    rows: [{ a: '1', b: '2' }],
    rejected: [5],
  });
  assert.deepEqual(await collectRecords([]), { header: [], rows: [], rejected: [] });
  await assert.rejects(collectRecords(['a,b,a']), ParseError);
  await assert.rejects(collectRecords(['a,,b']), ParseError);
  await assert.rejects(collectRecords(['a', '"x']), ParseError);
});
