import type { Unit } from '../types.js';
import type { ReferenceCode } from '../write/spec-writer.js';

/** A unit's definition and body, cut from its file's text by the unit's 1-based line ranges. */
export function referenceCodeOf(unit: Unit, fileText: string): ReferenceCode {
  const lines = fileText.split(/\r?\n/);
  return {
    definition: lines.slice(unit.startLine - 1, unit.endLine).join('\n'),
    body: lines.slice(unit.bodyStartLine - 1, unit.bodyEndLine).join('\n'),
  };
}
