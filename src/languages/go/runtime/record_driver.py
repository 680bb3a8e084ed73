"""The Go record harness (issue 20): records what a package's functions and methods do by compiling
a generated driver into the package and running it with `go test`, twice.

    python3 record_driver.py < config.json > result.json

config: {"repoRoot": "/workspace", "workDir": "...", "callTimeoutMs": 5000, "maxCases": 40,
         "targets": [{"unitId": "textutil:Reverse", "package": "textutil", "target": "Reverse",
                      "kind": "function" | "method",
                      "params": [{"name": "s", "type": "string", "variadic": false}],
                      "receivers": ["&Point{X: 1, Y: 2}", ...],      # a method's receiver expressions
                      "inputs": [{"args": ["\"abc\""], "source": "call-site"}, ...]}]}

Each input is Go source: one expression per parameter, written in the package (so the package's
own names, exported or not, are in scope). The driver (a `_test.go` file of the package, beside the
codec `codemidas_codec.go.txt`) binds each argument to a variable of its parameter's type, calls the
target, and writes one JSON line per case: the results (each with its dynamic type), the arguments
and the receiver before and after the call, or the panic. The repository's own `_test.go` files of
the package are set aside while it runs (a test file that does not compile, or a TestMain, would
stop it). A case the compiler refuses (a literal of the wrong type) is dropped and the rest built
again; a case that does not end in time is dropped and the rest run again. Every case is run in
two processes, the second in reverse order; only the cases whose outcomes agree are kept.

Prints one JSON document: {"targets": [{unitId, cases, sources, rejected, drop}], "traces": []}
(src/pipeline/record/harness-result-schema.ts).
"""
import contextlib
import fcntl
import hashlib
import json
import os
import re
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import bounded_run  # noqa: E402

CODEC_FILE = "zz_codemidas_codec_test.go"
DRIVER_FILE = "zz_codemidas_record_test.go"
HIDDEN_SUFFIX = ".codemidas-hidden"
MAX_ROUNDS = 6
# where go test builds and runs its binaries: beside the repository, whose filesystem runs code
GO_TMP = None
# (uid, gid) go test runs as, or None for this process's own user (the judge sets the agent user's)
RUN_AS = None
UNJUDGEABLE = {"func", "chan", "unsafe.Pointer", "unsupported", "deep"}


def package_name(package_dir):
    for name in sorted(os.listdir(package_dir)):
        if name.endswith(".go") and not name.endswith("_test.go"):
            with open(os.path.join(package_dir, name), encoding="utf-8", errors="replace") as f:
                for line in f:
                    m = re.match(r"\s*package\s+(\w+)", line)
                    if m:
                        return m.group(1)
    return None


def typed_args(params, exprs):
    """A case's arguments as the driver binds them: each expression with its parameter's type; the
    expressions past a variadic parameter joined into one slice of its type (`"variadic": true`)."""
    out = []
    for i, expr in enumerate(exprs):
        param = params[i] if i < len(params) else {}
        if param.get("variadic"):
            out.append({"t": "go", "v": "[]%s{%s}" % (param.get("type"), ", ".join(exprs[i:])), "type": "[]%s" % param.get("type"), "variadic": True})
            break
        out.append({"t": "go", "v": expr, "type": param.get("type")})
    return out


def case_code(target_name, receiver, args):
    """One case as a Go function literal on one line: bind each argument to a variable of its type,
    call the target through reflect (so any number of results comes back), return (results,
    [receiver and arguments before], [after])."""
    binds = []
    names = []
    spread = "false"
    for i, arg in enumerate(args):
        name = "codemidasA%d" % i
        typ = arg.get("type")
        binds.append("var %s %s = %s" % (name, typ, arg["v"]) if typ else "%s := %s" % (name, arg["v"]))
        names.append(name)
        if arg.get("variadic"):
            spread = "true"
    callee = target_name.split(".")[-1]
    bound = list(names)
    if receiver is not None:
        binds.insert(0, "codemidasR := %s" % receiver)
        bound.insert(0, "codemidasR")
        function = "codemidasR.%s" % callee
    else:
        function = callee
    values = ", ".join("reflect.ValueOf(&%s).Elem()" % n for n in names)
    run = "codemidasB := codemidasBefore([]interface{}{%s}); return codemidasReflectCall(reflect.ValueOf(%s), %s%s), codemidasB, []interface{}{%s}" % (
        ", ".join(bound), function, spread, (", " + values) if values else "", ", ".join(bound))
    return "func() ([]interface{}, []interface{}, []interface{}) { %s }" % "; ".join(binds + [run])


