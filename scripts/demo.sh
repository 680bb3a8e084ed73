#!/usr/bin/env bash
# The first thing to run: sets everything up, starts the server on the sample suite, and runs a
# GRPO demo over every task (groups of 8: 4 oracle episodes that write the reference solution,
# 4 null episodes that submit at once), then the rollout worker on the Python sample suite and on
# the JavaScript suite jskit. Exits non-zero if any reward or advantage is wrong.
#
# Usage: bash scripts/demo.sh [--suite sample] [--group-size 8]   (arguments go to grpo-demo.py)
# Env:   CODEMIDAS_PYTHON (default /usr/bin/python3: Debian's, with python3-grpcio),
#        CODEMIDAS_DEMO_LOG_DIR (where the server's log goes; default a fresh temp folder).
set -euo pipefail
cd "$(dirname "$0")/.."

PYTHON="${CODEMIDAS_PYTHON:-/usr/bin/python3}"
step() { printf '\n== %s\n' "$*"; }
die() { echo "demo: $*" >&2; exit 1; }

step "npm dependencies"
if [ ! -d node_modules ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
  npm ci --no-audit --no-fund || die "npm ci failed: check the npm registry is reachable"
else
  echo "node_modules up to date"
fi

step "TypeScript build"
newest() { { find "$@" -type f -printf '%T@\n' 2>/dev/null || true; } | sort -n | tail -n 1; }
src_time="$(newest src tsconfig.json package.json)"
dist_time="$(newest dist)"
if [ -z "$dist_time" ] || awk -v s="$src_time" -v d="$dist_time" 'BEGIN { exit !(s > d) }'; then
  npm run -s build || die "TypeScript build failed (npm run build)"
  echo "built dist/"
else
  echo "dist/ is newer than src/: nothing to build"
fi

step "container engine"
bash scripts/setup-engine.sh || die "no container engine: see the message above"

step "sandbox images"
node bin/codemidas.js images build || die "building the sandbox images failed (node bin/codemidas.js images build)"

step "python client"
[ -x "$PYTHON" ] || die "$PYTHON not found: install Debian's python3, python3-grpcio and python3-protobuf, or set CODEMIDAS_PYTHON"
"$PYTHON" -c 'import grpc, google.protobuf' 2>/dev/null \
  || die "$PYTHON lacks grpcio/protobuf: apt-get install -y python3-grpcio python3-protobuf"
bash clients/python/generate.sh || die "generating the Python stubs failed: needs protoc and grpc_python_plugin (apt-get install -y protobuf-compiler-grpc)"
echo "stubs in clients/python/codemidas_client/_gen/"

step "server"
log_dir="${CODEMIDAS_DEMO_LOG_DIR:-$(mktemp -d -t codemidas-demo.XXXXXX)}"
mkdir -p "$log_dir"
server_out="$log_dir/server.out"
server_err="$log_dir/server.log"
node bin/codemidas.js serve --listen 127.0.0.1:0 --environments environments >"$server_out" 2>"$server_err" &
server_pid=$!

stop_server() {
  if kill -0 "$server_pid" 2>/dev/null; then
    kill -TERM "$server_pid" 2>/dev/null || true
    for _ in $(seq 1 150); do
      kill -0 "$server_pid" 2>/dev/null || break
      sleep 0.1
    done
    if kill -0 "$server_pid" 2>/dev/null; then
      echo "demo: server did not stop within 15 s of SIGTERM; killing it" >&2
      kill -KILL "$server_pid" 2>/dev/null || true
    fi
  fi
  wait "$server_pid" 2>/dev/null || true
}
trap stop_server EXIT
trap 'exit 130' INT TERM

address=""
for _ in $(seq 1 1800); do
  address="$(sed -n 's/.*codemidas listening on \([^ ]*\).*/\1/p' "$server_out" | head -n 1)"
  [ -n "$address" ] && break
  if ! kill -0 "$server_pid" 2>/dev/null; then
    tail -n 40 "$server_out" "$server_err" >&2 || true
    die "the server exited before listening (log: $server_err)"
  fi
  sleep 0.1
done
if [ -z "$address" ]; then
  tail -n 40 "$server_out" "$server_err" >&2 || true
  die "the server printed no listening line within 180 s (log: $server_err)"
fi
echo "codemidas serve (pid $server_pid) listening on $address; log: $server_err"

step "GRPO demo"
status=0
"$PYTHON" scripts/grpo-demo.py --address "$address" --environments environments "$@" || status=$?
if [ "$status" -ne 0 ]; then
  echo "demo: FAILED (exit $status); server log: $server_err" >&2
  exit "$status"
fi
step "rollout worker (oracle and null mixed in each group of 4, one group per sample task)"
trajectories="$(mktemp -d)/sample.jsonl"
node bin/codemidas.js rollout --server "$address" --suite sample --agent oracle,null --group-size 4 \
  --environments environments --out "$trajectories" || status=$?
if [ "$status" -ne 0 ]; then
  echo "demo: rollout FAILED (exit $status); server log: $server_err" >&2
  exit "$status"
fi
echo "trajectories (docs/trajectory-format.md): $trajectories"
step "rollout worker on a JavaScript suite (jskit: Node 20 image, the Node judge)"
js_trajectories="$(dirname "$trajectories")/jskit.jsonl"
node bin/codemidas.js rollout --server "$address" --suite jskit --agent oracle,null --group-size 4 \
  --environments environments --out "$js_trajectories" || status=$?
if [ "$status" -ne 0 ]; then
  echo "demo: JavaScript rollout FAILED (exit $status); server log: $server_err" >&2
else
  echo "trajectories: $js_trajectories"
fi
exit "$status"
