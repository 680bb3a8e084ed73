"""The tracer: runs the repository's own doctests or pytest tests (and the unittest suites pytest does
not collect: the load_tests protocol) with a trace function looking at every target,
and writes each real call's arguments (tagged as inputs, taken at call time, before the body runs) as
JSON lines. Results are not kept here: every traced input is re-run and recorded by the worker.

`python3 -I -B tracer.py <doctest|pytest> <config.json> <out.jsonl>`; stdout/stderr go to /dev/null.
The recorder kills this process at its deadline; lines written before then are kept.
"""
import collections.abc
import doctest
import importlib
import inspect
import itertools
import json
import os
import sys
import threading
import time

sys.dont_write_bytecode = True
import importlib.util as _ilu
import os as _os

_spec = _ilu.spec_from_file_location("_codemidas__load", _os.path.join(_os.path.dirname(_os.path.abspath(__file__)), "_load.py"))
_load = _ilu.module_from_spec(_spec)
sys.modules["_codemidas__load"] = _load
_spec.loader.exec_module(_load)

_load.strip_harness_from_path()
codec = _load.load("codec")
values = _load.load("values")
calls = _load.load("calls")
values.codec = codec

MAX_CAPTURES = 300
# Calls of a target the tracer could not capture (a receiver it never saw built, an argument with
# no source form) count apart, up to this many: a test that floods a target with a local subclass's
# instances (boolean.py's CountingNot, 72 000 calls) no longer uses up the captures the other tests'
# calls would give. Tracer.charge bounds the time either way.
MAX_REJECTS = 3000
# The tracer's own time on one target's calls (or one constructor's), at most, in one test and in all
# (Tracer.charge). Keeps tracing a repository's tests near their own run time.
TEST_CODE_SECONDS = 0.2
CODE_SECONDS = 2.0
CO_VARARGS, CO_VARKEYWORDS = 0x04, 0x08
CO_SUSPENDS = 0x20 | 0x80 | 0x200  # generator, coroutine, async generator


_Alarm = calls.Alarm
_with_alarm = calls.with_alarm
_raw_function = calls.raw_function


def _frame_args(frame, code):
    names = code.co_varnames
    loc = frame.f_locals
    n_pos, n_kw = code.co_argcount, code.co_kwonlyargcount
    args = [loc[n] for n in names[:n_pos]]
    kwargs = {n: loc[n] for n in names[n_pos:n_pos + n_kw]}
    i = n_pos + n_kw
    if code.co_flags & CO_VARARGS:
        args.extend(loc[names[i]])
        i += 1
    if code.co_flags & CO_VARKEYWORDS:
        kwargs.update(loc[names[i]])
    return args, kwargs


