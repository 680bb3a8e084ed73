"""The Rust judge: scores a workspace against a task's recorded cases in a fresh scoring sandbox.
Run as root: `python3 /opt/codemidas/rust/judge.py`, configuration JSON on stdin:

    {"workspace": "/workspace", "hiddenDir": "/var/lib/codemidas/hidden", "cases": "cases.json",
     "caseTimeoutMs": 10000, "budgetMs": 120000, "uid": 1000, "gid": 1000,
     "dropPrivileges": true, "nonce": "..."}

A case's arguments carry their parameters' types as recorded (`{"t": "rust", "v": "\"abc\"",
"type": "&str"}`): a workspace whose signature no longer takes them does not compile.

Prints ONE line: `CODEMIDAS-JUDGE <nonce> <json>` with {"tests": [{"name", "status", "message"}],
"tampered": false, "budgetExhausted": bool, "detail": str}.

The expected outcomes stay here: the driver compiled into the crate (record_driver.py's) holds only
the cases' inputs. cargo and the test binary run as the agent user, with the build's files in a
folder that user owns. As for the record run, the crate's `build.rs` and `.cargo/` are set aside and
Cargo.toml loses its build key, profiles and dev/build dependencies: a build script never runs, and
`panic = "abort"` cannot stop panics from being caught (tests always unwind). What the driver writes
is data compared here (the type and `{:?}` text of the result; a float within a relative 1e-9); a
crate that does not compile, a process that exits early (a constructor in `.init_array` that exits,
`std::process::exit` in the body), a case that does not end: each case without an outcome fails,
and the judge itself never fails for the agent's code.
"""
import json
import os
import shutil
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import record_driver  # noqa: E402
from judge_values import clip, close_floats  # noqa: E402

FLOAT_TYPES = ("f64", "f32")


def same(want, got):
    """Two codec values are the same: the same type and `{:?}` text; a float (or `Some(<float>)`)
    within a relative 1e-9."""
    if not isinstance(want, dict) or not isinstance(got, dict):
        return want == got
    if want.get("type") != got.get("type") or want.get("t") != got.get("t"):
        return False
    w, g = str(want.get("v")), str(got.get("v"))
    if w == g:
        return True
    typ = str(want.get("type"))
    if typ in FLOAT_TYPES:
        return close_floats(w, g)
    if typ in ("core::option::Option<f64>", "core::option::Option<f32>") and w.startswith("Some(") and g.startswith("Some("):
        return close_floats(w[5:-1], g[5:-1])
    return False


def verdict(case, outcome):
    """(passed, message) of one case's outcome against its expectation."""
    if outcome is None:
        return False, "no outcome (the crate did not build, the process ended early, or the call did not end)"
    if outcome.get("timeout"):
        return False, "timed out"
    expect = case.get("expect", {})
    if "raises" in expect:
        if "panics" in outcome:
            return True, ""
        return False, clip("expected a panic, got a return: %s" % json.dumps(outcome.get("returns"))[:250])
    if "panics" in outcome:
        return False, clip("panicked: %s" % outcome.get("message", ""))
    got = (outcome.get("returns") or [None])[0]
    want = expect.get("returns")
    if not same(want, got):
        return False, clip("expected %s, got %s" % (json.dumps(want)[:250], json.dumps(got)[:250]))
    after = case.get("argsAfter")
    if after is not None:
        got_after = outcome.get("after") or []
        if len(after) != len(got_after) or not all(same(a, b) for a, b in zip(after, got_after)):
            return False, clip("after the call, expected %s, got %s" % (json.dumps(after)[:250], json.dumps(got_after)[:250]))
    return True, ""


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
    target_dir = record_driver.setup_target_dir(workspace)
    # the drivers and what the test binary writes: a folder of the build's, the agent user's
    work = os.path.join(target_dir, "out")
    os.makedirs(work, exist_ok=True)
    cargo_home = os.path.join(target_dir, "cargo-home")
    os.makedirs(cargo_home, exist_ok=True)
    os.environ["CARGO_HOME"] = cargo_home
    if drop:
        for path in (target_dir, work, cargo_home):
            os.chown(path, uid, gid)
        record_driver.RUN_AS = (uid, gid)
    by_crate = {}
    for c in cases:
        by_crate.setdefault(record_driver.crate_of(workspace, c.get("module", "src/lib.rs")), []).append(c)
    try:
        for crate in sorted(by_crate):
            remaining = budget_s - (time.monotonic() - started)
            outcomes = {}
            if remaining <= 5:
                exhausted = True
            else:
                planned = [record_driver.case_plan(c) for c in by_crate[crate]]
                with record_driver.PreparedCrate(workspace, crate, work) as prepared:
                    if prepared.ok:
                        # a margin for comparing the outcomes and printing them within the budget
                        outcomes, _ = record_driver.run_cases(prepared, planned, work, remaining - 5, call_timeout_ms, {})
            for c in by_crate[crate]:
                passed, message = verdict(c, outcomes.get(c["id"]))
                tests.append({"name": "case:%s" % c["id"], "status": "passed" if passed else "failed", "message": "" if passed else ("scoring time budget exhausted" if exhausted else message)})
    finally:
        shutil.rmtree(target_dir, ignore_errors=True)
    passed = sum(1 for t in tests if t["status"] == "passed")
    detail = "%d/%d passed" % (passed, len(tests))
    if not drop:
        detail += "; privileges not dropped: the agent's code could read the hidden tests"
    result = {"tests": tests, "tampered": False, "budgetExhausted": exhausted, "detail": detail}
    sys.stdout.write("CODEMIDAS-JUDGE %s %s\n" % (nonce, json.dumps(result)))


if __name__ == "__main__":
    main()
