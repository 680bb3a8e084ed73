import type { MaskBody } from '../../languages/language-adapter.js';
import type { RepoTests, WorkspaceRules } from '../../languages/language.js';
import { calledUnit } from '../../languages/called-unit.js';
import type { Unit } from '../types.js';
import { compareStrings } from '../write/stable-json.js';
import { scrubReason } from './scrub-paths.js';

/** Files of a repository, by POSIX path relative to its root. */
export type FileMap = ReadonlyMap<string, Buffer>;

/** A unit masked besides the target (report.json `mask.coMasked`). */
export interface CoMaskedUnit {
  /** The unit's id, `<module>:<qualname>`. */
  unit: string;
  file: string;
  /** 1-based inclusive lines of the body removed, in the snapshot's file. */
  bodyLines: [number, number];
}

export interface MaskedWorkspace {
  /** The masked codebase, sorted by path. */
  workspace: Map<string, Buffer>;
  /**
   * The reference: the target's file with its body back, at its workspace-relative path. Co-masked
   * units of that file stay masked in it, so the reference gate proves the tests do not need them.
   */
  solution: Map<string, Buffer>;
  /** The removed body as written (the leak audit searches for it). */
  removedBody: string;
  /** What was taken out, for report.json. */
  removedTests: { file: string; tests: string[]; fileDeleted: boolean }[];
  /** Paths scrubbed, with the rule that matched (sorted). */
  scrubbed: { path: string; rule: string }[];
  /** The units of `alsoMask`, sorted by file and line. */
  coMasked: CoMaskedUnit[];
}

export interface MaskOptions {
  unit: Unit;
  /** The snapshot's files. */
  files: FileMap;
  maskBody: MaskBody;
  /** The language's view of the repository's own tests (its plugin's `repoTests`). */
  repoTests: RepoTests;
  /**
   * The language's part of the scrub (its plugin's `workspace`): built copies it removes or replaces
   * with shims, sources it keeps from the generic rules. Default: the generic rules alone.
   */
  workspaceRules?: WorkspaceRules;
  /** Every unit of the repository, for `workspaceRules` (which files are sources). Default: the target and `alsoMask`. */
  units?: readonly Unit[];
  /**
   * Other units to mask as well, in any file: siblings whose code would give the target back. Their
   * bodies must not overlap the target's or each other's. Default none.
   */
  alsoMask?: readonly Unit[];
  /**
   * Units removed as part of the task (a feature's helpers): masked like the target, their tests
   * removed like the target's, and put back in the solution (the co-masked `alsoMask` stay masked
   * there: the hidden tests never need them). Bodies must not overlap. Default none.
   */
  removeWith?: readonly Unit[];
}

/**
 * Builds the workspace an agent gets for one unit: scrubbed of everything that could give the body
 * back (the generic rules of `scrubReason` and the language's `workspaceRules`), the body replaced (signature and docstring kept), the bodies of `alsoMask` replaced the same
 * way, the repository's own tests of the target removed, and copies of the original file elsewhere
 * in the tree dropped.
 */
