// A ledger of signed amounts in integer cents, booked to colon-separated accounts ("assets:cash").
import { ParseError } from './errors.js';

const ACCOUNT = /^[a-z][a-z0-9_-]*(?::[a-z][a-z0-9_-]*)*$/;

function toCents(amount) {
  if (typeof amount === 'number') {
    if (!Number.isSafeInteger(amount)) throw new RangeError('a numeric amount must be a safe integer of cents');
    return amount;
  }
  if (typeof amount !== 'string') throw new TypeError('amount must be a number of cents or a decimal string');
  const match = /^([+-]?)(\d+)(?:\.(\d{1,2}))?$/.exec(amount.trim());
  if (match === null) throw new ParseError(`bad amount "${amount}"`, 0);
  const cents = Number(match[2]) * 100 + Number((match[3] ?? '').padEnd(2, '0'));
  if (!Number.isSafeInteger(cents)) throw new RangeError('amount too large');
  return match[1] === '-' ? -cents : cents;
}

/** Entries booked to accounts; amounts are kept as integer cents. */
export class Ledger {
  #entries = [];

  /**
   * Builds a ledger from text, one entry per line: `<account> <amount> [memo...]`, separated by
   * whitespace; blank lines and lines starting with `#` are skipped. The amount is a decimal with
   * at most two decimals ("12.5", "-3"). Throws TypeError when `text` is not a string, and
   * ParseError, whose offset is where the line starts in `text`, for a line with no amount or
   * one that `add` refuses (bad account name, bad or zero amount).
   *
   * @param {string} text the entries, one per line
   * @returns {Ledger} a new ledger holding them in order
   * @example Ledger.fromText('assets:cash 10.50 tips\nexpenses:food -4').balance // => 650
   */
  static fromText(text) {
    if (typeof text !== 'string') throw new TypeError('text must be a string');
    const ledger = new Ledger();
    let lineStart = 0;
    for (const line of text.split('\n')) {
      const [account = '', amount, ...memo] = line.trim().split(/\s+/);
      if (account !== '' && !account.startsWith('#')) {
        if (amount === undefined) throw new ParseError('entry without an amount', lineStart);
        try {
          ledger.add(account, amount, memo.join(' '));
        } catch (error) {
          throw new ParseError(error.reason ?? error.message, lineStart);
        }
      }
      lineStart += line.length + 1;
    }
    return ledger;
  }

  /**
   * Books one entry and returns its 0-based index. The account is lower-case segments joined by
   * ":" (each a letter then letters, digits, "_" or "-"); the amount is integer cents (a number)
   * or a decimal string with at most two decimals. Zero amounts are refused. Throws TypeError for
   * an account or memo that is not a string or an amount that is neither a number nor a string,
   * RangeError for a bad account name, a zero amount or one that is not a safe integer of cents,
   * and ParseError for a malformed decimal string.
   *
   * @param {string} account the account, e.g. "assets:cash"
   * @param {number|string} amount cents (1250) or a decimal string ("12.50")
   * @param {string} [memo=''] a free note
   * @returns {number} the index of the new entry
   * @example new Ledger().add('income:salary', '2500.00') // => 0
   */
  add(account, amount, memo = '') {
    throw new Error('not implemented');
  }

  /**
   * The sum of all entries, in cents (0 for an empty ledger).
   *
   * @returns {number} the total in cents
   * @example Ledger.fromText('a 1\nb -0.25').balance // => 75
   */
  get balance() {
    let total = 0;
    for (const entry of this.#entries) total += entry.cents;
    return total;
  }

  /**
   * The sum, in cents, of the entries booked to `account` or to any account below it:
   * "assets" includes "assets:cash" but not "assetsx". An account with no entries gives 0.
   * Throws RangeError for a name that is not a valid account.
   *
   * @param {string} account the account or parent account
   * @returns {number} the total in cents
   * @example Ledger.fromText('assets:cash 5\nassets:bank 7\nincome 3').balanceOf('assets') // => 1200
   */
  balanceOf(account) {
    if (typeof account !== 'string' || !ACCOUNT.test(account)) throw new RangeError(`bad account name "${account}"`);
    let total = 0;
    for (const entry of this.#entries) {
      if (entry.account === account || entry.account.startsWith(`${account}:`)) total += entry.cents;
    }
    return total;
  }

  /**
   * Totals per account, in cents, as a Map in order of first appearance. With `depth`, account
   * names are cut to their first `depth` segments first, so sub-accounts roll up into their
   * parents ("assets:cash:eur" at depth 1 counts as "assets"). Accounts whose total is 0 are
   * kept. Throws RangeError when `depth` is given and is not an integer of at least 1.
   *
   * @param {number} [depth] how many name segments to keep (all when omitted)
   * @returns {Map<string, number>} account name to total in cents
   * @example Ledger.fromText('a:x 1\na:y 2\nb 3').totals(1) // => new Map([['a', 300], ['b', 300]])
   */
  totals(depth) {
    if (depth !== undefined && (!Number.isInteger(depth) || depth < 1)) throw new RangeError('depth must be an integer of at least 1');
    const out = new Map();
    for (const { account, cents } of this.#entries) {
      const key = depth === undefined ? account : account.split(':').slice(0, depth).join(':');
      out.set(key, (out.get(key) ?? 0) + cents);
    }
    return out;
  }
}
