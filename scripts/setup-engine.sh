#!/usr/bin/env bash
# Makes a container engine answer on this machine, for the docker sandbox adapter, and installs
# the host tools the project uses (Debian packages).
#  - root: install what is missing (docker.io, debootstrap, bubblewrap, runsc, btrfs-progs; protoc
#    with the gRPC Python plugin, python3-grpcio, python3-protobuf and python3-pytest for
#    /usr/bin/python3) with apt-get, then
#      * gVisor: register Debian's runsc with dockerd (`runtimes.runsc` in daemon.json), for
#        `--runtime runsc`;
#      * disk quotas, only when asked (CODEMIDAS_DISK_QUOTA=1): put dockerd's data root on a btrfs
#        file system (a sparse loop file) with qgroups, so dockerd picks its btrfs storage driver
#        and `HostConfig.StorageOpt.size` caps what one sandbox writes (`--max-disk-bytes`).
#        overlay2 on ext4 has no per-container quota, overlay2 on XFS needs kernel XFS quotas
#        (this kernel is built without them), and this kernel has neither ext4 quotas nor
#        device-mapper; btrfs qgroups are what is left. Off by default because they are costly:
#        dockerd 20.10's btrfs driver runs a full qgroup rescan (~1 s here) at every layer removal,
#        so every container removal costs ~2 s of kernel time (measured: the test suite took 3,293 s
#        on it against 1,954 s without). scripts/setup-quota-engine.sh starts a second engine set
#        up so, beside the main one, for the disk-cap tests and for users who want the cap.
#        A data root this script once put on btrfs is put back on the plain disk (overlay2) when
#        quotas are not asked for: its images are rebuilt by `codemidas images build`;
#    start dockerd in the background when it does not answer (log: /var/log/codemidas-dockerd.log)
#    and wait up to 60 s for it. dockerd is stopped first only when its data root must move; a new
#    runtime alone is loaded with SIGHUP (containers keep running).
#  - not root: print the commands to run.
# Idempotent and non-interactive (safe in CI, reads no stdin).
#
# Settings (environment; the defaults are dockerd's own, so the machine's engine is the one set up):
#   CODEMIDAS_DOCKER_DATA_ROOT   data root            (default /var/lib/docker)
#   CODEMIDAS_DOCKER_CONFIG      daemon.json          (default /etc/docker/daemon.json)
#   CODEMIDAS_DOCKERD_PIDFILE    dockerd's pid file   (default /var/run/docker.pid)
#   CODEMIDAS_DOCKERD_ARGS       more dockerd flags, e.g. --host for a second engine (default none;
#                                set DOCKER_HOST to match so `docker` talks to that engine)
#   CODEMIDAS_DOCKERD_NETNS=1    start dockerd in a network namespace of its own (a second engine
#                                whose sandboxes need no network must not touch the host's bridge)
#   CODEMIDAS_DOCKERD_LOG        dockerd's log        (default /var/log/codemidas-dockerd.log)
#   CODEMIDAS_DISK_QUOTA=1       put the data root on btrfs with qgroups (per-sandbox disk caps)
#   CODEMIDAS_ENGINE_FS_FILE     the loop file        (default <data root>.btrfs, e.g. /var/lib/docker.btrfs)
#   CODEMIDAS_ENGINE_FS_BYTES    its size; sparse, so only what is written takes disk
#                                (default 80% of the free space where the file lives, at least 8 GiB)
#   CODEMIDAS_ENGINE_FS_FSTAB=0  do not add the mount to /etc/fstab (default: add it, with nofail)
#   CODEMIDAS_RUNSC=0            do not install or register runsc
set -euo pipefail
export CI=true DEBIAN_FRONTEND=noninteractive
log=${CODEMIDAS_DOCKERD_LOG:-/var/log/codemidas-dockerd.log}
data_root=${CODEMIDAS_DOCKER_DATA_ROOT:-/var/lib/docker}
data_root=${data_root%/}
daemon_json=${CODEMIDAS_DOCKER_CONFIG:-/etc/docker/daemon.json}
pidfile=${CODEMIDAS_DOCKERD_PIDFILE:-/var/run/docker.pid}
read -r -a dockerd_extra <<<"${CODEMIDAS_DOCKERD_ARGS:-}"
fs_file=${CODEMIDAS_ENGINE_FS_FILE:-$data_root.btrfs}
want_quota=${CODEMIDAS_DISK_QUOTA:-0}
want_netns=${CODEMIDAS_DOCKERD_NETNS:-0}
want_runsc=${CODEMIDAS_RUNSC:-1}
GIB=$((1024 * 1024 * 1024))