DRIVER_HEAD = """package %s

import (
\t"encoding/json"
\t"os"
\t"reflect"
\t"testing"
\t"time"
)

const codemidasCallTimeout = %d * time.Millisecond

func codemidasBefore(values []interface{}) []interface{} {
\tout := make([]interface{}, 0, len(values))
\tfor i := range values {
\t\tout = append(out, codemidasEncode(reflect.ValueOf(&values[i]).Elem(), 0))
\t}
\treturn out
}

func codemidasEmit(f *os.File, id string, run func() ([]interface{}, []interface{}, []interface{})) {
\tdone := make(chan map[string]interface{}, 1)
\tgo func() {
\t\tvar before []interface{}
\t\toutcome := codemidasCall(func() ([]interface{}, []interface{}) {
\t\t\tresults, b, after := run()
\t\t\tbefore = b
\t\t\treturn results, after
\t\t})
\t\toutcome["before"] = before
\t\tdone <- outcome
\t}()
\tvar outcome map[string]interface{}
\tselect {
\tcase outcome = <-done:
\tcase <-time.After(codemidasCallTimeout):
\t\t// a call that does not end cannot be stopped: say so and end the process (the harness runs the rest again)
\t\tline, _ := json.Marshal(map[string]interface{}{"id": id, "timeout": true})
\t\t_, _ = f.Write(append(line, '\\n'))
\t\tos.Exit(3)
\t}
\toutcome["id"] = id
\tline, err := json.Marshal(outcome)
\tif err != nil {
\t\tline, _ = json.Marshal(map[string]interface{}{"id": id, "error": err.Error()})
\t}
\t_, _ = f.Write(append(line, '\\n'))
}

func TestCodemidasRecord(t *testing.T) {
\tf, err := os.OpenFile(os.Getenv("CODEMIDAS_RECORD_OUT"), os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0644)
\tif err != nil {
\t\tt.Fatal(err)
\t}
\tdefer f.Close()
\tfor _, c := range codemidasCases {
\t\tcodemidasEmit(f, c.id, c.run)
\t}
}

// one case a line, each its own function (one test function of every call compiles in time quadratic in their number)
var codemidasCases = []struct {
\tid  string
\trun func() ([]interface{}, []interface{}, []interface{})
}{
"""


def write_driver(package_dir, pkg, cases, call_timeout_ms):
    """The driver file; returns {line number: case id} for the compiler's errors."""
    lines = (DRIVER_HEAD % (pkg, call_timeout_ms)).split("\n")
    at = {}
    for case in cases:
        at[len(lines) + 1] = case["id"]
        lines.append("\t{%s, %s}," % (json.dumps(case["id"]), case["code"]))
    lines.append("}")
    with open(os.path.join(package_dir, DRIVER_FILE), "w", encoding="utf-8") as f:
        f.write("\n".join(lines) + "\n")
    return at


