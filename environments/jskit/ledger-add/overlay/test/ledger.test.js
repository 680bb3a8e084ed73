import test from 'node:test';
import assert from 'node:assert/strict';
import { Ledger, ParseError } from '../src/index.js';

test('fromText reads entries and skips comments', () => {
  const ledger = Ledger.fromText('assets:cash 10.50 tips\n\n# rent next\nexpenses:food -4 lunch out');
  assert.equal(ledger.balance, 650);
  assert.equal(new Ledger().balance, 0);
  assert.throws(() => Ledger.fromText('a'), { name: 'ParseError', offset: 0 });
  assert.throws(() => Ledger.fromText('a 1\nB 2'), { name: 'ParseError', offset: 4 });
  assert.throws(() => Ledger.fromText('a 1\nb 1.234'), ParseError);
  assert.throws(() => Ledger.fromText(null), TypeError);
});


test('balanceOf and totals roll up sub-accounts', () => {
  const ledger = Ledger.fromText('assets:cash 5\nassets:bank 7\nincome 3\nassetsx 1\nassets:cash -5');
  assert.equal(ledger.balanceOf('assets'), 700);
  assert.equal(ledger.balanceOf('assets:cash'), 0);
  assert.equal(ledger.balanceOf('nothing'), 0);
  assert.deepEqual(
    ledger.totals(),
    new Map([['assets:cash', 0], ['assets:bank', 700], ['income', 300], ['assetsx', 100]]),
  );
  assert.deepEqual(ledger.totals(1), new Map([['assets', 700], ['income', 300], ['assetsx', 100]]));
  assert.throws(() => ledger.totals(0), RangeError);
  assert.throws(() => ledger.balanceOf('Bad'), RangeError);
});
