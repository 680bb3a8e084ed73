"""The Rust mutate run: how many mutants of each target's body its recorded cases kill.

    python3 mutate_driver.py < config.json > result.json

config: record_driver.py's, each target with its recorded `cases`, its `file` and its body's lines
(`bodyStartLine`, `bodyEndLine`). A mutant changes one token of the body: an arithmetic,
comparison, logical or compound-assignment operator, an integer constant, `true`/`false`, a short
string literal (to "", or "x" when empty), a method called on a value swapped for its mirror
(`to_uppercase`/`to_lowercase`, `min`/`max`, `starts_with`/`ends_with`, `sort`/`reverse`, …). Each is
written over the file, the crate is built again with the target's cases in its driver, and the
cases are run once; the mutant counts as killed when a case's outcome differs from the one it
recorded (as the judge compares them) or a call no longer ends. A mutant the compiler refuses is
not viable and not counted; the file is put back after each.

Rust builds are slow, so the run is bounded: at most RUST_MAX_MUTANTS mutants a target (spread
evenly over the body's mutants when it has more, the config's `maxMutants` if smaller), and no new
mutant is started once the target has used MUTATE_BUDGET_S. No mutant-guided search yet.

Prints one JSON document: {"targets": [{unitId, mutation, before, newCases, search,
baselineMismatches, error, ms}]} (src/pipeline/record/harness-result-schema.ts).
"""
import json
import os
import re
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import judge  # noqa: E402
import record_driver  # noqa: E402
import token_mutants  # noqa: E402

RUST_MAX_MUTANTS = 24
MUTATE_BUDGET_S = 150

SWAPS = {
    "+": ["-"], "-": ["+"], "*": ["/"], "/": ["*"], "%": ["*"],
    "<": ["<=", ">"], "<=": ["<", ">"], ">": [">=", "<"], ">=": [">", "<"],
    "==": ["!="], "!=": ["=="], "&&": ["||"], "||": ["&&"],
    "+=": ["-="], "-=": ["+="],
}
# a method called on a value (after `.`), swapped for one of the same shape whose result differs
CALL_SWAPS = {
    "to_uppercase": ["to_lowercase"], "to_lowercase": ["to_uppercase"],
    "to_ascii_uppercase": ["to_ascii_lowercase"], "to_ascii_lowercase": ["to_ascii_uppercase"],
    "is_uppercase": ["is_lowercase"], "is_lowercase": ["is_uppercase"],
    "is_ascii_uppercase": ["is_ascii_lowercase"], "is_ascii_lowercase": ["is_ascii_uppercase"],
    "is_alphabetic": ["is_numeric"], "is_numeric": ["is_alphabetic"], "is_alphanumeric": ["is_alphabetic"],
    "is_ascii_digit": ["is_ascii_alphabetic"], "is_ascii_alphabetic": ["is_ascii_digit"], "is_ascii_alphanumeric": ["is_ascii_alphabetic"],
    "is_whitespace": ["is_alphabetic"], "min": ["max"], "max": ["min"], "min_by_key": ["max_by_key"], "max_by_key": ["min_by_key"],
    "starts_with": ["ends_with"], "ends_with": ["starts_with"], "trim_start": ["trim_end"], "trim_end": ["trim_start"],
    "find": ["rfind"], "rfind": ["find"], "first": ["last"], "last": ["first"], "is_some": ["is_none"], "is_none": ["is_some"],
    "is_ok": ["is_err"], "is_err": ["is_ok"], "any": ["all"], "all": ["any"], "sort": ["reverse"], "sort_unstable": ["reverse"],
    "skip": ["take"], "take": ["skip"], "saturating_add": ["saturating_sub"], "saturating_sub": ["saturating_add"],
    "wrapping_add": ["wrapping_sub"], "wrapping_sub": ["wrapping_add"], "checked_add": ["checked_sub"], "checked_sub": ["checked_add"],
}
# a string literal at most this long is mutated (to "" or, when empty, to "x")
STRING_MUTANT_MAX = 40
OPERATORS = sorted(set(SWAPS) | {"::", "->", "=>", "..=", "..", "<<", ">>", "&", "|", "^", "=", "!", ".", ",", ";", "(", ")", "[", "]", "{", "}", ":", "*=", "/=", "%=", "?", "#"}, key=len, reverse=True)


