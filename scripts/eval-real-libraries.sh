#!/usr/bin/env bash
# Builds suites from real pure-Python libraries no one here wrote (Debian python3-* packages,
# downloaded and extracted at run time into a temporary folder, never committed) and prints per
# library: the funnel (units → functions of ≥3 statements → candidates → recorded → gated, drops
# by code), the gated tasks, the median and minimum mutation kill rate of accepted tasks, the share
# of ≥3-statement functions that became tasks, and the build time.
#
#   scripts/eval-real-libraries.sh [--seed S] [--out DIR] [--keep] [package ...]
#
# Default packages: python3-more-itertools python3-inflection python3-webcolors python3-semver
# python3-toolz. Needs docker (the sandbox images are built on first use) and apt-get.
# Results: <out>/<package>/ (suite + <suite>.funnel.json), <out>/summary.json and summary.md.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)

# shellcheck source=lib/eval-lib.sh
source "$root/scripts/lib/eval-lib.sh"
parse_eval_args 2,13 "$@"
[ ${#packages[@]} -gt 0 ] || packages=(python3-more-itertools python3-inflection python3-webcolors python3-semver python3-toolz)

setup_eval_work codemidas-eval src debs
chmod 755 "$work" "$work/debs"  # apt-get download runs as _apt
for pkg in "${packages[@]}"; do
  (cd "$work/debs" && apt-get download "$pkg" >/dev/null)
done

for pkg in "${packages[@]}"; do
  deb=$(ls "$work/debs/${pkg}_"*.deb | head -n 1)
  version=$(dpkg-deb -f "$deb" Version)
  dpkg -x "$deb" "$work/x-$pkg"
  # the dist-packages folder as Debian installs it, metadata included: it declares the dependencies
  # (egg-info requires.txt, dist-info METADATA), and code that reads its own version
  # (importlib.metadata.version) needs it
  repo="$work/src/$pkg"
  mkdir -p "$repo"
  cp -r "$work/x-$pkg/usr/lib/python3/dist-packages/." "$repo/"
  rm -rf "$work/x-$pkg"
  suite=$(echo "${pkg#python3-}" | tr 'A-Z' 'a-z')
  echo "== $pkg $version → suite $suite" >&2
  run_eval_build "$repo" "$suite" "$pkg" "\"version\":\"$version\","
done

cat > "$work/summary.mts" <<'TS'
// Reads each build's funnel and the analyzer's own units, and prints the table of the eval.
import { readFileSync, readdirSync, statSync, writeFileSync, existsSync } from 'node:fs';
import { join, relative } from 'node:path';
const [runsFile, outDir, rootDir] = process.argv.slice(2) as [string, string, string];
const { parsePythonUnits } = await import(join(rootDir, 'src/languages/python/parse-python-units.ts'));
function pyFiles(dir: string, base = dir): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir).sort()) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) out.push(...pyFiles(p, base));
    else if (name.endsWith('.py')) out.push(relative(base, p));
  }
  return out;
}
const median = (xs: number[]): number => { const s = [...xs].sort((a, b) => a - b); return s.length ? (s[Math.floor((s.length - 1) / 2)] as number) : NaN; };
const rows: Record<string, unknown>[] = [];
const lines = ['| library | units | fns ≥3 stmts | candidates | recorded | gated | ≥3-stmt fns accepted | kill rate median / min | build time |', '| --- | --- | --- | --- | --- | --- | --- | --- | --- |'];
const detail: string[] = [];
for (const line of readFileSync(runsFile, 'utf8').trim().split('\n')) {
  const run = JSON.parse(line);
  const { units } = await parsePythonUnits({ dir: run.repo, origin: run.repo, revision: 'working-tree', files: pyFiles(run.repo) });
  const substantive = new Set<string>(units.filter((u: any) => u.kind !== 'class' && u.statementCount >= 3).map((u: any) => u.id));
  const funnelFile = join(outDir, run.package, `${run.suite}.funnel.json`);
  if (!existsSync(funnelFile)) { lines.push(`| ${run.package} ${run.version} | build failed (exit ${run.rc}), see ${run.package}.log | | | | | | | ${run.seconds} s |`); continue; }
  const report = JSON.parse(readFileSync(funnelFile, 'utf8'));
  const f = report.funnel;
  const scores = report.tasks.map((t: any) => t.mutationScore);
  // a function counts once, as a task of its own or removed in a feature (the entry, and each helper)
  const built = new Set<string>(report.tasks.flatMap((t: any) => [t.feature ?? t.unitId, ...(t.helpers ?? [])]));
  const accepted = [...substantive].filter((id) => built.has(id)).length;
  const subDrops: Record<string, number> = {};
  for (const d of f.drops) if (substantive.has(d.unitId)) subDrops[`${d.stage}:${d.code}`] = (subDrops[`${d.stage}:${d.code}`] ?? 0) + 1;
  const row = { package: run.package, version: run.version, units: f.units, substantive: substantive.size, candidates: f.candidates, recorded: f.recorded, written: f.written, gated: f.gated,
    substantiveAccepted: accepted, substantiveShare: substantive.size ? accepted / substantive.size : 0, killMedian: median(scores), killMin: scores.length ? Math.min(...scores) : NaN,
    buildSeconds: run.seconds, buildMs: report.timings?.totalMs ?? null, dropCounts: report.dropCounts, substantiveDrops: subDrops, rc: run.rc };
  rows.push(row);
  lines.push(`| ${run.package} ${run.version} | ${f.units} | ${substantive.size} | ${f.candidates} | ${f.recorded} | ${f.gated} | ${accepted} (${(100 * row.substantiveShare).toFixed(0)}%) | ${row.killMedian.toFixed(2)} / ${row.killMin.toFixed(2)} | ${run.seconds} s |`);
  // the tasks' shapes and prompts (issue 19): per shape the count and median removed lines; examples
  // the gate cut; cases asserting only that a call raises; class coverage; the memoriser's best
  const shapes: Record<string, number[]> = {};
  for (const t of report.tasks) (shapes[t.shape ?? 'function'] ??= []).push(t.removedLines ?? 0);
  let shownExamples = 0, cutExamples = 0, cases = 0, anyRaise = 0, exactRaise = 0, classesShown = 0, classesAll = 0, memoriserBest = 0, binary = 0, incidental = 0;
  // a cross-check read off the source, not the build's own provenance: the exception names the library's raise statements name
  const raisedNames = new Set<string>();
  for (const file of pyFiles(run.repo)) for (const m of readFileSync(join(run.repo, file), 'utf8').matchAll(/\braise\s+([\w.]+)/g)) raisedNames.add((m[1] as string).split('.').at(-1) as string);
  const suiteDir = join(outDir, run.package, run.suite);
  for (const t of report.tasks) {
    const taskDir = join(suiteDir, t.name);
    if (!existsSync(join(taskDir, 'report.json'))) continue;
    const r = JSON.parse(readFileSync(join(taskDir, 'report.json'), 'utf8'));
    const hidden = JSON.parse(readFileSync(join(taskDir, 'hidden', 'cases.json'), 'utf8')).cases;
    shownExamples += r.examples?.shown ?? 0;
    cutExamples += r.examples?.failedOnReference?.length ?? 0;
    cases += hidden.length;
    anyRaise += hidden.filter((c: any) => c.expect.raises === '*').length;
    const exact = hidden.filter((c: any) => typeof c.expect.raises === 'string' && c.expect.raises !== '*');
    exactRaise += exact.length;
    const prompt = JSON.parse(readFileSync(join(taskDir, 'task.json'), 'utf8')).prompt as string;
    incidental += exact.filter((c: any) => { const name = c.expect.raises.split('.').at(-1); return !raisedNames.has(name) && !prompt.includes(name); }).length;
    classesShown += r.classes?.shown ?? 0;
    classesAll += r.classes?.total ?? 0;
    memoriserBest = Math.max(memoriserBest, r.gates?.memoriser?.reward ?? 0);
    binary += JSON.parse(readFileSync(join(taskDir, 'task.json'), 'utf8')).rewardMode === 'binary' ? 1 : 0;
  }
  detail.push(`${run.package}: shapes ${Object.entries(shapes).map(([k, v]) => `${k} ${v.length} (median ${median(v)} removed lines)`).join(', ') || 'none'}; examples ${shownExamples} shown, ${cutExamples} cut as failing on the reference; cases ${cases}: ${exactRaise} assert an exception type (${incidental} of a type no raise statement of the library nor the prompt names), ${anyRaise} only that the call raises; classes shown ${classesShown} of ${classesAll}; memoriser best reward ${memoriserBest}; binary rewards ${binary} of ${report.tasks.length}`);
  detail.push(`${run.package}: drops of ≥3-statement functions: ${Object.entries(subDrops).sort((a, b) => b[1] - a[1]).map(([k, n]) => `${k} ${n}`).join(', ') || 'none'}`);
  detail.push(`${run.package}: all drops: ${Object.entries(report.dropCounts as Record<string, number>).sort((a, b) => b[1] - a[1]).map(([k, n]) => `${k} ${n}`).join(', ')}`);
}
const all = rows.reduce((a: any, r: any) => ({ s: a.s + r.substantive, k: a.k + r.substantiveAccepted }), { s: 0, k: 0 });
lines.push('', `all libraries: ${all.k} of ${all.s} functions of ≥3 statements accepted (${all.s ? ((100 * all.k) / all.s).toFixed(0) : 0}%)`, '', ...detail);
writeFileSync(join(outDir, 'summary.json'), JSON.stringify(rows, null, 2) + '\n');
console.log(lines.join('\n'));
TS
node --import tsx "$work/summary.mts" "$work/runs.jsonl" "$out" "$root" | tee "$out/summary.md"
echo "results in $out (summary.json, summary.md, per-package funnels)" >&2
