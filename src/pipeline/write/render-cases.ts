import type { RecordedCase } from '../types.js';
import { compareStrings, stableJson } from './stable-json.js';

/** `hidden/cases.json` as the judge reads it (docs/task-format.md). */
export interface CasesFile {
  schemaVersion: 1;
  cases: RecordedCase[];
}

/** Canonical text of a value: keys sorted, no whitespace (what ordering and de-duplication use). */
function canonical(value: unknown): string {
  return stableJson(value).replace(/\s+/g, ' ');
}

/**
 * The cases of one task in a stable order with stable ids: sorted by their inputs (then expectation),
 * cases with the same inputs kept once, ids `<taskName>-<n>` from 1. The recorder's order and ids
 * never leak into the package, so the same recordings give the same bytes.
 */
export function normaliseCases(cases: readonly RecordedCase[], taskName: string): RecordedCase[] {
  const keyed = cases.map((c) => ({
    c,
    inputs: canonical({ module: c.module, target: c.target, init: c.init, args: c.args, kwargs: c.kwargs }),
    rest: canonical({ expect: c.expect, argsAfter: c.argsAfter, source: c.source }),
  }));
  keyed.sort((a, b) => compareStrings(a.inputs, b.inputs) || compareStrings(a.rest, b.rest));
  const seen = new Set<string>();
  const out: RecordedCase[] = [];
  for (const k of keyed) {
    if (seen.has(k.inputs)) continue;
    seen.add(k.inputs);
    out.push({ ...k.c, id: `${taskName}-${out.length + 1}` });
  }
  return out;
}

export function renderCasesFile(cases: readonly RecordedCase[]): string {
  // what the REPL prints for a case and where its call ended are for the prompt's examples; the judge reads the tagged values only
  const file: CasesFile = { schemaVersion: 1, cases: cases.map(({ shown: _shown, path: _path, ...c }) => c) };
  return stableJson(file);
}
