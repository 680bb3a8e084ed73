import type { PromptExample } from '../../languages/language.js';

/** The prompt without the given examples (each cut out whole: its span holds its comment lines and lines). */
export function withoutExamples(prompt: string, examples: readonly Pick<PromptExample, 'start' | 'end'>[]): string {
  let out = prompt;
  for (const e of [...examples].sort((a, b) => b.start - a.start)) out = out.slice(0, e.start) + out.slice(e.end);
  return out;
}

/** Where each line of `text` starts (character offsets), and where line `i` ends, its newline included. */
export function lineSpans(text: string): { lines: string[]; offsets: number[]; endOf: (i: number) => number } {
  const lines = text.split('\n');
  const offsets: number[] = [];
  let at = 0;
  for (const line of lines) {
    offsets.push(at);
    at += line.length + 1;
  }
  return { lines, offsets, endOf: (i) => Math.min(text.length, (offsets[i] ?? text.length) + (lines[i]?.length ?? 0) + 1) };
}
