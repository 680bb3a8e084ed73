"""The Go judge (issue 20): scores a workspace against a task's recorded cases in a fresh scoring
sandbox. Run as root: `python3 /opt/codemidas/go/judge.py`, configuration JSON on stdin:

    {"workspace": "/workspace", "hiddenDir": "/var/lib/codemidas/hidden", "cases": "cases.json",
     "caseTimeoutMs": 10000, "budgetMs": 120000, "uid": 1000, "gid": 1000,
     "dropPrivileges": true, "nonce": "..."}

A case's arguments carry their parameters' types as recorded (`{"t": "go", "v": "\"abc\"",
"type": "string"}`): a workspace whose signature no longer takes them does not compile.

Prints ONE line: `CODEMIDAS-JUDGE <nonce> <json>` with {"tests": [{"name", "status", "message"}],
"tampered": false, "budgetExhausted": bool, "detail": str}.

The expected outcomes stay here: the driver compiled into each package (record_driver.py's, with
the same codec) holds only the cases' inputs, and `go test` runs as the agent user, with the
package's own `_test.go` files set aside (a `TestMain` of the agent's never runs) and the build's
temporary files in a folder the agent user owns. What the driver writes is data compared here
(codec values, floats within a relative 1e-9); a package that does not compile, a process that
exits early (`os.Exit` in an `init`), a case that does not end: each case without an outcome
fails, and the judge itself never fails for the agent's code.
"""
import json
import os
import shutil
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import record_driver  # noqa: E402
from judge_values import clip, close_floats  # noqa: E402



def same(want, got):
    """Two codec values are the same: equal, floats (and complex parts) within a relative 1e-9."""
    if isinstance(want, dict) and isinstance(got, dict):
        if want.get("t") in ("float", "complex") and got.get("t") == want.get("t") and want.get("type") == got.get("type"):
            w, g = want.get("v"), got.get("v")
            if isinstance(w, list) and isinstance(g, list):
                return len(w) == len(g) and all(close_floats(x, y) for x, y in zip(w, g))
            return close_floats(w, g)
        return want.keys() == got.keys() and all(same(want[k], got[k]) for k in want)
    if isinstance(want, list) and isinstance(got, list):
        return len(want) == len(got) and all(same(x, y) for x, y in zip(want, got))
    return want == got


def verdict(case, outcome):
    """(passed, message) of one case's outcome against its expectation."""
    if outcome is None:
        return False, "no outcome (the package did not build, the process ended early, or the call did not end)"
    if outcome.get("timeout"):
        return False, "timed out"
    if "error" in outcome:
        return False, clip("the outcome could not be written: %s" % outcome["error"])
    expect = case.get("expect", {})
    if "raises" in expect:
        if "panics" in outcome:
            if outcome["panics"] == expect["raises"]:
                return True, ""
            return False, clip("expected a panic with a %s, got a panic with a %s: %s" % (expect["raises"], outcome["panics"], outcome.get("message", "")))
        return False, clip("expected a panic with a %s, got a return" % expect["raises"])
    if "panics" in outcome:
        return False, clip("panicked with a %s: %s" % (outcome["panics"], outcome.get("message", "")))
    want = (expect.get("returns") or {}).get("v", [])
    if not same(want, outcome.get("returns")):
        return False, clip("expected %s, got %s" % (json.dumps(want)[:250], json.dumps(outcome.get("returns"))[:250]))
    after = case.get("argsAfter")
    if after is not None and not same(after, outcome.get("after")):
        return False, clip("after the call, expected %s, got %s" % (json.dumps(after)[:250], json.dumps(outcome.get("after"))[:250]))
    return True, ""


def case_plan(case):
    """The driver's case for a recorded one: its target, its receiver and its typed arguments, as Go source."""
    receiver = ((case.get("init") or {}).get("args") or [None])[0]
    return case["target"], receiver.get("v") if isinstance(receiver, dict) else None, case.get("args", [])


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
    tests, exhausted = [], False
    record_driver.GO_TMP = os.path.join(workspace, ".codemidas-go-tmp-%d" % os.getpid())
    os.makedirs(record_driver.GO_TMP, exist_ok=True)
    if drop:
        os.chown(record_driver.GO_TMP, uid, gid)
        record_driver.RUN_AS = (uid, gid)
    work = os.path.join(record_driver.GO_TMP, "out")
    os.makedirs(work, exist_ok=True)
    if drop:
        os.chown(work, uid, gid)
    by_package = {}
    for c in cases:
        by_package.setdefault(c.get("module", "."), []).append(c)
    try:
        for package in sorted(by_package):
            remaining = budget_s - (time.monotonic() - started)
            outcomes = {}
            if remaining <= 5:
                exhausted = True
            else:
                planned = []
                for c in by_package[package]:
                    planned.append({"id": c["id"], "code": record_driver.case_code(*case_plan(c))})
                # a margin for compiling the verdicts and printing them within the budget
                outcomes = record_driver.run_package_cases(workspace, package, planned, work, remaining - 5, call_timeout_ms)
            for c in by_package[package]:
                passed, message = verdict(c, outcomes.get(c["id"]))
                tests.append({"name": "case:%s" % c["id"], "status": "passed" if passed else "failed", "message": "" if passed else ("scoring time budget exhausted" if exhausted else message)})
    finally:
        shutil.rmtree(record_driver.GO_TMP, ignore_errors=True)
    passed = sum(1 for t in tests if t["status"] == "passed")
    detail = "%d/%d passed" % (passed, len(tests))
    if not drop:
        detail += "; privileges not dropped: the agent's code could read the hidden tests"
    result = {"tests": tests, "tampered": False, "budgetExhausted": exhausted, "detail": detail}
    sys.stdout.write("CODEMIDAS-JUDGE %s %s\n" % (nonce, json.dumps(result)))


if __name__ == "__main__":
    main()
