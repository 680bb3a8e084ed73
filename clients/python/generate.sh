#!/usr/bin/env bash
# Generates the Python gRPC stubs of proto/codemidas/v1/environment.proto into
# clients/python/codemidas_client/_gen/ (build output, not committed).
#
# Uses protoc with Debian's grpc_python_plugin (package protobuf-compiler-grpc), which works with
# Debian's python3-grpcio; no PyPI grpcio-tools needed. Idempotent and fast: when the stamp in _gen/
# matches the proto's hash and the generator versions, it does nothing. The output is built in a
# temporary folder and renamed into place, so concurrent runs never see half-written stubs.
#
# Usage: clients/python/generate.sh [--force]
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../.." && pwd)"
proto_root="${CODEMIDAS_PROTO_ROOT:-$root/proto}"
proto_rel="codemidas/v1/environment.proto"
out="$here/codemidas_client/_gen"

if [[ ! -f "$proto_root/$proto_rel" ]]; then
  echo "generate.sh: $proto_root/$proto_rel not found (set CODEMIDAS_PROTO_ROOT to the folder holding codemidas/)" >&2
  exit 2
fi
protoc_bin="$(command -v protoc || true)"
plugin_bin="$(command -v grpc_python_plugin || true)"
if [[ -z "$protoc_bin" || -z "$plugin_bin" ]]; then
  echo "generate.sh: protoc and grpc_python_plugin are needed: apt-get install -y protobuf-compiler protobuf-compiler-grpc" >&2
  exit 3
fi

# The stamp covers the proto's content and the generator, so an upgraded protoc regenerates.
stamp="$(sha256sum "$proto_root/$proto_rel" | cut -d' ' -f1) $("$protoc_bin" --version)"
if [[ "${1:-}" != "--force" && -f "$out/STAMP" && "$(cat "$out/STAMP")" == "$stamp" ]]; then
  exit 0
fi

tmp="$(mktemp -d "$here/codemidas_client/._gen.XXXXXX")"
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/raw" "$tmp/pkg"
"$protoc_bin" -I "$proto_root" \
  --plugin=protoc-gen-grpc_python="$plugin_bin" \
  --python_out="$tmp/raw" --grpc_python_out="$tmp/raw" \
  "$proto_root/$proto_rel"

# protoc writes codemidas/v1/*.py with an absolute import of `codemidas.v1`; flatten them into one
# package and make that import relative, so the stubs need nothing on sys.path.
cp "$tmp/raw/codemidas/v1/environment_pb2.py" "$tmp/pkg/environment_pb2.py"
sed -e 's/^from codemidas\.v1 import environment_pb2 as /from . import environment_pb2 as /' \
  "$tmp/raw/codemidas/v1/environment_pb2_grpc.py" > "$tmp/pkg/environment_pb2_grpc.py"
if grep -q '^from codemidas' "$tmp/pkg/environment_pb2_grpc.py"; then
  echo "generate.sh: unexpected import layout in the generated grpc module" >&2
  exit 4
fi
printf '"""Generated from %s by clients/python/generate.sh. Do not edit."""\n' "$proto_rel" > "$tmp/pkg/__init__.py"
printf '%s\n' "$stamp" > "$tmp/pkg/STAMP"

# Swap in atomically: rename the old folder aside, rename the new one in, then drop the old.
old="$tmp/old"
if [[ -e "$out" ]]; then mv "$out" "$old" 2>/dev/null || true; fi
if ! mv -T "$tmp/pkg" "$out" 2>/dev/null; then
  # Another run won the race; its output is equivalent.
  [[ -f "$out/STAMP" ]] || { echo "generate.sh: could not install $out" >&2; exit 5; }
fi
echo "generated $out" >&2