def tokens(text, start, end):
    """(offset, token) of the operators, integer literals, booleans, short string literals and the
    swappable methods called after `.` in text[start:end]; raw strings, chars, lifetimes and comments skipped; generics' angle brackets are left alone where they follow `::` or a type name."""
    out = []
    i = start
    while i < end:
        ch = text[i]
        if text.startswith("//", i):
            i = text.find("\n", i)
            i = end if i < 0 else i
            continue
        if text.startswith("/*", i):
            j = text.find("*/", i + 2)
            i = end if j < 0 else j + 2
            continue
        m = re.match(r'r(#*)"', text[i:end])
        if m:
            close = '"' + m.group(1)
            j = text.find(close, i + len(m.group(0)))
            i = end if j < 0 else j + len(close)
            continue
        if ch == '"':
            j = i + 1
            while j < end and text[j] != '"':
                j += 2 if text[j] == "\\" else 1
            if j + 1 - i <= STRING_MUTANT_MAX and j < end:
                out.append((i, text[i:j + 1]))
            i = j + 1
            continue
        if ch == "'":
            m = re.match(r"'(?:\\.[^']*|[^'\\])'", text[i:end])
            if m:
                i += len(m.group(0))
                continue
            m = re.match(r"'\w+", text[i:end])  # a lifetime or a label
            i += len(m.group(0)) if m else 1
            continue
        m = re.match(r"[A-Za-z_]\w*|\d\w*(?:\.\d\w*)?", text[i:end])
        if m:
            word = m.group(0)
            if word in ("true", "false") or re.fullmatch(r"\d+", word):
                out.append((i, word))
            elif word in CALL_SWAPS and text[:i].rstrip().endswith(".") and re.match(r"\s*(?:::<[^>]*>)?\(", text[i + len(word):]):
                out.append((i, word))
            i += len(word)
            continue
        for op in OPERATORS:
            if text.startswith(op, i):
                if op in SWAPS:
                    out.append((i, op))
                i += len(op)
                break
        else:
            i += 1
    return out


def mutants(text, start, end):
    """(offset, old token, new token, description) of every mutant of text[start:end]."""
    line_of = lambda offset: text.count("\n", 0, offset) + 1  # noqa: E731
    out = []
    for offset, tok in tokens(text, start, end):
        before = text[:offset].rstrip()
        after = text[offset + len(tok):].lstrip()
        if tok in SWAPS:
            # a unary minus, a dereference or a reference is not an arithmetic operator
            if tok in ("-", "*") and (not before or before[-1] in "(,=:[{!&|<>+-*/%^;" or re.search(r"\b(?:return|in|if|match|while|let)$", before)):
                continue
            # angle brackets of generics (`Vec<u8>`, `::<f64>`, `-> Option<T>`)
            if tok in ("<", ">", "<=", ">=") and (before.endswith("::") or re.search(r"(?:\b[A-Z]\w*|\bVec|\bOption|\bResult|\bBox|\bHashMap|\bString)$", before) and tok == "<"):
                continue
            if tok == ">" and re.search(r"<[\w\s,:&']*$", before):
                continue
            news = SWAPS[tok]
        elif tok.startswith('"') and re.search(r"(?:\b(?:panic|unreachable|unimplemented|todo|assert|assert_eq|assert_ne|debug_assert|debug_assert_eq|debug_assert_ne)!\s*\(|\.expect\s*\()[^;]*$", text[:offset]):
            continue  # a panic's message: the judge compares a panic as a panic, whatever it says
        else:
            news = token_mutants.replacements(tok, CALL_SWAPS)
        for new in news:
            out.append((offset, tok, new, "line %d: %s → %s" % (line_of(offset), tok, new)))
    return out


