// Checksums over bytes and text (Fletcher-16, 64-bit FNV-1a) and the Damm check digit.
import { ParseError } from './errors.js';

const DAMM_TABLE = [
  [0, 3, 1, 7, 5, 9, 8, 6, 4, 2],
  [7, 0, 9, 2, 1, 5, 4, 8, 6, 3],
  [4, 2, 0, 6, 8, 7, 1, 3, 5, 9],
  [1, 7, 5, 0, 9, 8, 3, 4, 2, 6],
  [6, 1, 2, 3, 0, 4, 5, 9, 7, 8],
  [3, 6, 7, 4, 2, 0, 9, 5, 8, 1],
  [5, 8, 6, 9, 7, 2, 0, 1, 3, 4],
  [8, 9, 4, 5, 3, 6, 2, 0, 1, 7],
  [9, 4, 3, 8, 6, 1, 7, 2, 0, 5],
  [2, 5, 8, 1, 4, 3, 6, 7, 9, 0],
];

function toBytes(input) {
  if (typeof input === 'string') return new TextEncoder().encode(input);
  if (input instanceof Uint8Array) return input;
  if (!Array.isArray(input)) throw new TypeError('input must be a string, a Uint8Array or an array of bytes');
  for (const [index, b] of input.entries()) {
    if (!Number.isInteger(b) || b < 0 || b > 255) throw new RangeError(`not a byte at index ${index}: ${String(b)}`);
  }
  return input;
}

/**
 * Computes the Fletcher-16 checksum: two running sums modulo 255 over the bytes, the second sum
 * in the high byte. A string is taken as its UTF-8 bytes. Throws TypeError for any other kind of
 * input than a string, a Uint8Array or an array, and RangeError for an array element that is not
 * an integer from 0 to 255.
 *
 * @param {string|Uint8Array|number[]} input the data
 * @returns {number} the checksum, from 0 to 65535
 * @example fletcher16('abcde') // => 51440
 * @example fletcher16([]) // => 0
 */
export function fletcher16(input) {
  const bytes = toBytes(input);
  let low = 0;
  let high = 0;
  for (const b of bytes) {
    low = (low + b) % 255;
    high = (high + low) % 255;
  }
  return (high << 8) | low;
}

/**
 * Computes the 64-bit FNV-1a hash of a string's UTF-8 bytes (or of a byte array) as a BigInt:
 * starting from the offset basis, each byte is XORed in and the state multiplied by the FNV prime
 * modulo 2^64. Throws as `fletcher16` does for input that is not bytes.
 *
 * @param {string|Uint8Array|number[]} input the data
 * @returns {bigint} the hash, from 0n to 2n ** 64n - 1n
 * @example fnv1a64('') // => 14695981039346656037n
 * @example fnv1a64('a') // => 12638187200555641996n
 */
export function fnv1a64(input) {
  const bytes = toBytes(input);
  const mask = (1n << 64n) - 1n;
  let hash = 0xcbf29ce484222325n;
  for (const b of bytes) {
    hash ^= BigInt(b);
    hash = (hash * 0x100000001b3n) & mask;
  }
  return hash;
}

function dammInterim(digits) {
  if (typeof digits !== 'string') throw new TypeError('digits must be a string');
  let interim = 0;
  for (let i = 0; i < digits.length; i++) {
    const d = digits.charCodeAt(i) - 48;
    if (d < 0 || d > 9) throw new ParseError(`not a digit: "${digits[i]}"`, i);
    interim = DAMM_TABLE[interim][d];
  }
  return interim;
}

/**
 * Computes the Damm check digit of a string of decimal digits (the digit that, appended, makes
 * the whole string check to 0). Spaces are not skipped. Throws TypeError when `digits` is not a
 * string, RangeError when it is empty, and ParseError at the first character that is not 0-9.
 *
 * @param {string} digits the payload digits
 * @returns {number} the check digit, 0 to 9
 * @example dammCheckDigit('572') // => 4
 * @example dammCheckDigit('0') // => 0
 */
export function dammCheckDigit(digits) {
  if (digits === '') throw new RangeError('no digits');
  const interim = dammInterim(digits);
  return interim;
}

/**
 * Tells whether a string of digits ends in a correct Damm check digit. Returns false, instead of
 * throwing, for a non-string, a string shorter than 2 characters or one with a non-digit.
 *
 * @param {unknown} code the digits with their check digit last
 * @returns {boolean} whether the code checks
 * @example isValidDamm('5724') // => true
 * @example isValidDamm('5274') // => false
 */
export function isValidDamm(code) {
  if (typeof code !== 'string' || code.length < 2) return false;
  if (!/^\d+$/.test(code)) return false;
  return dammInterim(code) === 0;
}
