"""The Java record harness: records what a library's methods and constructors do by compiling a
generated driver class into each target's package with the library's sources (javac, no build
tool: Maven and Gradle would fetch from the network) and running it with `java`, twice.

    python3 record_driver.py < config.json > result.json

config: {"repoRoot": "/workspace", "workDir": "...", "callTimeoutMs": 5000, "maxCases": 40,
         "targets": [{"unitId": "org.x:Strings.reverse", "package": "org.x", "file": "src/main/java/org/x/Strings.java",
                      "cls": "Strings", "member": "reverse", "target": "Strings.reverse",
                      "static": true, "ctor": false, "void": false,
                      "params": [{"name": "s", "type": "String"}], "reflect": false,   # true: a private member, called through reflection
                      "receivers": ["new Vec2(1.0, 2.0)", ...],       # an instance method's receivers
                      "inputs": [{"args": ["\"abc\""], "source": "call-site"}, ...]}]}

Each argument is a Java expression, bound to a variable of its parameter's type inside the driver
(a class of the target's package, with the imports of the target's file, so package-private members
are reachable). The driver (runtime/codemidas_driver.java.txt) calls the target and writes one JSON
line per case: the result with its exact type (tagged JSON), the receiver and arguments before and
after, or the exception's class. A case javac refuses (a literal of the wrong type) is dropped and the
rest built again; a case that does not end in time is dropped and the rest run again. Every case runs
in two processes, the second in reverse order; only the cases whose outcomes agree are kept.

Prints one JSON document: {"targets": [{unitId, cases, sources, rejected, drop}], "traces": []}
(src/pipeline/record/harness-result-schema.ts).
"""
import hashlib
import json
import os
import re
import secrets
import shutil
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import bounded_run  # noqa: E402

MAX_ROUNDS = 10
# javac's output kept (its errors name the cases it refuses)
JAVAC_OUTPUT_KEEP = 64 << 20
CASES_PER_METHOD = 200
# a driver class holds a lambda per case: its constant pool (65535 entries) bounds how many
MAX_PLANNED_PER_TARGET = 160
# (uid, gid) javac and java run as, or None for this process's own user (the judge sets the agent user's)
RUN_AS = None
UNJUDGEABLE = {"unsupported", "deep"}
SKIPPED_DIRS = {"test", "tests", "target", "build", "out", "bin", "node_modules"}
JVM_FLAGS = ["-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1", "-XX:-UsePerfData", "-Xss8m", "-Xmx768m"]
JAVAC_FLAGS = ["-nowarn", "-proc:none", "-implicit:none", "-encoding", "UTF-8", "-Xmaxerrs", "100000", "-J-XX:+UseSerialGC", "-J-XX:TieredStopAtLevel=1", "-J-XX:-UsePerfData"]
DEFAULT_PACKAGE = "(default)"


def is_source(path):
    """A library source: a .java file outside test and build folders, not named like a test class (parse-java-units.ts's rule)."""
    if not path.endswith(".java"):
        return False
    parts = path.split("/")
    name = parts[-1]
    if name == "module-info.java" or re.search(r"(Test|Tests|IT)\.java$", name) or re.match(r"Test[A-Z]", name):
        return False
    return not any(d in SKIPPED_DIRS or d.startswith(".") for d in parts[:-1])


def library_sources(repo_root):
    out = []
    for folder, dirs, files in os.walk(repo_root):
        dirs[:] = sorted(d for d in dirs if d not in SKIPPED_DIRS and not d.startswith("."))
        for name in sorted(files):
            rel = os.path.relpath(os.path.join(folder, name), repo_root)
            if is_source(rel):
                out.append(os.path.join(repo_root, rel))
    return out


def file_imports(repo_root, rel):
    """The import declarations of the target's file (the driver names types as that file does)."""
    try:
        with open(os.path.join(repo_root, rel), encoding="utf-8", errors="replace") as f:
            text = f.read()
    except OSError:
        return []
    text = re.sub(r"/\*.*?\*/", " ", text, flags=re.S)
    text = re.sub(r"//[^\n]*", " ", text)
    return sorted(set(m.group(0).strip() for m in re.finditer(r"^\s*import\s+(static\s+)?[\w.]+(\.\*)?\s*;", text, flags=re.M)))


def typed_args(params, exprs):
    """A case's arguments as the driver binds them: each expression with its parameter's type."""
    return [{"t": "java", "v": expr, "type": (params[i] if i < len(params) else {}).get("type")} for i, expr in enumerate(exprs)]


