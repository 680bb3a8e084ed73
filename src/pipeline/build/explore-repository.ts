import { assignTaskNames } from '../write/write-task.js';
import { readFile } from 'node:fs/promises';
import { extname, join } from 'node:path';
import type { Drop, RepoSnapshot, Unit } from '../types.js';
import { compareStrings } from '../write/stable-json.js';
import type { BuildRun } from './build-run.js';
import type { Explored } from './build-types.js';
import { checkPackageFolder, isInPackage } from './package-folder.js';

/** Why ingest left a source file out, for people. */
const SKIP_REASONS: Record<string, string> = {
  'ignored-folder': 'in a cache, VCS, virtual-environment or build-output folder',
  bytecode: 'compiled bytecode',
  'too-large': 'over 1 MiB: generated data, not code worth a task',
  symlink: 'a symbolic link: only regular files are copied',
  'not-a-regular-file': 'not a regular file',
};

/**
 * ingest → analyze → select: the repository copied, its units found by the language plugin, the
 * candidates chosen (with `--package`, from the units of that folder only). A build with no unit or
 * no candidate stops here (`BuildFailedError`, naming why); a `--package` that is no folder of the
 * snapshot or holds none of the language's files throws `InvalidArgumentError`; beyond `--max-tasks`
 * only the first `maxTasks * 2 + 2` candidates are recorded.
 */
export async function exploreRepository(run: BuildRun): Promise<Explored> {
  const { options, drops } = run;
  const { stages, language } = options;
  run.progress({ stage: 'ingest', done: 0, total: 1 });
  const snapshot = await run.timed('ingest', () => stages.ingest(options.source, { workRoot: run.workRoot, ...run.signalOption }));
  if (run.packageFolder !== null) checkPackageFolder(run.packageFolder, snapshot.files, language);
  for (const s of snapshot.skipped ?? []) {
    if (language.isSourceFile(s.path)) drops.push({ unitId: s.path, stage: 'ingest', code: `skipped:${s.reason}`, reason: `${s.path} left out of the snapshot (${SKIP_REASONS[s.reason] ?? s.reason})` });
  }
  run.progress({ stage: 'analyze', done: 0, total: snapshot.files.length });
  const analysis = await run.timed('analyze', () => stages.analyze(snapshot, run.signalOption));
  for (const p of analysis.problems) drops.push({ unitId: p.file, stage: 'analyze', code: p.code ?? 'parse-error', reason: p.message });
  const units = [...analysis.units].sort((a, b) => compareStrings(a.id, b.id));
  run.progress({ stage: 'analyze', done: units.length, total: units.length, message: `${units.length} units` });
  if (units.length === 0) {
    const sources = snapshot.files.filter(language.isSourceFile).length;
    const skipped = analysis.problems.length;
    await run.fail(
      { snapshot, units },
      `found no function or method to build a task from in ${options.source}: ${sources} ${language.displayName} files` +
        (skipped ? `, ${skipped} of them skipped (${run.countsOf('analyze')})` : '') +
        '; tests, examples, docs and tooling are not library code' +
        unreadSource(snapshot.files),
    );
  }

  const selectable = unitsOfPackage(units, run.packageFolder, drops);
  const selected = await run.timed('select', () => stages.select(selectable, { snapshot, seed: run.seed }));
  drops.push(...selected.drops);
  const candidates = [...selected.candidates].sort((a, b) => compareStrings(a.unit.id, b.unit.id));
  if (candidates.length === 0) {
    await run.fail({ snapshot, units }, `none of the ${units.length} definitions found in ${options.source} is a candidate for a task (${run.countsOf('select')})`);
  }
  // Record more than the cap needs, since some candidates fail later stages.
  const recordCap = options.maxTasks === undefined ? candidates.length : Math.min(candidates.length, options.maxTasks * 2 + 2);
  for (const c of candidates.slice(recordCap)) {
    drops.push({ unitId: c.unit.id, stage: 'select', code: 'max-tasks', reason: `beyond --max-tasks ${options.maxTasks} (not recorded)` });
  }
  const toRecord = candidates.slice(0, recordCap);
  run.progress({ stage: 'select', done: toRecord.length, total: units.length, message: `${candidates.length} candidates` });
  return {
    snapshot,
    files: await readSnapshotFiles(snapshot),
    units,
    unitsById: new Map(units.map((u) => [u.id, u])),
    candidates,
    toRecord,
    names: assignTaskNames(toRecord.map((c) => c.unit)),
  };
}

/**
 * The units that may become candidates: with `--package`, those of files under its folder (the
 * others are `select:outside-package` drops, yet stay known to the later stages as context).
 */
function unitsOfPackage(units: Unit[], folder: string | null, drops: Drop[]): Unit[] {
  if (folder === null) return units;
  const inside: Unit[] = [];
  for (const unit of units) {
    if (isInPackage(unit.file, folder)) inside.push(unit);
    else drops.push({ unitId: unit.id, stage: 'select', code: 'outside-package', reason: `${unit.file} is outside --package ${folder}` });
  }
  return inside;
}

async function readSnapshotFiles(snapshot: RepoSnapshot): Promise<Map<string, Buffer>> {
  const out = new Map<string, Buffer>();
  for (const file of snapshot.files) out.set(file, await readFile(join(snapshot.dir, ...file.split('/'))));
  return out;
}

/** Source files of languages no plugin reads, by extension: what a library may be written in instead. */
const UNREAD_SOURCE: ReadonlyMap<string, string> = new Map([
  ['.pyx', 'Cython'], ['.pxd', 'Cython'], ['.c', 'C'], ['.cc', 'C++'], ['.cpp', 'C++'], ['.rs', 'Rust'], ['.go', 'Go'], ['.java', 'Java'], ['.rb', 'Ruby'],
]);

/**
 * When the repository holds source files no plugin reads, a note naming a few with their language
 * (`; its other code is in 1 file no plugin reads: enet.pyx (Cython)`), else ''.
 */
function unreadSource(files: readonly string[]): string {
  const found = files.flatMap((file) => {
    const language = UNREAD_SOURCE.get(extname(file));
    return language === undefined ? [] : [`${file} (${language})`];
  });
  if (found.length === 0) return '';
  return `; its other code is in ${found.length} file(s) no language plugin reads: ${found.slice(0, 3).join(', ')}${found.length > 3 ? ', …' : ''}`;
}
