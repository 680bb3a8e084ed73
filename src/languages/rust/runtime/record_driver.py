"""The Rust record harness: records what a crate's functions and methods do by compiling a generated
driver into the crate's library tests (`cargo test --lib --no-run`) and running the test binary it
builds, twice.

    python3 record_driver.py < config.json > result.json

config: {"repoRoot": "/workspace", "workDir": "...", "callTimeoutMs": 5000, "maxCases": 40,
         "targets": [{"unitId": "src/text.rs:slugify", "module": "src/text.rs",
                      "target": "slugify" | "Point.shift", "kind": "function" | "method",
                      "selfKind": null | "&self" | "&mut self" | "self", "selfType": "Point",
                      "params": [{"name": "s", "type": "&str"}],
                      "receivers": ["Point::new(1, 2)", ...],       # a method's receiver expressions
                      "inputs": [{"args": ["\"abc\""], "source": "call-site"}, ...]}]}

A unit's module is the file of its Rust module (`src/text.rs`); its crate is the nearest folder
above holding a Cargo.toml, and its module path follows from the file (`text`). Each input is Rust source: one expression per parameter, written inside the target's module (a
driver compiled as a child module of it, `use super::*`, reaches its private items). For each module
file the driver is a file in the work folder that `#[cfg(test)] #[path = "..."] mod
zz_codemidas_record;`, appended to the module's file, brings into the crate's test build; both are
undone afterwards. Each case is a function of its own that binds each argument to a variable of its
parameter's type, calls the target under `catch_unwind` and writes one JSON line: the result with its
type (`std::any::type_name`) and its `{:?}` text, the receiver and arguments before and after, or
the panic. A case the compiler refuses is dropped and the rest built again; a case that does not end
in time, or ends the process, is dropped and the rest run again (the test binary reads which cases
to run, in which order, from a file: no rebuild). Every case is run in two processes, the second in
reverse order; only the cases whose outcomes agree are kept.

While it runs, the crate's Cargo.toml loses its `[dev-dependencies]`, `[build-dependencies]`,
`[profile.*]` sections and its `build` key, and `build.rs` and `.cargo/` are set aside: the sandbox
is offline, and neither a build script nor a profile may change what is recorded or judged.

Prints one JSON document: {"targets": [{unitId, cases, sources, rejected, drop}], "traces": []}
(src/pipeline/record/harness-result-schema.ts).
"""
import contextlib
import fcntl
import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import bounded_run  # noqa: E402

HIDDEN_SUFFIX = ".codemidas-hidden"
MOD_NAME = "zz_codemidas_record"
MAX_ROUNDS = 6
# where cargo builds the test binary: beside the repository, whose filesystem runs code (/tmp may be noexec)
TARGET_DIR = None
# (uid, gid) cargo and the test binary run as, or None for this process's own user (the judge sets the agent user's)
RUN_AS = None
# cargo's JSON messages name the test binary last: a crate with many warnings writes megabytes
CARGO_OUTPUT_KEEP = 64 << 20
UNJUDGEABLE = {"opaque"}
SECTIONS_DROPPED = re.compile(r"^(?:dev-dependencies(?:\..*)?|build-dependencies(?:\..*)?|profile(?:\..*)?|target\..*\.(?:dev|build)-dependencies(?:\..*)?|patch(?:\..*)?|replace)$")


def sanitized_manifest(text):
    """Cargo.toml without the sections that need the network or change how tests build (dev and
    build dependencies, profiles, patches) and without its package's `build` key."""
    out, section, skipping = [], "", False
    for line in text.split("\n"):
        m = re.match(r"^\s*\[\[?\s*([^\]]+?)\s*\]\]?\s*(?:#.*)?$", line)
        if m:
            section = m.group(1).replace('"', "").replace("'", "")
            skipping = bool(SECTIONS_DROPPED.match(section))
        if skipping:
            continue
        if section == "package" and re.match(r"^\s*build\s*=", line):
            continue
        out.append(line)
    return "\n".join(out)


