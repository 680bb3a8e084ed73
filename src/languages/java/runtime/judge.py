"""The Java judge: scores a workspace against a task's recorded cases in a fresh scoring sandbox.
Run as root: `python3 /opt/codemidas/java/judge.py`, configuration JSON on stdin:

    {"workspace": "/workspace", "hiddenDir": "/var/lib/codemidas/hidden", "cases": "cases.json",
     "caseTimeoutMs": 10000, "budgetMs": 120000, "uid": 1000, "gid": 1000,
     "dropPrivileges": true, "nonce": "..."}

Prints ONE line: `CODEMIDAS-JUDGE <nonce> <json>` with {"tests": [{"name", "status", "message"}],
"tampered": false, "budgetExhausted": bool, "detail": str}.

The expected outcomes stay here, in this process: the driver (record_driver.py's, generated from the
cases' inputs only) is compiled with the workspace's sources by javac and run by java, both as the
agent user, in a build folder outside the workspace (javac with `-proc:none`: no annotation processor
of the agent's runs; the classpath holds only the compiled classes, so no `META-INF/services` file
of the workspace is seen). Only the lines the driver writes to its output file that start with the
run's nonce are read, and they are compared here (codec values, floats within a relative 1e-9).
A workspace that does not compile (a shadowing class, a changed signature), a process that ends
early (`System.exit` in a static initialiser), a case that does not end: each case without an
outcome fails, and the judge itself never fails for the agent's code.
"""
import json
import os
import shutil
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import record_driver  # noqa: E402
from judge_values import clip, close_floats  # noqa: E402



def same(want, got):
    """Two codec values are the same: equal, floats of the same type within a relative 1e-9."""
    if isinstance(want, dict) and isinstance(got, dict):
        if want.get("t") == "float" and got.get("t") == "float" and want.get("type") == got.get("type"):
            return close_floats(want.get("v"), got.get("v"))
        return want.keys() == got.keys() and all(same(want[k], got[k]) for k in want)
    if isinstance(want, list) and isinstance(got, list):
        return len(want) == len(got) and all(same(x, y) for x, y in zip(want, got))
    return want == got


def verdict(case, outcome):
    """(passed, message) of one case's outcome against its expectation."""
    if outcome is None:
        return False, "no outcome (the code did not compile, the process ended early, or the call did not end)"
    if outcome.get("timeout"):
        return False, "timed out"
    if "error" in outcome:
        return False, clip(outcome["error"])
    expect = case.get("expect", {})
    if "raises" in expect:
        if "raises" in outcome:
            if outcome["raises"] == expect["raises"]:
                return True, ""
            return False, clip("expected a %s to be thrown, got a %s: %s" % (expect["raises"], outcome["raises"], outcome.get("message", "")))
        return False, clip("expected a %s to be thrown, got a return" % expect["raises"])
    if "raises" in outcome:
        return False, clip("threw a %s: %s" % (outcome["raises"], outcome.get("message", "")))
    want = expect.get("returns")
    if not same(want, outcome.get("returns")):
        return False, clip("expected %s, got %s" % (json.dumps(want)[:250], json.dumps(outcome.get("returns"))[:250]))
    after = case.get("argsAfter")
    if after is not None and not same(after, outcome.get("after")):
        return False, clip("after the call, expected %s, got %s" % (json.dumps(after)[:250], json.dumps(outcome.get("after"))[:250]))
    return True, ""


def case_plan(case):
    """The driver's case for a recorded one: its package, its call, its receiver and its typed arguments."""
    init = case.get("init") or {}
    receiver = (init.get("args") or [None])[0]
    return {"id": case["id"], "package": case.get("module", record_driver.DEFAULT_PACKAGE), "call": (init.get("kwargs") or {}).get("call") or {},
            "receiver": receiver.get("v") if isinstance(receiver, dict) else None, "args": case.get("args", [])}


def main():
    started = time.monotonic()
    config = json.load(sys.stdin)
    nonce = str(config.get("nonce", ""))
    workspace = config.get("workspace", "/workspace")
    hidden = config.get("hiddenDir", "/var/lib/codemidas/hidden")
    budget_s = config.get("budgetMs", 120000) / 1000
    call_timeout_ms = int(config.get("caseTimeoutMs", 10000))
    drop = config.get("dropPrivileges", True) and hasattr(os, "getuid") and os.getuid() == 0
    uid, gid = int(config.get("uid", 1000)), int(config.get("gid", 1000))
    with open(os.path.join(hidden, config.get("cases") or "cases.json"), encoding="utf-8") as f:
        cases = json.load(f).get("cases", [])
    if drop:
        record_driver.RUN_AS = (uid, gid)
    work = tempfile.mkdtemp(prefix="codemidas-judge-")
    if drop:
        os.chown(work, uid, gid)
    tests, exhausted, outcomes, rejected, problem = [], False, {}, {}, None
    try:
        remaining = budget_s - (time.monotonic() - started) - 5
        if remaining <= 5:
            exhausted = True
        else:
            planned = [case_plan(c) for c in cases]
            outcomes, _second, rejected, problem = record_driver.run_planned(workspace, work, planned, remaining, call_timeout_ms)
        if time.monotonic() - started > budget_s - 5:
            exhausted = True
    except Exception as e:  # the agent's code never fails the judge: its cases fail
        outcomes = {}
        sys.stderr.write("judge: %s\n" % e)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    why = {"compile": "javac refused the call (a changed signature?)", "timeout": "the call did not end within %d ms" % call_timeout_ms,
           "exited": "the process ended during the call (System.exit, a crash)"}
    for c in cases:
        passed, message = verdict(c, outcomes.get(c["id"]))
        if c["id"] not in outcomes:
            if problem is not None:
                message = clip("the workspace does not compile: %s" % problem)
            elif c["id"] in rejected:
                message = why.get(rejected[c["id"]], message)
        tests.append({"name": "case:%s" % c["id"], "status": "passed" if passed else "failed", "message": "" if passed else ("scoring time budget exhausted" if exhausted and c["id"] not in outcomes else message)})
    passed = sum(1 for t in tests if t["status"] == "passed")
    detail = "%d/%d passed" % (passed, len(tests))
    if not drop:
        detail += "; privileges not dropped: the agent's code could read the hidden tests"
    result = {"tests": tests, "tampered": False, "budgetExhausted": exhausted, "detail": detail}
    sys.stdout.write("CODEMIDAS-JUDGE %s %s\n" % (nonce, json.dumps(result)))


if __name__ == "__main__":
    main()
