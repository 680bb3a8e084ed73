#!/usr/bin/env bash
# Starts a second container engine beside the machine's own, set up for per-sandbox disk caps
# (`--max-disk-bytes`): its data root is a sparse btrfs loop file with qgroups (see
# scripts/setup-engine.sh, CODEMIDAS_DISK_QUOTA=1). It is a separate engine because qgroups make
# every container removal on that engine cost a full qgroup rescan (~1 s here), which the main
# engine, running every other sandbox, should not pay.
#
# The engine answers on unix:///run/codemidas-quota-engine/docker.sock (CODEMIDAS_QUOTA_DOCKER_HOST),
# runs in a network namespace of its own (its sandboxes have no network; it must not touch the
# host's bridge) and registers runsc like the main engine. It cannot pull or build from the network:
# copy images into it from the main engine (the disk-cap tests do: tests/fixtures/quota-engine.ts),
# e.g. `docker save codemidas/python:TAG | DOCKER_HOST=unix:///run/codemidas-quota-engine/docker.sock docker load`.
#
# Use it: `DOCKER_HOST=unix:///run/codemidas-quota-engine/docker.sock codemidas serve --max-disk-bytes 2G`.
# Idempotent; as root. Settings: CODEMIDAS_QUOTA_ENGINE_DIR (default /var/lib/codemidas-quota-engine),
# CODEMIDAS_QUOTA_ENGINE_BYTES (its loop file's size, default 16 GiB, sparse).
set -euo pipefail
cd "$(dirname "$0")/.."
dir=${CODEMIDAS_QUOTA_ENGINE_DIR:-/var/lib/codemidas-quota-engine}
run=/run/codemidas-quota-engine
mkdir -p "$run"
export DOCKER_HOST=${CODEMIDAS_QUOTA_DOCKER_HOST:-unix://$run/docker.sock}
export CODEMIDAS_DISK_QUOTA=1
export CODEMIDAS_DOCKERD_NETNS=1
export CODEMIDAS_DOCKER_DATA_ROOT="$dir/data"
export CODEMIDAS_ENGINE_FS_FILE="$dir/data.btrfs"
export CODEMIDAS_ENGINE_FS_BYTES=${CODEMIDAS_QUOTA_ENGINE_BYTES:-$((16 * 1024 * 1024 * 1024))}
export CODEMIDAS_ENGINE_FS_FSTAB=0
export CODEMIDAS_DOCKERD_PIDFILE="$run/dockerd.pid"
export CODEMIDAS_DOCKERD_LOG=/var/log/codemidas-quota-engine.log
export CODEMIDAS_DOCKERD_ARGS="--host $DOCKER_HOST --exec-root $run/exec --bridge=none --iptables=false --ip-masq=false --ip-forward=false"
mkdir -p "$dir"
exec bash scripts/setup-engine.sh
