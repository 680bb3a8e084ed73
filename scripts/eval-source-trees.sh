#!/usr/bin/env bash
# Builds suites from real upstream source trees, tests included, as a new user would: the Debian source
# package's `.orig` tarball (`apt-get source --download-only SRC`, the upstream release as its authors
# published it), fetched into a temporary folder at run time (never committed) and passed to
# `codemidas build` as it is. Python libraries (python-*) and JavaScript packages (node-*) alike; the
# language is the one the build detects. Prints per tree: the funnel, the gated tasks, the yield over
# functions of >= 3 statements, the median and minimum kill rate, the share of cases that came from the
# repository's own tests, the build time with where the record stage spent it, and gated tasks per
# core-minute.
#
#   scripts/eval-source-trees.sh [--seed S] [--out DIR] [--keep] [source-package ...]
#   scripts/eval-source-trees.sh --set tuning|report [--seed S] [--out DIR] [--keep] [--from-folder] [--debian-patches]
#
# --from-folder builds the extracted folder instead of the tarball (for revisions before tarball ingest,
# to measure side by side).
# --debian-patches applies the source package's own patches (debian/patches/series, in order) to the
# tree and builds a tarball of the patched tree: the release as Debian builds it against the Python,
# pytest and PyYAML this machine has (pygtrie as released does not import on Python 3.11; multipart's
# tests call PyYAML 5's `yaml.load`). A patch that does not apply is named and left out.
#
# The two sets (docs/real-repositories.md): the tuning set is what construction was changed while
# looking at; the report set is chosen apart from it and only measured.
# Needs docker (the sandbox images are built on first use), apt-get with a deb-src entry (added
# here when missing, as FIELD-NOTES says) and npm with the registry reachable (node-* dependencies).
# Results: <out>/<package>/ (suite + <suite>.funnel.json), <out>/<package>.log, summary.json, summary.md.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)

# At least 4 Python and 4 JavaScript trees each, 2 of each language declaring dependencies (*); chosen
# among the source packages whose .orig tarball this mirror serves (many 404). A report tree whose
# losses were looked into moves to the tuning set, and a fresh one takes its place
# (docs/real-repositories.md, "Report set, second draw", "third draw", "Ninth round" and "Tenth round").
# tuning: toml, jmespath, json-patch (jsonpointer*), orderedmultidict (six*), the first report draw's
#         xmltodict, pygtrie, intervaltree (sortedcontainers*), junit-xml (six*), the second's
#         hyperlink (idna*), parsimonious (regex*), docopt, webencodings, the third's jsonpath-rw (ply,
#         decorator, six*), intervals (infinity*), vdf, boolean.py, the fourth's editor, iso3166,
#         multipart (six*), coloredlogs (humanfriendly*); ms, camelcase, yargs-parser (camelcase,
#         decamelize*), to-regex-range (is-number*), the third draw's escape-string-regexp, decamelize,
#         pretty-ms (parse-ms*), url-parse (querystringify, requires-port*), the fourth's repeat-string,
#         string-width (emoji-regex, is-fullwidth-code-point, strip-ansi*), is-glob (is-extglob*),
#         dot-prop (type-fest*)
# report (the fifth draw, candidates and rule in docs/real-repositories.md "Tenth round"): enet,
#         panwid (urwid, …*), streamz (toolz, tornado, …*), gjson; normalize-path, kind-of,
#         strip-ansi (ansi-regex*), wrap-ansi (ansi-styles, string-width, strip-ansi*)
TUNING_SET=(python-toml python-jmespath python-json-patch python-orderedmultidict python-xmltodict python-pygtrie python-intervaltree python-junit-xml hyperlink parsimonious docopt python-webencodings python-jsonpath-rw python-intervals python-vdf python-boolean.py python-editor python-iso3166 python-multipart python-coloredlogs node-ms node-camelcase node-yargs-parser node-to-regex-range node-escape-string-regexp node-decamelize node-pretty-ms node-url-parse node-repeat-string node-string-width node-is-glob node-dot-prop)
REPORT_SET=(python-enet python-panwid python-streamz python-gjson node-normalize-path node-kind-of node-strip-ansi node-wrap-ansi)

