#!/usr/bin/env bash
# Builds suites from real Go libraries no one here wrote, with the Go plugin, as a new user would:
# Debian's `golang-*-dev` packages carry a library's source, tests included, under
# /usr/share/gocode/src/<module path>; each is downloaded (`apt-get download`) and extracted into a
# temporary folder at run time (never committed). A library without go.mod gets the one `go mod init
# <its import path>` would write (what its user does before `go test` works outside GOPATH). Prints
# per library: the funnel (units → functions of ≥3 statements → candidates → recorded → gated, drops
# by code), the median and minimum mutation kill rate of accepted tasks, the share of ≥3-statement
# functions that became tasks, leaks, the reference runs, and the build time.
#
#   scripts/eval-go-libraries.sh [--seed S] [--out DIR] [--keep] [package ...]
#
# Default packages (the report set; the tuning set is in docs/go-libraries.md):
# golang-github-dustin-go-humanize-dev golang-github-masterminds-semver-dev
# golang-github-agext-levenshtein-dev golang-github-iancoleman-strcase-dev
# golang-github-kballard-go-shellquote-dev golang-github-google-shlex-dev.
# Needs docker (the Go sandbox image is built on first use) and apt-get.
# Results: <out>/<package>/ (suite + <suite>.funnel.json), <out>/<package>.log, summary.json, summary.md.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)

# shellcheck source=lib/eval-lib.sh
source "$root/scripts/lib/eval-lib.sh"
parse_eval_args 2,18 "$@"
[ ${#packages[@]} -gt 0 ] || packages=(golang-github-dustin-go-humanize-dev golang-github-masterminds-semver-dev golang-github-agext-levenshtein-dev
  golang-github-iancoleman-strcase-dev golang-github-kballard-go-shellquote-dev golang-github-google-shlex-dev)

setup_eval_work codemidas-goeval src debs
chmod 755 "$work" "$work/debs"  # apt-get download runs as _apt
for pkg in "${packages[@]}"; do
  (cd "$work/debs" && apt-get download "$pkg" >/dev/null)
done

for pkg in "${packages[@]}"; do
  deb=$(ls "$work/debs/${pkg}_"*.deb | head -n 1)
  version=$(dpkg-deb -f "$deb" Version)
  dpkg -x "$deb" "$work/x-$pkg"
  # the module's folder: the shallowest folder under gocode/src holding .go files
  gocode="$work/x-$pkg/usr/share/gocode/src"
  moddir=$(find "$gocode" -name '*.go' -printf '%h\n' | awk '{ print length($0) " " $0 }' | sort -n | head -n 1 | cut -d' ' -f2-)
  importpath="${moddir#"$gocode"/}"
  repo="$work/src/$pkg"
  mkdir -p "$repo"
  cp -r "$moddir/." "$repo/"
  rm -rf "$work/x-$pkg"
  if [ ! -f "$repo/go.mod" ]; then
    printf 'module %s\n\ngo 1.12\n' "$importpath" > "$repo/go.mod"
  fi
  suite=$(echo "${pkg#golang-}" | sed 's/-dev$//; s/^github-//' | tr 'A-Z' 'a-z')
  echo "== $pkg $version ($importpath) → suite $suite" >&2
  run_eval_build "$repo" "$suite" "$pkg" "\"version\":\"$version\",\"module\":\"$importpath\","
done

node --import tsx "$root/scripts/lib/eval-go-summary.mts" "$work/runs.jsonl" "$out" "$root" | tee "$out/summary.md"
echo "results in $out (summary.json, summary.md, per-package funnels)" >&2
