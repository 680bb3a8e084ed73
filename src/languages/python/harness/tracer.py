"""The tracer: runs the repository's own doctests or pytest tests (and the unittest suites pytest does
not collect: the load_tests protocol) with a profile hook on every target,
and writes each real call's arguments (tagged as inputs, taken at call time, before the body runs) as
JSON lines. Results are not kept here: every traced input is re-run and recorded by the worker.

`python3 -I -B tracer.py <doctest|pytest> <config.json> <out.jsonl>`; stdout/stderr go to /dev/null.
The recorder kills this process at its deadline; lines written before then are kept.
"""
import doctest
import importlib
import inspect
import json
import os
import sys
import threading

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
CO_VARARGS, CO_VARKEYWORDS = 0x04, 0x08


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
        self.loaded = []
        self.modules = [t["module"] for t in targets]
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

    def emit(self, record):
        key = json.dumps(record, sort_keys=True)
        if "reject" in record:
            self.out.write(key + "\n")
            self.out.flush()
            return
        index = record["target"]
        if key in self.seen.setdefault(index, set()):
            return
        self.seen[index].add(key)
        self.out.write(key + "\n")
        self.out.flush()

    def profile(self, frame, event, arg):
        if event != "call" or self.busy:
            return
        code = frame.f_code
        klass = self.init_codes.get(code)
        entry = self.codes.get(code)
        if klass is None and entry is None:
            return
        self.busy = True
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

    def capture(self, entry, args, kwargs):
        index, drop_first, klass = entry
        if self.count.get(index, 0) >= MAX_CAPTURES:
            return
        self.count[index] = self.count.get(index, 0) + 1
        init = None
        if klass is not None:
            if not args:
                return
            known = self.instances.get(id(args[0]))
            if known is None or known[0] is not args[0]:
                init = {"args": [], "kwargs": {}} if "__init__" not in vars(klass) else None
                if init is None:
                    self.emit({"target": index, "source": self.source, "reject": "no-init"})
                    return
            elif known[1] is None:
                self.emit({"target": index, "source": self.source, "reject": "unserialisable"})
                return
            else:
                init = known[1]
        if drop_first:
            args = args[1:]
        values.HOME = [self.modules[index]]  # data the target's module holds: an input by path
        try:
            record = {"target": index, "source": self.source, "init": init,
                      "args": [values.to_input(a) for a in args], "kwargs": {k: values.to_input(v) for k, v in kwargs.items()}}
        except values.NotAnInput:
            self.count[index] -= 1
            self.emit({"target": index, "source": self.source, "reject": "unserialisable"})
            return
        self.emit(record)

    def start(self):
        threading.setprofile(self.profile)
        sys.setprofile(self.profile)

    def stop(self):
        sys.setprofile(None)
        threading.setprofile(None)


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
    for index, module, owner, raw, klass in tracer.loaded:
        docs = [raw.__doc__]
        if klass is not None:
            docs.append(klass.__doc__)
        for k, doc in enumerate(docs):
            if not isinstance(doc, str) or ">>>" not in doc:
                continue
            try:
                test = parser.get_doctest(doc, dict(vars(module)), "%s.%d.%d" % (module.__name__, index, k), None, 0)
            except ValueError:
                continue
            runner = doctest.DocTestRunner(verbose=False, optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
            runner._fakeout = _CappedOut()
            tracer.start()
            try:
                _with_alarm(DOCSTRING_SECONDS, lambda: runner.run(test, out=lambda s: None, clear_globs=True), _DoctestStop)
            except BaseException:  # noqa: BLE001 - a hang or an escape ends this docstring only
                pass
            finally:
                tracer.stop()


def run_pytest(tracer, config):
    tracer.source = "repo-test"
    try:
        import pytest
    except ImportError:
        return
    args = list(config.get("testPaths") or [config["repoRoot"]])
    args += ["-q", "-p", "no:cacheprovider", "--rootdir", config["repoRoot"], "-o", "addopts=", "--continue-on-collection-errors"]
    tracer.start()
    try:
        pytest.main(args)
    except BaseException:  # noqa: BLE001
        pass
    finally:
        tracer.stop()
    run_load_tests(tracer, config["repoRoot"])


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
        else:
            run_pytest(tracer, config)
    os._exit(0)


if __name__ == "__main__":
    main()
