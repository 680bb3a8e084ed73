#!/usr/bin/env bash
# Builds suites from real Java libraries no one here wrote, with the Java plugin, as a new user would:
# the upstream source tree is the `.orig` tarball of the library's Debian source package, downloaded
# with `apt-get source --download-only` (a deb-src entry is added if none is there; the
# `.debian.tar.xz` may 404 on this mirror, the `.orig` tarball is what matters) and extracted into a
# temporary folder at run time (never committed). What is built is the folder a user would give: the
# Maven module holding src/main/java (src/test/java beside it), for a multi-module project the
# shallowest such module; without one, the tarball's top folder. The libraries are small and need no
# jar (the sandbox installs none). Prints per library: the funnel (units → functions of ≥3 statements
# → candidates → recorded → gated, drops by code), the median and minimum mutation kill rate of
# accepted tasks, the share of ≥3-statement functions that became tasks, leaks, the reference runs,
# and the build time.
#
#   scripts/eval-java-libraries.sh [--seed S] [--out DIR] [--keep] [source-package ...]
#
# Default source packages: json-simple java-diff-utils commons-csv libcommons-codec-java
# (results in docs/java-libraries.md). EVAL_TIMEOUT=<seconds> stops a build that runs longer.
# Needs docker (the Java sandbox image is built on first use) and apt-get.
# Results: <out>/<package>/ (suite + <suite>.funnel.json), <out>/<package>.log, summary.json, summary.md.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)

# shellcheck source=lib/eval-lib.sh
source "$root/scripts/lib/eval-lib.sh"
parse_eval_args 2,19 "$@"
[ ${#packages[@]} -gt 0 ] || packages=(json-simple java-diff-utils commons-csv libcommons-codec-java)

if ! grep -rqs '^Types: deb-src\|^deb-src ' /etc/apt/sources.list /etc/apt/sources.list.d/; then
  sed 's/^Types: deb$/Types: deb-src/' /etc/apt/sources.list.d/debian.sources > /etc/apt/sources.list.d/codemidas-deb-src.sources
  apt-get update >/dev/null
fi

setup_eval_work codemidas-javaeval src debs
chmod 755 "$work" "$work/debs"  # apt-get source runs the download as _apt
for pkg in "${packages[@]}"; do
  # the .debian.tar.xz may 404 (apt-get then fails); only the .orig tarball is needed
  (cd "$work/debs" && apt-get source --download-only "$pkg" >/dev/null 2>&1) || true
done

for pkg in "${packages[@]}"; do
  tarball=$(ls "$work/debs/"*.orig.tar.* 2>/dev/null | grep -F "/$(apt-cache showsrc "$pkg" | sed -n 's/^Package: //p' | head -n 1)_" | head -n 1 || true)
  if [ -z "$tarball" ]; then
    echo "no .orig tarball for $pkg" >&2
    echo "{\"package\":\"$pkg\",\"version\":\"?\",\"suite\":\"\",\"repo\":\"\",\"rc\":-1,\"seconds\":0}" >> "$work/runs.jsonl"
    continue
  fi
  version=$(basename "$tarball" | sed 's/^[^_]*_//; s/\.orig\.tar\..*$//')
  mkdir -p "$work/x-$pkg"
  tar -xf "$tarball" -C "$work/x-$pkg"
  main=$(find "$work/x-$pkg" -path '*/src/main/java' -type d | awk '{ print length($0) " " $0 }' | sort -n | head -n 1 | cut -d' ' -f2-)
  if [ -n "$main" ]; then
    module=$(dirname "$(dirname "$(dirname "$main")")")
  else
    module=$(find "$work/x-$pkg" -mindepth 1 -maxdepth 1 -type d | head -n 1)
  fi
  repo="$work/src/$pkg"
  mkdir -p "$repo"
  cp -r "$module/." "$repo/"
  rm -rf "$work/x-$pkg"
  suite=$(echo "$pkg" | sed 's/^lib//; s/-java$//')
  echo "== $pkg $version (${module#"$work/x-$pkg"/}) → suite $suite" >&2
  run_eval_build "$repo" "$suite" "$pkg" "\"version\":\"$version\",\"module\":\"${module#"$work/x-$pkg"/}\","
done

node --import tsx "$root/scripts/lib/eval-java-summary.mts" "$work/runs.jsonl" "$out" "$root" | tee "$out/summary.md"
echo "results in $out (summary.json, summary.md, per-package funnels)" >&2
