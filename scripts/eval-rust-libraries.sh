#!/usr/bin/env bash
# Builds suites from real Rust crates no one here wrote, with the Rust plugin, as a new user would:
# Debian's `librust-*-dev` packages carry a crate's source (Cargo.toml, src/, often tests/) under
# /usr/share/cargo/registry/<crate>-<version>/; each is downloaded (`apt-get download`) and extracted
# into a temporary folder at run time (never committed), and that crate folder is what is built.
# The crates are small and pure, with no [dependencies] (the sandbox installs none). Prints per
# crate: the funnel (units → functions of ≥3 statements → candidates → recorded → gated, drops by
# code), the median and minimum mutation kill rate of accepted tasks, the share of ≥3-statement
# functions that became tasks, leaks, the reference runs, and the build time.
#
#   scripts/eval-rust-libraries.sh [--seed S] [--out DIR] [--keep] [package ...]
#
# Default packages: librust-strsim-dev librust-humantime-dev librust-shlex-dev
# librust-percent-encoding-dev (results in docs/rust-libraries.md). Crates with optional dependencies
# (hex, bytesize, semver: an optional serde) do not resolve offline: Cargo wants every dependency.
# EVAL_TIMEOUT=<seconds> stops a build that runs longer (scripts/lib/eval-lib.sh).
# Needs docker (the Rust sandbox image is built on first use) and apt-get.
# Results: <out>/<package>/ (suite + <suite>.funnel.json), <out>/<package>.log, summary.json, summary.md.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)

# shellcheck source=lib/eval-lib.sh
source "$root/scripts/lib/eval-lib.sh"
parse_eval_args 2,18 "$@"
[ ${#packages[@]} -gt 0 ] || packages=(librust-strsim-dev librust-humantime-dev librust-shlex-dev librust-percent-encoding-dev)

setup_eval_work codemidas-rusteval src debs
chmod 755 "$work" "$work/debs"  # apt-get download runs as _apt
for pkg in "${packages[@]}"; do
  (cd "$work/debs" && apt-get download "$pkg" >/dev/null)
done

for pkg in "${packages[@]}"; do
  deb=$(ls "$work/debs/${pkg}_"*.deb | head -n 1)
  version=$(dpkg-deb -f "$deb" Version)
  dpkg -x "$deb" "$work/x-$pkg"
  # the crate's folder: the one registry folder with a Cargo.toml
  crate=$(dirname "$(ls "$work/x-$pkg"/usr/share/cargo/registry/*/Cargo.toml | head -n 1)")
  name=$(basename "$crate")
  repo="$work/src/$pkg"
  mkdir -p "$repo"
  cp -r "$crate/." "$repo/"
  rm -rf "$work/x-$pkg"
  if awk '/^\[/ { dep = ($0 == "[dependencies]" || $0 ~ /^\[dependencies\./) } dep && /=/ { found = 1 } END { exit !found }' "$repo/Cargo.toml"; then
    echo "note: $pkg ($name) declares [dependencies]; the sandbox installs none" >&2
  fi
  suite=$(echo "${pkg#librust-}" | sed 's/-dev$//')
  echo "== $pkg $version ($name) → suite $suite" >&2
  run_eval_build "$repo" "$suite" "$pkg" "\"version\":\"$version\",\"module\":\"$name\","
done

node --import tsx "$root/scripts/lib/eval-rust-summary.mts" "$work/runs.jsonl" "$out" "$root" | tee "$out/summary.md"
echo "results in $out (summary.json, summary.md, per-package funnels)" >&2