def run_go(package_dir, out_path, timeout_s):
    """(exit code, go test's output (its first MiB: compiler errors come first), {case id: outcome})
    of one run of the driver, bounded whatever the package's code does (bounded_run.py): output past
    that is read and dropped, and as the agent user (RUN_AS) every process of that user is killed
    once the run ends, what escaped go test's group too."""
    if os.path.exists(out_path):
        os.remove(out_path)
    # go test runs the binary it builds from GOTMPDIR: a sandbox's /tmp may not allow that (noexec)
    env = dict(os.environ, CODEMIDAS_RECORD_OUT=out_path, GOTMPDIR=GO_TMP)
    # its own process group, killed whole at timeout_s: go test's -timeout starts only after the
    # package's init functions, and one that never ends must not outlive the caller's budget
    code, output, _ = bounded_run.run_bounded(["go", "test", "-vet=off", "-gcflags=-e", "-run", "^TestCodemidasRecord$", "-count=1", "-timeout", "%ds" % max(5, int(timeout_s)), "."],
                                              package_dir, env, max(5, timeout_s), run_as=RUN_AS)
    outcomes = {}
    for o in bounded_run.read_jsonl(out_path):
        try:
            outcomes[o["id"]] = o
        except (KeyError, TypeError):
            pass
    return code, output, outcomes


def syntax_errors(package_dir):
    """gofmt's report of every syntax error of the driver file (`<file>:<line>:<col>: ...` lines)."""
    try:
        done = subprocess.run(["gofmt", "-e", "-l", DRIVER_FILE], cwd=package_dir, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, timeout=60, check=False)
        return "\n" + done.stdout.decode("utf-8", errors="replace")
    except (OSError, subprocess.TimeoutExpired):
        return ""


def run_cases(package_dir, pkg, cases, work, timeout_s, call_timeout_ms, rejected):
    """Builds and runs the cases until they compile and finish; {id: outcome}, and a package-wide problem or None."""
    cases = list(cases)
    out_path = os.path.join(work, "record-%s-%d.jsonl" % (hashlib.sha256(package_dir.encode()).hexdigest()[:8], os.getpid()))
    kept = {}
    compile_rounds = 0
    while cases:
        at = write_driver(package_dir, pkg, cases, call_timeout_ms)
        code, output, outcomes = run_go(package_dir, out_path, timeout_s)
        if "[setup failed]" in output:
            # a syntax error stops the compiler at the first: gofmt reports every one of the file at once
            output += syntax_errors(package_dir)
        refused = {at[int(m.group(1))] for m in re.finditer(re.escape(DRIVER_FILE) + r":(\d+):\d+:", output) if int(m.group(1)) in at}
        if refused:
            compile_rounds += 1
            if compile_rounds > MAX_ROUNDS:
                return kept, "the driver did not compile after %d rounds" % MAX_ROUNDS
            for cid in refused:
                rejected[cid] = "compile"
            cases = [c for c in cases if c["id"] not in refused]
            continue
        if code != 0 and not outcomes:
            return kept, output.strip() or "go test failed (exit %s)" % code
        if not outcomes:
            # the process ended before any case (an init that exits): none of the rest will run either
            for c in cases:
                rejected[c["id"]] = "exited"
            break
        for cid, o in outcomes.items():
            if o.get("timeout"):
                rejected[cid] = "timeout"
            else:
                kept[cid] = o
        rest = [c for c in cases if c["id"] not in outcomes]
        if rest and all(not o.get("timeout") for o in outcomes.values()):
            # the process ended inside the first case without an outcome (os.Exit, a fatal error): drop it
            rejected[rest[0]["id"]] = "exited"
            rest = rest[1:]
        cases = rest
    return kept, None


def comparable(outcome):
    return json.dumps({k: outcome.get(k) for k in ("returns", "after", "panics")}, sort_keys=True)


def has_unjudgeable(value):
    if isinstance(value, dict):
        if value.get("t") in UNJUDGEABLE:
            return True
        return any(has_unjudgeable(v) for v in value.values())
    if isinstance(value, list):
        return any(has_unjudgeable(v) for v in value)
    return False