engine_answers() { command -v docker >/dev/null 2>&1 && timeout 10 docker info >/dev/null 2>&1 </dev/null; }

# The data root is a btrfs mount with quotas on, or an XFS mount with project quotas (the kernel
# shows pquota as prjquota).
quota_ready() {
  command -v findmnt >/dev/null 2>&1 || return 1
  local line
  # The last line is the mount on top, where the data root is itself a mount (a bind mount of the host's disk).
  line="$(findmnt -n -o FSTYPE,OPTIONS --mountpoint "$data_root" 2>/dev/null | tail -n 1 || true)"
  if [[ "$line" == btrfs* ]]; then
    [ "$(btrfs_quota_mode)" = squota ] || [ "$(btrfs_quota_mode)" = qgroup ]
  else
    [[ "$line" == xfs* && "$line" == *prjquota* ]]
  fi
}

# disabled, qgroup (full accounting) or squota (simple quotas), from sysfs (kernel 6.7 and later).
btrfs_quota_mode() {
  local uuid
  uuid="$(findmnt -n -o UUID --mountpoint "$data_root" 2>/dev/null | tail -n 1 || true)"
  cat "/sys/fs/btrfs/$uuid/qgroups/mode" 2>/dev/null || { [ -d "/sys/fs/btrfs/$uuid/qgroups" ] && echo qgroup || echo disabled; }
}

# Full qgroup accounting. Simple quotas (Linux 6.7+: a container's quota counts only what it wrote,
# and a snapshot costs ~50 ms) would be cheaper, but dockerd 20.10's btrfs driver does not see them
# as quotas: at its first capped container it turns full accounting on over them, which leaves the
# qgroups inconsistent, and an inconsistent qgroup enforces no limit at all (seen here: a 512 MiB
# cap let 704 MiB through). So full accounting from the start: a sandbox's cap then counts its
# image's extents too (~200 MiB of the python image), and each container create costs more.
enable_btrfs_quota() {
  [ "$(btrfs_quota_mode)" = disabled ] || return 0
  btrfs quota enable "$data_root"
  echo "turned on btrfs qgroup accounting on $data_root"
}

# Inconsistent qgroups (after a mode change, a crash) enforce nothing until a rescan; it runs online.
rescan_btrfs_quota_if_inconsistent() {
  local uuid
  uuid="$(findmnt -n -o UUID --mountpoint "$data_root" 2>/dev/null | tail -n 1 || true)"
  [ -n "$uuid" ] && [ "$(cat "/sys/fs/btrfs/$uuid/qgroups/inconsistent" 2>/dev/null || echo 0)" = 1 ] || return 0
  echo "the btrfs qgroups on $data_root are inconsistent (they enforce no limit so): rescanning ..."
  btrfs quota rescan -w "$data_root" >/dev/null
}

# How dockerd runs runsc. --network=none: the sandboxes have no network (NetworkMode none), and
# without the flag runsc refuses such a container here ("cannot run with network enabled in root
# network namespace"). --host-uds=open: the relay may connect to the host's Unix socket bind-mounted
# into its sandbox (the one such socket; the host removes it once the relay is connected).
runsc_entry() { printf '{"path": "%s", "runtimeArgs": ["--network=none", "--host-uds=open"]}' "$(command -v runsc)"; }

# daemon.json names runsc under "runtimes" as runsc_entry says.
runsc_registered() {
  [ -f "$daemon_json" ] && command -v runsc >/dev/null 2>&1 && command -v python3 >/dev/null 2>&1 &&
    python3 - "$daemon_json" "$(runsc_entry)" <<'PY' >/dev/null 2>&1
import json, sys
with open(sys.argv[1]) as f:
    config = json.load(f)
sys.exit(0 if config.get("runtimes", {}).get("runsc") == json.loads(sys.argv[2]) else 1)
PY
}