def call_of(target):
    """What the driver needs to call a target, as a case carries it (init.kwargs.call); `reflect`: a
    private member, called through reflection (the driver's class cannot name it)."""
    return {"t": "java-call", "file": target["file"], "cls": target["cls"], "member": target["member"],
            "static": bool(target.get("static")), "ctor": bool(target.get("ctor")), "void": bool(target.get("void")),
            **({"reflect": True} if target.get("reflect") else {})}


def erasure(type_text):
    """A parameter type's class literal text: type arguments dropped (`List<String>` → `List`)."""
    text = re.sub(r"^final\s+", "", (type_text or "java.lang.Object").strip())
    while re.search(r"<[^<>]*>", text):
        text = re.sub(r"<[^<>]*>", "", text)
    return text.replace(" ", "")


def case_code(call, receiver, args):
    """One case as a Java lambda on one line: bind each argument to a variable of its type, build the
    receiver, encode them before, call the target, give back (result, before, [receiver, arguments])."""
    binds, names = [], []
    for i, arg in enumerate(args):
        name = "codemidasA%d" % i
        binds.append("%s %s = %s;" % (arg.get("type") or "java.lang.Object", name, arg["v"]))
        names.append(name)
    values = list(names)
    if not call["static"] and not call["ctor"]:
        binds.append("%s codemidasR; try { codemidasR = %s; } catch (java.lang.Throwable codemidasE) { throw new ReceiverFailed(codemidasE); }" % (call["cls"], receiver))
        values.insert(0, "codemidasR")
    if call.get("reflect"):
        # a private member: looked up by its parameters' erased types, made accessible, called; what it throws comes back unwrapped (runCase)
        types = ", ".join("%s.class" % erasure(a.get("type")) for a in args)
        packed_args = "new java.lang.Object[] {%s}" % ", ".join(names)
        if call["ctor"]:
            binds.append("java.lang.reflect.Constructor<?> codemidasM = %s.class.getDeclaredConstructor(%s); codemidasM.setAccessible(true);" % (call["cls"], types))
            invocation = "codemidasM.newInstance(%s)" % packed_args
        else:
            binds.append("java.lang.reflect.Method codemidasM = %s.class.getDeclaredMethod(%s%s); codemidasM.setAccessible(true);" % (call["cls"], json.dumps(call["member"]), ", " + types if types else ""))
            invocation = "codemidasM.invoke(%s, %s)" % ("null" if call["static"] else "codemidasR", packed_args)
    elif call["ctor"]:
        invocation = "new %s(%s)" % (call["cls"], ", ".join(names))
    elif call["static"]:
        invocation = "%s.%s(%s)" % (call["cls"], call["member"], ", ".join(names))
    else:
        invocation = "codemidasR.%s(%s)" % (call["member"], ", ".join(names))
    packed = "new java.lang.Object[] {%s}" % ", ".join(values)
    binds.append("java.lang.String codemidasB = before(%s);" % packed)
    if call["void"]:
        binds.append("%s;" % invocation)
        binds.append("return done(VOID, codemidasB, %s);" % packed)
    else:
        binds.append("java.lang.Object codemidasRes = %s;" % invocation)
        binds.append("return done(codemidasRes, codemidasB, %s);" % packed)
    return "() -> { %s }" % " ".join(binds)


def package_path(package):
    return "" if package == DEFAULT_PACKAGE else package.replace(".", "/")


def write_driver(folder, package, cls, imports, codes):
    """The driver's source file; returns (path, {line number: case index})."""
    with open(os.path.join(HERE, "codemidas_driver.java.txt"), encoding="utf-8") as f:
        template = f.read()
    chunks = (len(codes) + CASES_PER_METHOD - 1) // CASES_PER_METHOD
    dispatch = "\n".join("            case %d: return get%d(k);" % (i, i) for i in range(chunks))
    head = template.split("__CASES__")[0]
    head = head.replace("__PACKAGE_LINE__", "" if package == DEFAULT_PACKAGE else "package %s;" % package)
    head = head.replace("__IMPORTS__", "\n".join(imports)).replace("__CLASS__", cls).replace("__DISPATCH__", dispatch)
    lines = head.split("\n")
    at = {}
    for i in range(chunks):
        lines.append("    static Case get%d(int k) {" % i)
        lines.append("        switch (k) {")
        for k in range(i * CASES_PER_METHOD, min(len(codes), (i + 1) * CASES_PER_METHOD)):
            at[len(lines) + 1] = k
            lines.append("            case %d: return %s;" % (k, codes[k]))
        lines.append("            default: return null;")
        lines.append("        }")
        lines.append("    }")
    lines.append(template.split("__CASES__")[1])
    pdir = os.path.join(folder, package_path(package))
    os.makedirs(pdir, exist_ok=True)
    path = os.path.join(pdir, cls + ".java")
    with open(path, "w", encoding="utf-8") as f:
        f.write("\n".join(lines))
    return path, at


