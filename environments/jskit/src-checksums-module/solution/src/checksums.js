// Checksums over bytes and text (Fletcher-16, 64-bit FNV-1a) and the Damm check digit.
import { ParseError } from './errors.js';

// Row = interim digit, column = next digit; a weakly totally anti-symmetric quasigroup of order 10.
const DAMM_TABLE = ['0317598642', '7092154863', '4206871359', '1750983426', '6123045978',
  '3674209581', '5869720134', '8945362017', '9438617205', '2581436790'].map((row) => [...row].map(Number));

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

/**
 * Computes the Damm check digit of a string of decimal digits: the digit that, appended, makes
 * the whole string check to 0. Spaces are not skipped. Throws TypeError when `digits` is not a
 * string, RangeError when it is empty, and ParseError at the first character that is not 0-9.
 *
 * @param {string} digits the payload digits
 * @returns {number} the check digit, 0 to 9
 * @example dammCheckDigit('572') // => 4
 * @example dammCheckDigit('0') // => 0
 */
export function dammCheckDigit(digits) {
  if (typeof digits !== 'string') throw new TypeError('digits must be a string');
  if (digits === '') throw new RangeError('no digits');
  let interim = 0;
  for (let i = 0; i < digits.length; i++) {
    const d = digits.charCodeAt(i) - 48;
    if (d < 0 || d > 9) throw new ParseError(`not a digit: "${digits[i]}"`, i);
    interim = DAMM_TABLE[interim][d];
  }
  return interim;
}

/**
 * Tells whether a string of digits ends in its correct Damm check digit. Returns false, instead
 * of throwing, for a non-string, a string shorter than 2 characters or one with a non-digit.
 *
 * @param {unknown} code the digits with their check digit last
 * @returns {boolean} whether the code checks
 * @example isValidDamm('5724') // => true
 * @example isValidDamm('5274') // => false
 */
export function isValidDamm(code) {
  if (typeof code !== 'string' || !/^\d{2,}$/.test(code)) return false;
  const expected = dammCheckDigit(code.slice(0, -1));
  return expected === Number(code[code.length - 1]);
}