class Tracer:
    def __init__(self, targets, out):
        self.out = out
        self.source = "repo-test"
        self.busy = False
        self.codes = {}  # code -> (index, drop_first, klass or None)
        self.init_codes = {}  # code -> klass
        self.instances = {}  # id(instance) -> (instance, tagged init or None)
        self.seen = {}
        self.count = {}
        self.rejects = {}  # target index -> calls not captured (MAX_REJECTS)
        self.loaded = []
        self.skip_outer = None
        self.started = {}  # id(frame) -> frame: generator frames whose first call was seen
        self.fresh = {}  # id(instance) -> (instance, its attributes as __init__ left them, as JSON)
        self.spent = {}  # code -> seconds the tracer spent on its calls (charge)
        self.spent_in_test = {}  # the same, in the current test
        self.resting = set()  # codes left alone until the next test (charge)
        self.modules = [t["module"] for t in targets]
        self.names = [t["qualname"].rsplit(".", 1)[-1] for t in targets]
        for index, t in enumerate(targets):
            try:
                module = _with_alarm(20, lambda: importlib.import_module(t["module"]))
                parts = t["qualname"].split(".")
                owner = module
                for part in parts[:-1]:
                    owner = getattr(owner, part)
                attr = inspect.getattr_static(owner, parts[-1])
            except BaseException:  # noqa: BLE001 - the worker reports import problems
                continue
            raw = _raw_function(attr)
            if raw is None:
                continue
            is_method = t["kind"] == "method" and inspect.isclass(owner)
            klass = owner if is_method and not isinstance(attr, (staticmethod, classmethod)) else None
            drop_first = is_method and not isinstance(attr, staticmethod)
            self.codes[raw.__code__] = (index, drop_first, klass)
            if klass is not None:
                init = _raw_function(vars(klass).get("__init__")) if "__init__" in vars(klass) else None
                if init is not None:
                    self.init_codes[init.__code__] = klass
            self.loaded.append((index, module, owner, raw, klass))
        self.watched = set(self.codes) | set(self.init_codes)  # the codes trace looks at (charge)

    def emit(self, record):
        key = json.dumps(record, sort_keys=True)
        if "reject" in record:
            index = record["target"]
            rejects = self.rejects[index] = self.rejects.get(index, 0) + 1
            if rejects >= MAX_REJECTS:
                self.captured_enough(index)
            self.out.write(key + "\n")
            self.out.flush()
            return
        index = record["target"]
        if key in self.seen.setdefault(index, set()):
            return
        self.seen[index].add(key)
        # distinct captures count towards MAX_CAPTURES (a loop calling with the same input counts once)
        self.counted(index)
        self.out.write(key + "\n")
        self.out.flush()

    def summary(self, info):
        """The run's summary line (how many tests ran, the test files that did not import, the
        stand-ins), read apart from the captures."""
        self.out.write(json.dumps({"summary": info}, sort_keys=True) + "\n")
        self.out.flush()

    def counted(self, index):
        """One more capture of target `index`: at MAX_CAPTURES it is captured no more."""
        count = self.count[index] = self.count.get(index, 0) + 1
        if count >= MAX_CAPTURES:
            self.captured_enough(index)

    def captured_enough(self, index):
        """Target `index` is captured no more: its code is watched no more, unless it is a constructor too."""
        self.count[index] = max(self.count.get(index, 0), MAX_CAPTURES)
        self.watched.difference_update(c for c, entry in self.codes.items() if entry[0] == index and c not in self.init_codes)

    def profile(self, frame, event, arg):
        if self.busy:
            return
        if event == "return":
            klass = self.init_codes.get(frame.f_code)
            if klass is not None and frame.f_code not in self.resting:
                started = time.perf_counter()
                self.after_init(frame, klass)
                self.charge(frame.f_code, started)
            return
        if event != "call":
            return
        code = frame.f_code
        klass = self.init_codes.get(code)
        entry = self.codes.get(code)
        if klass is None and (entry is None or self.count.get(entry[0], 0) >= MAX_CAPTURES):
            return  # not a target, or one captured enough (a benchmark's loop calls it a million times)
        if code in self.resting:
            return
        if code.co_flags & CO_SUSPENDS:
            # a generator's frame gets a call event at every resume, its locals no longer its arguments
            if id(frame) in self.started:
                return
            if len(self.started) > 10000:
                self.started.clear()
            self.started[id(frame)] = frame
        self.busy = True
        started = time.perf_counter()
        try:
            args, kwargs = _frame_args(frame, code)
            if klass is not None and args and type(args[0]) is klass and len(self.instances) < 100000:
                try:
                    tagged = {"args": [values.to_input(a) for a in args[1:]], "kwargs": {k: values.to_input(v) for k, v in kwargs.items()}}
                except values.NotAnInput:
                    tagged = None
                self.instances[id(args[0])] = (args[0], tagged)
            if entry is not None:
                self.capture(entry, args, kwargs)
        except Exception:  # noqa: BLE001 - never disturb the code under test
            pass
        finally:
            self.busy = False
            self.charge(code, started)

    def charge(self, code, started):
        """Adds the time since `started` to what the tracer spent on `code`, in all and in the
        current test: past TEST_CODE_SECONDS in one test, `code` is left alone until the next test
        (a benchmark's loop); past CODE_SECONDS in all, a target is captured no more and a
        constructor's instances are no longer noted (a parser's node built ten thousand times, each
        holding the whole grammar, rebuilt from its attributes at each call)."""
        elapsed = time.perf_counter() - started
        total = self.spent[code] = self.spent.get(code, 0.0) + elapsed
        in_test = self.spent_in_test[code] = self.spent_in_test.get(code, 0.0) + elapsed
        if in_test > TEST_CODE_SECONDS:
            self.resting.add(code)
            self.watched.discard(code)
        if total > CODE_SECONDS:
            entry = self.codes.get(code)
            if entry is not None:
                self.count[entry[0]] = MAX_CAPTURES
            self.init_codes.pop(code, None)
            self.watched.discard(code)

    def next_test(self):
        """A new test begins (a pytest test, a docstring's examples, a recorded case run again): the
        codes resting since the last one are traced again."""
        self.watched.update(c for c in self.resting if c in self.init_codes or (c in self.codes and self.count.get(self.codes[c][0], 0) < MAX_CAPTURES))
        self.resting.clear()
        self.spent_in_test.clear()

    def after_init(self, frame, klass):
        """Notes the attributes an instance holds when its __init__ returns: a method called on it
        while it still holds exactly those needs no rebuilt receiver beside its init."""
        self.busy = True
        try:
            names = frame.f_code.co_varnames
            instance = frame.f_locals.get(names[0]) if names else None
            known = self.instances.get(id(instance))
            if known is not None and known[0] is instance and known[1] is not None and len(self.fresh) < 20000:
                restore = self.restore_of(instance) if type(instance) is klass else None
                if restore is not None:
                    self.fresh[id(instance)] = (instance, json.dumps(restore, sort_keys=True))
        except Exception:  # noqa: BLE001 - never disturb the code under test
            pass
        finally:
            self.busy = False

    def capture(self, entry, args, kwargs):
        index, drop_first, klass = entry
        if self.skip_outer == index:
            self.skip_outer = None  # the recorded case's own call (run_cases): its input is known
            return
        if self.count.get(index, 0) >= MAX_CAPTURES:
            return
        inits = []
        values.HOME = [self.modules[index]]  # data the target's module holds: an input by path
        if klass is not None:
            if not args:
                return
            known = self.instances.get(id(args[0]))
            if known is None or known[0] is not args[0]:
                replayed = values.replayable_init(args[0]) if type(args[0]) is klass else None
                if replayed is not None:
                    inits.append(replayed)  # a namedtuple or dataclass: its class called on its fields
                elif "__init__" not in vars(klass):
                    inits.append({"args": [], "kwargs": {}})
            elif known[1] is not None:
                inits.append(known[1])
            # the receiver as it is at the call (a parser holding its tokens): rebuilt from its
            # attributes, which the init alone may not give back; a subclass's instance that
            # inherits the method (a base class's `match` called on each kind of node) only so
            restore = self.restore_of(args[0]) if type(args[0]) is klass or values.inherits_method(klass, type(args[0]), self.names[index]) else None
            fresh = self.fresh.get(id(args[0]))
            if restore is not None and inits and fresh is not None and fresh[0] is args[0] and fresh[1] == json.dumps(restore, sort_keys=True):
                restore = None  # the receiver is as its init left it: the init form alone shows it
            if restore is not None:
                inits.append({"args": [], "kwargs": {}, "restore": restore})
            if not inits:
                self.emit({"target": index, "source": self.source, "reject": "no-init" if known is None else "unserialisable"})
                return
        else:
            inits.append(None)
        if drop_first:
            args = args[1:]
        try:
            tagged_args, tagged_kwargs = [values.to_input(a) for a in args], {k: values.to_input(v) for k, v in kwargs.items()}
        except values.NotAnInput:
            self.emit({"target": index, "source": self.source, "reject": "unserialisable"})
            return
        for init in inits:
            self.emit({"target": index, "source": self.source, "init": init, "args": tagged_args, "kwargs": tagged_kwargs})

    @staticmethod
    def restore_of(receiver):
        """{type, attrs} rebuilding the receiver from its attributes (values.restorable_state), or None."""
        try:
            type_path, attrs = values.restorable_state(receiver)
        except (values.NotAnInput, RecursionError):
            return None
        return {"type": type_path, "attrs": attrs, **({"slots": True} if values.slotted(type(receiver)) else {})}

    def trace(self, frame, event, arg):
        """The global trace function, sent a `call` event for each Python frame and none for C
        calls or returns, which sys.setprofile would send too (16.5 M events where boolean.py's tests
        make 4 M calls). Codes that are neither targets nor constructors are passed over first. A
        constructor's frame gets `returned` as its local trace function, without line events, for
        its return."""
        if frame.f_code not in self.watched:
            return None
        self.profile(frame, event, arg)
        if frame.f_code in self.init_codes:
            frame.f_trace_lines = False
            return self.returned
        return None

    def returned(self, frame, event, arg):
        if event == "return":
            self.profile(frame, event, arg)
        return self.returned

    def start(self):
        threading.settrace(self.trace)
        sys.settrace(self.trace)

    def stop(self):
        sys.settrace(None)
        threading.settrace(None)