def run(argv, timeout_s, cwd=None, stdin_text=None, keep=bounded_run.OUTPUT_KEEP):
    """(exit code or -1 on timeout, output) as RUN_AS, bounded (bounded_run.py): its own process
    group killed at timeout_s, output past `keep` bytes read and dropped, every process of the agent
    user killed once it ends."""
    env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "LANG": "C.UTF-8", "HOME": tempfile.gettempdir()}
    code, output, _ = bounded_run.run_bounded(argv, cwd, env, timeout_s, run_as=RUN_AS, stdin_text=stdin_text, keep=keep)
    return code, output


def make_dir(path):
    os.makedirs(path, exist_ok=True)
    if RUN_AS is not None:
        os.chown(path, RUN_AS[0], RUN_AS[1])
    return path


class Build:
    """One build folder: the library's sources and the drivers compiled into `classes`."""

    def __init__(self, repo_root, work):
        self.repo_root = repo_root
        self.root = make_dir(tempfile.mkdtemp(prefix="codemidas-java-", dir=work))
        if RUN_AS is not None:
            os.chown(self.root, RUN_AS[0], RUN_AS[1])
        self.drivers = make_dir(os.path.join(self.root, "drivers"))
        self.classes = os.path.join(self.root, "classes")
        self.sources = library_sources(repo_root)
        # no library jars yet: declared dependencies are not installed (java-dependencies.ts)
        self.jars = []

    def compile(self, driver_paths, timeout_s):
        """(exit code, javac's output) of compiling the library with the drivers into a fresh `classes`."""
        shutil.rmtree(self.classes, ignore_errors=True)
        make_dir(self.classes)
        argfile = os.path.join(self.root, "sources.txt")
        with open(argfile, "w", encoding="utf-8") as f:
            f.write("\n".join('"%s"' % p.replace("\\", "\\\\") for p in self.sources + driver_paths) + "\n")
        if RUN_AS is not None:
            os.chown(argfile, RUN_AS[0], RUN_AS[1])
        cp = ["-cp", ":".join(self.jars)] if self.jars else []
        # every refused case is named in javac's errors, all of them wanted: thousands of cases write megabytes
        return run(["javac"] + JAVAC_FLAGS + cp + ["-d", self.classes, "@" + argfile], timeout_s, keep=JAVAC_OUTPUT_KEEP)

    def classpath(self, extra=None):
        return ":".join(([extra] if extra else []) + [self.classes] + self.jars)

    def close(self):
        shutil.rmtree(self.root, ignore_errors=True)


def run_driver(build, main_class, order, timeout_s, call_timeout_ms, extra_classes=None):
    """One JVM running the cases `order` (indexes) of a driver: {index: outcome}, and the exit code."""
    out_dir = make_dir(os.path.join(build.root, "out"))
    out_path = os.path.join(out_dir, "o-%s.jsonl" % secrets.token_hex(6))
    nonce = secrets.token_hex(8)
    code, output = run(["java"] + JVM_FLAGS + ["-cp", build.classpath(extra_classes), main_class, out_path, nonce, str(call_timeout_ms)] + [str(k) for k in order], timeout_s)
    outcomes = {}
    for line in bounded_run.read_lines(out_path):
        # only the driver's own lines count: they start with this run's nonce
        if not line.startswith(nonce + " "):
            continue
        try:
            o = json.loads(line[len(nonce) + 1:])
            outcomes[int(o["k"])] = o
        except (ValueError, KeyError, TypeError, AttributeError):
            pass
    if os.path.lexists(out_path):
        os.remove(out_path)
    return code, output, outcomes


def run_all(build, main_class, order, timeout_s, call_timeout_ms, rejected, extra_classes=None):
    """Runs `order` until every case has an outcome or is dropped (a timeout, a process that ended inside it)."""
    kept = {}
    rest = list(order)
    started = time.monotonic()
    while rest:
        remaining = timeout_s - (time.monotonic() - started)
        if remaining <= 1:
            for k in rest:
                rejected.setdefault(k, "timeout")
            break
        code, output, outcomes = run_driver(build, main_class, rest, remaining, call_timeout_ms, extra_classes)
        for k, o in outcomes.items():
            if o.get("timeout"):
                rejected[k] = "timeout"
            else:
                kept[k] = o
        if not outcomes:
            # the process ended (or was killed) before any case: none of the rest would run either
            # (a static initialiser that exits or never ends, a JVM that does not start)
            for k in rest:
                rejected.setdefault(k, "timeout" if code == -1 else "exited")
            break
        left = [k for k in rest if k not in outcomes]
        if left and not any(o.get("timeout") for o in outcomes.values()):
            # the process ended inside this case without a line (System.exit, a crash): drop it
            rejected[left[0]] = "exited"
            left = left[1:]
        rest = left
    return kept


