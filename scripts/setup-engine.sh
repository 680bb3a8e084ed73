#!/usr/bin/env bash
# Makes a container engine answer on this machine, for the docker sandbox adapter, and installs
# the host tools the project uses (Debian packages).
#  - root: install what is missing (docker.io, debootstrap, bubblewrap; protoc with the gRPC Python
#    plugin, python3-grpcio, python3-protobuf and python3-pytest for /usr/bin/python3) with apt-get,
#    start dockerd in the background when it does not answer (log: /var/log/codemidas-dockerd.log),
#    wait up to 60 s for it.
#  - not root: print the commands to run.
# Idempotent and non-interactive (safe in CI, reads no stdin).
set -euo pipefail
export CI=true DEBIAN_FRONTEND=noninteractive
log=/var/log/codemidas-dockerd.log

engine_answers() { command -v docker >/dev/null 2>&1 && timeout 10 docker info >/dev/null 2>&1 </dev/null; }

missing=()
command -v dockerd >/dev/null 2>&1 || missing+=(docker.io)
command -v debootstrap >/dev/null 2>&1 || missing+=(debootstrap)
command -v bwrap >/dev/null 2>&1 || missing+=(bubblewrap)
command -v protoc >/dev/null 2>&1 && command -v grpc_python_plugin >/dev/null 2>&1 || missing+=(protobuf-compiler protobuf-compiler-grpc)
[ -x /usr/bin/python3 ] && /usr/bin/python3 -c 'import grpc' >/dev/null 2>&1 || missing+=(python3-grpcio)
[ -x /usr/bin/python3 ] && /usr/bin/python3 -c 'import google.protobuf' >/dev/null 2>&1 || missing+=(python3-protobuf)
[ -x /usr/bin/python3 ] && /usr/bin/python3 -c 'import pytest' >/dev/null 2>&1 || missing+=(python3-pytest)
# A real library no one here wrote, read by the analyzer's tests (its source is never committed).
[ -f /usr/lib/python3/dist-packages/more_itertools/more.py ] || missing+=(python3-more-itertools)

if [ "${#missing[@]}" -eq 0 ] && engine_answers; then
  echo "container engine: docker answers ($(docker version --format '{{.Server.Version}}' 2>/dev/null </dev/null || echo '?')); host tools present; nothing to do"
  exit 0
fi

if [ "$(id -u)" -ne 0 ]; then
  echo "the container engine does not answer or host packages are missing, and this script is not running as root. Run:" >&2
  if [ "${#missing[@]}" -gt 0 ]; then
    echo "  sudo apt-get update && sudo apt-get install -y ${missing[*]}" >&2
  fi
  echo "  sudo sh -c 'nohup dockerd >$log 2>&1 &'" >&2
  echo "  sudo usermod -aG docker \"\$USER\"   # then log in again, so docker works without sudo" >&2
  echo "or run this script as root: sudo bash scripts/setup-engine.sh" >&2
  exit 1
fi

if [ "${#missing[@]}" -gt 0 ]; then
  echo "installing ${missing[*]} ..."
  apt-get update -q </dev/null
  apt-get install -y -q --no-install-recommends "${missing[@]}" </dev/null
fi

if engine_answers; then
  echo "container engine: docker answers"
  exit 0
fi

if ! pgrep -x dockerd >/dev/null 2>&1; then
  echo "starting dockerd (log: $log) ..."
  nohup dockerd >"$log" 2>&1 </dev/null &
fi

for _ in $(seq 1 60); do
  if engine_answers; then
    echo "container engine: docker answers"
    exit 0
  fi
  sleep 1
done
echo "dockerd did not answer within 60 s; the last lines of $log:" >&2
tail -n 30 "$log" >&2 || true
exit 1
