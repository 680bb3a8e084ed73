// Identifier words and case styles: "XMLHttpRequest" -> ["xml", "http", "request"] -> "xml_http_request".

/** The case styles `convertCase` writes. */
export type CaseStyle = 'camel' | 'pascal' | 'snake' | 'kebab' | 'constant';

/** Options of `convertCase`. */
export interface CaseOptions {
  /** Words written in capitals in camel and pascal case ("id" gives "userID"); compared lower-cased. */
  acronyms?: readonly string[];
}

const STYLES: readonly CaseStyle[] = ['camel', 'pascal', 'snake', 'kebab', 'constant'];

/**
 * Splits an identifier written in any common convention into lower-case words. Every character
 * other than an ASCII letter or digit separates words; a word also ends before an upper-case
 * letter that follows a lower-case letter or a digit, and a run of capitals ends before its last
 * capital when a lower-case letter follows ("HTMLParser" is "html", "parser"). Digits stay with
 * the word before them. Throws TypeError when `name` is not a string.
 *
 * @param name the identifier
 * @returns the words, lower-cased, in order (empty when there are none)
 * @example splitWords('XMLHttpRequest') // => ['xml', 'http', 'request']
 * @example splitWords('utf8Decoder v2') // => ['utf8', 'decoder', 'v2']
 */
export function splitWords(name: string): string[] {
  throw new Error('not implemented');
}

/**
 * Rewrites an identifier in another case style, through `splitWords`: `camel` ("userId"),
 * `pascal` ("UserId"), `snake` ("user_id"), `kebab` ("user-id") or `constant` ("USER_ID"). In
 * camel and pascal case, words listed in `options.acronyms` are written all in capitals, except a
 * first word in camel case, which stays lower-case. When the result would start with a digit,
 * camel, pascal, snake and constant styles prefix "_" (kebab does not). A name without words
 * gives "". Throws TypeError when `name` is not a string and RangeError for an unknown style.
 *
 * @param name the identifier, in any convention
 * @param style the target style (default "camel")
 * @param options acronyms to keep in capitals
 * @returns the rewritten identifier
 * @example convertCase('user_id', 'pascal', { acronyms: ['id'] }) // => 'UserID'
 * @example convertCase('3d model', 'constant') // => '_3D_MODEL'
 */
export function convertCase(name: string, style: CaseStyle = 'camel', options: CaseOptions = {}): string {
  throw new Error('not implemented');
}
