"""The Java mutate run: how many mutants of each target's body its recorded cases kill.

    python3 mutate_driver.py < config.json > result.json

config: record_driver.py's, each target with its recorded `cases`, its `file` and its body's lines
(`bodyStartLine`, `bodyEndLine`). A mutant changes one token of the body: an arithmetic,
comparison, logical, increment or compound-assignment operator, an integer constant, `true`/`false`
(a unary minus left alone), a short string literal (to "", or "x" when empty), a method called on
a value swapped for its mirror (`toUpperCase`/`toLowerCase`, `min`/`max`, `startsWith`/`endsWith`, …). javac is slow to start, so the library and the driver are compiled once,
and the mutants of a target (at most `maxMutants`, and never more than MAX_MUTANTS, taken evenly
across the body) are compiled by one warm JVM (runtime/CodemidasJavac.java.txt, the JDK's compiler in
process), each mutated file alone against the compiled library into a folder of its own, which comes
first on the classpath when the target's cases run. The repository is never written. A mutant is
killed when a case's outcome differs from the one it recorded (as the judge compares them), or a
call no longer ends; a mutant javac refuses is not viable and not counted. No mutant-guided search.

Prints one JSON document: {"targets": [{unitId, mutation, before, newCases, search,
baselineMismatches, error, ms}]} (src/pipeline/record/harness-result-schema.ts).
"""
import json
import os
import re
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import judge  # noqa: E402
import record_driver  # noqa: E402
import token_mutants  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
MAX_MUTANTS = 40
SWAPS = {
    "+": ["-"], "-": ["+"], "*": ["/"], "/": ["*"], "%": ["*"],
    "<": ["<=", ">"], "<=": ["<", ">"], ">": [">=", "<"], ">=": [">", "<"],
    "==": ["!="], "!=": ["=="], "&&": ["||"], "||": ["&&"],
    "++": ["--"], "--": ["++"], "+=": ["-="], "-=": ["+="],
}
# a method called on a value (after `.`), swapped for one of the same shape whose result differs
CALL_SWAPS = {
    "toUpperCase": ["toLowerCase"], "toLowerCase": ["toUpperCase"], "min": ["max"], "max": ["min"],
    "startsWith": ["endsWith"], "endsWith": ["startsWith"], "indexOf": ["lastIndexOf"], "lastIndexOf": ["indexOf"],
    "floor": ["ceil"], "ceil": ["floor"], "isUpperCase": ["isLowerCase"], "isLowerCase": ["isUpperCase"],
    "isLetter": ["isDigit"], "isDigit": ["isLetter"], "isLetterOrDigit": ["isLetter"], "isWhitespace": ["isLetter"],
    "first": ["last"], "last": ["first"], "getFirst": ["getLast"], "getLast": ["getFirst"],
    "removeFirst": ["removeLast"], "removeLast": ["removeFirst"], "addFirst": ["addLast"], "addLast": ["addFirst"],
    "anyMatch": ["allMatch"], "allMatch": ["anyMatch"], "ceilingKey": ["floorKey"], "floorKey": ["ceilingKey"],
}
# a string literal at most this long is mutated (to "" or, when empty, to "x")
STRING_MUTANT_MAX = 40
OPERATORS = sorted(set(SWAPS) | {">>>=", "<<=", ">>=", ">>>", "->", "::", "<<", ">>", "&", "|", "^", "=", "!", ".", ",", ";", "(", ")", "[", "]", "{", "}", ":", "?", "*=", "/=", "%=", "&=", "|=", "^=", "@", "~"}, key=len, reverse=True)


def tokens(text, start, end):
    """(offset, token) of the operators, integer literals, booleans, short string literals and the
    swappable methods called after `.` in text[start:end]; chars, text blocks and comments skipped."""
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
        if text.startswith('"""', i):
            j = text.find('"""', i + 3)
            i = end if j < 0 else j + 3
            continue
        if ch in "\"'":
            j = i + 1
            while j < end and text[j] != ch:
                j += 2 if text[j] == "\\" else 1
            if ch == '"' and j + 1 - i <= STRING_MUTANT_MAX and j < end:
                out.append((i, text[i:j + 1]))
            i = j + 1
            continue
        m = re.match(r"[A-Za-z_$][\w$]*|\d[\w.]*", text[i:end])
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
            before = text[:offset].rstrip()
            # a unary minus or plus is not an arithmetic operator; a generic's `<`/`>` is not a comparison
            if tok in ("-", "+") and (not before or before[-1] in "(,=:[{!&|<>+-*/%^;?" or before.endswith("return")):
                continue
            if tok in ("<", ">") and re.match(r"\s*[A-Z]\w*\s*(?:<[^<>]*>)?\s*>", text[offset + 1:offset + 80]):
                continue
            news = SWAPS[tok]
        elif tok.startswith('"') and re.search(r"new\s+[\w.]*(?:Exception|Error)\s*\([^;]*$", text[:offset]):
            continue  # an exception's message: the judge compares what is thrown by its class alone
        else:
            news = token_mutants.replacements(tok, CALL_SWAPS)
        for new in news:
            out.append((offset, tok, new, "line %d: %s → %s" % (line_of(offset), tok, new)))
    return out


def evenly(items, limit):
    if len(items) <= limit:
        return items
    return [items[int(i * len(items) / limit)] for i in range(limit)]