# The answering engine has both (what `docker info` says, not what the files say).
engine_isolation_ready() {
  local info
  info="$(timeout 10 docker info --format '{{json .DriverStatus}} {{json .Runtimes}}' 2>/dev/null </dev/null || true)"
  if [ "$want_quota" = 1 ] && [[ "$info" != *'"Backing Filesystem","xfs"'* ]] && ! timeout 10 docker info --format '{{.Driver}}' 2>/dev/null </dev/null | grep -qx btrfs; then return 1; fi
  if [ "$want_runsc" = 1 ] && [[ "$info" != *'"runsc"'* ]]; then return 1; fi
  return 0
}

dockerd_pid() {
  local pid
  pid="$(cat "$pidfile" 2>/dev/null || true)"
  if [ -n "$pid" ] && kill -0 "$pid" 2>/dev/null && [ "$(cat "/proc/$pid/comm" 2>/dev/null)" = dockerd ]; then echo "$pid"; fi
}

stop_dockerd() {
  local pid
  pid="$(dockerd_pid)"
  if [ -z "$pid" ]; then
    if engine_answers; then
      echo "a container engine answers but no dockerd runs with the pid file $pidfile; stop it yourself (its containers stop with it), then run this script again" >&2
      exit 1
    fi
    return 0
  fi
  echo "stopping dockerd (pid $pid) to move its data root; its containers stop ..."
  kill -TERM "$pid"
  for _ in $(seq 1 90); do
    kill -0 "$pid" 2>/dev/null || return 0
    sleep 1
  done
  echo "dockerd (pid $pid) did not stop within 90 s; stop it yourself, then run this script again" >&2
  exit 1
}

# Mounts the loop file on the data root, making both first when needed, and turns quotas on.
put_data_root_on_btrfs() {
  if [ ! -f "$fs_file" ]; then
    local dir avail size
    dir="$(dirname "$fs_file")"
    mkdir -p "$dir"
    avail="$(df --output=avail -B1 "$dir" | tail -n 1 | tr -d ' ')"
    size="${CODEMIDAS_ENGINE_FS_BYTES:-$((avail / 10 * 8))}"
    if [ "$size" -lt $((8 * GIB)) ]; then
      echo "only $((avail / GIB)) GiB free under $dir: the engine's file system needs at least 8 GiB (free some space, or set CODEMIDAS_ENGINE_FS_BYTES)" >&2
      exit 1
    fi
    echo "making $fs_file: a sparse $((size / GIB)) GiB btrfs file system for the engine's data root ..."
    truncate -s "$size" "$fs_file.partial"
    mkfs.btrfs -q "$fs_file.partial" >/dev/null
    mv "$fs_file.partial" "$fs_file"
    made_fs=1
  fi
  if [ -d "$data_root" ] && ! mountpoint -q "$data_root" && [ -n "$(ls -A "$data_root" 2>/dev/null)" ]; then
    if findmnt -rn -o TARGET | grep -qF "$data_root/"; then
      echo "file systems are still mounted under $data_root (a container engine that did not stop cleanly?); unmount them, then run this script again" >&2
      exit 1
    fi
    local aside
    aside="$data_root.pre-quota.$(date +%Y%m%d%H%M%S)"
    mv "$data_root" "$aside"
    echo "moved the old data root to $aside; once the engine works, free its space with: rm -rf '$aside'"
  fi
  mkdir -p "$data_root"
  # Mounted over whatever is there: a data root that is itself a mount of another file system (some
  # machines bind the host's disk there) cannot be moved aside; its old content is only hidden.
  if [ "$(findmnt -n -o FSTYPE --mountpoint "$data_root" 2>/dev/null | tail -n 1)" != btrfs ]; then
    mount -o loop,noatime "$fs_file" "$data_root"
    echo "mounted $fs_file on $data_root (btrfs)"
  fi
  enable_btrfs_quota
  if [ "${CODEMIDAS_ENGINE_FS_FSTAB:-1}" = 1 ] && [ -f /etc/fstab ] && ! grep -qsF "$fs_file $data_root " /etc/fstab; then
    echo "$fs_file $data_root btrfs loop,noatime,nofail 0 0" >>/etc/fstab
    echo "added the mount to /etc/fstab (nofail); without it, running this script again mounts it"
  fi
}

