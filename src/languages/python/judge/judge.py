"""The judge: scores a workspace against a task's hidden tests inside a fresh scoring sandbox.

Run as root: `python3 -I -S /opt/codemidas/scoring/judge.py`, configuration JSON on stdin:

    {
      "workspace": "/workspace",                  # the agent's files (owned by the agent user)
      "hiddenDir": "/var/lib/codemidas/hidden",   # root-only 0700
      "cases": "cases.json" | null,               # path under hiddenDir
      "scripts": ["tests/test_x.py", ...],        # paths under hiddenDir
      "importRoots": ["src", ...],                # optional: workspace folders the modules are imported from
      "caseTimeoutMs": 10000,                     # one recorded case, import included
      "pytestTimeoutMs": 60000,                   # the whole pytest run
      "budgetMs": 120000,                         # the whole judge run
      "uid": 1000, "gid": 1000,                   # the unprivileged subject user
      "dropPrivileges": true,                     # false only where the judge cannot be root
      "nonce": "..."                              # echoed in the result line
    }

Prints ONE line on stdout: `CODEMIDAS-JUDGE <nonce> <json>` with
{"tests": [{"name", "status", "message"}], "tampered": bool, "budgetExhausted": bool,
 "detail": str, "timings": {...}}.

This process holds the expected values and never imports the agent's code. Recorded cases run in
subject.py, test scripts in pytest_runner.py, both as the agent user, which cannot read hiddenDir.
Every process of the agent user is killed between phases. No child inherits this process's stdout.

Once the agent's code has run, nothing it does ends this process without a result: a phase that
cannot go on (no process slot, no memory, a full /tmp) fails its own tests, so resource exhaustion
caused by the agent scores as failed tests, never as an unusable judge run.

Imports a task without test scripts never needs (ast, the XML parser) are made where they are used,
and tempfile, shutil and secrets are not imported at all: together ~25 ms of every judge start.
"""
import importlib.util
import json
import os
import signal
import stat
import subprocess
import sys
import time

sys.dont_write_bytecode = True  # the scoring folder is read-only in the image; keep the checkout clean too
_HERE = os.path.dirname(os.path.abspath(__file__))
PYTHON = sys.executable or "/usr/bin/python3"
SUBJECT = os.path.join(_HERE, "subject.py")
RUNNER = os.path.join(_HERE, "pytest_runner.py")
MAX_MESSAGE = 600
MAX_REPORT_BYTES = 16 * 1024 * 1024
SAFE_PATH = "/usr/local/bin:/usr/bin:/bin"


def _load_private(name, filename):
    spec = importlib.util.spec_from_file_location(name, os.path.join(_HERE, filename))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


codec = _load_private("_codemidas_codec", "codec.py")
framing = _load_private("_codemidas_framing", "framing.py")


def token_hex(nbytes):
    return os.urandom(nbytes).hex()


def randbelow(n):
    return int.from_bytes(os.urandom(8), "big") % n


def make_temp_dir(prefix, parent=None):
    """A fresh 0700 folder with a random name (tempfile.mkdtemp without importing tempfile)."""
    parent = parent or os.environ.get("TMPDIR") or "/tmp"
    for _ in range(100):
        path = os.path.join(parent, prefix + token_hex(8))
        try:
            os.mkdir(path, 0o700)
            return path
        except FileExistsError:
            continue
    raise FileExistsError("no free name for a temporary folder under %s" % parent)


def remove_tree(path):
    """shutil.rmtree(path, ignore_errors=True) without importing shutil; links are removed, not followed."""
    try:
        for dirpath, dirnames, filenames in os.walk(path, topdown=False):
            for name in filenames + [d for d in dirnames if os.path.islink(os.path.join(dirpath, d))]:
                try:
                    os.unlink(os.path.join(dirpath, name))
                except OSError:
                    pass
            for name in dirnames:
                try:
                    os.rmdir(os.path.join(dirpath, name))
                except OSError:
                    pass
        os.rmdir(path)
    except OSError:
        pass


