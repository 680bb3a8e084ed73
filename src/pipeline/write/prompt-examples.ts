import type { PromptExample } from '../../languages/language.js';

/** The prompt without the given examples (each cut out whole: its span holds its comment lines and lines). */
export function withoutExamples(prompt: string, examples: readonly Pick<PromptExample, 'start' | 'end'>[]): string {
  let out = prompt;
  for (const e of [...examples].sort((a, b) => b.start - a.start)) out = out.slice(0, e.start) + out.slice(e.end);
  return out;
}
