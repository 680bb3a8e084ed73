import type { Unit } from './construction-types.js';

/**
 * The prompt with a closing note naming the units masked besides the target (`nameOf` each, in its
 * file); `does` says what their masked bodies do (``call `panic("not implemented")` ``).
 */
export function withCoMaskedNote(prompt: string, coMasked: readonly Unit[], does: string, nameOf: (unit: Unit) => string = (u) => u.qualname): string {
  if (coMasked.length === 0) return prompt;
  const named = coMasked.map((u) => `\`${nameOf(u)}\` (\`${u.file}\`)`).join(', ');
  return `${prompt.trimEnd()}\n\nAlso removed from this workspace, because their code would give this one back: ${named}. They ${does} too; the hidden tests do not need them.\n`;
}
