"""The Go mutate run (issue 20): how many mutants of each target's body its recorded cases kill.

    python3 mutate_driver.py < config.json > result.json

config: record_driver.py's, each target with its recorded `cases`, its `file` and its body's lines
(`bodyStartLine`, `bodyEndLine`). A mutant changes one token of the body: an arithmetic,
comparison, logical, increment or assignment operator, an integer constant, `true`/`false`, a short
string literal (to "", or "x" when empty), a call after `.` swapped for its mirror
(`ToUpper`/`ToLower`, `HasPrefix`/`HasSuffix`, `Index`/`LastIndex`, `Min`/`Max`, …). The
mutants are compiled in batches, each mutant a renamed copy of the target beside the original
(kills_of), and the target's cases are run on each copy with the record driver (its package's own
tests set aside). A mutant counts as killed when a case's outcome differs from the one it recorded
(as the judge compares them) or a call no longer ends. A mutant the compiler refuses is not viable
and not counted. The file is put back after each batch.

With `search`, the survivors are hunted (search_inputs.py): calls near the recorded ones, one
argument varied at a time, are recorded twice on the original (only agreeing, judgeable outcomes
kept), then run on each surviving mutant; the fewest calls that kill the most survivors, at most
`maxNewCases`, become `mutant-search` cases.

Prints one JSON document: {"targets": [{unitId, mutation, before, newCases, search,
baselineMismatches, error, ms}]} (src/pipeline/record/harness-result-schema.ts).
"""
import json
import os
import re
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import judge  # noqa: E402
import record_driver  # noqa: E402
import token_mutants  # noqa: E402
import search_inputs  # noqa: E402

# search calls recorded per target, and surviving mutants hunted, at most
SEARCH_POOL = 120
SEARCH_SURVIVORS = 40

SWAPS = {
    "+": ["-"], "-": ["+"], "*": ["/"], "/": ["*"], "%": ["*"],
    "<": ["<=", ">"], "<=": ["<", ">"], ">": [">=", "<"], ">=": [">", "<"],
    "==": ["!="], "!=": ["=="], "&&": ["||"], "||": ["&&"],
    "++": ["--"], "--": ["++"], "+=": ["-="], "-=": ["+="],
}
# a function or method called after `.` (strings.ToUpper, unicode.IsDigit, a value's method),
# swapped for one of the same shape whose result differs
CALL_SWAPS = {
    "ToUpper": ["ToLower"], "ToLower": ["ToUpper"], "HasPrefix": ["HasSuffix"], "HasSuffix": ["HasPrefix"],
    "TrimPrefix": ["TrimSuffix"], "TrimSuffix": ["TrimPrefix"], "TrimLeft": ["TrimRight"], "TrimRight": ["TrimLeft"],
    "Index": ["LastIndex"], "LastIndex": ["Index"], "IndexByte": ["LastIndexByte"], "LastIndexByte": ["IndexByte"],
    "IndexAny": ["LastIndexAny"], "LastIndexAny": ["IndexAny"], "IsUpper": ["IsLower"], "IsLower": ["IsUpper"],
    "IsLetter": ["IsDigit"], "IsDigit": ["IsLetter"], "IsSpace": ["IsLetter"], "Min": ["Max"], "Max": ["Min"],
    "Floor": ["Ceil"], "Ceil": ["Floor"],
}
# a string literal at most this long is mutated (to "" or, when empty, to "x")
STRING_MUTANT_MAX = 40
OPERATORS = sorted(set(SWAPS) | {":=", "<-", "...", "&^", "<<", ">>", "&", "|", "^", "=", "!", ".", ",", ";", "(", ")", "[", "]", "{", "}", ":", "*=", "/=", "%="}, key=len, reverse=True)


def tokens(text, start, end):
    """(offset, token) of the operators, integer literals, booleans, short string literals and the
    swappable calls after `.` in text[start:end]; raw strings, runes and comments skipped."""
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
        if ch in "\"'":
            j = i + 1
            while j < end and text[j] != ch:
                j += 2 if text[j] == "\\" else 1
            if ch == '"' and j + 1 - i <= STRING_MUTANT_MAX and j < end:
                out.append((i, text[i:j + 1]))
            i = j + 1
            continue
        if ch == "`":
            j = text.find("`", i + 1)
            i = end if j < 0 else j + 1
            continue
        m = re.match(r"[A-Za-z_]\w*|\d[\w.]*", text[i:end])
        if m:
            word = m.group(0)
            if word in ("true", "false") or re.fullmatch(r"\d+", word):
                out.append((i, word))
            elif word in CALL_SWAPS and text[:i].rstrip().endswith(".") and text[i + len(word):].lstrip().startswith("("):
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
        if tok in SWAPS:
            # a unary minus or a pointer's star is not an arithmetic operator
            before = text[:offset].rstrip()
            if tok in ("-", "*", "+") and (not before or before[-1] in "(,=:[{!&|<>+-*/%^;" or before.endswith("return")):
                continue
            news = SWAPS[tok]
        elif tok.startswith('"') and re.search(r"\bpanic\s*\([^;\n]*$", text[:offset]):
            continue  # a panic's message: the judge compares a panic by the type of its value
        else:
            news = token_mutants.replacements(tok, CALL_SWAPS)
        for new in news:
            out.append((offset, tok, new, "line %d: %s → %s" % (line_of(offset), tok, new)))
    return out