def compile_groups(build, groups, timeout_s, rejected):
    """Writes and compiles every group's driver, dropping the cases javac refuses, until it builds:
    {group key: (main class, [case indexes kept])}, and a problem (the library does not build) or None."""
    live = {key: list(range(len(g["codes"]))) for key, g in groups.items()}
    last_errors = ""
    for _ in range(MAX_ROUNDS):
        paths, where = [], {}
        for key, g in groups.items():
            codes = [g["codes"][k] if k in live[key] else "() -> null" for k in range(len(g["codes"]))]
            path, at = write_driver(build.drivers, g["package"], g["cls"], g["imports"], codes)
            if RUN_AS is not None:
                for folder, _dirs, files in os.walk(build.drivers):
                    os.chown(folder, RUN_AS[0], RUN_AS[1])
            paths.append(path)
            where[path] = (key, at)
        code, output = build.compile(paths, timeout_s)
        if code == 0:
            return {key: (("" if g["package"] == DEFAULT_PACKAGE else g["package"] + ".") + g["cls"], live[key]) for key, g in groups.items()}, None
        refused_any, elsewhere = False, []
        last_errors = output.strip()[:1500]
        for m in re.finditer(r"^(.*?\.java):(\d+): error: (.*)$", output, flags=re.M):
            path, line = m.group(1), int(m.group(2))
            if path in where and line in where[path][1]:
                key, at = where[path]
                k = at[line]
                if k in live[key]:
                    live[key].remove(k)
                    rejected[(key, k)] = "compile"
                    refused_any = True
            else:
                elsewhere.append(m.group(0))
        if not refused_any:
            return {}, ("\n".join(elsewhere) or output.strip())[-1500:] or "javac failed (exit %s)" % code
    return {}, "the drivers did not compile after %d rounds; the last round's errors: %s" % (MAX_ROUNDS, last_errors)


def comparable(outcome):
    return json.dumps({k: outcome.get(k) for k in ("returns", "after", "raises")}, sort_keys=True)


def has_unjudgeable(value):
    if isinstance(value, dict):
        if value.get("t") in UNJUDGEABLE:
            return True
        return any(has_unjudgeable(v) for v in value.values())
    if isinstance(value, list):
        return any(has_unjudgeable(v) for v in value)
    return False


def case_id(target, receiver, args):
    slug = re.sub(r"[^a-z0-9]+", "-", target.lower()).strip("-")
    return "%s-%s" % (slug, hashlib.sha256(json.dumps([receiver, args]).encode()).hexdigest()[:10])


def driver_class(rel_file):
    """The driver of a target file's cases: `CodemidasDriver<File>`, in the file's package."""
    return "CodemidasDriver" + re.sub(r"[^\w$]", "_", os.path.basename(rel_file)[: -len(".java")])


def plan_groups(repo_root, planned):
    """Cases grouped by the target's file (one driver class each, with that file's imports): {key: group}."""
    groups = {}
    for p in planned:
        call = p["call"]
        key = (p["package"], call["file"])
        if key not in groups:
            groups[key] = {"package": p["package"], "cls": driver_class(call["file"]), "imports": file_imports(repo_root, call["file"]), "codes": [], "ids": []}
        groups[key]["codes"].append(case_code(call, p["receiver"], p["args"]))
        groups[key]["ids"].append(p["id"])
    return groups


def run_planned(repo_root, work, planned, timeout_s, call_timeout_ms, reverse_too=False, rejected=None):
    """Compiles and runs `planned` cases ({id, package, call, receiver, args}): ({id: outcome} of the
    first run, {id: outcome} of the second in reverse order or None, {id: why dropped}, problem)."""
    rejected_by_index = {}
    deadline = time.monotonic() + timeout_s
    left = lambda: max(0, deadline - time.monotonic())  # noqa: E731
    build = Build(repo_root, work)
    try:
        groups = plan_groups(repo_root, planned)
        compiled, problem = compile_groups(build, groups, left(), rejected_by_index)
        first, second = {}, ({} if reverse_too else None)
        if problem is None:
            for key, (main_class, live) in compiled.items():
                ids = groups[key]["ids"]
                dropped = {}
                got = run_all(build, main_class, live, left(), call_timeout_ms, dropped)
                for k, why in dropped.items():
                    rejected_by_index[(key, k)] = why
                for k, o in got.items():
                    first[ids[k]] = o
                if reverse_too:
                    again = [k for k in reversed(live) if k in got]
                    for k, o in run_all(build, main_class, again, left(), call_timeout_ms, {}).items():
                        second[ids[k]] = o
        out_rejected = {groups[key]["ids"][k]: why for (key, k), why in rejected_by_index.items()}
        if rejected is not None:
            rejected.update(out_rejected)
        return first, second, out_rejected, problem
    finally:
        build.close()


