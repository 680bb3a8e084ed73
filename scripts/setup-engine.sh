#!/usr/bin/env bash
# Makes a container engine answer on this machine, for the docker sandbox adapter.
#  - dockerd already answers: say so, exit 0.
#  - root: install what is missing (docker.io, debootstrap, bubblewrap) with apt-get, start dockerd
#    in the background (log: /var/log/codemidas-dockerd.log), wait up to 60 s for it.
#  - not root: print the commands to run.
# Idempotent and non-interactive (safe in CI, reads no stdin).
set -euo pipefail
export CI=true DEBIAN_FRONTEND=noninteractive
log=/var/log/codemidas-dockerd.log

engine_answers() { command -v docker >/dev/null 2>&1 && timeout 10 docker info >/dev/null 2>&1 </dev/null; }

if engine_answers; then
  echo "container engine: docker answers ($(docker version --format '{{.Server.Version}}' 2>/dev/null </dev/null || echo '?')); nothing to do"
  exit 0
fi

missing=()
command -v dockerd >/dev/null 2>&1 || missing+=(docker.io)
command -v debootstrap >/dev/null 2>&1 || missing+=(debootstrap)
command -v bwrap >/dev/null 2>&1 || missing+=(bubblewrap)

if [ "$(id -u)" -ne 0 ]; then
  echo "the container engine does not answer and this script is not running as root. Run:" >&2
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