def case_fn(name, target):
    """One case as a Rust function on one line (compiler errors name its line): bind the receiver
    and each argument to a typed variable, call the target, return (result, before, after) as codec JSON."""
    binds, before, after = [], [], []
    callee = target["target"].split(".")
    receiver = target.get("receiver")
    if receiver is not None:
        binds.append("let mut codemidas_r: %s = %s;" % (target["selfType"], receiver))
        before.append("codemidas_show!(codemidas_r)")
        after.append("codemidas_show!(codemidas_r)" if target.get("selfKind") == "&mut self" else "codemidas_b[0].clone()")
    args = []
    for i, arg in enumerate(target["args"]):
        name_i = "codemidas_a%d" % i
        typ = arg.get("type")
        binds.append("let mut %s%s = %s;" % (name_i, ": %s" % typ if typ else "", arg["v"]))
        args.append(name_i)
        k = len(before)
        before.append("codemidas_show!(%s)" % name_i)
        after.append("codemidas_show!(%s)" % name_i if (typ or "").replace(" ", "").startswith("&mut") else "codemidas_b[%d].clone()" % k)
    if receiver is not None:
        call = "codemidas_r.%s(%s)" % (callee[-1], ", ".join(args))
    else:
        call = "super::%s(%s)" % ("::".join(callee), ", ".join(args))
    return ("fn %s() -> (String, String, String) { %s let codemidas_b: Vec<String> = vec![%s]; "
            "let codemidas_ret = { let codemidas_v = %s; codemidas_show!(codemidas_v) }; "
            "let codemidas_after: Vec<String> = vec![%s]; (codemidas_ret, codemidas_b.join(\",\"), codemidas_after.join(\",\")) }") % (
        name, " ".join(binds), ", ".join(before), call, ", ".join(after))


def write_driver(path, cases):
    """The driver file of one module; returns {line number: case id} for the compiler's errors."""
    with open(os.path.join(HERE, "codemidas_codec.rs.txt"), encoding="utf-8") as f:
        lines = f.read().rstrip("\n").split("\n")
    at, table = {}, []
    for k, case in enumerate(cases):
        fn = "codemidas_case_%d" % k
        at[len(lines) + 1] = case["id"]
        lines.append(case_fn(fn, case))
        table.append("(%s, %s as fn() -> (String, String, String))" % (json.dumps(case["id"]), fn))
    lines.append("#[test]")
    lines.append("fn codemidas_record() {")
    lines.append("    codemidas_run(&[%s]);" % ", ".join(table))
    lines.append("}")
    write_file(path, ("\n".join(lines) + "\n").encode("utf-8"))
    return at


def spans_of(message):
    """Every span of a rustc diagnostic: its own, its children's and the macro expansions' they came from."""
    out = []
    stack = list(message.get("spans") or [])
    for child in message.get("children") or []:
        stack.extend(child.get("spans") or [])
    while stack:
        span = stack.pop()
        out.append(span)
        expansion = span.get("expansion")
        if expansion and expansion.get("span"):
            stack.append(expansion["span"])
    return out


def run_process(argv, cwd, env, timeout_s):
    """(exit code, stdout, stderr) of a command as RUN_AS, bounded (bounded_run.py): its own process
    group killed at timeout_s (-1), and every process of the agent user once it ends."""
    return bounded_run.run_bounded(argv, cwd, env, timeout_s, run_as=RUN_AS, keep=CARGO_OUTPUT_KEEP, merge=False)


def cargo_env():
    # lints never fail the build: a crate's `#![deny(trivial_casts, unused_results)]` (or `forbid`)
    # would refuse the driver's own code, as Debian caps them for the crates it builds
    env = dict(os.environ, CARGO_TARGET_DIR=TARGET_DIR, CARGO_NET_OFFLINE="true", CARGO_TERM_COLOR="never", RUSTFLAGS="--cap-lints=warn", CARGO_BUILD_RUSTFLAGS="")
    env.pop("RUSTC_WRAPPER", None)
    env.pop("CARGO_BUILD_RUSTC_WRAPPER", None)
    return env


def build(crate_dir, timeout_s):
    """Compiles the crate's library tests: (test binary or None, {driver file: {line}} refused, problem text)."""
    code, out, err = run_process(["cargo", "test", "--lib", "--no-run", "--offline", "--message-format=json"], crate_dir, cargo_env(), timeout_s)
    executable, errors, refused = None, [], {}
    for line in out.split("\n"):
        try:
            msg = json.loads(line)
        except ValueError:
            continue
        if msg.get("reason") == "compiler-artifact" and (msg.get("profile") or {}).get("test") and msg.get("executable"):
            executable = msg["executable"]
        if msg.get("reason") == "compiler-message" and (msg.get("message") or {}).get("level") == "error":
            message = msg["message"]
            errors.append(message.get("rendered") or message.get("message") or "")
            for span in spans_of(message):
                name = os.path.basename(span.get("file_name") or "")
                if name.startswith(MOD_NAME):
                    refused.setdefault(name, set()).add(span.get("line_start"))
    if code == -1:
        return None, {}, "cargo did not finish within %ds" % timeout_s
    problem = None
    if executable is None:
        problem = ("\n".join(e.strip() for e in errors if e.strip()) or err.strip())[-1500:] or "cargo test failed (exit %s)" % code
    return executable, refused, problem