# literals of the repository's tests, by the Go types a parameter may have
GO_ESCAPE = r"""\\(?:[abfnrtv\\'"]|x[0-9a-fA-F]{2}|u[0-9a-fA-F]{4}|U[0-9a-fA-F]{8}|[0-7]{3})"""
TEST_LITERALS = {
    "string": re.compile(r'"(?:[^"\\\n]|%s)*"' % GO_ESCAPE),
    "int": re.compile(r"(?<![\w.])-?\d+(?![\w.])"),
    "float64": re.compile(r"(?<![\w.])-?\d+\.\d+(?:[eE][-+]?\d+)?(?![\w.])"),
    "rune": re.compile(r"'(?:[^'\\\n]|%s)'" % GO_ESCAPE),
}
ANY_LITERAL = re.compile("|".join("(?P<%s>%s)" % (k, TEST_LITERALS[k].pattern) for k in ("string", "rune", "float64", "int")))
TEST_LITERAL_TYPES = {"string": "string", "int": "int", "int64": "int", "int32": "int", "uint": "int", "uint64": "int", "uint32": "int", "float64": "float64", "float32": "float64", "rune": "rune"}
# inputs from the tests' literals per target, at most
TEST_LITERAL_INPUTS = 24


def with_test_literals(target, tests):
    """The target's inputs with calls built from its package's tests' literals (`repo-test`), after
    its literal calls and alternating with the rest: table-driven tests hold their inputs in table
    rows, not in literal calls. Literals of the test functions that name the target come first, then
    the rest of the files'. A row is a run of consecutive literals whose kinds are those of the
    parameters of a string, integer, float or rune type, in order; then each such parameter is
    varied alone through the literals of its kind from the target's first input."""
    inputs = list(target.get("inputs", []))
    params = target.get("params", [])
    if not tests or not params or not inputs or any(p.get("variadic") for p in params):
        return inputs
    kinds = [TEST_LITERAL_TYPES.get((p.get("type") or "").strip()) for p in params]
    slots = [k for k, kind in enumerate(kinds) if kind is not None]
    base = next((i["args"] for i in inputs if i.get("source") == "type-hint"), inputs[0]["args"])
    if not slots or len(base) != len(params):
        return inputs
    name = target["target"].split(".")[-1]
    named, rest = [], []
    for text in tests:
        for chunk in re.split(r"\n(?=func )", text):
            (named if re.search(r"\b%s\b" % re.escape(name), chunk) else rest).append(chunk)
    chunks = named + rest
    found, seen = [], set()

    def add(args):
        key = tuple(args)
        if key not in seen:
            seen.add(key)
            found.append({"args": list(args), "source": "repo-test"})

    for row in literal_rows([kinds[k] for k in slots], chunks):
        args = list(base)
        for n, k in enumerate(slots):
            args[k] = row[n]
        add(args)
    for k in slots:
        for row in literal_rows([kinds[k]], chunks):
            add(base[:k] + row + base[k + 1:])
    found = found[:TEST_LITERAL_INPUTS]
    leading = [i for i in inputs if i.get("source") in ("call-site", "repo-test")]
    others = [i for i in inputs if i not in leading]
    mixed = []
    for n in range(max(len(found), len(others))):
        mixed += found[n:n + 1] + others[n:n + 1]
    return leading + mixed


# receivers built by the package's constructors per method, at most
CONSTRUCTED_RECEIVERS = 6
LITERAL_ARGS = re.compile(r'\s*(?:(?:"(?:[^"\\\n]|%s)*"|`[^`]*`|\'(?:[^\'\\\n]|%s)\'|-?\d+(?:\.\d+)?|true|false|nil)\s*(?:,\s*|$))*' % (GO_ESCAPE, GO_ESCAPE))


def package_sources(package_dir):
    """The text of the package's own (non-test) Go files."""
    out = []
    for name in sorted(os.listdir(package_dir)):
        if name.endswith(".go") and not name.endswith("_test.go") and not name.startswith("zz_codemidas_"):
            with open(os.path.join(package_dir, name), encoding="utf-8", errors="replace") as f:
                out.append(f.read())
    return out


