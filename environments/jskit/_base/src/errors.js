/**
 * Thrown when a text does not follow the expected grammar. `offset` is the 0-based position in
 * the text where the problem was found and `reason` the message without the offset.
 */
export class ParseError extends Error {
  /**
   * @param {string} message what was wrong
   * @param {number} offset 0-based position of the problem
   */
  constructor(message, offset) {
    super(`${message} (at offset ${offset})`);
    this.name = 'ParseError';
    this.reason = message;
    this.offset = offset;
  }
}