# the name of a mutant's copy of the target (mutant schemata: every mutant of a batch compiled at once)
CLONE_NAME = "codemidasMutant%d"
# compile rounds of one batch (each drops the copies the compiler refused), at most
CLONE_ROUNDS = 4
# case calls per batch's driver, about (the batch is as many mutants as that allows, 4 to 40)
BATCH_CALLS = 600


def declaration_span(text, target):
    """[start, end) of the target's declaration (`func` to its closing brace) in text."""
    lines = text.split("\n")
    start = sum(len(line) + 1 for line in lines[: target["startLine"] - 1])
    end = sum(len(line) + 1 for line in lines[: target["endLine"]])
    return start, min(end, len(text))


def clone_of(text, span, mutant, index, target):
    """The declaration with the mutant applied, renamed to CLONE_NAME % index; None when its name is not found."""
    decl_start, decl_end = span
    offset, old, new, _ = mutant
    decl = text[decl_start:offset] + new + text[offset + len(old):decl_end]
    name = target["target"].split(".")[-1]
    head = r"^(\s*func\s*\([^)]*\)\s*)" if "." in target["target"] else r"^(\s*func\s+)"
    renamed, n = re.subn(head + re.escape(name) + r"\b", lambda m: m.group(1) + CLONE_NAME % index, decl, count=1)
    return renamed if n else None


