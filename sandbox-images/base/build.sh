#!/usr/bin/env bash
# Builds the base sandbox image from nothing pulled: a Debian root filesystem made with
# debootstrap, imported as an image. Usage: build.sh <image-tag>
set -euo pipefail
tag="${1:?usage: build.sh <image-tag>}"
suite="${CODEMIDAS_DEBIAN_SUITE:-bookworm}"
mirror="${CODEMIDAS_DEBIAN_MIRROR:-http://deb.debian.org/debian}"
if ! command -v debootstrap >/dev/null 2>&1; then
  echo "debootstrap is missing: install it with 'apt-get install -y debootstrap' (as root)" >&2
  exit 3
fi
work="$(mktemp -d "${TMPDIR:-/tmp}/codemidas-rootfs.XXXXXX")"
trap 'rm -rf "$work"' EXIT
echo "debootstrap --variant=minbase $suite (about 30 s) ..." >&2
debootstrap --variant=minbase --include=python3,ca-certificates "$suite" "$work/rootfs" "$mirror" >"$work/debootstrap.log" 2>&1 || {
  tail -n 30 "$work/debootstrap.log" >&2
  echo "debootstrap failed: check that $mirror is reachable (CODEMIDAS_DEBIAN_MIRROR overrides it)" >&2
  exit 4
}
# The unprivileged agent user (uid/gid 1000) every episode runs as, and the folders the sandbox
# layer relies on: /workspace (the agent's), /opt/codemidas (relay, scoring scripts; root's),
# /var/lib/codemidas (scoring state; root's).
chroot "$work/rootfs" /usr/sbin/groupadd -g 1000 agent
chroot "$work/rootfs" /usr/sbin/useradd -m -u 1000 -g 1000 -s /bin/bash agent
mkdir -p "$work/rootfs/workspace" "$work/rootfs/opt/codemidas" "$work/rootfs/var/lib/codemidas"
chown 1000:1000 "$work/rootfs/workspace"
chmod 0755 "$work/rootfs/workspace" "$work/rootfs/opt/codemidas" "$work/rootfs/var/lib/codemidas"
# Keep the image small: no package lists or docs are needed at run time.
rm -rf "$work/rootfs/var/lib/apt/lists/"* "$work/rootfs/var/cache/apt/archives/"*.deb \
  "$work/rootfs/usr/share/doc" "$work/rootfs/usr/share/man" "$work/rootfs/usr/share/locale"
echo "deb $mirror $suite main" > "$work/rootfs/etc/apt/sources.list"
tar -C "$work/rootfs" -c . | docker import \
  --change 'ENV LANG=C.UTF-8 PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin' \
  --change 'WORKDIR /workspace' \
  --change 'CMD ["/bin/bash"]' - "$tag" >/dev/null
echo "imported $tag" >&2
