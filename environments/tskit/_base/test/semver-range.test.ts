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

test('compareVersions follows precedence rules', () => {
  assert.equal(compareVersions('1.2.10', '1.2.9'), 1);
  assert.equal(compareVersions('1.0.0-alpha.2', '1.0.0-alpha.beta'), -1);
  assert.equal(compareVersions('1.0.0-rc.1', '1.0.0'), -1);
  assert.equal(compareVersions('1.0.0-alpha', '1.0.0-alpha.1'), -1);
  assert.equal(compareVersions('1.0.0+a', 'v1.0.0+b'), 0);
  const order = ['1.0.0-alpha', '1.0.0-alpha.1', '1.0.0-alpha.beta', '1.0.0-beta', '1.0.0-beta.2', '1.0.0-beta.11', '1.0.0-rc.1', '1.0.0'];
  assert.deepEqual([...order].reverse().sort(compareVersions), order);
  const v: Version = { major: 3, minor: 0, patch: 0, prerelease: [] };
  assert.equal(compareVersions(v, '2.9.9'), 1);
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