def clip(text, limit=MAX_MESSAGE):
    text = str(text)
    return text if len(text) <= limit else text[: limit - 3] + "..."


def import_paths(workspace, roots):
    """The folders under the workspace its modules are imported from besides the workspace itself.

    Each root is a workspace-relative POSIX folder (the task loader checked that already); one that
    would leave the workspace ends the judge run rather than put a folder outside it on sys.path. A
    root missing from the workspace is kept: an absent sys.path entry imports nothing.
    """
    paths = []
    for root in roots:
        root = str(root)
        parts = root.split("/")
        if root.startswith("/") or "\0" in root or any(p in ("", ".", "..") for p in parts):
            raise ValueError("importRoots: %r is not a folder relative to the workspace" % root)
        paths.append(os.path.join(workspace, *parts))
    return paths


class Config:
    def __init__(self, raw):
        self.workspace = str(raw["workspace"])
        self.hidden_dir = str(raw["hiddenDir"])
        self.cases = raw.get("cases")
        self.scripts = [str(s) for s in raw.get("scripts", [])]
        self.import_paths = import_paths(self.workspace, raw.get("importRoots") or [])
        self.case_timeout_s = float(raw.get("caseTimeoutMs", 10_000)) / 1000
        self.pytest_timeout_s = float(raw.get("pytestTimeoutMs", 60_000)) / 1000
        self.budget_s = float(raw.get("budgetMs", 120_000)) / 1000
        self.uid = int(raw.get("uid", 1000))
        self.gid = int(raw.get("gid", 1000))
        self.drop = bool(raw.get("dropPrivileges", True))
        self.nonce = str(raw.get("nonce", ""))


# --------------------------------------------------------------------------------------------
# Processes of the agent user


class Sweeper:
    """Kills processes of the agent user: known process groups, and with privileges everything."""

    def __init__(self, config):
        self.config = config
        self.groups = set()

    def track(self, pid):
        self.groups.add(pid)

    def sweep(self):
        for pgid in list(self.groups):
            try:
                os.killpg(pgid, signal.SIGKILL)
            except (ProcessLookupError, PermissionError):
                pass
        self.groups.clear()
        if not self.config.drop:
            return
        # kill(-1) from a process of the agent user reaches every process of that user (daemons
        # that left their group included) and nothing else; repeat until none is left.
        for _ in range(10):
            try:
                pid = os.fork()
            except OSError:
                # No process slot left (the agent's processes hold them all): kill them one by one
                # from here instead, which needs none.
                self._kill_each()
                continue
            if pid == 0:
                try:
                    os.setgroups([])
                    os.setgid(self.config.gid)
                    os.setuid(self.config.uid)
                    os.kill(-1, signal.SIGKILL)
                except BaseException:  # noqa: BLE001
                    pass
                os._exit(0)
            os.waitpid(pid, 0)
            if not self._alive():
                return
            time.sleep(0.01)

    def _kill_each(self):
        # Stopped first: a stopped process cannot fork into the slot a kill has just freed, so the
        # rounds converge even against a bomb that refills every free slot.
        for _ in range(50):
            pids = self._user_pids()
            if not pids:
                return
            for sig in (signal.SIGSTOP, signal.SIGKILL):
                for pid in pids:
                    try:
                        os.kill(pid, sig)
                    except (ProcessLookupError, PermissionError):
                        pass

    def _alive(self):
        return bool(self._user_pids(first_only=True))

    def _user_pids(self, first_only=False):
        """Live (not zombie) processes of the agent user."""
        found = []
        for entry in os.listdir("/proc"):
            if not entry.isdigit():
                continue
            try:
                with open("/proc/%s/status" % entry) as handle:
                    for line in handle:
                        if line.startswith("Uid:"):
                            if int(line.split()[1]) == self.config.uid:
                                with open("/proc/%s/stat" % entry) as stat_file:
                                    state = stat_file.read().rsplit(")", 1)[1].split()[0]
                                if state != "Z":
                                    found.append(int(entry))
                                    if first_only:
                                        return found
                            break
            except (OSError, ValueError, IndexError):
                continue
        return found


