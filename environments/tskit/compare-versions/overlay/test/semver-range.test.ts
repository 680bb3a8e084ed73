import test from 'node:test';
import assert from 'node:assert/strict';
import { parseVersion, compareVersions, satisfies, maxSatisfying } from '../src/semver-range.ts';
import type { Version } from '../src/semver-range.ts';

test('parseVersion accepts the strict form', () => {
  assert.deepEqual(parseVersion('v1.4.0-rc.2+b7'), { major: 1, minor: 4, patch: 0, prerelease: ['rc', 2] });
  assert.deepEqual(parseVersion(' 2.0.0 '), { major: 2, minor: 0, patch: 0, prerelease: [] });
  assert.deepEqual(parseVersion('0.0.1-x-y.0a'), { major: 0, minor: 0, patch: 1, prerelease: ['x-y', '0a'] });
  for (const bad of ['1.2', '01.2.3', '1.2.3-', '1.2.3-01', '1.2.3.4', 'v', '']) {
    assert.throws(() => parseVersion(bad), SyntaxError, bad);
  }
  assert.throws(() => parseVersion('99999999999999999.0.0'), RangeError);
  assert.throws(() => parseVersion(1 as unknown as string), TypeError);
});


test('satisfies: patterns, "+", ".." and "!"', () => {
  assert.equal(satisfies('1.4.2', '1.2..1.4, !1.3'), true);
  assert.equal(satisfies('1.3.5', '1.2..1.4, !1.3'), false);
  assert.equal(satisfies('1.5.0', '1.2..1.4'), false);
  assert.equal(satisfies('1.4.0', '1.2..1.4.0'), true);
  assert.equal(satisfies('1.4.1', '1.2..1.4.0'), false);
  assert.equal(satisfies('1.1.9', '1.2+'), false);
  assert.equal(satisfies('7.0.0', '1.2+'), true);
  assert.equal(satisfies('2.3.4', '1.x | 2.3.*'), true);
  assert.equal(satisfies('2.4.0', '1.x | 2.3.*'), false);
  assert.equal(satisfies('1.2.3', '1.2.3'), true);
  assert.equal(satisfies('1.2.4', '1.2.3'), false);
  assert.equal(satisfies('0.0.1', '*'), true);
  assert.equal(satisfies('1.2.3', '!1.2.3'), false);
});

test('satisfies: pre-releases', () => {
  assert.equal(satisfies('2.0.0-beta', '1+'), false);
  assert.equal(satisfies('2.0.0-beta', '1+', { includePrerelease: true }), true);
  assert.equal(satisfies('2.0.0-beta', '1'), false);
  assert.equal(satisfies('2.0.0-beta', '1', { includePrerelease: true }), false);
  assert.equal(satisfies('1.3.0-rc.2', '1.3.0-rc.1+'), true);
  assert.equal(satisfies('1.4.0-rc.1', '1.3.0-rc.1+'), false);
  assert.equal(satisfies('1.3.0-rc.1', '1.3.0-rc.1'), true);
});

test('satisfies: malformed ranges', () => {
  for (const bad of ['', '1,', '1|', '1.x.3', '1.2.3.4', 'a', '1..', '*..2', '1..2..3', '*+', '1.2-rc']) {
    assert.throws(() => satisfies('1.0.0', bad), SyntaxError, bad);
  }
  assert.throws(() => satisfies('1.0.0', '2..1'), RangeError);
  assert.throws(() => satisfies('1.0', '1'), SyntaxError);
});

test('maxSatisfying', () => {
  assert.equal(maxSatisfying(['1.2.0', '1.10.1', '2.0.0', 'junk'], '1'), '1.10.1');
  assert.equal(maxSatisfying(['0.9.0'], '1.x | 2.x'), null);
  assert.equal(maxSatisfying([], '*'), null);
  assert.equal(maxSatisfying(['v1.0.0', '1.0.0'], '1'), 'v1.0.0');
  assert.equal(maxSatisfying(['1.0.0', '1.1.0-rc.1'], '1'), '1.0.0');
  assert.equal(maxSatisfying(['1.0.0', '1.1.0-rc.1'], '1', { includePrerelease: true }), '1.1.0-rc.1');
  assert.throws(() => maxSatisfying(['1.0.0'], '1,,2'), SyntaxError);
});

test('satisfies: a range of one exact version', () => {
  assert.equal(satisfies('1.2.3', '1.2.3..1.2.3'), true);
  assert.equal(satisfies('1.2.4', '1.2.3..1.2.3'), false);
  assert.throws(() => satisfies('1.0.0', '1.3..1.2'), RangeError);
});