# The data root is the btrfs loop file this script made (CODEMIDAS_DISK_QUOTA=1 once) mounted there.
on_our_btrfs() {
  command -v findmnt >/dev/null 2>&1 && command -v losetup >/dev/null 2>&1 && [ -f "$fs_file" ] || return 1
  local source
  source="$(findmnt -n -o SOURCE --mountpoint "$data_root" 2>/dev/null | tail -n 1 || true)"
  [ -n "$source" ] && losetup -j "$fs_file" -O NAME -n 2>/dev/null | grep -qxF "$source"
}

# Unmounts that btrfs (dockerd's own bind mounts under it first) and drops its /etc/fstab line, so
# dockerd runs on the plain disk below with overlay2. The loop file stays (sparse), so asking for
# quotas again needs no new file system; remove it to free its space.
take_data_root_off_btrfs() {
  local target
  { findmnt -rn -o TARGET | grep -F "$data_root/" || true; } | sort -r | while read -r target; do umount "$target" || umount -l "$target"; done
  umount "$data_root" || umount -l "$data_root"
  if [ -f /etc/fstab ] && grep -qsF "$fs_file $data_root " /etc/fstab; then
    grep -vF "$fs_file $data_root " /etc/fstab >/etc/fstab.codemidas-tmp && cat /etc/fstab.codemidas-tmp >/etc/fstab && rm -f /etc/fstab.codemidas-tmp
  fi
  echo "put the data root $data_root back on the plain disk (overlay2, no per-sandbox disk cap; CODEMIDAS_DISK_QUOTA=1 asks for one); $fs_file is kept, remove it to free its space"
}

# Adds runtimes.runsc to daemon.json, keeping what else it holds. Prints "changed" when it wrote.
register_runsc() {
  mkdir -p "$(dirname "$daemon_json")"
  python3 - "$daemon_json" "$(runsc_entry)" <<'PY'
import json, os, sys
path, entry = sys.argv[1], json.loads(sys.argv[2])
config = {}
if os.path.exists(path):
    with open(path) as f:
        text = f.read()
    config = json.loads(text) if text.strip() else {}
runtimes = config.setdefault("runtimes", {})
if runtimes.get("runsc") != entry:
    runtimes["runsc"] = entry
    tmp = path + ".codemidas-tmp"
    with open(tmp, "w") as f:
        json.dump(config, f, indent=2)
        f.write("\n")
    os.replace(tmp, path)
    print("changed")
PY
}

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
if [ "$want_quota" = 1 ]; then command -v mkfs.btrfs >/dev/null 2>&1 || missing+=(btrfs-progs); fi
if [ "$want_runsc" = 1 ]; then command -v runsc >/dev/null 2>&1 || missing+=(runsc); fi

if [ "$want_quota" = 1 ] && [ "$(id -u)" -eq 0 ] && command -v btrfs >/dev/null 2>&1; then rescan_btrfs_quota_if_inconsistent; fi

needs_quota=0
needs_plain=0
made_fs=0
needs_runsc=0
if [ "$want_quota" = 1 ] && ! quota_ready; then needs_quota=1; fi
if [ "$want_quota" != 1 ] && on_our_btrfs; then needs_plain=1; fi
if [ "$want_runsc" = 1 ] && ! runsc_registered; then needs_runsc=1; fi

if [ "${#missing[@]}" -eq 0 ] && [ "$needs_quota" = 0 ] && [ "$needs_plain" = 0 ] && [ "$needs_runsc" = 0 ] && engine_answers && engine_isolation_ready; then
  echo "container engine: docker answers ($(docker version --format '{{.Server.Version}}' 2>/dev/null </dev/null || echo '?')); data root $data_root$([ "$want_quota" = 1 ] && echo ' with per-container disk quotas'); $([ "$want_runsc" = 1 ] && echo 'runsc registered; ')host tools present; nothing to do"
  exit 0
