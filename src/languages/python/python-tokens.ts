/**
 * A tokenizer for the leak audit: Python source to a list of tokens with comments, whitespace,
 * line continuations and indentation dropped; identifiers, keywords, literals and operators kept as
 * written. Not a full Python lexer: anything unknown becomes a one-character token, so it never
 * fails on odd input (other languages' files, broken code).
 */
const TOKEN = new RegExp(
  [
    String.raw`(?<skip>[ \t\f\r\n]+|\\\r?\n|#[^\n]*)`,
    String.raw`(?<str>(?:[rRbBuUfF]{1,2})?(?:'''[\s\S]*?'''|"""[\s\S]*?"""|'(?:[^'\\\n]|\\.)*'|"(?:[^"\\\n]|\\.)*"))`,
    String.raw`(?<num>0[xXoObB][0-9a-fA-F_]+|(?:\d[\d_]*\.?[\d_]*|\.\d[\d_]*)(?:[eE][+-]?\d+)?[jJ]?)`,
    String.raw`(?<name>[\p{L}_][\p{L}\p{N}_]*)`,
    String.raw`(?<op>\*\*=|//=|>>=|<<=|->|:=|==|!=|<=|>=|\*\*|//|<<|>>|\+=|-=|\*=|/=|%=|&=|\|=|\^=|@=|\.\.\.)`,
    String.raw`(?<other>[\s\S])`,
  ].join('|'),
  'gyu',
);

export interface Tokens {
  tokens: string[];
  /** 1-based line of each token. */
  lines: number[];
}

export function tokenizePython(source: string): Tokens {
  const tokens: string[] = [];
  const lines: number[] = [];
  let line = 1;
  TOKEN.lastIndex = 0;
  for (let m = TOKEN.exec(source); m !== null; m = TOKEN.exec(source)) {
    const text = m[0];
    if (m.groups?.['skip'] === undefined) {
      tokens.push(text);
      lines.push(line);
    }
    for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) line += 1;
    if (text.length === 0) TOKEN.lastIndex += 1;
  }
  return { tokens, lines };
}
