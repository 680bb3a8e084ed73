# Shared by the construction evals (scripts/eval-real-libraries.sh, scripts/eval-npm-packages.sh):
# reads `[--seed S] [--out DIR] [--keep] [package ...]` into seed, out, keep and packages.
# Usage: source scripts/lib/eval-lib.sh; parse_eval_args <help-lines> "$@"
# (help-lines: the `sed -n` range of the calling script's header printed for -h/--help).
parse_eval_args() {
  local help="$1"
  shift
  seed=1
  out=""
  keep=0
  packages=()
  while [ $# -gt 0 ]; do
    case "$1" in
      --seed) seed="$2"; shift 2 ;;
      --out) out="$2"; shift 2 ;;
      --keep) keep=1; shift ;;
      -h|--help) sed -n "${help}p" "$0"; exit 0 ;;
      *) packages+=("$1"); shift ;;
    esac
  done
}

# Builds <repo> as suite <suite> into $out/<key> with $seed (its log in $out/<key>.log, the last
# lines shown), and appends one JSON line to $work/runs.jsonl:
# {"package": <key>, <extra fields>, "suite", "repo", "rc", "seconds"}. With EVAL_TIMEOUT=<seconds> set,
# a build still running then is stopped (rc 124).
# Usage: run_eval_build <repo> <suite> <key> '"version":"1.2",'
run_eval_build() {
  local repo="$1" suite="$2" key="$3" extra="$4" started ended rc
  started=$(date +%s)
  set +e
  ${EVAL_TIMEOUT:+timeout "$EVAL_TIMEOUT"} node bin/codemidas.js build "$repo" --suite "$suite" --out "$out/$key" --seed "$seed" > "$out/$key.log" 2>&1
  rc=$?
  set -e
  ended=$(date +%s)
  tail -n 8 "$out/$key.log" >&2
  echo "{\"package\":\"$key\",$extra\"suite\":\"$suite\",\"repo\":\"$repo\",\"rc\":$rc,\"seconds\":$((ended - started))}" >> "$work/runs.jsonl"
}

# Makes $work (a fresh folder under /tmp named after <prefix>) and $out (absolute; default
# $work/out), and removes the given subfolders of $work at exit unless --keep was given.
# Usage: setup_eval_work <prefix> <subfolder> ...
setup_eval_work() {
  local prefix="$1"
  shift
  work=$(mktemp -d "/tmp/$prefix.XXXXXX")
  [ -n "$out" ] || out="$work/out"
  mkdir -p "$out"
  out=$(cd "$out" && pwd)
  eval_scratch=("$@")
  trap 'if [ "$keep" = 0 ]; then for d in "${eval_scratch[@]}"; do rm -rf "${work:?}/$d"; done; fi' EXIT
  for d in "$@"; do mkdir -p "$work/$d"; done
}
