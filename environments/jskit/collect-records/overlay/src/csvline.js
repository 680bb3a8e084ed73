// One-line delimited records: splitting with quotes, joining with quoting where needed, and
// collecting a header plus rows from a (possibly asynchronous) source of lines.
import { ParseError } from './errors.js';

/**
 * Splits one line of delimited text into fields. A field that starts with the quote character is
 * quoted: it runs to the next lone quote, a doubled quote inside standing for one quote, and the
 * delimiter or the end of the line must follow it. Unquoted fields are taken as they are (spaces
 * kept). An empty line is one empty field. Throws TypeError when `line` is not a string,
 * RangeError when the delimiter or the quote is not a single character or both are the same, and
 * ParseError for an unterminated quoted field or text after a closing quote.
 *
 * @param {string} line the line, without its line break
 * @param {{delimiter?: string, quote?: string}} [options] delimiter (default ",") and quote (default '"')
 * @returns {string[]} the fields
 * @example splitFields('a,"b,c",d') // => ['a', 'b,c', 'd']
 * @example splitFields('x;"say ""hi"""', { delimiter: ';' }) // => ['x', 'say "hi"']
 */
export function splitFields(line, { delimiter = ',', quote = '"' } = {}) {
  if (typeof line !== 'string') throw new TypeError('line must be a string');
  if (delimiter.length !== 1 || quote.length !== 1 || delimiter === quote) {
    throw new RangeError('delimiter and quote must be two different single characters');
  }
  const fields = [];
  let i = 0;
  for (;;) {
    if (line[i] !== quote) {
      const end = line.indexOf(delimiter, i);
      fields.push(line.slice(i, end === -1 ? line.length : end));
      if (end === -1) return fields;
      i = end + 1;
      continue;
    }
    const opened = i;
    let value = '';
    i++;
    for (;;) {
      const close = line.indexOf(quote, i);
      if (close === -1) throw new ParseError('unterminated quoted field', opened);
      value += line.slice(i, close);
      i = close + 1;
      if (line[i] !== quote) break;
      value += quote;
      i++;
    }
    fields.push(value);
    if (i === line.length) return fields;
    if (line[i] !== delimiter) throw new ParseError('text after a closing quote', i);
    i++;
  }
}

/**
 * Joins values into one delimited line, the inverse of `splitFields`. `null` and `undefined`
 * become empty fields; numbers, bigints and booleans are written with String(). A field is quoted
 * (inner quotes doubled) when it contains the delimiter, a double quote or a line break, starts
 * or ends with a space, or is the only field and empty (written `""`). Throws TypeError for any
 * other kind of value (objects, symbols, functions) and RangeError for a delimiter that is not
 * one character or is '"'.
 *
 * @param {Array<string|number|bigint|boolean|null|undefined>} values the fields
 * @param {string} [delimiter=','] the delimiter
 * @returns {string} the line
 * @example joinFields(['a', 'b,c', 3]) // => 'a,"b,c",3'
 * @example joinFields([' pad', null], ';') // => '" pad";'
 */
export function joinFields(values, delimiter = ',') {
  if (delimiter.length !== 1 || delimiter === '"') throw new RangeError('delimiter must be one character other than "');
  const out = [];
  for (const value of values) {
    let text;
    if (value === null || value === undefined) text = '';
    else if (['string', 'number', 'bigint', 'boolean'].includes(typeof value)) text = String(value);
    else throw new TypeError(`cannot write a value of type ${typeof value} as a field`);
    const needsQuotes =
      text.includes(delimiter) || /["\r\n]/.test(text) || text !== text.trim() || (text === '' && values.length === 1);
    out.push(needsQuotes ? `"${text.replaceAll('"', '""')}"` : text);
  }
  return out.join(delimiter);
}

/**
 * Reads a header and records from a source of lines: an array, any iterable, or an async
 * iterable (lines are awaited one by one). Blank lines and lines whose first non-space character
 * is `#` are skipped. The first remaining line is the header (its names trimmed); each later line
 * becomes an object from header name to field. A line with a different number of fields is not an
 * error: its 1-based line number goes to `rejected`. Resolves to `{ header, rows, rejected }`
 * (an empty header when there are no lines). Rejects with ParseError for a malformed line (as
 * `splitFields`) or a header that names a column twice or has an empty name.
 *
 * @param {Iterable<string>|AsyncIterable<string>} lines the lines, without line breaks
 * @param {{delimiter?: string, quote?: string}} [options] passed to `splitFields`
 * @returns {Promise<{header: string[], rows: Object<string, string>[], rejected: number[]}>} the records
 * @example await collectRecords(['id,name', '1,ada', '2']) // => { header: ['id', 'name'], rows: [{ id: '1', name: 'ada' }], rejected: [3] }
 */
export async function collectRecords(lines, options = {}) {
  throw new Error('not implemented');
}