def kills_of(repo_root, target, path, original, mutant_list, cases, work, timeout_s, call_timeout_ms):
    """{index in mutant_list: ids of the cases whose outcome the mutant changes} for every viable
    mutant (absent: the compiler refused it). Mutant schemata: each batch of mutants is written as
    renamed copies of the target beside the original (its callers and its own recursive calls still
    reach the original), compiled once, and each case is run on every copy in one process, the
    original's cases last: when they no longer hold (a mutant changed the package's state), the
    batch is run again one mutant per build. The caller puts the file back."""
    span = declaration_span(original, target)
    size = max(4, min(40, BATCH_CALLS // max(1, len(cases))))
    kills = {}
    indexes = list(range(len(mutant_list)))
    for b in range(0, len(indexes), size):
        batch = indexes[b:b + size]
        got = batch_kills(repo_root, target, path, original, span, mutant_list, batch, cases, work, timeout_s, call_timeout_ms)
        if got is None:
            got = {}
            for i in batch:
                one = batch_kills(repo_root, target, path, original, span, mutant_list, [i], cases, work, timeout_s, call_timeout_ms)
                got.update(one or {})
        kills.update(got)
    return kills


def batch_kills(repo_root, target, path, original, span, mutant_list, batch, cases, work, timeout_s, call_timeout_ms):
    """kills_of for the mutants `batch` (indexes) built together; None when the original's cases fail after them."""
    base = os.path.basename(path)
    clones = {i: clone_of(original, span, mutant_list[i], i, target) for i in batch}
    pending = [i for i in batch if clones[i] is not None]
    # a call of a mutant that runs on past this is counted as not ending (the original's calls ended)
    mutant_timeout_ms = min(call_timeout_ms, 1000)
    for _ in range(CLONE_ROUNDS):
        if not pending:
            return {}
        text = original.rstrip("\n") + "\n"
        at = {}
        for i in pending:
            first = text.count("\n") + 2
            text += "\n" + clones[i].rstrip("\n") + "\n"
            for line in range(first, text.count("\n") + 1):
                at[line] = i
        with open(path, "w", encoding="utf-8") as f:
            f.write(text)
        planned = []
        owner, receiver_of = target["target"], lambda c: judge.case_plan(c)[1]
        prefix = owner.rsplit(".", 1)[0] + "." if "." in owner else ""
        for i in pending:
            for c in cases:
                planned.append({"id": "m%d~%s" % (i, c["id"]), "code": record_driver.case_code(prefix + CLONE_NAME % i, receiver_of(c), c.get("args", []))})
        planned += [{"id": "b~%s" % c["id"], "code": record_driver.case_code(*judge.case_plan(c))} for c in cases]
        with record_driver.PreparedPackage(repo_root, target["package"]) as prepared:
            outcomes, problem = run_batch(prepared, planned, work, timeout_s, mutant_timeout_ms)
        if problem is not None:
            refused = {at[int(m.group(1))] for m in re.finditer(re.escape(base) + r":(\d+):\d+:", problem) if int(m.group(1)) in at}
            if not refused:
                return None if len(batch) > 1 else {}
            pending = [i for i in pending if i not in refused]
            continue
        if not all(judge.verdict(c, outcomes.get("b~%s" % c["id"]))[0] for c in cases):
            return None if len(batch) > 1 else {}
        return {i: {c["id"] for c in cases if not judge.verdict(c, outcomes.get("m%d~%s" % (i, c["id"])))[0]} for i in pending}
    return {}


def run_batch(prepared, planned, work, timeout_s, call_timeout_ms):
    """({case id: outcome}, None) of a batch's run, or ({}, the compiler's output) when it does not
    build. A mutant whose call does not end, or ends the process, is killed: its remaining cases are
    not run (they would each wait for the timeout)."""
    out_path = os.path.join(work, "mutate-%d.jsonl" % os.getpid())
    mutant_of = lambda cid: cid.split("~", 1)[0]  # noqa: E731
    outcomes, dead = {}, set()
    remaining = list(planned)
    while remaining:
        record_driver.write_driver(prepared.dir, prepared.name, remaining, call_timeout_ms)
        code, output, got = record_driver.run_go(prepared.dir, out_path, timeout_s)
        if code != 0 and not got:
            if re.search(r"\.go:\d+:\d+:", output):
                return {}, output
            # the process ended before any case: the first one ended it
            got = {remaining[0]["id"]: {"id": remaining[0]["id"], "timeout": True}}
        for cid, o in got.items():
            if o.get("timeout"):
                dead.add(mutant_of(cid))
            else:
                outcomes[cid] = o
        rest = [p for p in remaining if p["id"] not in got]
        if rest and not any(o.get("timeout") for o in got.values()):
            # the process ended inside the next case without an outcome (os.Exit, a fatal error)
            dead.add(mutant_of(rest[0]["id"]))
        remaining = [p for p in rest if mutant_of(p["id"]) not in dead]
    return outcomes, None


def mutate_target(config, target, work, timeout_s, call_timeout_ms):
    started = time.monotonic()
    repo_root = config.get("repoRoot", "/workspace")
    # the whole run holds the package: other targets' runs write their drivers (and mutants) into it too
    with record_driver.package_lock(os.path.join(repo_root, target["package"])):
        return mutate_locked(config, target, work, timeout_s, call_timeout_ms, started)


def mutate_locked(config, target, work, timeout_s, call_timeout_ms, started):
    repo_root = config.get("repoRoot", "/workspace")
    path = os.path.join(repo_root, target["file"])
    with open(path, encoding="utf-8") as f:
        original = f.read()
    lines = original.split("\n")
    start = sum(len(line) + 1 for line in lines[: target["bodyStartLine"] - 1])
    end = sum(len(line) + 1 for line in lines[: target["bodyEndLine"]])
    cases = target.get("cases", [])
    planned = [{"id": c["id"], "code": record_driver.case_code(*judge.case_plan(c))} for c in cases]
    zero = {"total": 0, "killed": 0, "score": 1, "survivors": []}
    result = {"unitId": target["unitId"], "mutation": zero, "before": zero, "newCases": [], "search": {"tried": 0, "found": 0}, "baselineMismatches": 0, "error": None}
    with record_driver.PreparedPackage(repo_root, target["package"]) as prepared:
        if prepared.name is None:
            result["error"] = {"code": "no-package", "reason": "no Go package clause in %s" % target["package"]}
            return result
        baseline, _ = record_driver.run_cases(prepared.dir, prepared.name, planned, work, timeout_s, call_timeout_ms, {})
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
    limit = int(config.get("maxMutants", 150))
    every = mutants(original, start, end)[:limit]
    try:
        kills = kills_of(repo_root, target, path, original, every, kept, work, timeout_s, call_timeout_ms)
    finally:
        with open(path, "w", encoding="utf-8") as f:
            f.write(original)
    total, killed, survivors, surviving = 0, 0, [], []
    for i, mutant in enumerate(every):
        if i not in kills:
            continue  # the compiler refused the mutant: not viable
        total += 1
        if kills[i]:
            killed += 1
        else:
            survivors.append(mutant[3])
            surviving.append(mutant)
    # no viable mutant: nothing shows the cases would tell a wrong body, so the mutation gate drops it (0/0)
    score = {"total": total, "killed": killed, "score": killed / total if total else 0, "survivors": survivors}
    result["mutation"] = score
    result["before"] = score
    if config.get("search", True) and target.get("search", True) is not False and surviving:
        search_started = time.monotonic()
        new_cases, tried, hunted = search(config, target, kept, surviving, path, original, work, timeout_s, call_timeout_ms)
        result["searchMs"] = int((time.monotonic() - search_started) * 1000)
        result["newCases"] = new_cases
        result["search"] = {"tried": tried, "found": len(new_cases)}
        left = [d for i, d in enumerate(survivors) if i not in hunted]
        after = killed + len(survivors) - len(left)
        result["mutation"] = {"total": total, "killed": after, "score": after / total if total else 0, "survivors": left}
    result["ms"] = int((time.monotonic() - started) * 1000)
    return result


def search(config, target, cases, surviving, path, original, work, timeout_s, call_timeout_ms):
    """(new cases, calls tried, indexes in `surviving` of the survivors they kill): the mutant-guided search."""
    repo_root = config.get("repoRoot", "/workspace")
    seed = "%s:%s" % (config.get("seed", 1), target["unitId"])
    pool = search_inputs.search_inputs(cases, seed, SEARCH_POOL)
    if not pool:
        return [], 0, set()
    planned, meta = [], {}
    for receiver, args in pool:
        cid = record_driver.case_id(target["target"], receiver.get("v") if receiver else None, [a.get("v") for a in args])
        if cid in meta:
            continue
        meta[cid] = (receiver.get("v") if receiver else None, args)
        planned.append({"id": cid, "code": record_driver.case_code(target["target"], meta[cid][0], args)})
    with record_driver.PreparedPackage(repo_root, target["package"]) as prepared:
        first, problem = record_driver.run_cases(prepared.dir, prepared.name, planned, work, timeout_s, call_timeout_ms, {})
        again = [p for p in reversed(planned) if p["id"] in first]
        second, _ = record_driver.run_cases(prepared.dir, prepared.name, again, work, timeout_s, call_timeout_ms, {}) if again else ({}, None)
    found = []
    for p in planned:
        receiver, args = meta[p["id"]]
        case, _ = record_driver.recorded_case(target["package"], target["target"], receiver, args, "mutant-search", p["id"], first.get(p["id"]), second.get(p["id"]))
        if case is not None:
            found.append(case)
    if not found:
        return [], len(planned), set()
    tried = len(planned)
    found_ids = {c["id"] for c in found}
    planned = [p for p in planned if p["id"] in found_ids]
    try:
        killers = kills_of(repo_root, target, path, original, surviving[:SEARCH_SURVIVORS], found, work, timeout_s, call_timeout_ms)
    finally:
        with open(path, "w", encoding="utf-8") as f:
            f.write(original)
    # the fewest calls that kill the most survivors, in the pool's (seeded) order on ties
    chosen, hunted = [], set()
    left = {d for d, k in killers.items() if k}
    limit = int(config.get("maxNewCases", 20))
    while left and len(chosen) < limit:
        best = max(found, key=lambda c: sum(1 for d in left if c["id"] in killers[d]))
        gained = {d for d in left if best["id"] in killers[d]}
        if not gained:
            break
        chosen.append(best)
        hunted |= gained
        left -= gained
    return chosen, tried, hunted


def main():
    config = json.load(sys.stdin)
    repo_root = config.get("repoRoot", "/workspace")
    record_driver.GO_TMP = os.path.join(repo_root, ".codemidas-go-tmp-%d" % os.getpid())
    os.makedirs(record_driver.GO_TMP, exist_ok=True)
    work = config.get("workDir") or "/tmp"
    os.makedirs(work, exist_ok=True)
    call_timeout_ms = int(config.get("callTimeoutMs", 5000))
    timeout_s = max(180, call_timeout_ms / 1000 * 40)
    out = []
    try:
        for target in config.get("targets", []):
            try:
                out.append(mutate_target(config, target, work, timeout_s, call_timeout_ms))
            except Exception as e:  # one target's failure is its error, not the run's
                zero = {"total": 0, "killed": 0, "score": 0, "survivors": []}
                out.append({"unitId": target["unitId"], "mutation": zero, "before": zero, "newCases": [], "search": {"tried": 0, "found": 0}, "baselineMismatches": 0, "error": {"code": "mutation-error", "reason": str(e)[:500]}})
    finally:
        import shutil
        shutil.rmtree(record_driver.GO_TMP, ignore_errors=True)
    json.dump({"targets": out}, sys.stdout)


if __name__ == "__main__":
    main()
