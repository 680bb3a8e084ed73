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

test('convertCase writes each style', () => {
  const styles: Record<CaseStyle, string> = {
    camel: 'parseHtmlString',
    pascal: 'ParseHtmlString',
    snake: 'parse_html_string',
    kebab: 'parse-html-string',
    constant: 'PARSE_HTML_STRING',
  };
  for (const [style, expected] of Object.entries(styles)) {
    assert.equal(convertCase('parseHTMLString', style as CaseStyle), expected);
  }
  assert.equal(convertCase('user-name'), 'userName');
});

test('convertCase acronyms, leading digits and errors', () => {
  assert.equal(convertCase('user_id', 'pascal', { acronyms: ['id'] }), 'UserID');
  assert.equal(convertCase('id_card', 'camel', { acronyms: ['ID'] }), 'idCard');
  assert.equal(convertCase('user_id', 'snake', { acronyms: ['id'] }), 'user_id');
  assert.equal(convertCase('3d model', 'constant'), '_3D_MODEL');
  assert.equal(convertCase('3d model', 'kebab'), '3d-model');
  assert.equal(convertCase('3d model'), '_3dModel');
  assert.equal(convertCase('', 'pascal'), '');
  assert.throws(() => convertCase('x', 'title' as CaseStyle), RangeError);
});
