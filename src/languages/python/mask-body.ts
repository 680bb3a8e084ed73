import type { Unit } from '../construction-types.js';
import { MaskBodyError, type MaskBody } from '../language-adapter.js';

export { MaskBodyError };

const DEF_LINE = /^(\s*)(async\s+)?def\s/;

function indentOf(line: string): string {
  return /^[ \t]*/.exec(line)?.[0] ?? '';
}

/**
 * Replaces lines `bodyStartLine..bodyEndLine` of the unit with one `raise NotImplementedError` at
 * the body's indentation, keeping decorators, the signature, the docstring and everything after the
 * body. Works the same for functions and methods (the indentation comes from the body itself).
 * Line endings of the file are kept.
 */
export const maskPythonBody: MaskBody = (source: string, unit: Unit): string => {
  const eol = source.includes('\r\n') ? '\r\n' : '\n';
  const lines = source.split(/\r?\n/);
  const start = unit.bodyStartLine;
  const end = unit.bodyEndLine;
  if (!(start >= 1 && end >= start && end <= lines.length && start >= unit.startLine && end <= unit.endLine)) {
    throw new MaskBodyError('mask-bad-range', `${unit.id}: body lines ${start}..${end} do not fit ${unit.file} (${lines.length} lines, unit ${unit.startLine}..${unit.endLine})`);
  }
  let defIndex = -1;
  for (let i = unit.startLine - 1; i < start - 1 && i < lines.length; i++) {
    if (DEF_LINE.test(lines[i] ?? '')) {
      defIndex = i;
      break;
    }
  }
  const first = lines[start - 1] ?? '';
  if (defIndex === -1 || indentOf(first).length <= indentOf(lines[defIndex] ?? '').length) {
    throw new MaskBodyError('mask-inline-body', `${unit.id}: the body shares a line with the signature; it cannot be masked by lines`);
  }
  const replacement = `${indentOf(first)}raise NotImplementedError`;
  return [...lines.slice(0, start - 1), replacement, ...lines.slice(end)].join(eol);
};