def constructed_receivers(type_name, sources, tests):
    """Receivers of a method of `type_name` as the package's code makes them: calls with literal
    arguments (in its tests first, then its sources) of its functions that return exactly `T` or
    `*T` (`NewTranslator("a-z", "A-Z")`)."""
    if not type_name:
        return []
    makers, wraps = {}, {}
    for text in sources:
        for m in re.finditer(r"^func\s+(\w+)\s*\(([^)]*)\)\s*(?:(\*?%s)|\(\s*(\*?%s)\s*,\s*error\s*\))\s*\{" % (re.escape(type_name), re.escape(type_name)), text, re.M):
            makers[m.group(1)] = param_types(m.group(2))
            if m.group(4):
                # a constructor that also returns an error: its value taken, the error left
                wraps[m.group(1)] = "func() %s { r, _ := %%s; return r }()" % m.group(4)
    out = []
    made = lambda call: wraps[call.split("(", 1)[0]] % call if call.split("(", 1)[0] in wraps else call  # noqa: E731
    for text in tests + sources:
        for name in sorted(makers):
            for m in re.finditer(r"\b%s\(" % re.escape(name), text):
                depth, i = 1, m.end()
                while i < len(text) and depth:
                    depth += {"(": 1, ")": -1}.get(text[i], 0)
                    i += 1
                args = text[m.end():i - 1]
                call = made("%s(%s)" % (name, args))
                if depth == 0 and "\n" not in args and LITERAL_ARGS.fullmatch(args) and call not in out:
                    out.append(call)
                if len(out) >= CONSTRUCTED_RECEIVERS:
                    return out
    # then rows of the tests' literals that fit its parameters, as a table-driven test passes them
    # (the tests often call it with variables)
    for name in sorted(makers):
        kinds = [TEST_LITERAL_TYPES.get(t) for t in makers[name]]
        if not kinds or None in kinds:
            continue
        for row in literal_rows(kinds, tests):
            call = made("%s(%s)" % (name, ", ".join(row)))
            if call not in out and len(out) < CONSTRUCTED_RECEIVERS:
                out.append(call)
    return out


def param_types(text):
    """The type of each parameter of a Go parameter list (`from, to string` → [string, string])."""
    parts = [p.strip() for p in text.split(",") if p.strip()]
    types = []
    pending = 0
    for part in parts:
        words = part.split(None, 1)
        if len(words) == 1:
            pending += 1
            continue
        types += [words[1].strip()] * (pending + 1)
        pending = 0
    return types if pending == 0 else []


def literal_rows(kinds, chunks):
    """Runs of consecutive literals of `chunks` whose kinds are `kinds`, in order, without repeats."""
    sequence = [(m.lastgroup, m.group(0)) for chunk in chunks for m in ANY_LITERAL.finditer(chunk) if len(m.group(0)) <= 200]
    rows = []
    for i in range(len(sequence) - len(kinds) + 1):
        window = sequence[i:i + len(kinds)]
        row = [lit for _, lit in window]
        if all(window[n][0] == kinds[n] for n in range(len(kinds))) and row not in rows:
            rows.append(row)
    return rows


def recorded_case(package, target, receiver, args, source, cid, first, second):
    """(the recorded case, None) of a call whose two runs' outcomes agree and can be judged, else
    (None, why not): `non-deterministic` or `unrecordable`."""
    if first is None or second is None or "error" in first or comparable(first) != comparable(second):
        return None, "non-deterministic"
    if has_unjudgeable(first.get("returns")) or has_unjudgeable(first.get("after")):
        return None, "unrecordable"
    before, after = first.get("before") or [], first.get("after") or []
    changed = json.dumps(before, sort_keys=True) != json.dumps(after, sort_keys=True)
    expect = {"raises": first["panics"]} if "panics" in first else {"returns": {"t": "results", "v": first.get("returns", [])}}
    # a call that returns an error is a behaviour of its own (the prompt shows one of each)
    errors = [r.get("type") for r in first.get("returns", []) if isinstance(r, dict) and r.get("t") == "error"]
    return {
        **({"path": "returns an error %s" % errors[0]} if errors else {}),
        "id": cid, "module": package, "target": target,
        "init": None if receiver is None else {"args": [{"t": "go", "v": receiver}], "kwargs": {}},
        "args": args, "kwargs": {},
        "expect": expect, "argsAfter": after if changed else None, "source": source,
    }, None


