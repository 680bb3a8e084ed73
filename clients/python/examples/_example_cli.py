"""What the three trainer-style examples share when run as scripts: their command line and the
task's reference files (read from the suites folder the server serves), which stand in for a policy.
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

CLIENT_ROOT = Path(__file__).resolve().parent.parent
REPO_ROOT = CLIENT_ROOT.parent.parent
if str(CLIENT_ROOT) not in sys.path:
    sys.path.insert(0, str(CLIENT_ROOT))


def parse_args(description: str, argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument("--address", default=os.environ.get("CODEMIDAS_ADDRESS", ""),
                        help="host:port of a running `codemidas serve` (env CODEMIDAS_ADDRESS)")
    parser.add_argument("--task", default=os.environ.get("CODEMIDAS_TASK", "sample/slugify"),
                        help="task id, e.g. sample/slugify (env CODEMIDAS_TASK)")
    parser.add_argument("--token", default=os.environ.get("CODEMIDAS_TOKEN") or None)
    parser.add_argument("--environments", default=str(REPO_ROOT / "environments"),
                        help="the suites folder the server serves (for the reference solution)")
    args = parser.parse_args(argv)
    if not args.address:
        parser.error("--address is required (or set CODEMIDAS_ADDRESS)")
    return args


def reference_files(environments: str | Path, task_id: str) -> dict[str, str]:
    """The task's reference files keyed by workspace-relative path ({} when not at hand)."""
    suite, name = task_id.split("/", 1)
    root = Path(environments) / suite / name / "solution"
    return {p.relative_to(root).as_posix(): p.read_text(encoding="utf-8")
            for p in sorted(root.rglob("*")) if p.is_file()}