export function maskWorkspace(options: MaskOptions): MaskedWorkspace {
  const { unit, files, maskBody, repoTests } = options;
  const partOfTask = options.removeWith ?? [];
  const siblings = [...(options.alsoMask ?? []), ...partOfTask].sort((a, b) => compareStrings(a.file, b.file) || a.bodyStartLine - b.bodyStartLine);
  // masked in the solution too: the co-masked siblings, never the task's own helpers
  const coMaskedIn = (file: string): Unit[] => siblings.filter((s) => s.file === file && !partOfTask.includes(s));
  const original = files.get(unit.file);
  if (original === undefined) throw new Error(`${unit.id}: ${unit.file} is not in the snapshot`);
  const originalText = original.toString('utf8');
  const siblingsIn = (file: string): Unit[] => siblings.filter((s) => s.file === file);
  const maskedFiles = new Map<string, Buffer>();
  for (const file of new Set([unit.file, ...siblings.map((s) => s.file)])) {
    const content = files.get(file);
    if (content === undefined) throw new Error(`${siblingsIn(file)[0]?.id}: ${file} is not in the snapshot`);
    const masks = file === unit.file ? [unit, ...siblingsIn(file)] : siblingsIn(file);
    maskedFiles.set(file, Buffer.from(maskBodies(content.toString('utf8'), masks, maskBody), 'utf8'));
  }
  const solutionOf = (file: string): Buffer => {
    const content = files.get(file) as Buffer;
    return coMaskedIn(file).length === 0 ? content : Buffer.from(maskBodies(content.toString('utf8'), coMaskedIn(file), maskBody), 'utf8');
  };
  const solution = new Map([...new Set([unit.file, ...partOfTask.map((u) => u.file)])].map((file) => [file, solutionOf(file)] as const));
  const lines = originalText.split(/\r?\n/);
  const removedBody = lines.slice(unit.bodyStartLine - 1, unit.bodyEndLine).join('\n');

  const workspace = new Map<string, Buffer>();
  const scrubbed: MaskedWorkspace['scrubbed'] = [];
  const removedTests: MaskedWorkspace['removedTests'] = [];
  const languageScrub = options.workspaceRules?.scrub({ files, units: options.units ?? [unit, ...siblings] }) ?? { remove: [], keep: [] };
  const languageRemoves = new Map(languageScrub.remove.map((r) => [r.path, r]));
  const kept = new Set(languageScrub.keep);
  for (const path of [...files.keys()].sort(compareStrings)) {
    const content = files.get(path) ?? Buffer.alloc(0);
    const removal = maskedFiles.has(path) ? undefined : languageRemoves.get(path);
    if (removal !== undefined) {
      scrubbed.push({ path, rule: removal.rule });
      if (removal.replacement !== null) workspace.set(path, removal.replacement);
      continue;
    }
    const rule = maskedFiles.has(path) || kept.has(path) ? null : scrubReason(path);
    if (rule !== null) {
      scrubbed.push({ path, rule });
      continue;
    }
    const masked = maskedFiles.get(path);
    if (masked !== undefined) {
      workspace.set(path, masked);
      continue;
    }
    if (content.equals(original)) {
      scrubbed.push({ path, rule: 'copy of the target file' });
      continue;
    }
    if (repoTests.isTestFile(path)) {
      // the tests of the target and of every unit removed with it
      let source: string | null = content.toString('utf8');
      const removed: string[] = [];
      for (const u of [unit, ...partOfTask]) {
        if (source === null) break;
        const removal = removeTestsOfTarget(repoTests, source, u);
        removed.push(...removal.removed);
        source = removal.source;
      }
      if (removed.length) {
        removedTests.push({ file: path, tests: removed, fileDeleted: source === null });
        if (source === null) continue;
        workspace.set(path, Buffer.from(source, 'utf8'));
        continue;
      }
    }
    workspace.set(path, content);
  }
  return {
    workspace,
    solution,
    removedBody,
    removedTests,
    scrubbed,
    coMasked: siblings.filter((s) => !partOfTask.includes(s)).map((s) => ({ unit: s.id, file: s.file, bodyLines: [s.bodyStartLine, s.bodyEndLine] })),
  };
}

/**
 * Masks the bodies of `units`, all of one file, from the bottom up: `maskBody` finds a body by its
 * line numbers in the snapshot's file, which stay true above the bodies already replaced.
 */
function maskBodies(text: string, units: readonly Unit[], maskBody: MaskBody): string {
  const bottomUp = [...units].sort((a, b) => b.bodyStartLine - a.bodyStartLine);
  bottomUp.forEach((u, i) => {
    const above = bottomUp[i + 1];
    if (above && above.bodyEndLine >= u.bodyStartLine) throw new Error(`${u.id}: its body overlaps the body of ${above.id}, masked too`);
  });
  return bottomUp.reduce((masked, u) => maskBody(masked, u), text);
}

/**
 * The test file without the repository's tests of `unit`, and for a unit recorded through an entry
 * (`Unit.via`) without those of the entry too: the hidden cases call the entry, so its tests would
 * give their expected values back.
 */
function removeTestsOfTarget(repoTests: RepoTests, source: string, unit: Unit): { source: string | null; removed: string[] } {
  const own = repoTests.removeTestsOf(source, unit);
  if (unit.via === undefined || own.source === null) return own;
  const entry = repoTests.removeTestsOf(own.source, calledUnit(unit));
  return { source: entry.source, removed: [...own.removed, ...entry.removed] };
}