def case_id(target, receiver, args):
    slug = re.sub(r"[^a-z0-9]+", "-", target.lower()).strip("-")
    return "%s-%s" % (slug, hashlib.sha256(json.dumps([receiver, args]).encode()).hexdigest()[:10])


@contextlib.contextmanager
def package_lock(package_dir):
    """Holds the package for one run: the record stage runs several harness processes at once, and
    each writes its driver into the package (and the mutate run its mutants over its files)."""
    path = os.path.join(tempfile.gettempdir(), "codemidas-go-%s.lock" % hashlib.sha256(os.path.abspath(package_dir).encode()).hexdigest()[:16])
    with open(path, "a") as f:
        fcntl.flock(f, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(f, fcntl.LOCK_UN)


class PreparedPackage:
    """A package ready for the driver: its own `_test.go` files set aside, the codec written beside
    them; on exit both undone (the driver file removed too)."""

    def __init__(self, repo_root, package):
        self.dir = os.path.normpath(os.path.join(repo_root, package))
        self.name = package_name(self.dir) if os.path.isdir(self.dir) else None
        self.hidden = []

    def __enter__(self):
        if self.name is None:
            return self
        for name in sorted(os.listdir(self.dir)):
            if name.endswith("_test.go"):
                os.rename(os.path.join(self.dir, name), os.path.join(self.dir, name + HIDDEN_SUFFIX))
                self.hidden.append(name)
        with open(os.path.join(HERE, "codemidas_codec.go.txt"), encoding="utf-8") as f:
            codec = f.read().replace("__CODEMIDAS_PACKAGE__", self.name)
        with open(os.path.join(self.dir, CODEC_FILE), "w", encoding="utf-8") as f:
            f.write(codec)
        return self

    def test_sources(self):
        """The text of each of the package's own `_test.go` files (set aside while it runs)."""
        out = []
        for name in self.hidden:
            try:
                with open(os.path.join(self.dir, name + HIDDEN_SUFFIX), encoding="utf-8", errors="replace") as f:
                    out.append(f.read())
            except OSError:
                pass
        return out

    def __exit__(self, *exc):
        for name in (CODEC_FILE, DRIVER_FILE):
            try:
                os.remove(os.path.join(self.dir, name))
            except OSError:
                pass
        for name in self.hidden:
            os.rename(os.path.join(self.dir, name + HIDDEN_SUFFIX), os.path.join(self.dir, name))
        return False


def run_package_cases(repo_root, package, planned, work, timeout_s, call_timeout_ms):
    """One run of `planned` cases in a package (the judge's): {id: outcome}; a case without an outcome did not build, end or run."""
    with package_lock(os.path.join(repo_root, package)), PreparedPackage(repo_root, package) as prepared:
        if prepared.name is None:
            return {}
        outcomes, _ = run_cases(prepared.dir, prepared.name, planned, work, timeout_s, call_timeout_ms, {})
        return outcomes


def record_package(repo_root, work, package, targets, timeout_s, call_timeout_ms, max_cases):
    results = {}
    with package_lock(os.path.join(repo_root, package)), PreparedPackage(repo_root, package) as prepared:
        if prepared.name is None:
            for t in targets:
                results[t["unitId"]] = {"drop": {"code": "no-package", "reason": "no Go package clause in %s" % package}}
            return results
        package_dir, pkg = prepared.dir, prepared.name
        tests = prepared.test_sources()
        planned = []
        meta = {}
        sources = package_sources(package_dir)
        made = {}  # the constructed receivers of each receiver type, read off the package once
        for t in targets:
            if t.get("kind") == "method":
                kind = t.get("receiverType")
                if kind not in made:
                    made[kind] = constructed_receivers(kind, sources, tests)
                receivers = made[kind] + (t.get("receivers") or [])
            else:
                receivers = [None]
            seen = set()
            for inp in with_test_literals(t, tests):
                for receiver in receivers or []:
                    cid = case_id(t["target"], receiver, inp["args"])
                    if cid in seen:
                        continue
                    seen.add(cid)
                    planned.append({"id": cid, "code": case_code(t["target"], receiver, typed_args(t.get("params", []), inp["args"]))})
                    meta[cid] = (t["unitId"], receiver, inp)
        rejected = {}
        first, problem = run_cases(package_dir, pkg, planned, work, timeout_s, call_timeout_ms, rejected)
        second = {}
        if problem is None:
            again = [c for c in reversed(planned) if c["id"] in first]
            second, problem = run_cases(package_dir, pkg, again, work, timeout_s, call_timeout_ms, {})
        for t in targets:
            cases, sources, dropped = [], {}, {}
            for c in planned:
                unit_id, receiver, inp = meta[c["id"]]
                if unit_id != t["unitId"]:
                    continue
                src = inp.get("source", "type")
                sources.setdefault(src, {"tried": 0, "kept": 0})["tried"] += 1
                if c["id"] in rejected:
                    dropped[rejected[c["id"]]] = dropped.get(rejected[c["id"]], 0) + 1
                    continue
                case, reason = recorded_case(package, t["target"], receiver, typed_args(t.get("params", []), inp["args"]), src, c["id"], first.get(c["id"]), second.get(c["id"]))
                if case is None:
                    dropped[reason] = dropped.get(reason, 0) + 1
                    continue
                if len(cases) >= max_cases:
                    continue
                sources[src]["kept"] += 1
                cases.append(case)
            drop = None
            if problem is not None:
                drop = {"code": "build-failed", "reason": "the package does not build with the record driver: %s" % problem[-1500:]}
            elif not cases:
                drop = {"code": "no-cases", "reason": "no input gave a deterministic, judgeable outcome (%s)" % ", ".join("%s: %d" % kv for kv in sorted(dropped.items())) or "no input"}
            elif len({json.dumps(c["expect"], sort_keys=True) for c in cases}) == 1 and len(cases) > 1:
                drop = {"code": "constant-result", "reason": "all %d recorded inputs gave the same outcome; a task would be passed by returning it" % len(cases)}
            results[t["unitId"]] = {"cases": cases, "sources": sources, "rejected": dropped, "drop": drop}
    return results


def main():
    global GO_TMP
    config = json.load(sys.stdin)
    repo_root = config.get("repoRoot", "/workspace")
    GO_TMP = os.path.join(repo_root, ".codemidas-go-tmp-%d" % os.getpid())
    os.makedirs(GO_TMP, exist_ok=True)
    try:
        record(config, repo_root)
    finally:
        subprocess.run(["rm", "-rf", GO_TMP], check=False)


def record(config, repo_root):
    work = config.get("workDir") or "/tmp"
    os.makedirs(work, exist_ok=True)
    # the whole run of one package (its build included); each call has callTimeoutMs in the driver
    timeout_s = max(180, config.get("callTimeoutMs", 5000) / 1000 * 40)
    max_cases = config.get("maxCases", 40)
    by_package = {}
    for t in config.get("targets", []):
        by_package.setdefault(t["package"], []).append(t)
    out = []
    for package in sorted(by_package):
        started = time.monotonic()
        recorded = record_package(repo_root, work, package, by_package[package], timeout_s, int(config.get("callTimeoutMs", 5000)), max_cases)
        ms = int((time.monotonic() - started) * 1000 / max(1, len(by_package[package])))
        for t in by_package[package]:
            r = recorded[t["unitId"]]
            out.append({"unitId": t["unitId"], "cases": r.get("cases", []), "sources": r.get("sources", {}), "rejected": r.get("rejected", {}), "drop": r.get("drop"), "ms": ms})
    json.dump({"targets": out, "traces": []}, sys.stdout)


if __name__ == "__main__":
    main()