def read_outcomes(out_path):
    """({id: outcome}, [ids started, in order]) of what the test binary wrote."""
    outcomes, started = {}, []
    for o in bounded_run.read_jsonl(out_path):
        try:
            if o.get("start"):
                started.append(o["id"])
            else:
                outcomes[o["id"]] = o
        except (KeyError, TypeError, AttributeError):
            pass
    return outcomes, started


def run_binary(executable, crate_dir, tests, ids, work, timeout_s, call_timeout_ms):
    stamp = "%s-%d" % (hashlib.sha256(crate_dir.encode()).hexdigest()[:8], os.getpid())
    out_path = os.path.join(work, "record-%s.jsonl" % stamp)
    ids_path = os.path.join(work, "ids-%s.txt" % stamp)
    for p in (out_path,):
        if os.path.exists(p):
            os.remove(p)
    with open(ids_path, "w", encoding="utf-8") as f:
        f.write("\n".join(ids) + "\n")
    env = dict(os.environ, CODEMIDAS_RECORD_OUT=out_path, CODEMIDAS_RECORD_IDS=ids_path, CODEMIDAS_CALL_TIMEOUT_MS=str(call_timeout_ms), RUST_BACKTRACE="0")
    code, out, err = run_process([executable, "--exact", "--test-threads=1", "--nocapture", "-q"] + tests, crate_dir, env, timeout_s)
    outcomes, started = read_outcomes(out_path)
    return code, (out + err)[-1500:], outcomes, started


def run_cases(prepared, cases, work, timeout_s, call_timeout_ms, rejected):
    """Builds and runs the cases until they compile and finish: ({id: outcome}, a crate-wide problem or None).
    `cases`: planned_case's."""
    cases = list(cases)
    kept = {}
    t0 = time.monotonic()
    left = lambda: timeout_s - (time.monotonic() - t0)  # noqa: E731
    executable = None
    for _ in range(MAX_ROUNDS + 1):
        lines = prepared.write_drivers(cases)
        executable, refused, problem = build(prepared.dir, left())
        dropped = {lines[name][line] for name, at in refused.items() for line in at if name in lines and line in lines[name]}
        if dropped:
            for cid in dropped:
                rejected[cid] = "compile"
            cases = [c for c in cases if c["id"] not in dropped]
            if not cases:
                return kept, None
            continue
        if executable is None:
            return kept, problem
        break
    else:
        return kept, "the driver did not compile after %d rounds" % MAX_ROUNDS
    tests = prepared.test_names()
    while cases and left() > 1:
        code, output, outcomes, started = run_binary(executable, prepared.dir, tests, [c["id"] for c in cases], work, left(), call_timeout_ms)
        ids = {c["id"] for c in cases}
        outcomes = {cid: o for cid, o in outcomes.items() if cid in ids}
        if not started:
            # the process ended before any case (a constructor that exits, a crash at start): none of the rest will run either
            for c in cases:
                rejected[c["id"]] = "exited"
            break
        for cid, o in outcomes.items():
            if o.get("timeout"):
                rejected[cid] = "timeout"
            else:
                kept[cid] = o
        # a case that started and left no outcome ended the process (process::exit, an abort, a stack overflow)
        for cid in started:
            if cid in ids and cid not in outcomes:
                rejected[cid] = "exited"
        rest = [c for c in cases if c["id"] not in outcomes and c["id"] not in rejected]
        if len(rest) == len(cases):
            for c in rest:
                rejected[c["id"]] = "exited"
            break
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


def case_id(target, receiver, args):
    slug = re.sub(r"[^a-z0-9]+", "-", target.lower()).strip("-")
    return "%s-%s" % (slug, hashlib.sha256(json.dumps([receiver, args]).encode()).hexdigest()[:10])


