import type { Unit } from './construction-types.js';

/** A task's title: the first sentence of the unit's doc comment (up to 120 characters), else `Implement <name>`. */
export function docTitle(unit: Unit, name: string): string {
  const first = (unit.docstring ?? '').split('\n')[0]?.trim() ?? '';
  const sentence = (/^.*?[.!?](?=\s|$)/.exec(first)?.[0] ?? first).replace(/\.$/, '');
  return sentence ? sentence.slice(0, 120) : `Implement ${name}`;
}