def record(config):
    repo_root = config.get("repoRoot", "/workspace")
    work = config.get("workDir") or tempfile.gettempdir()
    os.makedirs(work, exist_ok=True)
    call_timeout_ms = int(config.get("callTimeoutMs", 5000))
    # the whole record run: the build, and both runs of every case (each call has callTimeoutMs in the driver)
    timeout_s = max(300, call_timeout_ms / 1000 * 60)
    max_cases = config.get("maxCases", 40)
    targets = config.get("targets", [])
    planned, meta = [], {}
    for t in targets:
        receivers = t.get("receivers") if not t.get("static") else [None]
        seen = set()
        for inp in t.get("inputs", []):
            for receiver in receivers or []:
                cid = case_id(t["target"], receiver, inp["args"])
                if cid in seen or len(seen) >= MAX_PLANNED_PER_TARGET:
                    continue
                seen.add(cid)
                planned.append({"id": cid, "package": t["package"], "call": call_of(t), "receiver": receiver, "args": typed_args(t.get("params", []), inp["args"])})
                meta[cid] = (t["unitId"], receiver, inp)
    started = time.monotonic()
    first, second, rejected, problem = run_planned(repo_root, work, planned, timeout_s, call_timeout_ms, reverse_too=True)
    ms = int((time.monotonic() - started) * 1000 / max(1, len(targets)))
    out = []
    for t in targets:
        cases, sources, dropped = [], {}, {}
        for p in planned:
            unit_id, receiver, inp = meta[p["id"]]
            if unit_id != t["unitId"]:
                continue
            src = inp.get("source", "type-hint")
            sources.setdefault(src, {"tried": 0, "kept": 0})["tried"] += 1
            if p["id"] in rejected:
                dropped[rejected[p["id"]]] = dropped.get(rejected[p["id"]], 0) + 1
                continue
            a, b = first.get(p["id"]), (second or {}).get(p["id"])
            if a is not None and "error" in a:
                # the receiver's constructor threw, or the outcome could not be written
                dropped["unrecordable"] = dropped.get("unrecordable", 0) + 1
                continue
            if a is None or b is None or comparable(a) != comparable(b):
                dropped["non-deterministic"] = dropped.get("non-deterministic", 0) + 1
                continue
            if has_unjudgeable(a.get("returns")) or has_unjudgeable(a.get("after")):
                dropped["unrecordable"] = dropped.get("unrecordable", 0) + 1
                continue
            if len(cases) >= max_cases:
                continue
            sources[src]["kept"] += 1
            before, after = a.get("before") or [], a.get("after") or []
            changed = json.dumps(before, sort_keys=True) != json.dumps(after, sort_keys=True)
            expect = {"raises": a["raises"]} if "raises" in a else {"returns": a.get("returns")}
            cases.append({
                "id": p["id"], "module": t["package"], "target": t["target"],
                "init": {"args": [] if receiver is None else [{"t": "java", "v": receiver}], "kwargs": {"call": p["call"]}},
                "args": p["args"], "kwargs": {},
                "expect": expect, "argsAfter": after if changed else None, "source": src,
                **({"shown": [a.get("message", "")]} if "raises" in a else {}),
            })
        drop = None
        if problem is not None:
            drop = {"code": "build-failed", "reason": "the library does not build with the record driver: %s" % problem}
        elif not cases:
            drop = {"code": "no-cases", "reason": "no input gave a deterministic, judgeable outcome (%s)" % (", ".join("%s: %d" % kv for kv in sorted(dropped.items())) or "no input")}
        elif len({json.dumps([c["expect"], c["argsAfter"]], sort_keys=True) for c in cases}) == 1 and len(cases) > 1:
            drop = {"code": "constant-result", "reason": "all %d recorded inputs gave the same outcome; a task would be passed by returning it" % len(cases)}
        out.append({"unitId": t["unitId"], "cases": cases, "sources": sources, "rejected": dropped, "drop": drop, "ms": ms})
    return {"targets": out, "traces": []}


def main():
    config = json.load(sys.stdin)
    json.dump(record(config), sys.stdout)


if __name__ == "__main__":
    main()