@contextlib.contextmanager
def crate_lock(crate_dir):
    """Holds the crate for one run: the record stage runs several harness processes at once, and
    each writes its drivers into the crate (and the mutate run its mutants over its files)."""
    path = os.path.join(tempfile.gettempdir(), "codemidas-rust-%s.lock" % hashlib.sha256(os.path.abspath(crate_dir).encode()).hexdigest()[:16])
    with open(path, "a") as f:
        fcntl.flock(f, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(f, fcntl.LOCK_UN)


# the crate's own tests: `#[cfg(test)]` items and `#[test]` functions (which may use them)
CFG_TEST = re.compile(rb"#\[\s*(?:cfg\s*\(\s*test\s*\)|test)\s*\]")
RUST_SOURCE_MAX = 4 << 20


def rust_sources(crate_dir):
    """The crate's `.rs` files under src/ that are regular files inside it (no links followed), each at most RUST_SOURCE_MAX bytes."""
    out = []
    top = os.path.join(crate_dir, "src")
    for folder, dirs, files in os.walk(top):
        dirs[:] = sorted(d for d in dirs if not os.path.islink(os.path.join(folder, d)))
        for name in sorted(files):
            path = os.path.join(folder, name)
            if name.endswith(".rs") and not os.path.islink(path) and os.path.isfile(path) and os.path.getsize(path) <= RUST_SOURCE_MAX and inside(crate_dir, path):
                out.append(path)
    return out


class PreparedCrate:
    """A crate ready for drivers: Cargo.toml sanitized, build.rs and .cargo/ set aside, the crate's
    `#[cfg(test)]` items and `#[test]` functions switched off (`#[cfg(any())]`, never true); `write_drivers`
    appends a driver module to each module file that has cases; on exit everything is put back."""

    def __init__(self, repo_root, crate, work):
        self.root = os.path.abspath(repo_root)
        self.crate = crate
        self.dir = os.path.normpath(os.path.join(repo_root, crate))
        self.work = work
        self.ok = inside(self.root, os.path.join(self.dir, "Cargo.toml"))
        self.originals = {}  # path -> original bytes, restored on exit
        self.base = {}  # path -> what a module file holds while the drivers run (its `#[cfg(test)]` items switched off)
        self.moved = []
        self.modules = []  # the Rust module paths that have a driver

    def __enter__(self):
        if not self.ok:
            return self
        manifest = os.path.join(self.dir, "Cargo.toml")
        with open(manifest, "rb") as f:
            self.originals[manifest] = f.read()
        write_file(manifest, sanitized_manifest(self.originals[manifest].decode("utf-8", "replace")).encode("utf-8"))
        # the crate's own unit tests are not built: they may need the dev-dependencies the manifest
        # lost (and in the judge they are the agent's code, which the cases need not run)
        for path in rust_sources(self.dir):
            with open(path, "rb") as f:
                text = f.read()
            off = CFG_TEST.sub(b"#[cfg(any())]", text)
            if off != text:
                self.originals[path] = text
                self.base[path] = off
                write_file(path, off)
        for name in ("build.rs", ".cargo"):
            for base in {self.dir, self.root}:
                path = os.path.join(base, name)
                if os.path.lexists(path):
                    os.rename(path, path + HIDDEN_SUFFIX)
                    self.moved.append(path)
        return self

    def write_drivers(self, cases):
        """Writes the drivers of `cases` (grouped by module file); {driver file name: {line: case id}}."""
        for path, original in self.originals.items():
            if not path.endswith("Cargo.toml") and inside(self.root, path):
                write_file(path, self.base.get(path, original))
        by_file = {}
        for c in cases:
            by_file.setdefault(c["file"], []).append(c)
        lines = {}
        self.modules = []
        for file, group in sorted(by_file.items()):
            path = os.path.join(self.root, file)
            if not inside(self.root, path):
                continue  # a module file that is a link (or gone): its cases get no outcome
            if path not in self.originals:
                with open(path, "rb") as f:
                    self.originals[path] = f.read()
            name = "%s_%s_%d.rs" % (MOD_NAME, hashlib.sha256(file.encode()).hexdigest()[:10], os.getpid())
            driver = os.path.join(self.work, name)
            lines[name] = write_driver(driver, group)
            write_file(path, ("\n#[cfg(test)]\n#[path = %s]\nmod %s;\n" % (json.dumps(driver), MOD_NAME)).encode(), append=True)
            self.modules.append(module_path(self.crate, file))
        return lines

    def test_names(self):
        return ["%s%s::codemidas_record" % ("" if m in ("", "crate") else m + "::", MOD_NAME) for m in self.modules]

    def __exit__(self, *exc):
        # the test binary ran the agent's code (in the judge): a module file it turned into a link, or
        # a folder above it, is left alone rather than written through
        for path, original in self.originals.items():
            folder = os.path.dirname(os.path.abspath(path))
            if os.path.realpath(folder) == folder and (inside(self.root, path) or not os.path.lexists(path)):
                write_file(path, original)
        for path in self.moved:
            os.rename(path + HIDDEN_SUFFIX, path)
        return False


def crate_of(repo_root, file):
    """The crate folder of a module file, relative to the repository root: the nearest folder above it with a Cargo.toml."""
    parts = file.split("/")[:-1]
    while parts:
        if os.path.isfile(os.path.join(repo_root, *parts, "Cargo.toml")):
            return "/".join(parts)
        parts.pop()
    return "."


def module_path(crate, file):
    """The Rust module path of a module file in its crate (`src/text/mod.rs` → `text`; `src/lib.rs` → `crate`)."""
    rel = file[len(crate) + 1:] if crate != "." else file
    rel = re.sub(r"^src/", "", rel)
    parts = rel[:-3].split("/") if rel.endswith(".rs") else rel.split("/")
    if parts and parts[-1] in ("mod", "lib", "main"):
        parts.pop()
    return "::".join(parts) if parts else "crate"


def receiver_value(receiver, t):
    """A method case's receiver as recorded (init.args[0]): its expression, its type and how the method takes it."""
    return {"t": "rust", "v": receiver, "type": t.get("selfType"), "self": t.get("selfKind")}


def planned_case(cid, file, target, receiver, args):
    """A case as run_cases takes it: where its driver goes (`file`, the module's) and what case_fn needs
    (`receiver`: receiver_value's, or None)."""
    return {"id": cid, "file": file, "target": target, "receiver": None if receiver is None else receiver.get("v"),
            "selfType": None if receiver is None else receiver.get("type"), "selfKind": None if receiver is None else receiver.get("self"), "args": args}


def typed_args(params, exprs):
    """A case's arguments as the driver binds them: each expression with its parameter's type."""
    return [{"t": "rust", "v": expr, "type": (params[i] if i < len(params) else {}).get("type")} for i, expr in enumerate(exprs)]


def record_crate(repo_root, work, crate, targets, timeout_s, call_timeout_ms, max_cases):
    results = {}
    with crate_lock(os.path.join(repo_root, crate)), PreparedCrate(repo_root, crate, work) as prepared:
        if not prepared.ok:
            for t in targets:
                results[t["unitId"]] = {"drop": {"code": "no-crate", "reason": "no Cargo.toml in %s" % crate}}
            return results
        planned, meta = [], {}
        for t in targets:
            receivers = (t.get("receivers") or []) if t.get("selfKind") else [None]
            inputs = t.get("inputs", [])
            # each input first with one receiver (in turn), then with the others: the cases kept
            # (maxCases, in this order) cover every input before they repeat one
            pairs = [(inp, receivers[k % len(receivers)]) for k, inp in enumerate(inputs)] if receivers else []
            pairs += [(inp, r) for k, inp in enumerate(inputs) for j, r in enumerate(receivers) if j != k % len(receivers)]
            seen = set()
            for inp, receiver in pairs:
                cid = case_id(t["unitId"], receiver, inp["args"])
                if cid in seen:
                    continue
                seen.add(cid)
                planned.append(planned_case(cid, t["module"], t["target"], None if receiver is None else receiver_value(receiver, t), typed_args(t.get("params", []), inp["args"])))
                meta[cid] = (t["unitId"], receiver, inp)
        rejected = {}
        first, problem = run_cases(prepared, planned, work, timeout_s, call_timeout_ms, rejected)
        second = {}
        if problem is None:
            again = [c for c in reversed(planned) if c["id"] in first]
            second, problem = run_cases(prepared, again, work, timeout_s, call_timeout_ms, {})
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
                a, b = first.get(c["id"]), second.get(c["id"])
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
                expect = {"raises": a["panics"]} if "panics" in a else {"returns": (a.get("returns") or [None])[0]}
                # an Err(...) result is a behaviour of its own (the prompt shows one of each)
                returned = (expect.get("returns") or {}) if "returns" in expect else {}
                is_err = str(returned.get("type", "")).startswith("core::result::Result<") and str(returned.get("v", "")).startswith("Err(")
                cases.append({
                    **({"path": "returns Err"} if is_err else {}),
                    "id": c["id"], "module": t["module"], "target": t["target"],
                    "init": None if receiver is None else {"args": [receiver_value(receiver, t)], "kwargs": {}},
                    "args": c["args"], "kwargs": {},
                    "expect": expect, "argsAfter": after if changed else None, "source": src,
                })
            drop = None
            if problem is not None:
                drop = {"code": "build-failed", "reason": "the crate does not build with the record driver: %s" % problem}
            elif not cases:
                drop = {"code": "no-cases", "reason": "no input gave a deterministic, judgeable outcome (%s)" % (", ".join("%s: %d" % kv for kv in sorted(dropped.items())) or "no input")}
            elif len({json.dumps(c["expect"], sort_keys=True) for c in cases}) == 1 and len(cases) > 1:
                drop = {"code": "constant-result", "reason": "all %d recorded inputs gave the same outcome; a task would be passed by returning it" % len(cases)}
            results[t["unitId"]] = {"cases": cases, "sources": sources, "rejected": dropped, "drop": drop}
    return results


def case_plan(case):
    """A recorded case as run_cases takes it again (the judge's and the mutate run's)."""
    receiver = ((case.get("init") or {}).get("args") or [None])[0]
    return planned_case(case["id"], case["module"], case["target"], receiver if isinstance(receiver, dict) else None, case.get("args", []))


def setup_target_dir(repo_root):
    """A fresh build folder beside the repository: whatever the workspace holds at its name (a link
    the agent planted, so that the judge would hand another folder to the agent user) goes first."""
    global TARGET_DIR
    TARGET_DIR = os.path.join(os.path.abspath(repo_root), ".codemidas-rust-target-%d" % os.getpid())
    if os.path.islink(TARGET_DIR) or os.path.isfile(TARGET_DIR):
        os.unlink(TARGET_DIR)
    elif os.path.isdir(TARGET_DIR):
        shutil.rmtree(TARGET_DIR, ignore_errors=True)
    os.mkdir(TARGET_DIR)
    return TARGET_DIR


def write_file(path, data, append=False):
    """Writes bytes to `path`, never through a link at its name (a link there is replaced)."""
    if os.path.islink(path):
        os.unlink(path)
    flags = os.O_WRONLY | os.O_CREAT | os.O_NOFOLLOW | (os.O_APPEND if append else os.O_TRUNC)
    fd = os.open(path, flags, 0o644)
    with os.fdopen(fd, "wb") as f:
        f.write(data)


def inside(root, path):
    """Whether `path` is a regular file of the repository, no link on the way: the judge, as root,
    writes drivers into module files and rewrites Cargo.toml, and must never follow a link out."""
    real = os.path.realpath(path)
    return real == os.path.abspath(path) and real.startswith(os.path.realpath(root) + os.sep) and os.path.isfile(real)


def main():
    config = json.load(sys.stdin)
    repo_root = config.get("repoRoot", "/workspace")
    setup_target_dir(repo_root)
    try:
        record(config, repo_root)
    finally:
        subprocess.run(["rm", "-rf", TARGET_DIR], check=False)


def record(config, repo_root):
    work = config.get("workDir") or "/tmp"
    os.makedirs(work, exist_ok=True)
    # the whole run of one crate (its builds included); each call has callTimeoutMs in the driver
    timeout_s = max(120, config.get("callTimeoutMs", 5000) / 1000 * 40)
    max_cases = config.get("maxCases", 40)
    by_crate = {}
    for t in config.get("targets", []):
        by_crate.setdefault(crate_of(repo_root, t["module"]), []).append(t)
    out = []
    for crate in sorted(by_crate):
        started = time.monotonic()
        recorded = record_crate(repo_root, work, crate, by_crate[crate], timeout_s, int(config.get("callTimeoutMs", 5000)), max_cases)
        ms = int((time.monotonic() - started) * 1000 / max(1, len(by_crate[crate])))
        for t in by_crate[crate]:
            r = recorded[t["unitId"]]
            out.append({"unitId": t["unitId"], "cases": r.get("cases", []), "sources": r.get("sources", {}), "rejected": r.get("rejected", {}), "drop": r.get("drop"), "ms": ms})
    json.dump({"targets": out, "traces": []}, sys.stdout)


if __name__ == "__main__":
    main()
