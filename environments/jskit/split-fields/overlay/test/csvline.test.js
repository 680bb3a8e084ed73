import test from 'node:test';
import assert from 'node:assert/strict';
import { splitFields, joinFields, collectRecords, ParseError } from '../src/index.js';




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
