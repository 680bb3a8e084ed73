import type { Tokens } from './language.js';

/** A literal a plugin reads where the tokenizer stands: its text, and whether its newlines count toward the line. */
export interface Literal {
  text: string;
  /**
   * False for a quoted literal read to the end of its line (`quotedOnItsLine`): an unterminated
   * one takes its newline along without counting it, as the plugins always tokenized.
   */
  countsLines: boolean;
}

/** What sets a C-like language's tokens apart, for `tokenizeCLike`. */
export interface CLikeTokenRules {
  /** Operators of more than one character, each tried in order (longer ones first); any other character is a token of its own. */
  operators: readonly string[];
  /** An identifier or number at the start of the text (anchored with `^`). */
  word: RegExp;
  /** The literal (string, character, raw string) that starts at `at`, or undefined where none does. */
  literal: (source: string, at: number) => Literal | undefined;
  /** Whether `/* *\/` comments nest (Rust's do); false by default. */
  nestedComments?: boolean;
}

/**
 * Source of a language with `//` and `/* *\/` comments cut into tokens for the leak audit:
 * `rules.literal`s whole, words, operators; comments and whitespace dropped. Lines are 1-based, of
 * each token's start. Never throws.
 */
export function tokenizeCLike(source: string, rules: CLikeTokenRules): Tokens {
  const tokens: string[] = [];
  const lines: number[] = [];
  let line = 1;
  let i = 0;
  const push = (token: string, at: number): void => {
    tokens.push(token);
    lines.push(at);
  };
  const skip = (stop: number): void => {
    line += (source.slice(i, stop).match(/\n/g) ?? []).length;
    i = stop;
  };
  while (i < source.length) {
    const ch = source[i]!;
    if (ch === '\n') {
      line += 1;
      i += 1;
      continue;
    }
    if (/\s/.test(ch)) {
      i += 1;
      continue;
    }
    if (source.startsWith('//', i)) {
      const end = source.indexOf('\n', i);
      i = end === -1 ? source.length : end;
      continue;
    }
    if (source.startsWith('/*', i)) {
      skip(rules.nestedComments === true ? nestedCommentEnd(source, i) : commentEnd(source, i));
      continue;
    }
    const literal = rules.literal(source, i);
    if (literal !== undefined) {
      push(literal.text, line);
      if (literal.countsLines) skip(i + literal.text.length);
      else i += literal.text.length;
      continue;
    }
    const word = rules.word.exec(source.slice(i, i + 200))?.[0];
    if (word !== undefined) {
      push(word, line);
      i += word.length;
      continue;
    }
    const op = rules.operators.find((o) => source.startsWith(o, i)) ?? ch;
    push(op, line);
    i += op.length;
  }
  return { tokens, lines };
}

/** Where the `/* *\/` comment at `i` ends (after its `*\/`; the text's end when unclosed). */
function commentEnd(source: string, i: number): number {
  const end = source.indexOf('*/', i + 2);
  return end === -1 ? source.length : end + 2;
}

/** Where the `/* *\/` comment at `i` ends when comments nest. */
function nestedCommentEnd(source: string, i: number): number {
  let depth = 0;
  let j = i;
  while (j < source.length) {
    if (source.startsWith('/*', j)) {
      depth += 1;
      j += 2;
    } else if (source.startsWith('*/', j)) {
      depth -= 1;
      j += 2;
      if (depth === 0) break;
    } else j += 1;
  }
  return j;
}

/**
 * The literal quoted by the character at `i` (`"…"`, `'…'`), backslash escapes skipped, up to its
 * closing quote or the end of its line (the newline included), whichever comes first.
 */
export function quotedOnItsLine(source: string, i: number): Literal {
  const quote = source[i];
  let j = i + 1;
  while (j < source.length && source[j] !== quote && source[j] !== '\n') j += source[j] === '\\' ? 2 : 1;
  return { text: source.slice(i, j + 1), countsLines: false };
}
