"""Loads the generated gRPC stubs, running ``generate.sh`` first when they are missing or stale.

The stubs are build output (``_gen/`` is not committed). In a source checkout the proto sits at
``<repo>/proto/codemidas/v1/environment.proto``; when its hash differs from the one recorded in
``_gen/STAMP`` the stubs are regenerated, so an edited proto never meets old stubs.
"""

from __future__ import annotations

import hashlib
import importlib
import subprocess
from pathlib import Path
from types import ModuleType

_PACKAGE_DIR = Path(__file__).resolve().parent
_GEN_DIR = _PACKAGE_DIR / "_gen"
_GENERATE_SH = _PACKAGE_DIR.parent / "generate.sh"
_PROTO = _PACKAGE_DIR.parent.parent.parent / "proto" / "codemidas" / "v1" / "environment.proto"


def _stubs_current() -> bool:
    stamp = _GEN_DIR / "STAMP"
    if not (stamp.is_file() and (_GEN_DIR / "environment_pb2.py").is_file()
            and (_GEN_DIR / "environment_pb2_grpc.py").is_file()):
        return False
    if not _PROTO.is_file():
        # Installed away from the repository: whatever was generated is all there is.
        return True
    recorded = stamp.read_text(encoding="utf-8").split(" ", 1)[0].strip()
    return recorded == hashlib.sha256(_PROTO.read_bytes()).hexdigest()


def ensure_generated() -> None:
    """Runs ``generate.sh`` when the stubs are missing or older than the proto."""
    if _stubs_current():
        return
    if not _GENERATE_SH.is_file():
        raise ImportError(
            f"codemidas_client: generated stubs missing in {_GEN_DIR} and {_GENERATE_SH} not found; "
            "run clients/python/generate.sh from a source checkout")
    result = subprocess.run(["bash", str(_GENERATE_SH)], capture_output=True, text=True, check=False)
    if result.returncode != 0:
        raise ImportError(
            f"codemidas_client: {_GENERATE_SH} failed (exit {result.returncode}): {result.stderr.strip()}")
    importlib.invalidate_caches()


def load() -> tuple[ModuleType, ModuleType]:
    """Returns ``(environment_pb2, environment_pb2_grpc)``."""
    ensure_generated()
    pb2 = importlib.import_module(f"{__package__}._gen.environment_pb2")
    pb2_grpc = importlib.import_module(f"{__package__}._gen.environment_pb2_grpc")
    return pb2, pb2_grpc


pb2, pb2_grpc = load()