# The hash seed of every process that runs the subject's code, as the record harness's first run has it
# (harness common.HASH_SEED): the order a set of strings iterates in is the recorded one in every
# scoring run. Python honours PYTHONHASHSEED only without -I/-E, so those processes take -s -P
# (what -I implies besides -E) and an environment built here whole.
HASH_SEED = "0"
ISOLATED_FLAGS = ["-s", "-P", "-B"]


def child_env(config, home, extra=None):
    env = {"PATH": SAFE_PATH, "HOME": home, "LANG": "C.UTF-8", "LC_ALL": "C.UTF-8", "PYTHONHASHSEED": HASH_SEED}
    if extra:
        env.update(extra)
    return env


def popen_user_kwargs(config):
    if not config.drop:
        return {}
    return {"user": config.uid, "group": config.gid, "extra_groups": []}


# --------------------------------------------------------------------------------------------
# Recorded cases


class Subject:
    """One subject process; dies on the first case it fails to answer properly."""

    def __init__(self, config, sweeper, cwd):
        self.config = config
        req_r, req_w = os.pipe()
        res_r, res_w = os.pipe()
        try:
            self.proc = subprocess.Popen(
                [PYTHON] + ISOLATED_FLAGS + [SUBJECT, config.workspace, str(req_r), str(res_w)] + config.import_paths,
                stdin=subprocess.DEVNULL,
                stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL,
                pass_fds=(req_r, res_w),
                cwd=cwd,
                env=child_env(config, cwd),
                start_new_session=True,
                **popen_user_kwargs(config),
            )
        finally:
            os.close(req_r)
            os.close(res_w)
        sweeper.track(self.proc.pid)
        self.req_w = req_w
        self.res_r = res_r
        os.set_blocking(req_w, False)
        os.set_blocking(res_r, False)
        self.seq = 0

    def ask(self, case_inputs, deadline):
        self.seq += 1
        framing.write_frame_deadline(self.req_w, {"seq": self.seq, "case": case_inputs}, deadline)
        answer = framing.read_frame_deadline(self.res_r, deadline)
        if not isinstance(answer, dict) or answer.get("seq") != self.seq:
            raise framing.FrameError("answer out of sequence")
        return answer

    def exit_note(self):
        code = self.proc.poll()
        if code is None:
            return ""
        if code < 0:
            return " (subject killed by signal %d)" % -code
        return " (subject exited with code %d)" % code

    def close(self):
        for fd in (self.req_w, self.res_r):
            try:
                os.close(fd)
            except OSError:
                pass
        try:
            os.killpg(self.proc.pid, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            pass
        try:
            self.proc.wait(timeout=5)
        except subprocess.TimeoutExpired:
            pass


def case_inputs(case):
    """What the subject may know about a case: its inputs, never its expectation."""
    return {
        "id": str(case.get("id", "")),
        "module": case["module"],
        "target": case["target"],
        "init": case.get("init"),
        "args": case.get("args", []),
        "kwargs": case.get("kwargs", {}),
    }


def judge_answer(case, answer):
    """Compares an untrusted answer with a case's expectation. Returns (passed, message)."""
    expect = case.get("expect") or {}
    kind = answer.get("kind")
    if kind == "error":
        return False, clip(answer.get("message", "subject error"))
    if "raises" in expect:
        want = expect["raises"]
        if kind == "raises" and answer.get("type") == want:
            return _judge_args_after(case, answer)
        if want == codec.ANY_EXCEPTION:
            # only that the call raises (an input outside the contract): any type but these
            if kind == "raises" and answer.get("type") not in codec.NOT_ANY_EXCEPTION:
                return _judge_args_after(case, answer)
            if kind == "raises":
                return False, clip("expected an exception other than NotImplementedError, got %s: %s" % (answer.get("type"), answer.get("message", "")))
            return False, "expected an exception, got a return value"
        if kind == "raises":
            return False, clip("expected %s to be raised, got %s: %s" % (want, answer.get("type"), answer.get("message", "")))
        return False, clip("expected %s to be raised, got a return value" % want)
    if "returns" not in expect:
        return False, "case has no expectation"
    if kind == "raises":
        return False, clip("raised %s: %s" % (answer.get("type"), answer.get("message", "")))
    if kind != "returns" or not isinstance(answer.get("value"), dict):
        return False, "malformed answer from the subject"
    if not codec.close(answer["value"], expect["returns"]):
        return False, clip("expected %s, got %s" % (codec.describe(expect["returns"]), _describe(answer["value"])))
    return _judge_args_after(case, answer)


def _judge_args_after(case, answer):
    want = case.get("argsAfter")
    if want is None:
        return True, ""
    got = answer.get("argsAfter")
    if not isinstance(got, list):
        return False, "arguments after the call could not be read back"
    if not codec.close({"t": "list", "v": got}, {"t": "list", "v": want}):
        return False, clip("arguments after the call differ: expected %s, got %s" % (
            codec.describe({"t": "list", "v": want}), _describe({"t": "list", "v": got})))
    return True, ""


def _describe(tagged):
    try:
        return codec.describe(tagged)
    except Exception:  # noqa: BLE001 - an untrusted, possibly malformed tree
        return "<unreadable value>"


def run_cases(config, cases, sweeper, deadline, scratch):
    outcomes = []
    subject = None
    exhausted = False
    neutral = make_temp_dir("cwd-", scratch)
    os.chmod(neutral, 0o755)
    try:
        for case in cases:
            name = "case:%s" % case.get("id", len(outcomes))
            now = time.monotonic()
            if now >= deadline:
                exhausted = True
                outcomes.append({"name": name, "status": "failed", "message": "scoring time budget exhausted"})
                continue
            case_deadline = min(now + config.case_timeout_s, deadline)
            if subject is None:
                try:
                    subject = Subject(config, sweeper, neutral)
                except OSError as exc:
                    # No process slot or memory left: the agent's processes from an earlier case
                    # hold them (the sweep after that case could not free them in time).
                    outcomes.append({"name": name, "status": "failed", "message": clip("cannot start the subject: %s" % exc)})
                    sweeper.sweep()
                    continue
            try:
                answer = subject.ask(case_inputs(case), case_deadline)
            except framing.FrameTimeout:
                message = "timed out after %d ms" % (config.case_timeout_s * 1000)
                if case_deadline >= deadline:
                    exhausted = True
                    message = "scoring time budget exhausted"
                outcomes.append({"name": name, "status": "failed", "message": message})
                subject = _discard(subject, sweeper)
                continue
            except framing.FrameEOF:
                time.sleep(0.02)
                note = subject.exit_note() if subject else ""
                outcomes.append({"name": name, "status": "failed", "message": "subject ended without answering%s" % note})
                subject = _discard(subject, sweeper)
                continue
            except framing.FrameError as exc:
                outcomes.append({"name": name, "status": "failed", "message": clip("garbage from the subject: %s" % exc)})
                subject = _discard(subject, sweeper)
                continue
            except OSError as exc:
                outcomes.append({"name": name, "status": "failed", "message": clip("no answer from the subject: %s" % exc)})
                subject = _discard(subject, sweeper)
                continue
            try:
                passed, message = judge_answer(case, answer)
            except Exception as exc:  # noqa: BLE001 - malformed untrusted answer
                passed, message = False, clip("malformed answer from the subject: %s" % exc.__class__.__name__)
            outcomes.append({"name": name, "status": "passed" if passed else "failed", "message": message})
    finally:
        _discard(subject, sweeper)
    return outcomes, exhausted


def _discard(subject, sweeper):
    if subject is not None:
        subject.close()
    sweeper.sweep()
    return None


# --------------------------------------------------------------------------------------------
# Test scripts


def expected_test_ids(hidden_dir, scripts):
    """(junit classname, test name) -> outcome name, from the scripts' top-level definitions."""
    import ast

    expected = {}
    for script in scripts:
        with open(os.path.join(hidden_dir, script), "rb") as handle:
            tree = ast.parse(handle.read(), filename=script)
        module = script[:-3].replace("/", ".") if script.endswith(".py") else script.replace("/", ".")
        for node in tree.body:
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and node.name.startswith("test_"):
                expected[(module, node.name)] = "%s::%s" % (script, node.name)
            elif isinstance(node, ast.ClassDef) and node.name.startswith("Test"):
                for item in node.body:
                    if isinstance(item, (ast.FunctionDef, ast.AsyncFunctionDef)) and item.name.startswith("test_"):
                        expected[("%s.%s" % (module, node.name), item.name)] = "%s::%s::%s" % (script, node.name, item.name)
    return expected


INI_TEXT = """[pytest]
addopts =
python_files = test_*.py
python_classes = Test*
python_functions = test_*
xfail_strict = true
junit_family = xunit1
junit_logging = no
junit_suite_name = codemidas
"""


def _canary_source(name):
    a, b = randbelow(10**9), randbelow(10**9) + 10**9
    return "\n\ndef %s():\n    assert %d == %d\n" % (name, a, b)


def disguise_script(source, script):
    """The run copy of one test script, so that code running inside pytest cannot spare the canaries
    while it forces the counted tests to pass: every counted test is renamed `test_<random hex>`
    (the canaries' own form), and each scope (the module, every Test class) gets a canary that
    must fail, a copy of one of that scope's own tests without parameters, whose first statement
    fails. Returns (source bytes, {(junit classname, name): outcome name}, {canary keys}).
    """
    import ast  # local: the judge's start-up does not pay for it when a task has no test scripts

    def hex_token(nbytes):
        return os.urandom(nbytes).hex()

    def below(n):
        return int.from_bytes(os.urandom(8), "big") % n

    text = source.decode("utf-8", "surrogateescape")
    tree = ast.parse(source, filename=script)
    module = script[:-3].replace("/", ".") if script.endswith(".py") else script.replace("/", ".")
    lines = text.splitlines(keepends=True)
    if lines and not lines[-1].endswith("\n"):
        lines[-1] += "\n"
    a, b = "_cm_" + hex_token(6), "_cm_" + hex_token(6)
    expected, canaries, inserts = {}, set(), []

    def fresh():
        return "test_" + hex_token(8)

    def rename(node, new):
        i = node.lineno - 1
        line = lines[i]
        at = line.index("def " + node.name, node.col_offset) + 4
        lines[i] = line[:at] + new + line[at + len(node.name):]

    def canary(scope_nodes, classname, indent, after_line, method):
        name = fresh()
        plain = [n for n in scope_nodes if not n.args.args[1 if method else 0:] and not n.args.vararg and not n.args.kwonlyargs
                 and n.body[0].lineno > n.lineno and n.end_lineno is not None]
        fail = "assert %s == %s\n" % (a, b)
        if plain:
            node = plain[below(len(plain))]
            body_at = node.body[0].lineno - 1
            body_indent = " " * node.body[0].col_offset
            head = lines[node.lineno - 1:body_at]
            head[0] = head[0].replace("def " + node.name, "def " + name, 1) if node.name in head[0] else head[0]
            clone = head + [body_indent + fail] + lines[body_at:node.end_lineno]
        else:
            clone = [indent + "def %s(%s):\n" % (name, "self" if method else ""), indent + "    " + fail]
        # At one position (a class that ends the file), the module's canary goes after the class's.
        inserts.append((after_line, not method, ["\n"] + clone))
        canaries.add((classname, name))

    top, renames = [], []
    for node in tree.body:  # in source order, as expected_test_ids lists them
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and node.name.startswith("test_"):
            top.append(node)
            renames.append((node, fresh()))
            expected[(module, renames[-1][1])] = "%s::%s" % (script, node.name)
        elif isinstance(node, ast.ClassDef) and node.name.startswith("Test"):
            methods = [m for m in node.body if isinstance(m, (ast.FunctionDef, ast.AsyncFunctionDef)) and m.name.startswith("test_")]
            classname = "%s.%s" % (module, node.name)
            indent = " " * (methods[0].col_offset if methods else node.col_offset + 4)
            canary(methods, classname, indent, node.end_lineno, True)
            for m in methods:
                renames.append((m, fresh()))
                expected[(classname, renames[-1][1])] = "%s::%s::%s" % (script, node.name, m.name)
    canary(top, module, "", len(lines), False)
    # Renamed only now: the canaries were cloned from the original lines.
    for node, new in renames:
        rename(node, new)
    for after, _, clone in sorted(inserts, key=lambda x: (-x[0], not x[1])):
        lines[after:after] = clone
    lines.append("\n%s = %d\n%s = %d\n" % (a, below(10**9), b, below(10**9) + 10**9))
    return "".join(lines).encode("utf-8", "surrogateescape"), expected, canaries


def read_report(path, uid, drop):
    """Reads the JUnit report without following links; None when absent or not a plain file."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK)
    except OSError:
        return None
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode) or info.st_size > MAX_REPORT_BYTES:
            return None
        if drop and info.st_uid != uid:
            return None
        data = b""
        while len(data) <= MAX_REPORT_BYTES:
            chunk = os.read(fd, 1 << 20)
            if not chunk:
                break
            data += chunk
        return data
    finally:
        os.close(fd)


def parse_report(data):
    """[(classname, base name, status, message)] from JUnit XML."""
    import xml.etree.ElementTree as ET

    root = ET.fromstring(data)
    rows = []
    for testcase in root.iter("testcase"):
        classname = testcase.get("classname", "")
        name = testcase.get("name", "")
        base = name.split("[", 1)[0]
        status, message = "passed", ""
        for child in testcase:
            if child.tag == "failure":
                status, message = "failed", child.get("message", "") or (child.text or "")
                break
            if child.tag == "error":
                status, message = "error", child.get("message", "") or (child.text or "")
                break
            if child.tag == "skipped":
                status, message = "skipped", child.get("message", "") or "skipped"
                break
        rows.append((classname, base, status, message))
    return rows


def run_scripts(config, sweeper, deadline, scratch):
    """Returns (outcomes, tampered, exhausted, note)."""
    expected = expected_test_ids(config.hidden_dir, config.scripts)
    names = list(dict.fromkeys(expected.values()))

    def all_failed(message, status="failed"):
        return [{"name": n, "status": status, "message": message} for n in names]

    remaining = deadline - time.monotonic()
    if remaining <= 1:
        return all_failed("scoring time budget exhausted"), False, True, "no time left for the test scripts"

    run_dir = os.path.join(scratch, "run-" + token_hex(8))
    os.mkdir(run_dir, 0o755)
    file_canaries = {}
    disguised = {}
    for script in config.scripts:
        target = os.path.join(run_dir, script)
        os.makedirs(os.path.dirname(target), mode=0o755, exist_ok=True)
        with open(os.path.join(config.hidden_dir, script), "rb") as src:
            source = src.read()
        source, renamed, canaries = disguise_script(source, script)
        disguised.update(renamed)
        for key in canaries:
            file_canaries[key] = script
        with open(target, "wb") as dst:
            dst.write(source)
        os.chmod(target, 0o644)
    expected = disguised
    for dirpath, dirnames, _ in os.walk(run_dir):
        for d in dirnames:
            os.chmod(os.path.join(dirpath, d), 0o755)
    canary_module = "test_" + token_hex(8)
    canary_name = "test_" + token_hex(8)
    canary_path = os.path.join(run_dir, canary_module + ".py")
    with open(canary_path, "w") as handle:
        handle.write(_canary_source(canary_name).lstrip())
    os.chmod(canary_path, 0o644)

    config_dir = make_temp_dir("cfg-", scratch)
    os.chmod(config_dir, 0o755)
    ini_path = os.path.join(config_dir, "codemidas-pytest.ini")
    with open(ini_path, "w") as handle:
        handle.write(INI_TEXT)
    os.chmod(ini_path, 0o644)

    # The report folder belongs to the agent user (pytest writes there as that user) and has a
    # random name; the report is read back without following links.
    report_dir = os.path.join(scratch, "rep-" + token_hex(8))
    os.mkdir(report_dir, 0o700)
    user_tmp = os.path.join(scratch, "tmp-" + token_hex(8))
    os.mkdir(user_tmp, 0o700)
    if config.drop:
        os.chown(report_dir, config.uid, config.gid)
        os.chown(user_tmp, config.uid, config.gid)
    report_path = os.path.join(report_dir, token_hex(8) + ".xml")
    log_path = os.path.join(config_dir, "pytest.log")

    args = [
        "-c", ini_path,
        "--rootdir", run_dir,
        "--confcutdir", run_dir,
        "--noconftest",
        "-p", "no:cacheprovider",
        "-p", "no:stepwise",
        "--basetemp", os.path.join(user_tmp, "basetemp"),
        "--junitxml", report_path,
        "--color=no",
        "-q",
    ] + [os.path.join(run_dir, s) for s in config.scripts] + [canary_path]
    runner_input = json.dumps({"workspace": config.workspace, "importPaths": config.import_paths, "args": args}).encode()
    timeout_s = min(config.pytest_timeout_s, remaining)

    with open(log_path, "wb") as log:
        proc = subprocess.Popen(
            [PYTHON] + ISOLATED_FLAGS + [RUNNER],
            stdin=subprocess.PIPE,
            stdout=log,
            stderr=subprocess.STDOUT,
            cwd=run_dir,
            env=child_env(config, user_tmp, {"PYTEST_DISABLE_PLUGIN_AUTOLOAD": "1", "TMPDIR": user_tmp}),
            start_new_session=True,
            **popen_user_kwargs(config),
        )
        sweeper.track(proc.pid)
        timed_out = False
        try:
            proc.communicate(runner_input, timeout=timeout_s)
        except subprocess.TimeoutExpired:
            timed_out = True
        except BrokenPipeError:
            pass
        sweeper.sweep()
        try:
            proc.wait(timeout=5)
        except subprocess.TimeoutExpired:
            pass

    if timed_out:
        exhausted = timeout_s < config.pytest_timeout_s
        return all_failed("pytest run timed out after %d ms" % (timeout_s * 1000)), False, exhausted, "pytest timed out"

    data = read_report(report_path, config.uid, config.drop)
    if data is None:
        return all_failed("no test report (pytest exit code %s): %s" % (proc.returncode, _log_tail(log_path))), False, False, "no report"
    try:
        rows = parse_report(data)
    except (SyntaxError, ValueError, RecursionError) as exc:  # ElementTree's ParseError is a SyntaxError
        return all_failed(clip("unreadable test report: %s" % exc)), False, False, "unreadable report"

    canary_status = [s for c, n, s, _ in rows if (c, n) == (canary_module, canary_name)]
    canary_passed = [file_canaries[(c, n)] for c, n, s, _ in rows if (c, n) in file_canaries and s == "passed"]
    if canary_status and all(s == "passed" for s in canary_status):
        canary_passed.append("the run")
    if canary_passed:
        message = "tampering detected: a canary test that must fail passed (%s)" % ", ".join(canary_passed)
        return all_failed(message), True, False, message
    if canary_status != ["failed"]:
        message = "run not trustworthy: the canary test was reported as %s" % (canary_status or "missing")
        return all_failed(message), False, False, message

    grouped = {}
    collection_errors = {}
    for classname, base, status, message in rows:
        key = (classname, base)
        if key in expected:
            grouped.setdefault(expected[key], []).append((status, message))
        elif classname == "" and status == "error":
            collection_errors[base] = message
    outcomes = []
    for key, name in expected.items():
        if any(o["name"] == name for o in outcomes):
            continue
        results = grouped.get(name)
        if not results:
            module = key[0].split(".")
            error = next((m for mod, m in collection_errors.items() if ".".join(module).startswith(mod)), None)
            reason = "not reported by pytest" + (": collection error: %s" % error if error else "")
            outcomes.append({"name": name, "status": "missing", "message": clip(reason)})
            continue
        bad = [(s, m) for s, m in results if s != "passed"]
        if not bad:
            outcomes.append({"name": name, "status": "passed", "message": ""})
        else:
            status, message = bad[0]
            outcomes.append({"name": name, "status": status, "message": clip(message)})
    return outcomes, False, False, ""


def _log_tail(path, limit=300):
    try:
        with open(path, "rb") as handle:
            handle.seek(0, os.SEEK_END)
            size = handle.tell()
            handle.seek(max(0, size - limit))
            return handle.read().decode("utf-8", "replace").strip()
    except OSError:
        return ""


# --------------------------------------------------------------------------------------------


def load_cases(config):
    if config.cases is None:
        return []
    with open(os.path.join(config.hidden_dir, config.cases), "rb") as handle:
        document = json.loads(handle.read())
    return list(document.get("cases", []))


def clear_agent_files(config):
    """Removes what the agent user left in the shared temporary folders (a /tmp filled to the last
    byte, files planted for a later phase), once its processes are gone."""
    if not config.drop:
        return
    for folder in ("/tmp", "/var/tmp", "/dev/shm"):
        try:
            names = os.listdir(folder)
        except OSError:
            continue
        for name in names:
            path = os.path.join(folder, name)
            try:
                info = os.lstat(path)
            except OSError:
                continue
            if info.st_uid != config.uid:
                continue
            _remove_agent_entry(path, info)


def _remove_agent_entry(path, info):
    if not stat.S_ISDIR(info.st_mode):
        try:
            os.unlink(path)
        except OSError:
            pass
        return
    remove_tree(path)


def prepare_dirs(config):
    """Hidden tests root-only whatever the copy left behind; the workspace root the agent user's."""
    if not config.drop:
        return
    os.chown(config.hidden_dir, 0, 0)
    os.chmod(config.hidden_dir, 0o700)
    os.chown(config.workspace, config.uid, config.gid)


def main():
    started = time.monotonic()
    config = Config(json.loads(sys.stdin.read()))
    if config.drop and os.geteuid() != 0:
        raise SystemExit("judge: dropPrivileges needs root")
    deadline = started + config.budget_s
    os.umask(0o022)
    prepare_dirs(config)
    cases = load_cases(config)
    sweeper = Sweeper(config)
    scratch = make_temp_dir("codemidas-judge-")
    os.chmod(scratch, 0o711)
    tests, details, tampered, exhausted = [], [], False, False
    timings = {}
    try:
        sweeper.sweep()
        if cases:
            t0 = time.monotonic()
            outcomes, exhausted = run_cases(config, cases, sweeper, deadline, scratch)
            timings["casesMs"] = int((time.monotonic() - t0) * 1000)
            tests.extend(outcomes)
        clear_agent_files(config)
        if config.scripts:
            t0 = time.monotonic()
            try:
                outcomes, tampered, script_exhausted, note = run_scripts(config, sweeper, deadline, scratch)
            except OSError as exc:
                # The agent's code ran in the cases before: a full /tmp, no process slot or no
                # memory now is its doing, and fails these tests rather than the judge run.
                note = clip("the test scripts could not run: %s" % exc)
                outcomes = [{"name": n, "status": "failed", "message": note} for n in dict.fromkeys(expected_test_ids(config.hidden_dir, config.scripts).values())]
                script_exhausted = False
            timings["scriptsMs"] = int((time.monotonic() - t0) * 1000)
            exhausted = exhausted or script_exhausted
            tests.extend(outcomes)
            if note:
                details.append(note)
    finally:
        sweeper.sweep()
        remove_tree(scratch)
    if not config.drop:
        details.append("privileges not dropped: the subject could read the hidden tests")
    passed = sum(1 for t in tests if t["status"] == "passed")
    details.insert(0, "%d/%d passed" % (passed, len(tests)))
    timings["totalMs"] = int((time.monotonic() - started) * 1000)
    result = {"tests": tests, "tampered": tampered, "budgetExhausted": exhausted, "detail": "; ".join(details), "timings": timings}
    sys.stdout.write("CODEMIDAS-JUDGE %s %s\n" % (config.nonce, json.dumps(result, separators=(",", ":"))))
    sys.stdout.flush()


if __name__ == "__main__":
    main()