# One docstring's examples get this long, and may print this much, before the rest of that docstring
# is skipped: doctest buffers printed output in memory (an endless printer filled 1.3 GB in 10 s and
# the tracer was killed for memory, losing every later target's doctests), and a hanging example
# must not eat the budget every later docstring shares.
DOCSTRING_SECONDS = 4
DOCTEST_OUTPUT_CAP = 1 << 20


class _DoctestStop(KeyboardInterrupt):
    """Ends one docstring's run. doctest catches everything an example raises except
    KeyboardInterrupt, so only this gets past it (an Alarm would end one example, and the next
    hanging example would then run unbounded)."""


class _CappedOut(doctest._SpoofOut):
    def write(self, text):
        if self.tell() + len(text) > DOCTEST_OUTPUT_CAP:
            raise _DoctestStop()
        return super().write(text)


def run_doctests(tracer):
    tracer.source = "doctest"
    parser = doctest.DocTestParser()
    done = set()
    for index, module, owner, raw, klass in tracer.loaded:
        # the target's docstring, its class's and its module's, each run once: every example
        # traces whichever targets it calls
        docs = [raw.__doc__, getattr(klass, "__doc__", None), module.__doc__]
        for k, doc in enumerate(docs):
            if not isinstance(doc, str) or ">>>" not in doc or (module.__name__, doc) in done:
                continue
            done.add((module.__name__, doc))
            try:
                test = parser.get_doctest(doc, dict(vars(module)), "%s.%d.%d" % (module.__name__, index, k), None, 0)
            except ValueError:
                continue
            runner = doctest.DocTestRunner(verbose=False, optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
            runner._fakeout = _CappedOut()
            tracer.next_test()
            tracer.start()
            try:
                _with_alarm(DOCSTRING_SECONDS, lambda: runner.run(test, out=lambda s: None, clear_globs=True), _DoctestStop)
            except BaseException:  # noqa: BLE001 - a hang or an escape ends this docstring only
                pass
            finally:
                tracer.stop()


# Each test runs traced for at most TEST_SECONDS: a benchmark that loops over the library for a
# minute gives no input its first second did not (captures per target are capped), and would spend
# the whole trace budget (traceTimeoutMs), losing the tests after it.
TEST_SECONDS = 5


class TestTimeLimit(BaseException):
    """Raised inside a test that ran past its time: pytest reports it failed and goes on. A
    BaseException, as the tracer's hook, where the alarm may fire, lets every Exception pass."""


MAX_UNIMPORTED = 8


def _test_time_limit(pytest, seconds, tracer):
    """A pytest plugin running each test's call under a SIGALRM timer of `seconds` and counting the
    calls (`ran`). The tracer's hook is set again after each test: the alarm may fire inside the
    hook, and Python unsets a trace function that raises."""

    class Plugin:
        ran = 0
        unimported = {}

        def pytest_collectreport(self, report):
            # a test file that could not be imported: its path and the error's last line
            if report.failed and len(self.unimported) < MAX_UNIMPORTED:
                lines = [line for line in str(report.longrepr).splitlines() if line.strip()]
                error = next((line.lstrip("E ").strip() for line in reversed(lines) if line.startswith("E ")), lines[-1] if lines else "")
                self.unimported[report.nodeid or str(report.fspath)] = error[:200]

        @pytest.hookimpl(hookwrapper=True)
        def pytest_runtest_call(self, item):
            self.ran += 1
            tracer.next_test()
            try:
                with calls.alarm_after(seconds, TestTimeLimit):
                    yield
            finally:
                tracer.busy = False
                tracer.start()

    return Plugin()


def run_pytest(tracer, config):
    """The repository's pytest suite under the tracer. A session pytest cannot collect at all runs 0
    tests (a conftest written for an older pytest: docopt's builds its nodes by direct construction,
    an error since pytest 6, and fails the whole session); it is run again on its test files named
    one by one, which pytest collects without the conftest's collection hooks for other files, and
    then once more without conftests."""
    tracer.source = "repo-test"
    try:
        import pytest
    except ImportError:
        return
    root = config["repoRoot"]
    stand_ins = install_stand_ins(root)
    paths = list(config.get("testPaths") or [root] + _suite_modules(root))
    options = ["-q", "-p", "no:cacheprovider", "--rootdir", root, "-o", "addopts=", "--continue-on-collection-errors"]
    ran, unimported = _pytest_run(pytest, tracer, config, paths + options)
    files = _test_files(root) if ran == 0 and not config.get("testPaths") else []
    for extra in ([], ["--noconftest"]) if files else ():
        ran, unimported = _pytest_run(pytest, tracer, config, files + options + extra)
        if ran > 0:
            break
    run_load_tests(tracer, root)
    tracer.summary({"tests": ran, "unimported": [{"file": f, "error": e} for f, e in sorted(unimported.items())], "standIns": stand_ins})


def _pytest_run(pytest, tracer, config, args):
    """One pytest session under the tracer; returns how many tests it ran, and the test files it
    could not import with why."""
    limit = _test_time_limit(pytest, config.get("testSeconds", TEST_SECONDS), tracer)
    tracer.start()
    try:
        pytest.main(args, plugins=[limit])
    except BaseException:  # noqa: BLE001
        pass
    finally:
        tracer.stop()
    return limit.ran, dict(limit.unimported)


SUITE_MODULE_NAMES = ("tests.py", "test.py")


class StandInMissing(ModuleNotFoundError):
    """What using a stand-in raises: the test that uses it fails, the others run."""


class _StandInType(type):
    """A stand-in's class: any attribute of it is another stand-in (`Logger.SPAM` at a test
    module's top level imports), and calling it raises."""

    def __getattr__(cls, name):
        if name.startswith("__"):
            raise AttributeError(name)
        return _stand_in(cls._stand_in_for + "." + name)

    def __call__(cls, *args, **kwargs):
        raise StandInMissing("%s is not installed (a stand-in while tracing the repository's tests)" % cls._stand_in_for)


def _stand_in(dotted):
    """A class standing in for `dotted`, named so that the codec cannot refer to it (`<` in its
    qualified name): a call passing one is never captured."""
    return _StandInType(dotted.rsplit(".", 1)[-1], (), {"_stand_in_for": dotted, "__qualname__": "<stand-in %s>" % dotted, "__module__": "<stand-in>"})


class _StandInModule(type(sys)):
    """A stand-in module: its names are stand-ins for a test file, and missing for anything else
    (`from verboselogs import VerboseLogger` in the library raises ImportError, as it would)."""

    def __getattr__(self, name):
        if name.startswith("__") or not _TestImporter.active.from_tests():
            raise AttributeError(name)
        return _stand_in(self.__name__ + "." + name)


class _TestImporter:
    """Last on `sys.meta_path`: serves the modules named (and their submodules) that no other finder
    found, to an import statement in a test file only. The library's own imports of them fail as
    they would without it (coloredlogs' demo module falls back to `logging.getLogger` when
    `verboselogs` is missing, at import time)."""

    active = None

    def __init__(self, root, roots):
        self.root = os.path.abspath(root)
        self.roots = frozenset(roots)
        _TestImporter.active = self

    def find_spec(self, name, path=None, target=None):
        if name.split(".")[0] not in self.roots or not self.from_tests():
            return None
        return importlib.util.spec_from_loader(name, self, is_package=True)

    def create_module(self, spec):
        module = _StandInModule(spec.name)
        module.__path__ = []
        return module

    def exec_module(self, module):
        pass

    def from_tests(self):
        """Whether the code asking (the first frame outside importlib and this file) is a test file's."""
        frame = sys._getframe(1)
        while frame is not None:
            name = frame.f_code.co_filename
            if not name.startswith("<") and name != __file__ and os.sep + "importlib" + os.sep not in name:
                return name.startswith(self.root + os.sep) and _is_test_file(os.path.relpath(name, self.root))
            frame = frame.f_back
        return False


def _is_test_file(relative):
    """A test file by pytest's names and the suite names, or any file below a tests folder."""
    folders, name = os.path.split(relative)
    return name in SUITE_MODULE_NAMES or name == "conftest.py" or name.startswith("test_") or name.endswith(("_test.py", "_tests.py")) \
        or any(part in ("tests", "test", "testing") for part in folders.split(os.sep))


MAX_WALKED_FILES = 20000


def install_stand_ins(root):
    """Stand-ins for the third-party modules the repository's test files import at their top level
    and this image lacks (coloredlogs' tests import `capturer`, which Debian does not package):
    without them a test module that imports one is never collected, and none of its tests run.
    Using a stand-in raises, so only the tests that need it fail; only a test file's imports get
    one. Safe for what is recorded: the tracer only captures inputs, which the worker runs and
    records again in a process without stand-ins, and a call passing a stand-in is never captured
    (the codec cannot refer to one). A module named like any of the repository's `.py` files or
    folders (a test helper beside the tests, put on `sys.path` by pytest later) is never stood in
    for.
    Returns the names stood in for."""
    tests, own = set(), set()
    for path in _files_under(root, lambda name: True, MAX_WALKED_FILES):
        relative = os.path.relpath(path, root)
        *folders, name = relative.split(os.sep)
        own.update(folders)
        if name.endswith(".py"):
            own.add(name[:-3])
            if _is_test_file(relative):
                tests.update(_top_level_imports(path))
    stdlib = getattr(sys, "stdlib_module_names", frozenset())
    missing = sorted(m for m in tests - own - set(stdlib) if not m.startswith("_") and _absent(m))
    if missing:
        sys.meta_path.append(_TestImporter(root, missing))
    return missing


def _top_level_imports(path):
    """The top-level names a file imports (absolute imports only) at its module level and in the
    blocks there (`try:`, `if`, `with`)."""
    import ast
    try:
        with open(path, "rb") as handle:
            tree = ast.parse(handle.read())
    except (OSError, SyntaxError, ValueError):
        return set()
    found = set()
    for node in _module_level(tree.body):
        if isinstance(node, ast.Import):
            found.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            found.add(node.module.split(".")[0])
    return found


def _module_level(body):
    import ast
    for node in body:
        yield node
        if isinstance(node, (ast.Try, ast.If, ast.With)):
            for block in (node.body, getattr(node, "orelse", []), getattr(node, "finalbody", []), *[h.body for h in getattr(node, "handlers", [])]):
                yield from _module_level(block)


def _absent(module):
    try:
        return importlib.util.find_spec(module) is None
    except (ImportError, ValueError):
        return False


def _suite_modules(root, limit=8):
    """A single-module library's suite beside it (`tests.py`, `test.py`: json-patch, pygtrie), which
    pytest's default file patterns (`test_*.py`, `*_test.py`) do not collect; named to pytest, which
    collects a file it is given whatever its name."""
    return _files_under(root, lambda name: name in SUITE_MODULE_NAMES, limit)


def _test_files(root, limit=64):
    """The test files under `root` by pytest's default patterns (`test_*.py`, `*_test.py`) and the
    single-module suite names."""
    return _files_under(root, lambda name: name.endswith(".py") and (
        name.startswith("test_") or name.endswith("_test.py") or name in SUITE_MODULE_NAMES), limit)


def _files_under(root, accept, limit):
    """Paths of the files under `root` whose name `accept`s, walked in sorted order (hidden folders,
    node_modules, caches and site-packages left out), at most `limit`."""
    found = []
    for dirpath, dirnames, filenames in os.walk(root):
        dirnames[:] = sorted(d for d in dirnames if not d.startswith(".") and d not in ("node_modules", "__pycache__", "site-packages"))
        found.extend(os.path.join(dirpath, name) for name in sorted(filenames) if accept(name))
        if len(found) >= limit:
            break
    return found[:limit]


def run_load_tests(tracer, root):
    """The repository's unittest suites built by the load_tests protocol, which pytest does not call
    (data-driven suites: isodate builds one test case per ISO string in `load_tests`), run under
    the tracer with unittest's own runner, output discarded."""
    import io
    import unittest
    loader = unittest.TestLoader()
    for name in _load_tests_modules(root):
        try:
            suite = loader.loadTestsFromName(name)
        except BaseException:  # noqa: BLE001 - a module that does not import is skipped
            continue
        tracer.start()
        try:
            unittest.TextTestRunner(stream=io.StringIO(), verbosity=0).run(suite)
        except BaseException:  # noqa: BLE001
            pass
        finally:
            tracer.stop()


def _load_tests_modules(root):
    """Module names of the test files (test*.py) under `root` that define `load_tests`, sorted; the
    folder above each one's package is put on sys.path."""
    names = []
    for dirpath, dirnames, filenames in os.walk(root):
        dirnames[:] = sorted(d for d in dirnames if not d.startswith(".") and d not in ("node_modules", "__pycache__"))
        for filename in sorted(filenames):
            if not (filename.startswith("test") and filename.endswith(".py")):
                continue
            path = os.path.join(dirpath, filename)
            try:
                with open(path, encoding="utf-8", errors="replace") as handle:
                    if "def load_tests(" not in handle.read():
                        continue
            except OSError:
                continue
            parts, top = [filename[:-3]], dirpath
            while top != root and os.path.isfile(os.path.join(top, "__init__.py")):
                parts.insert(0, os.path.basename(top))
                top = os.path.dirname(top)
            if top not in sys.path:
                sys.path.insert(0, top)
            names.append(".".join(parts))
    return names


# Each recorded case re-run by run_cases gets this long.
CASE_SECONDS = 2


def run_cases(tracer, config):
    """The cases already recorded for the targets (config `calls`: target index, init, args, kwargs),
    each called again under the tracer: the calls they make into the OTHER targets are real inputs
    of those (a parser's inner methods with the parser halfway through its tokens, an interpreter's
    visitors on real nodes), captured like the repository's tests' calls, source `inner-call`. The
    outer call itself is not captured again; results are not kept (the worker records every input)."""
    tracer.source = "inner-call"
    by_index = {index: (module, owner, raw, klass) for index, module, owner, raw, klass in tracer.loaded}
    for call in config.get("calls") or []:
        tracer.next_test()
        entry = by_index.get(call.get("target"))
        if entry is None:
            continue
        module, owner, raw, klass = entry
        name = config["targets"][call["target"]]["qualname"].rsplit(".", 1)[-1]
        try:
            args = [codec.decode(a) for a in call.get("args") or []]
            kwargs = {k: codec.decode(v) for k, v in (call.get("kwargs") or {}).items()}
            init = call.get("init")
            if name == "__init__" and inspect.isclass(owner):
                fn = owner
            elif klass is not None:
                if init is None:
                    continue
                if init.get("restore") is not None:
                    instance = values.rebuild(values.receiver_class(klass, init["restore"]["type"], name), {k: codec.decode(v) for k, v in init["restore"]["attrs"].items()})
                else:
                    instance = _with_alarm(CASE_SECONDS, lambda: klass(*[codec.decode(a) for a in init.get("args") or []],
                                                                   **{k: codec.decode(v) for k, v in (init.get("kwargs") or {}).items()}))
                if isinstance(inspect.getattr_static(klass, name, None), property):
                    continue
                fn = getattr(instance, name)
            else:
                fn = getattr(owner, name)
        except BaseException:  # noqa: BLE001 - an input that no longer builds is skipped
            continue
        tracer.skip_outer = call["target"]
        tracer.start()
        try:
            def drain():
                result = fn(*args, **kwargs)
                if inspect.isgenerator(result) or isinstance(result, collections.abc.Iterator):
                    list(itertools.islice(result, 100))
            _with_alarm(CASE_SECONDS, drain)
        except BaseException:  # noqa: BLE001 - the case's own exception, or its time up
            pass
        finally:
            tracer.stop()
            tracer.skip_outer = None


def main():
    mode, config_path, out_path = sys.argv[1], sys.argv[2], sys.argv[3]
    with open(config_path, encoding="utf-8") as handle:
        config = json.load(handle)
    for entry in reversed(config.get("sysPath", [])):
        if entry not in sys.path:
            sys.path.insert(0, entry)
    devnull = os.open(os.devnull, os.O_RDWR)
    os.dup2(devnull, 1)
    os.dup2(devnull, 2)
    os.chdir(config["repoRoot"])
    with open(out_path, "a", encoding="utf-8") as out:
        tracer = Tracer(config["targets"], out)
        if mode == "doctest":
            run_doctests(tracer)
        elif mode == "cases":
            run_cases(tracer, config)
        else:
            run_pytest(tracer, config)
    os._exit(0)


if __name__ == "__main__":
    main()
