#!/usr/bin/env bash
# Builds suites from real npm packages no one here wrote, with the JavaScript/TypeScript plugin, as a
# new user would: `npm pack NAME@VERSION` into a temporary folder at run time (never committed),
# extract its `package/` folder as the repository, exactly as published (no `npm install`: the
# packages chosen have no runtime dependencies), and run `build`. Prints per package: the funnel
# (units → functions of ≥3 statements → candidates → recorded → gated, drops by code), the gated
# tasks, the median and minimum mutation kill rate of accepted tasks, the share of ≥3-statement
# functions that became tasks, the build time, and what the leak audit scrubbed or dropped.
#
#   scripts/eval-npm-packages.sh [--seed S] [--out DIR] [--keep] [name@version ...]
#
# Default packages (pinned): ini@1.3.8 uint8array-extras@1.4.0 fast-equals@5.0.1
# compare-versions@6.1.0 just-diff@6.0.2. Needs docker (the sandbox images are built on first use)
# and npm with the registry reachable.
# Results: <out>/<package>/ (suite + <suite>.funnel.json), <out>/<package>.log, summary.json, summary.md.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)

# shellcheck source=lib/eval-lib.sh
source "$root/scripts/lib/eval-lib.sh"
parse_eval_args 2,16 "$@"
[ ${#packages[@]} -gt 0 ] || packages=(ini@1.3.8 uint8array-extras@1.4.0 fast-equals@5.0.1 compare-versions@6.1.0 just-diff@6.0.2)

setup_eval_work codemidas-npmeval src tgz
for spec in "${packages[@]}"; do
  name="${spec%@*}"
  version="${spec##*@}"
  # a folder name without the scope's slash
  slug=$(echo "$name" | tr '/' '-' | tr -d '@')
  tgz=$(cd "$work/tgz" && npm pack "$name@$version" --silent 2>/dev/null | tail -n 1)
  repo="$work/src/$slug"
  mkdir -p "$repo" "$work/x-$slug"
  tar xzf "$work/tgz/$tgz" -C "$work/x-$slug"
  cp -r "$work/x-$slug/package/." "$repo/"
  rm -rf "$work/x-$slug"
  suite=$(echo "$slug" | tr 'A-Z' 'a-z' | tr -c 'a-z0-9\n' '-')
  echo "== $name@$version → suite $suite" >&2
  run_eval_build "$repo" "$suite" "$slug" "\"name\":\"$name\",\"version\":\"$version\","
done

cat > "$work/summary.mts" <<'TS'
// Reads each build's funnel, the plugin's own units and the tasks' reports, and prints the table of the eval.
import { readFileSync, readdirSync, statSync, writeFileSync, existsSync } from 'node:fs';
import { join, relative } from 'node:path';
const [runsFile, outDir, rootDir] = process.argv.slice(2) as [string, string, string];
const { parseJavaScriptUnits } = await import(join(rootDir, 'src/languages/javascript/parse-javascript-units.ts'));
function allFiles(dir: string, base = dir): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir).sort()) {
    if (name === 'node_modules' || name === '.git') continue;
    const p = join(dir, name);
    if (statSync(p).isDirectory()) out.push(...allFiles(p, base));
    else out.push(relative(base, p));
  }
  return out;
}
function findFiles(dir: string, file: string): string[] {
  if (!existsSync(dir)) return [];
  const out: string[] = [];
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) out.push(...findFiles(p, file));
    else if (name === file) out.push(p);
  }
  return out;
}
const median = (xs: number[]): number => { const s = [...xs].sort((a, b) => a - b); return s.length ? (s[Math.floor((s.length - 1) / 2)] as number) : NaN; };
const fmt = (x: number) => (Number.isFinite(x) ? x.toFixed(2) : '–');
const rows: Record<string, unknown>[] = [];
const lines = ['| package | units | fns ≥3 stmts | candidates | recorded | gated | ≥3-stmt fns accepted | kill rate median / min | build time |', '| --- | --- | --- | --- | --- | --- | --- | --- | --- |'];
const detail: string[] = [];
for (const line of readFileSync(runsFile, 'utf8').trim().split('\n')) {
  const run = JSON.parse(line);
  const files = allFiles(run.repo);
  const { units } = await parseJavaScriptUnits({ dir: run.repo, origin: run.repo, revision: 'working-tree', files });
  const substantive = new Set<string>(units.filter((u: any) => u.kind !== 'class' && u.statementCount >= 3).map((u: any) => u.id));
  const funnelFile = join(outDir, run.package, `${run.suite}.funnel.json`);
  if (!existsSync(funnelFile)) { lines.push(`| ${run.name}@${run.version} | ${units.length} | ${substantive.size} | build failed (exit ${run.rc}), see ${run.package}.log | | | | | ${run.seconds} s |`); rows.push({ package: run.name, version: run.version, units: units.length, substantive: substantive.size, rc: run.rc, buildSeconds: run.seconds, failed: true }); continue; }
  const report = JSON.parse(readFileSync(funnelFile, 'utf8'));
  const f = report.funnel;
  const scores = report.tasks.map((t: any) => t.mutationScore);
  // a function counts once, as a task of its own or removed in a feature (the entry, and each helper)
  const built = new Set<string>(report.tasks.flatMap((t: any) => [t.feature ?? t.unitId, ...(t.helpers ?? [])]));
  const accepted = [...substantive].filter((id) => built.has(id)).length;
  const subDrops: Record<string, number> = {};
  for (const d of f.drops) if (substantive.has(d.unitId)) subDrops[`${d.stage}:${d.code}`] = (subDrops[`${d.stage}:${d.code}`] ?? 0) + 1;
  // what the leak audit saw: the accepted tasks' report.json (mask.scrubbed, leakAudit), and the audit drops
  const scrubbed: Record<string, number> = {};
  const leakAudits: unknown[] = [];
  for (const file of findFiles(join(outDir, run.package), 'report.json')) {
    const r = JSON.parse(readFileSync(file, 'utf8'));
    for (const s of r.mask?.scrubbed ?? []) { const k = typeof s === 'string' ? s : (s.file ?? s.path ?? JSON.stringify(s)); scrubbed[k] = (scrubbed[k] ?? 0) + 1; }
    if (r.leakAudit !== undefined) leakAudits.push(r.leakAudit);
  }
  const auditDrops = f.drops.filter((d: any) => d.stage === 'audit').map((d: any) => `${d.unitId}: ${d.code}${d.message ? ` (${String(d.message).slice(0, 160)})` : ''}`);
  const row = { package: run.name, version: run.version, units: f.units, unitsByParser: units.length, substantive: substantive.size, candidates: f.candidates, recorded: f.recorded, written: f.written, gated: f.gated,
    substantiveAccepted: accepted, substantiveShare: substantive.size ? accepted / substantive.size : 0, killMedian: median(scores), killMin: scores.length ? Math.min(...scores) : NaN,
    buildSeconds: run.seconds, buildMs: report.timings?.totalMs ?? null, dropCounts: report.dropCounts, substantiveDrops: subDrops, rc: run.rc,
    unitFiles: [...new Set(units.map((u: any) => u.file))].sort(), scrubbed, leakAudits, auditDrops };
  rows.push(row);
  lines.push(`| ${run.name}@${run.version} | ${f.units} | ${substantive.size} | ${f.candidates} | ${f.recorded} | ${f.gated} | ${accepted} (${(100 * row.substantiveShare).toFixed(0)}%) | ${fmt(row.killMedian)} / ${fmt(row.killMin)} | ${run.seconds} s |`);
  detail.push(`${run.name}: unit files: ${row.unitFiles.join(', ') || 'none'}`);
  detail.push(`${run.name}: drops of ≥3-statement functions: ${Object.entries(subDrops).sort((a, b) => b[1] - a[1]).map(([k, n]) => `${k} ${n}`).join(', ') || 'none'}`);
  detail.push(`${run.name}: all drops: ${Object.entries((report.dropCounts ?? {}) as Record<string, number>).sort((a, b) => b[1] - a[1]).map(([k, n]) => `${k} ${n}`).join(', ') || 'none'}`);
  detail.push(`${run.name}: audit drops: ${auditDrops.join('; ') || 'none'}; scrubbed in accepted tasks: ${Object.entries(scrubbed).map(([k, n]) => `${k} ×${n}`).join(', ') || 'nothing'}`);
}
const all = rows.reduce((a: any, r: any) => ({ s: a.s + r.substantive, k: a.k + (r.substantiveAccepted ?? 0) }), { s: 0, k: 0 });
lines.push('', `all packages: ${all.k} of ${all.s} functions of ≥3 statements accepted (${all.s ? ((100 * all.k) / all.s).toFixed(0) : 0}%)`, '', ...detail);
writeFileSync(join(outDir, 'summary.json'), JSON.stringify(rows, null, 2) + '\n');
console.log(lines.join('\n'));
TS
node --import tsx "$work/summary.mts" "$work/runs.jsonl" "$out" "$root" | tee "$out/summary.md"
echo "results in $out (summary.json, summary.md, per-package funnels)" >&2