def compile_mutants(build, rel_file, sources, timeout_s):
    """Compiles each mutated text of rel_file into a folder of its own: [folder or None when javac refused it]."""
    tools = record_driver.make_dir(os.path.join(build.root, "tools"))
    with open(os.path.join(HERE, "CodemidasJavac.java.txt"), encoding="utf-8") as f:
        helper = f.read()
    with open(os.path.join(tools, "CodemidasJavac.java"), "w", encoding="utf-8") as f:
        f.write(helper)
    code, output = record_driver.run(["javac", "-nowarn", "-d", tools, os.path.join(tools, "CodemidasJavac.java")], timeout_s)
    if code != 0:
        raise RuntimeError("the mutant compiler did not build: %s" % output[-500:])
    lines, folders = [], []
    cp = build.classpath()
    for k, text in enumerate(sources):
        folder = record_driver.make_dir(os.path.join(build.root, "mutants", str(k)))
        src = record_driver.make_dir(os.path.join(folder, "src"))
        path = os.path.join(src, os.path.basename(rel_file))
        with open(path, "w", encoding="utf-8") as f:
            f.write(text)
        classes = record_driver.make_dir(os.path.join(folder, "classes"))
        lines.append("\t".join(["-nowarn", "-proc:none", "-implicit:none", "-encoding", "UTF-8", "-cp", cp, "-d", classes, path]))
        folders.append(classes)
    code, output = record_driver.run(["java"] + record_driver.JVM_FLAGS + ["-cp", tools, "CodemidasJavac"], timeout_s, stdin_text="\n".join(lines) + "\n")
    ok = {int(m.group(1)) for m in re.finditer(r"^CODEMIDAS-RESULT (\d+) 0$", output, flags=re.M)}
    return [folders[k] if k in ok else None for k in range(len(sources))]


def mutate_target(config, target, work, timeout_s, call_timeout_ms):
    started = time.monotonic()
    repo_root = config.get("repoRoot", "/workspace")
    zero = {"total": 0, "killed": 0, "score": 1, "survivors": []}
    result = {"unitId": target["unitId"], "mutation": zero, "before": zero, "newCases": [], "search": {"tried": 0, "found": 0}, "baselineMismatches": 0, "error": None}
    with open(os.path.join(repo_root, target["file"]), encoding="utf-8") as f:
        original = f.read()
    lines = original.split("\n")
    start = sum(len(line) + 1 for line in lines[: target["bodyStartLine"] - 1])
    end = sum(len(line) + 1 for line in lines[: target["bodyEndLine"]])
    cases = target.get("cases", [])
    planned = [judge.case_plan(c) for c in cases]
    build = record_driver.Build(repo_root, work)
    try:
        groups = record_driver.plan_groups(repo_root, planned)
        compiled, problem = record_driver.compile_groups(build, groups, timeout_s, {})
        if problem is not None:
            result["error"] = {"code": "build-failed", "reason": problem[:500]}
            return result
        key = next(iter(compiled))
        main_class, live = compiled[key]
        ids = groups[key]["ids"]

        def outcomes_with(extra):
            dropped = {}
            got = record_driver.run_all(build, main_class, live, timeout_s, call_timeout_ms, dropped, extra)
            return {ids[k]: o for k, o in got.items()}, dropped

        baseline, _ = outcomes_with(None)
        mismatched = [c for c in cases if not judge.verdict(c, baseline.get(c["id"]))[0]]
        result["baselineMismatches"] = len(mismatched)
        if len(mismatched) == len(cases):
            result["error"] = {"code": "no-cases", "reason": "no recorded case reproduces in one run"}
            return result
        kept = [c for c in cases if c not in mismatched]
        if mismatched:
            result["cases"] = kept
        limit = min(int(config.get("maxMutants", MAX_MUTANTS)), MAX_MUTANTS)
        chosen = evenly(mutants(original, start, end), limit)
        texts = [original[:offset] + new + original[offset + len(old):] for offset, old, new, _ in chosen]
        folders = compile_mutants(build, target["file"], texts, timeout_s) if texts else []
        total, killed, survivors = 0, 0, []
        for (_offset, _old, _new, description), folder in zip(chosen, folders):
            if folder is None:
                continue  # javac refused the mutant: not viable
            total += 1
            outcomes, dropped = outcomes_with(folder)
            if dropped or any(not judge.verdict(c, outcomes.get(c["id"]))[0] for c in kept):
                killed += 1
            else:
                survivors.append(description)
        # no viable mutant: nothing shows the cases would tell a wrong body, so the mutation gate drops it (0/0)
        score = {"total": total, "killed": killed, "score": killed / total if total else 0, "survivors": survivors}
        result["mutation"] = score
        result["before"] = score
        result["ms"] = int((time.monotonic() - started) * 1000)
        return result
    finally:
        build.close()


def main():
    config = json.load(sys.stdin)
    work = config.get("workDir") or tempfile.gettempdir()
    os.makedirs(work, exist_ok=True)
    call_timeout_ms = int(config.get("callTimeoutMs", 5000))
    timeout_s = max(120, call_timeout_ms / 1000 * 40)
    out = []
    for target in config.get("targets", []):
        try:
            out.append(mutate_target(config, target, work, timeout_s, call_timeout_ms))
        except Exception as e:  # one target's failure is its error, not the run's
            zero = {"total": 0, "killed": 0, "score": 0, "survivors": []}
            out.append({"unitId": target["unitId"], "mutation": zero, "before": zero, "newCases": [], "search": {"tried": 0, "found": 0}, "baselineMismatches": 0, "error": {"code": "mutation-error", "reason": str(e)[:500]}})
    json.dump({"targets": out}, sys.stdout)


if __name__ == "__main__":
    main()
