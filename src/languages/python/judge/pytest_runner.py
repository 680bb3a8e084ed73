"""Hardened pytest entry point for a task's test scripts.

Started by judge.py as the unprivileged agent user with `python3 -I -B pytest_runner.py`, from a
fresh folder outside the workspace that holds copies of the scripts; its configuration arrives as
JSON on stdin (not argv, so it is not sitting in sys.argv for the agent's code to read):
{"workspace": "...", "importPaths": [...], "args": [...]} where importPaths are the task's import
roots already joined under the workspace by the judge, and args are the server-built pytest
arguments (`-c`, `--rootdir`, `--confcutdir`, `-p no:cacheprovider`, `--junitxml`, the script paths).

`-I` keeps PYTHON* variables, the user site and the script's folder out of sys.path; the workspace,
then each import path, is appended so none can shadow the standard library or pytest itself. The process ends with
os._exit right after pytest.main returns, so atexit hooks planted by the agent's code never run.
"""
import json
import os
import sys


def _harden_self():
    try:
        import resource

        resource.setrlimit(resource.RLIMIT_NPROC, (256, 256))
    except (ImportError, ValueError, OSError):
        pass
    try:
        # Behind the judge and the relay for the sandbox's CPU (children inherit it; an unprivileged
        # process cannot undo it): a CPU-bound fork bomb cannot starve them past their deadlines.
        # Only nice, not SCHED_IDLE: an idle-class process is preempted by every task on the host
        # and an honest run slows down under the load of other sandboxes.
        os.nice(19)
    except OSError:
        pass
    try:
        with open("/proc/self/oom_score_adj", "w") as handle:
            handle.write("1000")
    except OSError:
        pass


def main():
    config = json.loads(sys.stdin.read())
    sys.stdin.close()
    _harden_self()
    sys.dont_write_bytecode = True
    import pytest  # imported before the workspace joins sys.path: the system copy, always

    sys.path.append(config["workspace"])
    sys.path.extend(str(p) for p in config.get("importPaths", []))
    try:
        code = int(pytest.main(list(config["args"])))
    except BaseException:  # noqa: BLE001 - whatever happened, the report (or its absence) decides
        code = 99
    try:
        sys.stdout.flush()
        sys.stderr.flush()
    except BaseException:  # noqa: BLE001
        pass
    os._exit(code if 0 <= code < 256 else 99)


if __name__ == "__main__":
    main()
