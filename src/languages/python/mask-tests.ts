/**
 * Removes a repository's own tests of a target from one Python test file: test functions and
 * methods (`def test_*`, with their decorators) whose body names the target. Indentation-based, with
 * triple-quoted strings tracked so a string at column 0 does not end a block.
 */

export interface TestRemoval {
  /** The new file text, or null when no test is left in the file (the file is deleted). */
  source: string | null;
  /** Names of the tests removed, in file order. */
  removed: string[];
  /** How many tests the file held. */
  total: number;
}

interface Block {
  name: string;
  /** 0-based, inclusive, decorators included. */
  start: number;
  end: number;
  indent: number;
}

const TEST_DEF = /^([ \t]*)(?:async[ \t]+)?def[ \t]+(test[A-Za-z0-9_]*)[ \t]*\(/;

/** For each line: true when the line starts inside a triple-quoted string opened on an earlier line. */
function linesInsideStrings(lines: readonly string[]): boolean[] {
  const inside: boolean[] = [];
  let open: string | null = null;
  for (const line of lines) {
    inside.push(open !== null);
    let i = 0;
    while (i < line.length) {
      if (open !== null) {
        const close = line.indexOf(open, i);
        if (close === -1) break;
        i = close + 3;
        open = null;
        continue;
      }
      const ch = line[i];
      if (ch === '#') break;
      if (ch === '"' || ch === "'") {
        const triple = line.slice(i, i + 3);
        if (triple === '"""' || triple === "'''") {
          open = triple;
          i += 3;
          continue;
        }
        // a one-line string: skip to its closing quote
        let j = i + 1;
        while (j < line.length && line[j] !== ch) j += line[j] === '\\' ? 2 : 1;
        i = j + 1;
        continue;
      }
      i += 1;
    }
  }
  return inside;
}

function indentWidth(line: string): number {
  return (/^[ \t]*/.exec(line)?.[0] ?? '').replace(/\t/g, '        ').length;
}

/** The last line of the decorator that starts on line `i` (`@pytest.mark.parametrize(` … `)` may span many lines): where its brackets balance. */
function decoratorEnd(lines: readonly string[], i: number): number {
  let depth = 0;
  for (let j = i; j < lines.length; j++) {
    // one-line strings and comments hold no brackets that count
    const code = (lines[j] ?? '').replace(/(['"])(?:\\.|(?!\1).)*\1/g, '""').replace(/#.*$/, '');
    for (const ch of code) {
      if (ch === '(' || ch === '[' || ch === '{') depth += 1;
      else if (ch === ')' || ch === ']' || ch === '}') depth -= 1;
    }
    if (depth <= 0) return j;
  }
  return lines.length - 1;
}

function findTestBlocks(lines: readonly string[]): Block[] {
  const inside = linesInsideStrings(lines);
  const blocks: Block[] = [];
  // the first line of the decorators just above the line being read (blank lines and comments may sit between)
  let decorators: number | null = null;
  for (let i = 0; i < lines.length; i++) {
    if (inside[i]) {
      decorators = null;
      continue;
    }
    const line = lines[i] ?? '';
    if (/^[ \t]*@/.test(line)) {
      if (decorators === null || indentWidth(lines[decorators] ?? '') !== indentWidth(line)) decorators = i;
      i = decoratorEnd(lines, i);
      continue;
    }
    const m = TEST_DEF.exec(line);
    if (!m) {
      if (line.trim() !== '' && !line.trimStart().startsWith('#')) decorators = null;
      continue;
    }
    const indent = indentWidth(line);
    const start = decorators !== null && indentWidth(lines[decorators] ?? '') === indent ? decorators : i;
    decorators = null;
    let end = i;
    for (let j = i + 1; j < lines.length; j++) {
      const line = lines[j] ?? '';
      // a line inside a triple-quoted string opened in the block belongs to the block, its closing line too
      if (inside[j]) {
        end = j;
        continue;
      }
      if (line.trim() === '' || line.trimStart().startsWith('#')) continue;
      if (indentWidth(line) <= indent) break;
      end = j;
    }
    blocks.push({ name: m[2] ?? 'test', start, end, indent });
    i = end;
  }
  return blocks;
}

/** The names a test must mention to count as exercising the target (`wrap`, or `fill` for `Wrapper.fill`). */
function mentionPattern(targetQualname: string): RegExp {
  const last = targetQualname.split('.').at(-1) ?? targetQualname;
  return new RegExp(`(?<![A-Za-z0-9_])${last.replace(/[^A-Za-z0-9_]/g, '')}(?![A-Za-z0-9_])`);
}

export function removeTestsOfTarget(source: string, targetQualname: string): TestRemoval {
  const eol = source.includes('\r\n') ? '\r\n' : '\n';
  const lines = source.split(/\r?\n/);
  const blocks = findTestBlocks(lines);
  const mentions = mentionPattern(targetQualname);
  const doomed = blocks.filter((b) =>
    // the def line's own name does not count (test_wrap is not a call of wrap), its parameters do
    lines.slice(b.start, b.end + 1).some((line) => mentions.test(line.replace(TEST_DEF, ''))),
  );
  if (doomed.length === 0) return { source, removed: [], total: blocks.length };
  if (doomed.length === blocks.length) return { source: null, removed: doomed.map((b) => b.name), total: blocks.length };
  const out: string[] = [];
  let next = 0;
  for (const b of doomed) {
    out.push(...lines.slice(next, b.start));
    // a method is replaced by `pass` so its class never ends up with an empty body
    if (b.indent > 0) out.push(`${' '.repeat(b.indent)}pass`);
    next = b.end + 1;
  }
  out.push(...lines.slice(next));
  return { source: out.join(eol), removed: doomed.map((b) => b.name), total: blocks.length };
}