set_name=""
from_folder=0
debian_patches=0
args=()
while [ $# -gt 0 ]; do
  case "$1" in
    --set) set_name="$2"; shift 2 ;;
    --from-folder) from_folder=1; shift ;;
    --debian-patches) debian_patches=1; shift ;;
    *) args+=("$1"); shift ;;
  esac
done
# shellcheck source=lib/eval-lib.sh
source "$root/scripts/lib/eval-lib.sh"
parse_eval_args 2,25 ${args[@]+"${args[@]}"}
case "$set_name" in
  "") ;;
  tuning) packages+=("${TUNING_SET[@]}") ;;
  report) packages+=("${REPORT_SET[@]}") ;;
  *) echo "--set takes tuning or report, not '$set_name'" >&2; exit 2 ;;
esac
[ ${#packages[@]} -gt 0 ] || { echo "name Debian source packages (python-toml node-ms …) or --set tuning|report" >&2; exit 2; }

# deb-src: a copy of Debian's binary entries with `Types: deb-src` (FIELD-NOTES, real code)
if ! grep -rqs '^Types: deb-src' /etc/apt/sources.list.d/ && [ -f /etc/apt/sources.list.d/debian.sources ]; then
  sed 's/^Types: deb$/Types: deb-src/' /etc/apt/sources.list.d/debian.sources > /etc/apt/sources.list.d/codemidas-deb-src.sources
  apt-get update -qq
fi

# Applies <pkg>'s debian/patches/series to <tree> in order (patch -p1, as quilt does), naming each
# patch that does not apply; a source package without patches leaves the tree as released.
apply_debian_patches() {
  local pkg="$1" tree="$2" debian_tarball name applied=0
  debian_tarball=$(ls "$work/orig/${pkg}_"*.debian.tar.* 2>/dev/null | head -n 1 || true)
  [ -n "$debian_tarball" ] || { echo "== $pkg: no .debian tarball, built as released" >&2; return 0; }
  mkdir -p "$work/debian/$pkg" && tar xf "$debian_tarball" -C "$work/debian/$pkg"
  local patches="$work/debian/$pkg/debian/patches"
  [ -f "$patches/series" ] || { echo "== $pkg: Debian applies no patches" >&2; return 0; }
  while read -r name _; do
    case "$name" in ''|'#'*) continue ;; esac
    if patch -d "$tree" -p1 --batch --forward --silent --dry-run < "$patches/$name" >/dev/null 2>&1; then
      patch -d "$tree" -p1 --batch --forward --silent < "$patches/$name" >/dev/null
      applied=$((applied + 1))
    else
      echo "== $pkg: Debian's patch $name does not apply; left out" >&2
    fi
  done < "$patches/series"
  echo "== $pkg: $applied of Debian's patches applied" >&2
}

setup_eval_work codemidas-srceval orig src debian
chmod 777 "$work/orig"  # apt-get source downloads as _apt
npm run build --silent >/dev/null
for pkg in "${packages[@]}"; do
  # the .debian.tar.xz may 404 on this mirror; the .orig tarball is what matters
  (cd "$work/orig" && apt-get source --download-only "$pkg" >/dev/null 2>&1) || true
  tarball=$(ls "$work/orig/${pkg}_"*.orig.tar.* 2>/dev/null | head -n 1 || true)
  if [ -z "$tarball" ]; then
    echo "== $pkg: no .orig tarball (is it a Debian source package? apt-cache showsrc $pkg)" >&2
    echo "{\"package\":\"$pkg\",\"version\":\"\",\"suite\":\"\",\"repo\":\"\",\"rc\":-1,\"seconds\":0}" >> "$work/runs.jsonl"
    continue
  fi
  version=$(basename "$tarball" | sed -E "s/^${pkg}_(.*)\.orig\.tar\..*$/\1/")
  suite=$(echo "${pkg#python-}" | sed 's/^node-//' | tr 'A-Z' 'a-z' | tr -c 'a-z0-9\n' '-')
  echo "== $pkg $version → suite $suite" >&2
  # a copy for counting the functions of >= 3 statements; the build gets the tarball itself
  # (one top folder is stripped, as ingest does; enet's tarball holds its files at the top)
  members=$(tar tf "$tarball" | sed 's#^\./##' | grep -v '^$' || true)
  strip=0
  if [ "$(echo "$members" | cut -d/ -f1 | sort -u | wc -l)" = 1 ] && [[ "$members" == */* ]]; then strip=1; fi
  mkdir -p "$work/src/$pkg" && tar xf "$tarball" -C "$work/src/$pkg" --strip-components=$strip
  input="$tarball"
  if [ "$debian_patches" = 1 ]; then
    apply_debian_patches "$pkg" "$work/src/$pkg"
    input="$work/orig/${pkg}_${version}.debian-patched.tar.gz"
    tar czf "$input" -C "$work/src" "$pkg"
  fi
  [ "$from_folder" = 0 ] || input="$work/src/$pkg"
  run_eval_build "$input" "$suite" "$pkg" "\"version\":\"$version\",\"tree\":\"$work/src/$pkg\","
done

cat > "$work/summary.mts" <<'TS'
// Reads each build's funnel (with timings) and its tasks' reports, and prints the table of the eval.
// Functions of >= 3 statements are counted by the language plugin the build chose, on the extracted tree.
import { readFileSync, readdirSync, writeFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
const [runsFile, outDir, rootDir] = process.argv.slice(2) as [string, string, string];
const { createLanguages } = await import(join(rootDir, 'src/cli/languages.ts'));
const { chooseLanguage } = await import(join(rootDir, 'src/cli/choose-language.ts'));
// the files a build of the tree looks at (the folders a snapshot leaves out skipped)
const { listFolderFiles } = await import(join(rootDir, 'src/pipeline/ingest/list-folder-files.ts'));
const languages = createLanguages();
async function substantiveUnits(tree: string): Promise<Set<string>> {
  const plugin = chooseLanguage(languages, { dir: tree, origin: tree });
  const { units } = await plugin.parseUnits({ dir: tree, origin: tree, revision: 'working-tree', files: listFolderFiles(tree) });
  return new Set(units.filter((u: any) => u.kind !== 'class' && u.statementCount >= 3).map((u: any) => u.id));
}
const median = (xs: number[]): number => { const s = [...xs].sort((a, b) => a - b); return s.length ? (s[Math.floor((s.length - 1) / 2)] as number) : NaN; };
const fmt = (x: number, d = 2) => (Number.isFinite(x) ? x.toFixed(d) : '–');
const rows: Record<string, unknown>[] = [];
const lines = [
  '| tree | units | fns ≥3 stmts | candidates | recorded | gated | ≥3-stmt fns accepted | kill median / min | cases from its tests | build time | record: tracing / recording / mutation (search) | gated tasks per core-minute |',
  '| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |',
];
const detail: string[] = [];
for (const line of readFileSync(runsFile, 'utf8').trim().split('\n')) {
  const run = JSON.parse(line);
  const funnelFile = join(outDir, run.package, `${run.suite}.funnel.json`);
  if (!run.suite || !existsSync(funnelFile)) { lines.push(`| ${run.package} ${run.version} | build failed (exit ${run.rc}), see ${run.package}.log | | | | | | | | ${run.seconds} s | | |`); continue; }
  const report = JSON.parse(readFileSync(funnelFile, 'utf8'));
  const f = report.funnel;
  const substantive = await substantiveUnits(run.tree);
  // a function counts once, as a task of its own or removed in a feature (the entry, and each helper)
  const built = new Set<string>(report.tasks.flatMap((t: any) => [t.feature ?? t.unitId, ...(t.helpers ?? [])]));
  const accepted = [...substantive].filter((id) => built.has(id)).length;
  // of them, recorded through an entry that reaches them (the entry pass, Unit.via)
  const throughEntry = report.tasks.filter((t: any) => substantive.has(t.unitId) && t.via).length;
  const scores = report.tasks.map((t: any) => t.mutationScore);
  // the cases of every accepted task by source (report.json `cases.sources`)
  let fromTests = 0, allCases = 0;
  const suiteDir = join(outDir, run.package, run.suite);
  for (const name of existsSync(suiteDir) ? readdirSync(suiteDir) : []) {
    const file = join(suiteDir, name, 'report.json');
    if (!existsSync(file)) continue;
    const sources = JSON.parse(readFileSync(file, 'utf8')).cases?.sources ?? {};
    for (const [source, n] of Object.entries(sources as Record<string, { kept?: number }>)) {
      allCases += n.kept ?? 0;
      if (source === 'repo-test') fromTests += n.kept ?? 0;
    }
  }
  const t = report.timings ?? {};
  const rec = t.record ?? { traceMs: {}, candidates: [] };
  const sum = (k: string) => rec.candidates.reduce((n: number, c: any) => n + (c[k] ?? 0), 0) / 1000;
  const tracing = Object.values(rec.traceMs as Record<string, number>).reduce((n, ms) => n + ms, 0) / 1000;
  const row = { package: run.package, version: run.version, units: f.units, substantive: substantive.size, candidates: f.candidates, recorded: f.recorded, gated: f.gated,
    substantiveAccepted: accepted, throughEntry, yield: substantive.size ? accepted / substantive.size : 0, killMedian: median(scores), killMin: scores.length ? Math.min(...scores) : NaN,
    casesFromTests: allCases ? fromTests / allCases : 0, buildSeconds: run.seconds, buildMs: t.totalMs ?? null, tracingSeconds: tracing,
    recordingSeconds: sum('recordMs'), mutationSeconds: sum('mutateMs'), searchSeconds: sum('searchMs'),
    tasksPerCoreMinute: t.tasksPerCoreMinute ?? null, cores: t.cores ?? null, dropCounts: report.dropCounts, rc: run.rc };
  rows.push(row);
  lines.push(`| ${run.package} ${run.version} | ${f.units} | ${substantive.size} | ${f.candidates} | ${f.recorded} | ${f.gated} | ${accepted} (${(100 * row.yield).toFixed(0)}%${throughEntry ? `; ${throughEntry} through an entry` : ''}) | ${fmt(row.killMedian)} / ${fmt(row.killMin)} | ${(100 * row.casesFromTests).toFixed(0)}% | ${run.seconds} s | ${fmt(tracing, 0)} / ${fmt(row.recordingSeconds, 0)} / ${fmt(row.mutationSeconds, 0)} (${fmt(row.searchSeconds, 0)}) s | ${fmt(row.tasksPerCoreMinute ?? NaN)} |`);
  detail.push(`${run.package}: drops: ${Object.entries(report.dropCounts as Record<string, number>).sort((a, b) => b[1] - a[1]).map(([k, n]) => `${k} ${n}`).join(', ') || 'none'}`);
}
const all = rows.reduce((a: any, r: any) => ({ n: a.n + r.substantive, k: a.k + r.substantiveAccepted, g: a.g + r.gated, s: a.s + r.buildSeconds }), { n: 0, k: 0, g: 0, s: 0 });
lines.push('', `all trees: ${all.k} of ${all.n} functions of ≥3 statements accepted (${all.n ? ((100 * all.k) / all.n).toFixed(0) : 0}%); ${all.g} gated tasks in ${all.s} s of builds`, '', ...detail);
writeFileSync(join(outDir, 'summary.json'), JSON.stringify(rows, null, 2) + '\n');
console.log(lines.join('\n'));
TS
node --import tsx "$work/summary.mts" "$work/runs.jsonl" "$out" "$root" | tee "$out/summary.md"
echo "results in $out (summary.json, summary.md, per-package funnels)" >&2
