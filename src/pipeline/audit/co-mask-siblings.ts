import type { FileMap, MaskedWorkspace } from '../mask/mask-workspace.js';
import type { Unit } from '../types.js';
import { compareStrings } from '../write/stable-json.js';
import type { LeakAuditResult } from './audit-leaks.js';
import { buildLeakIndex, findRuns, type LineSpan, type Tokenize } from './leak-index.js';

/** Rounds of co-masking (mask, audit again) and units co-masked, at most, per task. */
export const DEFAULT_CO_MASK_LIMITS = Object.freeze({ rounds: 2, units: 4 });

export interface CoMaskInput {
  /** The task's target. */
  unit: Unit;
  /** Every unit of the repository. */
  units: readonly Unit[];
  /** The snapshot's files. */
  files: FileMap;
  /** The workspace masked for the target alone, and its audit. */
  masked: MaskedWorkspace;
  leak: LeakAuditResult;
  /** Masks the target and `alsoMask`; may throw (a sibling that cannot be masked ends the search). */
  mask(alsoMask: readonly Unit[]): Promise<MaskedWorkspace>;
  audit(masked: MaskedWorkspace): Promise<LeakAuditResult>;
  /** The language's tokenizer (the one the audit used). */
  tokenize: Tokenize;
  /** Default `DEFAULT_CO_MASK_LIMITS`. */
  limits?: { rounds: number; units: number };
}

export interface CoMaskResult {
  masked: MaskedWorkspace;
  leak: LeakAuditResult;
  /** The units masked besides the target, sorted by file and line (none when the first audit was clean). */
  coMasked: Unit[];
}

/**
 * A body nearly duplicated by another function of the same workspace leaks: the agent could copy the
 * sibling. Rather than drop the task, the sibling is removed too ("remove the implementation and
 * everything that would give it back"): while every hit of the audit is a workspace file with
 * matching runs in the bodies of other functions or methods, the ones that give the most back are
 * masked as well and the workspace audited again, for at most `limits.rounds` rounds and
 * `limits.units` units. Hits in the image are never fixed this way. Returns the last workspace and
 * audit; the caller drops the task when the audit is still not clean. The siblings stay masked in
 * the reference (`maskWorkspace`), so the reference gate proves the task's tests do not need them.
 */
export async function coMaskSiblings(input: CoMaskInput): Promise<CoMaskResult> {
  const limits = input.limits ?? DEFAULT_CO_MASK_LIMITS;
  let { masked, leak } = input;
  let coMasked: Unit[] = [];
  for (let round = 0; round < limits.rounds && !leak.clean; round++) {
    const more = siblingsGivingBack(input, coMasked, leak, masked.removedBody);
    if (more === null || coMasked.length + more.length > limits.units) break;
    const next = [...coMasked, ...more].sort(byFileAndLine);
    try {
      masked = await input.mask(next);
    } catch {
      break;
    }
    coMasked = next;
    leak = await input.audit(masked);
  }
  return { masked, leak, coMasked };
}

/**
 * The units to mask next, or null when some hit cannot be fixed by masking a sibling (it lies in
 * the image, or none of its matching runs lies in the body of a function or method that can be
 * masked). Per hit, the siblings holding matching runs are ranked by the share of the body their own
 * code covers: every one that leaks on its own is taken, else the one that covers the most. A guard
 * clause shared with a third function is left alone, like runs outside any function body: the next
 * audit says whether what is left still leaks.
 */
function siblingsGivingBack(input: CoMaskInput, coMasked: readonly Unit[], leak: LeakAuditResult, removedBody: string): Unit[] | null {
  if (leak.hits.some((h) => h.where === 'image')) return null;
  const maskedUnits = [input.unit, ...coMasked];
  const body = input.tokenize(removedBody).tokens;
  const chosen = new Map<string, Unit>();
  for (const hit of leak.hits) {
    const fileUnits = input.units.filter((u) => u.file === hit.path && u.kind !== 'class');
    const candidates = new Map<string, Unit>();
    for (const span of hit.spans) {
      const owner = innermostBodyHolding(fileUnits, toSnapshotLines(span, maskedUnits, hit.path));
      if (owner && isApartFromMasked(owner, maskedUnits)) candidates.set(owner.id, owner);
    }
    if (candidates.size === 0) return null;
    const ranked = coverageOfEach([...candidates.values()], input, body, leak.runTokens);
    const leaking = ranked.filter((r) => r.coverage >= leak.minCoverage);
    for (const { unit } of leaking.length > 0 ? leaking : ranked.slice(0, 1)) chosen.set(unit.id, unit);
  }
  return [...chosen.values()].sort(byFileAndLine);
}

/** A span of the masked workspace's file in the snapshot's line numbers: each masked body is one line there. */
function toSnapshotLines(span: LineSpan, maskedUnits: readonly Unit[], file: string): LineSpan {
  const bodies = maskedUnits.filter((u) => u.file === file).sort((a, b) => a.bodyStartLine - b.bodyStartLine);
  const toSnapshot = (line: number): number => bodies.reduce((l, u) => (l > u.bodyStartLine ? l + u.bodyEndLine - u.bodyStartLine : l), line);
  return { startLine: toSnapshot(span.startLine), endLine: toSnapshot(span.endLine) };
}

/** The innermost unit whose body holds all the lines of `span`. */
function innermostBodyHolding(units: readonly Unit[], span: LineSpan): Unit | undefined {
  const holding = units.filter((u) => u.bodyStartLine <= span.startLine && span.endLine <= u.bodyEndLine);
  return holding.sort((a, b) => b.bodyStartLine - a.bodyStartLine)[0];
}

/**
 * Whether `candidate`'s body overlaps no body already masked. That rules out the target itself, a
 * unit holding the target (its body holds the target's) and units masked before.
 */
function isApartFromMasked(candidate: Unit, maskedUnits: readonly Unit[]): boolean {
  return maskedUnits.every((m) => m.file !== candidate.file || m.bodyEndLine < candidate.bodyStartLine || candidate.bodyEndLine < m.bodyStartLine);
}

/** Each unit with the share of the body that runs in its own body cover, most first (ties in file order). */
function coverageOfEach(units: readonly Unit[], input: Pick<CoMaskInput, 'files' | 'tokenize'>, body: readonly string[], runTokens: number): { unit: Unit; coverage: number }[] {
  const sources = units.map((u) => ({ path: u.id, content: bodyText(input.files, u) }));
  const coverage = new Map(findRuns(buildLeakIndex(sources, input.tokenize), body, runTokens).map((h) => [h.path, h.coverage]));
  return units
    .map((unit) => ({ unit, coverage: coverage.get(unit.id) ?? 0 }))
    .sort((a, b) => b.coverage - a.coverage || byFileAndLine(a.unit, b.unit));
}

function bodyText(files: FileMap, unit: Unit): string {
  const lines = (files.get(unit.file)?.toString('utf8') ?? '').split(/\r?\n/);
  return lines.slice(unit.bodyStartLine - 1, unit.bodyEndLine).join('\n');
}

function byFileAndLine(a: Unit, b: Unit): number {
  return compareStrings(a.file, b.file) || a.bodyStartLine - b.bodyStartLine;
}
