// The table shared by the library evals (scripts/eval-go-libraries.sh, eval-rust-libraries.sh,
// eval-java-libraries.sh): reads each build's funnel, the language plugin's own units (the parser is
// an argument) and the tasks' reports; writes <out>/summary.json and returns the markdown.
// Each line of runs.jsonl: {"package", "version", "suite", "repo", "rc", "seconds", ...} (scripts/lib/eval-lib.sh).
import { readFileSync, readdirSync, statSync, writeFileSync, existsSync } from 'node:fs';
import { join, relative } from 'node:path';

type Snapshot = { dir: string; origin: string; revision: string; files: string[] };
export type UnitParser = (snapshot: Snapshot) => Promise<{ units: any[] }>;

function allFiles(dir: string, base = dir): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir).sort()) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) out.push(...allFiles(p, base));
    else out.push(relative(base, p));
  }
  return out;
}
const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? (s[Math.floor((s.length - 1) / 2)] as number) : NaN;
};
const readJson = (file: string): any => JSON.parse(readFileSync(file, 'utf8'));

/** The summary of runs.jsonl's builds under outDir, units counted by parseUnits. */
export async function summarizeEval(runsFile: string, outDir: string, parseUnits: UnitParser): Promise<string> {
  const rows: Record<string, unknown>[] = [];
  const lines = [
    '| library | units | fns ≥3 stmts | candidates | recorded | gated | ≥3-stmt fns accepted | kill median / min | leaks | reference 4/4 | build time |',
    '| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |',
  ];
  const detail: string[] = [];
  for (const line of readFileSync(runsFile, 'utf8').trim().split('\n')) {
    const run = JSON.parse(line);
    const funnelFile = join(outDir, run.package, `${run.suite}.funnel.json`);
    if (!existsSync(funnelFile)) {
      const why = run.rc === 124 ? 'stopped after the time limit' : `build failed (exit ${run.rc})`;
      lines.push(`| ${run.package} ${run.version} | ${why}, see ${run.package}.log | | | | | | | | | ${run.seconds} s |`);
      rows.push({ package: run.package, version: run.version, rc: run.rc, buildSeconds: run.seconds });
      continue;
    }
    const { units } = await parseUnits({ dir: run.repo, origin: run.repo, revision: 'working-tree', files: allFiles(run.repo) });
    const substantive = new Set<string>(units.filter((u: any) => u.kind !== 'class' && u.statementCount >= 3).map((u: any) => u.id));
    const report = readJson(funnelFile);
    const f = report.funnel;
    const scores = report.tasks.map((t: any) => t.mutationScore);
    // a function counts once, as a task of its own or removed in a feature (the entry, and each helper)
    const built = new Set<string>(report.tasks.flatMap((t: any) => [t.feature ?? t.unitId, ...(t.helpers ?? []), ...(t.members ?? [])]));
    const accepted = [...substantive].filter((id) => built.has(id)).length;
    const subDrops: Record<string, number> = {};
    for (const d of f.drops) if (substantive.has(d.unitId)) subDrops[`${d.stage}:${d.code}`] = (subDrops[`${d.stage}:${d.code}`] ?? 0) + 1;
    let leaks = 0, referenceFull = 0, cases = 0, shown = 0, cut = 0;
    const shapes: Record<string, number> = {};
    for (const t of report.tasks) {
      shapes[t.shape ?? 'function'] = (shapes[t.shape ?? 'function'] ?? 0) + 1;
      const taskDir = join(outDir, run.package, run.suite, t.name);
      if (!existsSync(join(taskDir, 'report.json'))) continue;
      const r = readJson(join(taskDir, 'report.json'));
      leaks += r.gates?.leakAudit?.clean === false ? 1 : 0;
      const ref = r.gates?.reference;
      referenceFull += ref?.passed && ref.runs?.length === 4 && ref.runs.every((x: any) => x.score === 1 || x.passed !== false) ? 1 : 0;
      cases += readJson(join(taskDir, 'hidden', 'cases.json')).cases.length;
      shown += r.examples?.shown ?? 0;
      cut += r.examples?.failedOnReference?.length ?? 0;
    }
    const row = {
      package: run.package, version: run.version, module: run.module, units: f.units, substantive: substantive.size, candidates: f.candidates, recorded: f.recorded,
      gated: f.gated, substantiveAccepted: accepted, substantiveShare: substantive.size ? accepted / substantive.size : 0, killMedian: median(scores),
      killMin: scores.length ? Math.min(...scores) : NaN, leaks, referenceFull, cases, buildSeconds: run.seconds, dropCounts: report.dropCounts, substantiveDrops: subDrops, rc: run.rc,
    };
    rows.push(row);
    lines.push(`| ${run.package} ${run.version} | ${f.units} | ${substantive.size} | ${f.candidates} | ${f.recorded} | ${f.gated} | ${accepted} (${(100 * row.substantiveShare).toFixed(0)}%) | ${row.killMedian.toFixed(2)} / ${row.killMin.toFixed(2)} | ${leaks} | ${referenceFull}/${report.tasks.length} | ${run.seconds} s |`);
    detail.push(`${run.package}: shapes ${Object.entries(shapes).map(([k, n]) => `${k} ${n}`).join(', ') || 'none'}; ${cases} hidden cases; examples ${shown} shown, ${cut} cut as failing on the reference`);
    detail.push(`${run.package}: drops of ≥3-statement functions: ${Object.entries(subDrops).sort((a, b) => b[1] - a[1]).map(([k, n]) => `${k} ${n}`).join(', ') || 'none'}`);
    detail.push(`${run.package}: all drops: ${Object.entries(report.dropCounts as Record<string, number>).sort((a, b) => b[1] - a[1]).map(([k, n]) => `${k} ${n}`).join(', ')}`);
  }
  const all = rows.reduce<{ s: number; k: number }>((a, r: any) => ({ s: a.s + (r.substantive ?? 0), k: a.k + (r.substantiveAccepted ?? 0) }), { s: 0, k: 0 });
  lines.push('', `all libraries: ${all.k} of ${all.s} functions of ≥3 statements accepted (${all.s ? ((100 * all.k) / all.s).toFixed(0) : 0}%)`, '', ...detail);
  writeFileSync(join(outDir, 'summary.json'), JSON.stringify(rows, null, 2) + '\n');
  return lines.join('\n');
}
