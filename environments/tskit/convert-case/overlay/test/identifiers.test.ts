import test from 'node:test';
import assert from 'node:assert/strict';
import { splitWords, convertCase } from '../src/identifiers.ts';
import type { CaseStyle } from '../src/identifiers.ts';

test('splitWords finds word boundaries in every convention', () => {
  assert.deepEqual(splitWords('XMLHttpRequest'), ['xml', 'http', 'request']);
  assert.deepEqual(splitWords('utf8Decoder v2'), ['utf8', 'decoder', 'v2']);
  assert.deepEqual(splitWords('user_id'), ['user', 'id']);
  assert.deepEqual(splitWords('--kebab-case--'), ['kebab', 'case']);
  assert.deepEqual(splitWords('HTML'), ['html']);
  assert.deepEqual(splitWords('getURLs'), ['get', 'ur', 'ls']);
  assert.deepEqual(splitWords(''), []);
  assert.deepEqual(splitWords('__'), []);
  assert.throws(() => splitWords(42 as unknown as string), TypeError);
});


