import type { Unit } from '../types.js';

/** Body lines a unit's masking removes. */
export function bodyLineCount(unit: Pick<Unit, 'bodyStartLine' | 'bodyEndLine'>): number {
  return Math.max(0, unit.bodyEndLine - unit.bodyStartLine + 1);
}

/**
 * The prompt of a feature-level task (issue 19, part 1): the entry's prompt, then a section naming
 * every other removed symbol and where it lives. The hidden tests call the entry only, so the
 * helpers' own contracts are the agent's to choose.
 */
export function withFeatureNote(prompt: string, entry: Unit, helpers: readonly Unit[]): string {
  if (helpers.length === 0) return prompt;
  const lines = helpers.map((h) => `- \`${h.qualname}\` in \`${h.file}\` (module \`${h.module}\`, lines ${h.bodyStartLine}–${h.bodyEndLine} of the original)`);
  return [
    prompt.trimEnd(),
    '',
    '## Removed with it',
    '',
    `This task is a feature: besides \`${entry.qualname}\`, the bodies of the ${helpers.length === 1 ? 'private helper' : `${helpers.length} private helpers`} only it uses were removed too (each now fails as \`${entry.qualname}\` does, its signature and docstring kept):`,
    '',
    ...lines,
    '',
    `The hidden tests call \`${entry.qualname}\` only: implement ${helpers.length === 1 ? 'the helper' : 'the helpers'} as \`${entry.qualname}\` needs, or do without ${helpers.length === 1 ? 'it' : 'them'}, as long as \`${entry.qualname}\` behaves as described.`,
    '',
  ].join('\n');
}