fi

if [ "$(id -u)" -ne 0 ]; then
  echo "the container engine does not answer, host packages are missing, or the engine lacks disk quotas or runsc, and this script is not running as root. Run:" >&2
  if [ "${#missing[@]}" -gt 0 ]; then
    echo "  sudo apt-get update && sudo apt-get install -y ${missing[*]}" >&2
  fi
  echo "  sudo bash scripts/setup-engine.sh   # starts dockerd; puts its data root on XFS with project quotas; registers runsc" >&2
  echo "  sudo usermod -aG docker \"\$USER\"   # then log in again, so docker works without sudo" >&2
  exit 1
fi

if [ "${#missing[@]}" -gt 0 ]; then
  echo "installing ${missing[*]} ..."
  apt-get update -q </dev/null
  apt-get install -y -q --no-install-recommends "${missing[@]}" </dev/null
fi

config_changed=0
if [ "$needs_runsc" = 1 ]; then
  if [ -n "$(register_runsc)" ]; then
    config_changed=1
    echo "registered runsc ($(command -v runsc)) as a runtime in $daemon_json"
  fi
fi

if [ "$needs_quota" = 1 ]; then
  stop_dockerd
  put_data_root_on_btrfs
fi
if [ "$needs_plain" = 1 ]; then
  stop_dockerd
  take_data_root_off_btrfs
  made_fs=1
fi

if [ "$config_changed" = 1 ] && [ -n "$(dockerd_pid)" ]; then
  # dockerd reloads "runtimes" on SIGHUP; containers keep running.
  kill -HUP "$(dockerd_pid)"
  sleep 1
fi

if [ -z "$(dockerd_pid)" ] && ! engine_answers; then
  if pgrep -x dockerd >/dev/null 2>&1 && [ "$pidfile" = /var/run/docker.pid ]; then
    echo "a dockerd runs but does not answer and its pid file $pidfile names no dockerd; stop it, then run this script again" >&2
    exit 1
  fi
  # a pid file naming no dockerd is left from one that died (or from before a reboot): dockerd
  # refuses to start while it is there
  if [ -f "$pidfile" ]; then
    echo "removing the stale pid file $pidfile (it names no running dockerd)"
    rm -f "$pidfile"
  fi
  echo "starting dockerd (log: $log) ..."
  dockerd_args=(--data-root "$data_root" --pidfile "$pidfile" "${dockerd_extra[@]}")
  [ -f "$daemon_json" ] && dockerd_args+=(--config-file "$daemon_json")
  mkdir -p "$(dirname "$pidfile")"
  # dockerd (and the runsc it starts) outlives whoever called this: it must not inherit a TMPDIR that
  # goes away with the caller (a test run's scratch folder), or runsc can no longer start a sandbox
  if [ "$want_netns" = 1 ]; then
    env -u TMPDIR nohup unshare --net dockerd "${dockerd_args[@]}" >"$log" 2>&1 </dev/null &
  else
    env -u TMPDIR nohup dockerd "${dockerd_args[@]}" >"$log" 2>&1 </dev/null &
  fi
fi

for _ in $(seq 1 60); do
  if engine_answers; then
    if ! engine_isolation_ready; then
      sleep 1
      engine_isolation_ready || {
        echo "docker answers, but 'docker info' shows $(docker info --format 'backing file system {{json .DriverStatus}}, runtimes {{json .Runtimes}}' 2>/dev/null </dev/null):" >&2
        echo "the running dockerd did not take up the XFS data root or the runsc runtime; restart it (stop it, then run this script again)" >&2
        exit 1
      }
    fi
    echo "container engine: docker answers; data root $data_root$([ "$want_quota" = 1 ] && echo ' with per-container disk quotas (--max-disk-bytes works)')$([ "$want_runsc" = 1 ] && echo '; runsc registered (--runtime runsc)')"
    [ "$made_fs" = 1 ] && echo "the new data root holds no images yet: build them with 'node bin/codemidas.js images build' (about a minute)"
    exit 0
  fi
  sleep 1
done
echo "dockerd did not answer within 60 s; the last lines of $log:" >&2
tail -n 30 "$log" >&2 || true
exit 1
