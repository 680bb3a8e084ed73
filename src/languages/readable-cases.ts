import type { RecordedCase } from './construction-types.js';

/**
 * The cases as a text file for people (hidden/readable/, never run by scoring): `header`, then each
 * case's id and its example block as `//` comments (lines that already are comments kept as they are).
 */
export function readableCases(input: { taskName: string; cases: readonly RecordedCase[]; header: readonly string[]; exampleBlock: (c: RecordedCase) => string }): { path: string; content: string } {
  const lines = [...input.header, ''];
  for (const c of input.cases) lines.push(`// ${c.id}`, ...input.exampleBlock(c).split('\n').map((l) => (l.startsWith('//') ? l : `// ${l}`)), '');
  return { path: `readable/${input.taskName}.txt`, content: `${lines.join('\n')}\n` };
}