def spread(items, limit):
    """At most `limit` of `items`, spread evenly over them (each line of a long body gets some)."""
    if len(items) <= limit:
        return items
    return [items[(k * len(items)) // limit] for k in range(limit)]


def killed_by(cases, outcomes):
    """Whether some case's outcome differs from the one it recorded (as the judge compares them)."""
    return any(not judge.verdict(c, outcomes.get(c["id"]))[0] for c in cases)


def mutate_target(config, target, work, timeout_s, call_timeout_ms):
    started = time.monotonic()
    repo_root = config.get("repoRoot", "/workspace")
    crate = record_driver.crate_of(repo_root, target["module"])
    # the whole run holds the crate: other targets' runs write their drivers (and mutants) into it too
    with record_driver.crate_lock(os.path.join(repo_root, crate)):
        return mutate_locked(config, target, crate, work, timeout_s, call_timeout_ms, started)


def mutate_locked(config, target, crate, work, timeout_s, call_timeout_ms, started):
    repo_root = config.get("repoRoot", "/workspace")
    path = os.path.join(repo_root, target["file"])
    with open(path, encoding="utf-8") as f:
        original = f.read()
    lines = original.split("\n")
    start = sum(len(line) + 1 for line in lines[: target["bodyStartLine"] - 1])
    end = min(len(original), sum(len(line) + 1 for line in lines[: target["bodyEndLine"]]))
    cases = target.get("cases", [])
    planned = [record_driver.case_plan(c) for c in cases]
    zero = {"total": 0, "killed": 0, "score": 1, "survivors": []}
    result = {"unitId": target["unitId"], "mutation": zero, "before": zero, "newCases": [], "search": {"tried": 0, "found": 0}, "baselineMismatches": 0, "error": None}
    with record_driver.PreparedCrate(repo_root, crate, work) as prepared:
        if not prepared.ok:
            result["error"] = {"code": "no-crate", "reason": "no Cargo.toml above %s" % target["module"]}
            return result
        baseline, _ = record_driver.run_cases(prepared, planned, work, timeout_s, call_timeout_ms, {})
    mismatched = [c for c in cases if not judge.verdict(c, baseline.get(c["id"]))[0]]
    result["baselineMismatches"] = len(mismatched)
    if len(mismatched) == len(cases):
        result["error"] = {"code": "no-cases", "reason": "no recorded case reproduces in one run"}
        return result
    kept = [c for c in cases if c not in mismatched]
    if mismatched:
        result["cases"] = kept
    kept_ids = {c["id"] for c in kept}
    planned = [p for p in planned if p["id"] in kept_ids]
    total, killed, survivors = 0, 0, []
    limit = min(int(config.get("maxMutants", RUST_MAX_MUTANTS)), RUST_MAX_MUTANTS)
    try:
        for offset, old, new, description in spread(mutants(original, start, end), limit):
            if time.monotonic() - started > MUTATE_BUDGET_S:
                break
            with open(path, "w", encoding="utf-8") as f:
                f.write(original[:offset] + new + original[offset + len(old):])
            rejected = {}
            # PreparedCrate puts back what it saved on entry: the mutant is what it saves and restores
            with record_driver.PreparedCrate(repo_root, crate, work) as prepared:
                outcomes, problem = record_driver.run_cases(prepared, planned, work, timeout_s, call_timeout_ms, rejected)
            if problem is not None and not outcomes:
                continue  # the compiler refused the mutant: not viable
            if outcomes == {} and all(r == "compile" for r in rejected.values()) and rejected:
                continue  # every case refused: the mutant changed a type
            total += 1
            if killed_by(kept, outcomes) or any(r in ("timeout", "exited") for r in rejected.values()):
                killed += 1
            else:
                survivors.append(description)
    finally:
        with open(path, "w", encoding="utf-8") as f:
            f.write(original)
    # no viable mutant: nothing shows the cases would tell a wrong body, so the mutation gate drops it (0/0)
    score = {"total": total, "killed": killed, "score": killed / total if total else 0, "survivors": survivors}
    result["mutation"] = score
    result["before"] = score
    result["ms"] = int((time.monotonic() - started) * 1000)
    return result


def main():
    config = json.load(sys.stdin)
    repo_root = config.get("repoRoot", "/workspace")
    target_dir = record_driver.setup_target_dir(repo_root)
    work = config.get("workDir") or "/tmp"
    os.makedirs(work, exist_ok=True)
    call_timeout_ms = int(config.get("callTimeoutMs", 5000))
    timeout_s = max(120, call_timeout_ms / 1000 * 40)
    out = []
    try:
        for target in config.get("targets", []):
            try:
                out.append(mutate_target(config, target, work, timeout_s, call_timeout_ms))
            except Exception as e:  # one target's failure is its error, not the run's
                zero = {"total": 0, "killed": 0, "score": 0, "survivors": []}
                out.append({"unitId": target["unitId"], "mutation": zero, "before": zero, "newCases": [], "search": {"tried": 0, "found": 0}, "baselineMismatches": 0, "error": {"code": "mutation-error", "reason": str(e)[:500]}})
    finally:
        subprocess.run(["rm", "-rf", target_dir], check=False)
    json.dump({"targets": out}, sys.stdout)


if __name__ == "__main__":
    main()
