"""The worker: imports one target's module once, then runs each request in a forked child.

Started by record.py / mutate.py as `python3 -I -B worker.py <request fd> <result fd>`, stdin,
stdout and stderr on /dev/null. Requests and answers are JSON lines on the two pipes, so nothing the
code under test prints can reach them: in the child, sys.stdout/sys.stderr are capped sinks and file
descriptors 1 and 2 point at /dev/null. Every case runs in a fresh fork of the post-import state, with
a wall-clock limit (the child's process group is killed), so a hang costs one case, never the run.
While a call runs, the clock, randomness and the network are watched: use flags the case `impure`.

Ops: setup {sysPath, module, qualname, kind} · describe {} · run {case, timeoutMs, trace, mutant}
· batch {cases, timeoutMs, trace, mutant} · mutants {maxMutants} · quit.
"""
import ast
import builtins
import collections.abc
import functools
import inspect
import itertools
import json
import keyword
import os
import re
import select
import signal
import sys
import traceback
import types
import typing

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
mutants_mod = _load.load("mutants")
common = _load.load("common")
regex_strings = _load.load("regex_strings")

MAX_ANSWER_BYTES = 8 * 1024 * 1024
# A generator's result is judged on its first GENERATOR_ITEMS items, exactly as the task's case
# evaluates it: list(itertools.islice(gen(...), GENERATOR_ITEMS)) (common.collected_case).
GENERATOR_ITEMS = 100
SINK_CAP_CHARS = 64 * 1024

_ACTIVE = [False]
_FLAGS = set()
STATE = {}


# ----------------------------------------------------------------------------- guards

class CappedSink:
    """A text stream that keeps the first SINK_CAP_CHARS characters and drops the rest."""

    encoding = "utf-8"
    errors = "replace"

    def __init__(self):
        self.kept = 0
        self.dropped = 0

    def write(self, text):
        n = len(text) if isinstance(text, str) else 0
        if self.kept < SINK_CAP_CHARS:
            self.kept += n
        else:
            self.dropped += n
        return n

    def writelines(self, lines):
        for line in lines:
            self.write(line)

    def flush(self):
        pass

    def isatty(self):
        return False

    def fileno(self):
        return 1

    def readable(self):
        return False

    def writable(self):
        return True


def _flagging(kind, fn, when=None, exempt=()):
    """`fn` flagging `kind` while a call is recorded (when `when` says so), except for a caller in
    one of the `exempt` folders."""
    @functools.wraps(fn)
    def wrapper(*args, **kwargs):
        if _ACTIVE[0] and (when is None or when(args, kwargs)) and not (exempt and sys._getframe(1).f_code.co_filename.startswith(exempt)):
            _FLAGS.add(kind)
        return fn(*args, **kwargs)

    return wrapper


def _logging_folder():
    """The standard library's `logging` package: a log record stamps the time it was made
    (`LogRecord.created`), which is no use of the clock by the code that logs (multipart's parsers
    log a warning when data is cut)."""
    import logging
    return (os.path.dirname(logging.__file__) + os.sep,)


def _blocking(kind, fn):
    @functools.wraps(fn)
    def wrapper(*args, **kwargs):
        if _ACTIVE[0]:
            _FLAGS.add(kind)
            raise OSError("network access is disabled while recording")
        return fn(*args, **kwargs)

    return wrapper


def install_guards():
    import random
    import socket
    import time

    logging_folder = _logging_folder()
    for name in ("time", "time_ns"):
        setattr(time, name, _flagging("clock", getattr(time, name), exempt=logging_folder))
    for name in ("localtime", "gmtime", "ctime"):
        setattr(time, name, _flagging("clock", getattr(time, name), lambda a, k: not a or a[0] is None))
    setattr(time, "strftime", _flagging("clock", time.strftime, lambda a, k: len(a) < 2))
    for name in ("random", "randint", "randrange", "choice", "choices", "shuffle", "sample", "uniform", "gauss",
                 "getrandbits", "triangular", "betavariate", "expovariate", "normalvariate", "lognormvariate",
                 "vonmisesvariate", "gammavariate", "paretovariate", "weibullvariate", "randbytes"):
        if hasattr(random, name):
            setattr(random, name, _flagging("randomness", getattr(random, name)))
    random.Random.seed = _flagging("randomness", random.Random.seed, lambda a, k: (len(a) < 2 or a[1] is None) and k.get("a") is None)
    os.urandom = _flagging("randomness", os.urandom)
    for name in ("connect", "connect_ex", "sendto", "bind"):
        setattr(socket.socket, name, _blocking("network", getattr(socket.socket, name)))
    socket.create_connection = _blocking("network", socket.create_connection)
    socket.getaddrinfo = _blocking("network", socket.getaddrinfo)


# ----------------------------------------------------------------------------- target

def _type_name(t):
    return "%s.%s" % (getattr(t, "__module__", "?"), getattr(t, "__qualname__", getattr(t, "__name__", "?")))


def _short_error(exc):
    return "".join(traceback.format_exception_only(type(exc), exc)).strip()[-300:]


_Alarm = calls.Alarm
_with_alarm = calls.with_alarm
_raw_function = calls.raw_function


def op_setup(req):
    import importlib

    for entry in reversed(req.get("sysPath", [])):
        if entry not in sys.path:
            sys.path.insert(0, entry)
    module_name, qualname, kind = req["module"], req["qualname"], req["kind"]
    try:
        module = _with_alarm(req.get("importTimeoutMs", 20000) / 1000.0, lambda: importlib.import_module(module_name))
    except _Alarm:
        return {"ok": False, "code": "timeout", "error": "importing %s timed out" % module_name}
    except BaseException as exc:  # noqa: BLE001 - SystemExit at import included
        return {"ok": False, "code": "import-error", "error": _short_error(exc)}
    parts = qualname.split(".")
    owner = module
    try:
        for part in parts[:-1]:
            owner = getattr(owner, part)
        attr = inspect.getattr_static(owner, parts[-1])
    except AttributeError as exc:
        return {"ok": False, "code": "not-found", "error": _short_error(exc)}
    raw = _raw_function(attr)
    if raw is None:
        return {"ok": False, "code": "not-a-function", "error": "%s is not a Python function" % qualname}
    klass = owner if kind == "method" else None
    if kind == "method" and isinstance(attr, (staticmethod, classmethod)):
        klass = None  # called on the class, no instance needed
    try:
        filename = inspect.getsourcefile(raw) or raw.__code__.co_filename
        lines, first = inspect.getsourcelines(raw)
        last = first + len(lines) - 1
    except (OSError, TypeError):
        filename, first, last = raw.__code__.co_filename, raw.__code__.co_firstlineno, raw.__code__.co_firstlineno + 10000
    generator = inspect.isgeneratorfunction(raw)
    # a property's getter is judged on the attribute of a built instance (common.attribute_case)
    is_property = kind == "method" and klass is not None and isinstance(attr, (property, functools.cached_property))
    # a constructor is judged by the state it leaves: vars(<Class>(<args>)) (run_case, common.constructed_case)
    construct = kind == "method" and klass is not None and parts[-1] == "__init__"
    # the repository's folders (its root and import roots): a frame of a file under one is the repository's code
    STATE["roots"] = tuple(os.path.join(os.path.realpath(p), "") for p in req.get("sysPath", []))
    STATE.update(module=module, owner=owner, name=parts[-1], qualname=qualname, raw=raw, klass=klass,
                 filename=filename, first=first, last=last, method=kind == "method" and klass is not None and not construct,
                 generator=generator, construct=construct, property=is_property)
    subject = req.get("mutantOf")
    if subject is None:
        STATE["subject"] = {"module": module, "qualname": qualname, "raw": raw, "filename": filename, "first": first, "last": last}
    else:
        # mutants of another function (a helper the target's calls reach, Unit.via): its body is mutated
        # and its lines traced, the target is what the cases call
        found = _subject(subject["module"], subject["qualname"])
        if isinstance(found, str):
            return {"ok": False, "code": "not-found", "error": found}
        STATE["subject"] = found
    # parsed once here, before the forks: describe reads the target's file, every mutant the subject's
    _module_tree()
    _module_tree(STATE["subject"]["filename"])
    return {"ok": True, "file": filename, "firstLine": first, "lastLine": last, "needsInstance": STATE["method"],
            "freevars": list(raw.__code__.co_freevars), "generator": generator, "construct": construct, "property": is_property,
            "bound": kind == "method" and klass is None and isinstance(attr, classmethod), "shadowed": _module_shadowed(module_name)}


def _subject(module_name, qualname):
    """The function whose body mutants change and whose lines are traced when it is not the target
    (op_setup `mutantOf`): its module, qualname, raw function and source lines; a reason (str) when
    it cannot be found."""
    import importlib

    try:
        module = importlib.import_module(module_name)
        owner = module
        for part in qualname.split(".")[:-1]:
            owner = getattr(owner, part)
        raw = _raw_function(inspect.getattr_static(owner, qualname.split(".")[-1]))
    except BaseException as exc:  # noqa: BLE001 - an import or lookup that fails: no subject
        return "cannot find %s.%s: %s" % (module_name, qualname, _short_error(exc))
    if raw is None:
        return "%s.%s is not a Python function" % (module_name, qualname)
    try:
        filename = inspect.getsourcefile(raw) or raw.__code__.co_filename
        lines, first = inspect.getsourcelines(raw)
    except (OSError, TypeError):
        return "no source for %s.%s" % (module_name, qualname)
    return {"module": module, "qualname": qualname, "raw": raw, "filename": filename, "first": first, "last": first + len(lines) - 1}


def _module_shadowed(module_name):
    """Whether `<module_name>` written in source (the package's attributes followed from its top
    package) is not the module itself: `from .itemlist import itemlist` in the package's
    __init__ makes `orderedmultidict.itemlist` the class. Source forms then name the module by
    `importlib.import_module(...)` (common.module_source)."""
    parts = module_name.split(".")
    found = sys.modules.get(parts[0])
    for part in parts[1:]:
        found = getattr(found, part, None)
    return found is not sys.modules.get(module_name)


# ----------------------------------------------------------------------------- describe (type hints, literals)

def _hint(tp, depth=0):
    if depth > 4:
        return {"kind": "any"}
    if tp is inspect.Parameter.empty or tp is typing.Any:
        return {"kind": "any"}
    if tp is None or tp is type(None):
        return {"kind": "none"}
    for base, name in ((bool, "bool"), (int, "int"), (float, "float"), (str, "str"), (bytes, "bytes")):
        if tp is base:
            return {"kind": name}
    origin = typing.get_origin(tp)
    args = typing.get_args(tp)
    import types as _types

    if origin is typing.Union or (hasattr(_types, "UnionType") and origin is _types.UnionType):
        return {"kind": "union", "of": [_hint(a, depth + 1) for a in args]}
    if origin is typing.Literal:
        return {"kind": "literal", "values": [values.to_input(a) for a in args if type(a) in (int, str, bool, float, bytes) or a is None]}
    import collections.abc as abc

    if tp is abc.Callable or tp is typing.Callable or origin is abc.Callable:
        params = args[0] if args and isinstance(args[0], (list, tuple)) else None
        return {"kind": "callable", "arity": len(params) if params is not None else None}
    seqs = {list: "list", abc.Sequence: "list", abc.MutableSequence: "list", abc.Iterable: "list", abc.Iterator: "list", set: "set",
            frozenset: "frozenset", abc.Set: "set", tuple: "tuple", dict: "dict", abc.Mapping: "dict", abc.MutableMapping: "dict"}
    if origin in seqs or tp in seqs:
        kind = seqs.get(origin if origin is not None else tp)
        if kind == "tuple" and args and not (len(args) == 2 and args[1] is Ellipsis):
            return {"kind": "tuple-fixed", "of": [_hint(a, depth + 1) for a in args]}
        if kind == "dict":
            return {"kind": "dict", "key": _hint(args[0], depth + 1) if args else {"kind": "any"}, "value": _hint(args[1], depth + 1) if len(args) > 1 else {"kind": "any"}}
        out = {"kind": kind, "item": _hint(args[0], depth + 1) if args else {"kind": "any"}}
        if (origin if origin is not None else tp) in (abc.Iterable, abc.Iterator):
            out["iterable"] = True  # lists, and one-shot iterators over them
        return out
    if inspect.isclass(tp) and not getattr(tp, "__module__", "builtins") == "builtins":
        return {"kind": "class", "values": _construct(tp)}
    return {"kind": "any"}


def _literals(fn_source_node):
    found = {"int": [], "float": [], "str": []}
    if fn_source_node is None:
        return found
    for node in ast.walk(fn_source_node):
        if isinstance(node, ast.Constant) and type(node.value) in (int, float, str):
            bucket = found[type(node.value).__name__]
            if node.value not in bucket and len(bucket) < 12 and not (type(node.value) is str and len(node.value) > 40):
                bucket.append(node.value)
    return found


_TREE = {}


def _module_tree(filename=None):
    """The parsed source of the target's file, or of `filename` (cached: the file does not change
    while the worker lives), or None when it cannot be read or parsed. Callers never mutate it
    (mutants deep-copy)."""
    filename = filename or STATE["filename"]
    if filename not in _TREE:
        try:
            with open(filename, encoding="utf-8") as handle:
                _TREE[filename] = ast.parse(handle.read())
        except (OSError, SyntaxError, UnicodeDecodeError, TypeError, ValueError):
            _TREE[filename] = None
    return _TREE[filename]


def _module_literals(limit=24):
    """Short str/int/float constants of the whole module (not docstrings), spread evenly over the
    file: the values a library passes around (`'#f0f8ff'`, `'aliceblue'`, `'1.2.3-rc.1'`) that a
    function's own body seldom spells out."""
    found = {"int": [], "float": [], "str": []}
    tree = _module_tree()
    if tree is None:
        return found
    docstrings = {id(n.value) for n in ast.walk(tree) if isinstance(n, ast.Expr) and isinstance(n.value, ast.Constant)}
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and id(node) not in docstrings and type(node.value) in (int, float, str):
            v = node.value
            if type(v) is str and not (0 < len(v) <= 40):
                continue
            bucket = found[type(v).__name__]
            if v not in bucket:
                bucket.append(v)
    for kind, bucket in found.items():
        if len(bucket) > limit:
            step = len(bucket) / float(limit)
            found[kind] = [bucket[int(k * step)] for k in range(limit)]
    return found


_DATA_TYPES = (dict, list, tuple, set, frozenset)


def _plain_items(container, limit):
    """Up to `limit` str/int/float items of a module-level container (a dict's keys, then its
    values), spread evenly over it; sets in sorted order so the choice is the same every run."""
    try:
        if isinstance(container, dict):
            items = list(container.keys()) + list(container.values())
        elif isinstance(container, (set, frozenset)):
            items = sorted(container, key=repr)
        else:
            items = list(container)
    except Exception:  # noqa: BLE001 - odd containers: nothing to offer
        return []
    plain = []
    for v in items[:4096]:
        if type(v) in (str, int, float) and not (type(v) is str and not 0 < len(v) <= 40) and v not in plain:
            plain.append(v)
    if len(plain) > limit:
        step = len(plain) / float(limit)
        plain = [plain[int(k * step)] for k in range(limit)]
    return plain


def _global_container(n):
    """The module-level dict/list/tuple/set an expression names (`SUPPORTED`, `mod.TABLE`), or None."""
    if isinstance(n, ast.Name):
        value = vars(STATE["module"]).get(n.id)
        return value if isinstance(value, _DATA_TYPES) and not isinstance(value, type) else None
    return None


def _member_values(node, name, limit=8):
    """Values of the containers the body tests parameter `name` against: `name in TABLE`,
    `TABLE[name]`, `TABLE.get(name)`, `{A: x, B: y}[name]` (their keys), `name in ("a", "b")` or a
    local bound to such a literal: the values that get past a lookup or a membership check
    (`spec in SUPPORTED_SPECIFICATIONS`, `part not in validparts`)."""
    if node is None:
        return []
    found = []
    # names the body binds once to a literal container (`validparts = {"major", "minor"}`)
    local = {}
    for n in ast.walk(node):
        if (isinstance(n, ast.Assign) and len(n.targets) == 1 and isinstance(n.targets[0], ast.Name)
                and isinstance(n.value, (ast.Set, ast.List, ast.Tuple, ast.Dict))):
            local[n.targets[0].id] = n.value

    def is_param(n):
        return isinstance(n, ast.Name) and n.id == name

    for n in ast.walk(node):
        containers = []
        if isinstance(n, ast.Compare) and is_param(n.left):
            containers = [c for op, c in zip(n.ops, n.comparators) if isinstance(op, (ast.In, ast.NotIn))]
        elif isinstance(n, ast.Subscript) and is_param(n.slice):
            containers = [n.value]
        elif (isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute) and n.func.attr == "get"
              and n.args and is_param(n.args[0])):
            containers = [n.func.value]
        for c in containers:
            if isinstance(c, ast.Name) and c.id in local:
                c = local[c.id]  # `validparts = {"major", ...}` then `part not in validparts`
            if isinstance(c, ast.Dict):
                namespace = vars(STATE["module"])
                keys = [namespace.get(k.id) if isinstance(k, ast.Name) else getattr(k, "value", None) for k in c.keys if k is not None]
                picked = [k for k in keys if type(k) in (str, int, float)]
            elif isinstance(c, (ast.Set, ast.List, ast.Tuple)):
                picked = [e.value for e in c.elts if isinstance(e, ast.Constant) and type(e.value) in (str, int, float)]
            else:
                value = _global_container(c)  # a dict's keys (list(dict)), a sequence's items
                picked = [] if value is None else _plain_items(list(value) if isinstance(value, dict) else value, limit)
            for v in picked:
                if v not in found:
                    found.append(v)
    return found[:limit]


def _data_literals(node, limit=12):
    """str/int items of the module-level containers the body names (a lookup table's keys and
    values: `CSS3_HEX_TO_NAMES` gives '#f0f8ff' and 'aliceblue'), at most `limit` per kind, taken
    evenly from each table in the order the body names them."""
    found = {"str": [], "int": []}
    if node is None:
        return found
    tables, seen = [], set()
    for n in ast.walk(node):
        value = _global_container(n) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load) else None
        if value is not None and id(value) not in seen:
            seen.add(id(value))
            tables.append(value)
    per_table = max(2, limit // max(1, len(tables)))
    for value in tables[:6]:
        for v in _plain_items(value, per_table):
            kind = "str" if type(v) is str else "int" if type(v) is int else None
            if kind and v not in found[kind] and len(found[kind]) < limit:
                found[kind].append(v)
    return found


_RE_CALLS = ("compile", "match", "fullmatch", "search", "findall", "finditer", "split", "sub", "subn")
# a quoted example in prose: ``x``, 'x' or "x", the quote not preceded by a word character (the
# apostrophe in "it's" opens nothing)
_QUOTED = re.compile(r"``([^`\n]{1,40})``" + r"|(?<!\w)'([^'\n\\]{1,40})'(?!\w)" + r'|(?<!\w)"([^"\n\\]{1,40})"(?!\w)')


def _called_names(node, max_depth=3):
    """{name: depth} of the names the target's body uses (depth 0), then those used by the functions
    and methods of its module that it names (`parse` → `VersionInfo.parse` → `_REGEX`), to max_depth;
    and [(depth, pattern text)] of the string patterns passed to `re.*` calls along the way."""
    defs = {}
    for sub in ast.walk(_module_tree() or ast.Module(body=[], type_ignores=[])):
        if isinstance(sub, (ast.FunctionDef, ast.AsyncFunctionDef)):
            defs.setdefault(sub.name, []).append(sub)
    depth_of, literals, frontier, done = {}, [], [node] if node is not None else [], set()
    for depth in range(max_depth + 1):
        following = []
        for fn in frontier:
            if id(fn) in done:
                continue
            done.add(id(fn))
            for sub in ast.walk(fn):
                name = sub.id if isinstance(sub, ast.Name) else (sub.attr if isinstance(sub, ast.Attribute) else None)
                if name is not None and name not in depth_of:
                    depth_of[name] = depth
                    following.extend(defs.get(name, []))
                if (isinstance(sub, ast.Call) and isinstance(sub.func, ast.Attribute) and sub.func.attr in _RE_CALLS
                        and isinstance(sub.func.value, ast.Name) and sub.func.value.id in ("re", "regex") and sub.args and isinstance(sub.args[0], ast.Constant) and type(sub.args[0].value) in (str, bytes)):
                    literals.append((depth, sub.args[0].value))
        frontier = following
    return depth_of, literals


def _target_patterns(node, limit=12):
    """Compiled regexes the target may validate its input with, nearest first: patterns written in
    its body (`re.match(r'...', s)`) or held by module globals and class attributes it names
    (`VersionInfo._REGEX`), then those the module functions it calls use (to depth 3), then the
    module's other patterns, then those of the package's other imported modules."""
    import types as _types

    module = STATE["module"]
    named, written = _called_names(node)
    found = []
    for depth, text in written:
        try:
            found.append((depth, re.compile(text)))
        except (re.error, TypeError, ValueError, OverflowError, RecursionError):
            pass

    def scan(namespace, rank_other, depth):
        for name, value in list(namespace.items()):
            if isinstance(value, re.Pattern):
                found.append((named.get(name, rank_other), value))
            elif depth and isinstance(value, type) and getattr(value, "__module__", None) == module.__name__:
                scan(dict(vars(value)), rank_other + 1, depth - 1)

    scan(dict(vars(module)), 10, 1)
    package = (getattr(module, "__package__", None) or "").split(".")[0]
    if package:
        for _name, mod in sorted(((k, v) for k, v in list(sys.modules.items()) if k == package or k.startswith(package + ".")), key=lambda kv: kv[0]):
            if mod is not module and isinstance(mod, _types.ModuleType):
                scan(dict(vars(mod)), 12, 0)
    found.sort(key=lambda pair: pair[0])  # stable: source order within a rank
    out, keys = [], set()
    for rank, pattern in found:
        key = (type(pattern.pattern).__name__, pattern.pattern, pattern.flags)
        if key not in keys:
            keys.add(key)
            out.append((rank, pattern))
    return out[:limit]


def _regex_strings(node, per_pattern=6, limit=24):
    """Strings that match the target's regexes (regex_strings.py): three of the nearest pattern's
    first, then round-robin over all the patterns, nearest first; str only. Also whether the nearest
    pattern is one the target or a function it calls uses (`near`)."""
    groups = []
    patterns = _target_patterns(node)
    near = bool(patterns) and patterns[0][0] < 10
    for k, (_rank, pattern) in enumerate(patterns):
        if isinstance(pattern.pattern, bytes):
            continue
        try:
            made = _with_alarm(0.5, lambda: regex_strings.strings_for(pattern, seed=k, limit=per_pattern))
        except (_Alarm, Exception):  # noqa: BLE001
            continue
        groups.append([s for s in made if isinstance(s, str) and len(s) <= 64])
    out = list(groups[0][:3]) if groups else []
    for group in itertools.zip_longest(*groups):
        for s in group:
            if s is not None and s not in out:
                out.append(s)
    return out[:limit], near and bool(out)


def _doc_strings(limit=16):
    """Quoted literals in the target's docstring, its class's and its module's (and the package's):
    the example values prose and doctests show (`'1.2.3'`, `"#fff"`, ``` ``aliceblue`` ```)."""
    module = STATE["module"]
    docs = [getattr(STATE["raw"], "__doc__", None)]
    if STATE.get("klass") is not None or STATE["owner"] is not module:
        docs.append(getattr(STATE["owner"], "__doc__", None))
    docs.append(getattr(module, "__doc__", None))
    package = getattr(module, "__package__", None)
    if package and package != module.__name__ and package in sys.modules:
        docs.append(getattr(sys.modules[package], "__doc__", None))
    out = []
    for doc in docs:
        if not isinstance(doc, str):
            continue
        for match in _QUOTED.finditer(doc[:20000]):
            text = next(g for g in match.groups() if g is not None)
            if text.strip() and text not in out:
                out.append(text)
    return out[:limit]


def _args_after(args):
    """The arguments after the call, encoded; None (not judged) when one is a callable, an
    iterator or a slice that has no tagged form (a generated `lambda`/`len`/`iter([...])`/`slice(...)`
    input): the subject could not read them back either (and a slice cannot change). Raises codec.EncodeError for any other value that cannot be
    encoded."""
    after = []
    for a in args:
        try:
            after.append(codec.encode(a))
        except codec.EncodeError:
            if callable(a) or isinstance(a, (collections.abc.Iterator, slice)) or _holds_callable(a):
                return None
            raise
    return after


def _holds_callable(value):
    """A tuple holding a callable (a signature spec `(1, lambda x: x, (), sig)` taken from module
    data): no tagged form, and a tuple cannot change."""
    return type(value) is tuple and any(callable(x) or _holds_callable(x) for x in value)


def _def_node(raw, qualname):
    tree = _module_tree()
    return mutants_mod.find_function(tree, qualname) if tree is not None else None


def _describe_callable(fn, skip_self):
    try:
        sig = inspect.signature(fn)
    except (TypeError, ValueError):
        return None
    try:
        hints = typing.get_type_hints(fn)
    except Exception:  # noqa: BLE001 - unresolvable forward references
        hints = {}
    params = []
    for i, p in enumerate(sig.parameters.values()):
        if skip_self and i == 0:
            continue
        default = None
        if p.default is not inspect.Parameter.empty:
            try:
                default = values.to_input(p.default)
            except values.NotAnInput:
                default = {"t": "unavailable"}
        try:
            hint = _hint(hints.get(p.name, inspect.Parameter.empty))
        except Exception:  # noqa: BLE001
            hint = {"kind": "any"}
        params.append({"name": p.name, "kind": p.kind.name, "default": default, "hint": hint})
    return params


_CONSTRUCT_CACHE = {}


def _construct(klass):
    """Instances of a codebase class built with its own constructor from small generated values,
    kept only when their repr evaluates back to an equal value (as `repr` inputs)."""
    key = id(klass)
    if key in _CONSTRUCT_CACHE:
        return _CONSTRUCT_CACHE[key]
    _CONSTRUCT_CACHE[key] = []
    params = _describe_callable(klass.__init__, True) if "__init__" in vars(klass) or hasattr(klass, "__dataclass_fields__") else []
    out = []
    if params is None:
        return out
    pools = []
    for p in params:
        if p["kind"] in ("VAR_POSITIONAL", "VAR_KEYWORD"):
            continue
        pool = _simple_pool(p["hint"])
        if not pool and p["hint"].get("kind", "any") == "any" and p["default"] is None:
            pool = _simple_pool({"kind": _NAMED_SIMPLE.get(p["name"].lower().lstrip("_"), "int")})
        if not pool:
            if p["default"] is None:
                return out
            continue
        pools.append((p, pool))
    combos = [[pool[0] for _, pool in pools]]
    for i, (_, pool) in enumerate(pools):
        for v in pool[1:]:
            combo = [pool0[0] for _, pool0 in pools]
            combo[i] = v
            combos.append(combo)
    seen = set()
    for combo in combos[:12]:
        try:
            obj = _with_alarm(1.0, lambda: klass(*combo))
            tagged = values.repr_input(obj)
        except (values.NotAnInput, BaseException):  # noqa: BLE001 - constructors may reject
            continue
        c = codec.canonical(tagged)
        if c not in seen:
            seen.add(c)
            out.append(tagged)
    _CONSTRUCT_CACHE[key] = out
    return out


# A required parameter with no hint (`VersionInfo(major, minor=0)`): small ints, or strings for
# these names; constructors that reject them are skipped.
_NAMED_SIMPLE = {"name": "str", "s": "str", "string": "str", "text": "str", "label": "str", "key": "str",
                 "prefix": "str", "suffix": "str", "value": "int", "x": "float", "y": "float"}


def _simple_pool(hint):
    kind = hint["kind"]
    return {"int": [0, 1, 2, -1, 5], "float": [0.0, 1.5, -2.0], "str": ["a", "", "abc"], "bool": [False, True],
            "bytes": [b"", b"ab"], "none": [None]}.get(kind, [])


def op_describe(req):
    # In a child: constructors of the codebase run here and must not touch the post-import state.
    return _in_child(_describe, req.get("timeoutMs", 20000))


def _attributes_read(node, name, limit=8):
    """The attributes the function body reads from parameter `name` as plain values (`args.version`),
    sorted; [] when there are none, more than `limit`, or when the body calls a method on it
    (`other.to_tuple()`): then it is an object, not a bag of options."""
    if node is None:
        return []
    called = {id(n.func) for n in ast.walk(node) if isinstance(n, ast.Call)}
    found = set()
    for n in ast.walk(node):
        if isinstance(n, ast.Attribute) and isinstance(n.ctx, ast.Load) and isinstance(n.value, ast.Name) and n.value.id == name:
            if id(n) in called:
                return []  # `other.to_tuple()`: an object with behaviour, not a bag of options
            if not n.attr.startswith("__"):
                found.add(n.attr)
    return sorted(found) if len(found) <= limit else []


_FILE_WRITES = {"write", "writelines", "flush"}
_FILE_READS = {"read", "readline", "readlines", "seek"}


def _file_use(node, name):
    """'write' when the function body writes to parameter `name` as to a file (`fp.write(chunk)`, a
    `hasattr(fp, 'write')` check), 'read' when it reads from it so (`f.read()`), else None."""
    if node is None:
        return None
    found = set()
    for n in ast.walk(node):
        if isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute) and isinstance(n.func.value, ast.Name) and n.func.value.id == name:
            found.add(n.func.attr)
        elif (isinstance(n, ast.Call) and isinstance(n.func, ast.Name) and n.func.id == "hasattr" and len(n.args) == 2
              and isinstance(n.args[0], ast.Name) and n.args[0].id == name and isinstance(n.args[1], ast.Constant)):
            found.add(n.args[1].value)
    if found & _FILE_WRITES:
        return "write"
    if found & _FILE_READS:
        return "read"
    return None


def _keys_read(node, name, limit=6):
    """The keys the function body reads from its **kwargs parameter `name` by literal
    (`kwargs.get('key')`, `kwargs.pop('default', None)`, `kwargs['key']`, `'key' in kwargs`), sorted;
    [] when there are none or more than `limit`."""
    if node is None:
        return []
    found = set()
    for n in ast.walk(node):
        if (isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute) and n.func.attr in ("get", "pop", "setdefault")
                and isinstance(n.func.value, ast.Name) and n.func.value.id == name and n.args
                and isinstance(n.args[0], ast.Constant) and isinstance(n.args[0].value, str)):
            found.add(n.args[0].value)
        elif (isinstance(n, ast.Subscript) and isinstance(n.value, ast.Name) and n.value.id == name
              and isinstance(n.slice, ast.Constant) and isinstance(n.slice.value, str)):
            found.add(n.slice.value)
        elif (isinstance(n, ast.Compare) and len(n.ops) == 1 and isinstance(n.ops[0], (ast.In, ast.NotIn))
              and isinstance(n.left, ast.Constant) and isinstance(n.left.value, str)
              and isinstance(n.comparators[0], ast.Name) and n.comparators[0].id == name):
            found.add(n.left.value)
    found = {k for k in found if k.isidentifier()}
    return sorted(found) if len(found) <= limit else []


def _param_use(node, name):
    """How the body uses parameter `name` when its hint says nothing: "caught" (`except name:`, an
    exception class) or the number of positional arguments it is called with (`name()`, `name(x)`,
    the fewest when called several ways), else None."""
    if node is None:
        return None
    arities = []
    for n in ast.walk(node):
        if isinstance(n, ast.ExceptHandler) and n.type is not None:
            caught = n.type.elts if isinstance(n.type, ast.Tuple) else [n.type]
            if any(isinstance(c, ast.Name) and c.id == name for c in caught):
                return "caught"
        elif (isinstance(n, ast.Call) and isinstance(n.func, ast.Name) and n.func.id == name
              and not any(isinstance(a, ast.Starred) for a in n.args) and not n.keywords):
            arities.append(len(n.args))
    return min(arities) if arities else None


def _isinstance_classes(node, name):
    """The codebase classes the body checks parameter `name` against (`isinstance(ver, VersionInfo)`,
    tuples of classes included; builtins left out), or None when it makes no isinstance check on it."""
    if node is None:
        return None
    namespace = vars(STATE["module"])
    found, checked = [], False
    for n in ast.walk(node):
        if (isinstance(n, ast.Call) and isinstance(n.func, ast.Name) and n.func.id == "isinstance" and len(n.args) == 2
                and isinstance(n.args[0], ast.Name) and n.args[0].id == name):
            checked = True
            kinds = n.args[1].elts if isinstance(n.args[1], ast.Tuple) else [n.args[1]]
            for k in kinds:
                klass = namespace.get(k.id) if isinstance(k, ast.Name) else None
                if inspect.isclass(klass) and getattr(klass, "__module__", "builtins") != "builtins" and klass not in found:
                    found.append(klass)
    return found if checked else None


def _in_genexpr(call):
    """call(), raising as it would inside the generator expression the task judges it in: a
    StopIteration becomes the RuntimeError PEP 479 makes of it."""
    try:
        return call()
    except StopIteration as exc:
        raise RuntimeError("generator raised StopIteration") from exc


_MUTATING_METHODS = {"append", "extend", "insert", "pop", "remove", "clear", "update", "add", "discard", "setdefault",
                     "popitem", "sort", "reverse", "appendleft", "popleft", "extendleft", "rotate"}


def _mutates_self(node):
    """Whether a method's body changes its instance: assigns or deletes an attribute of its first
    parameter or an item of one (`self.balance = ...`, `self.table[k] = v`), or calls a mutating
    method of a list, dict, set or deque the instance holds (`self.items.append(x)`)."""
    if node is None or not node.args.args:
        return False
    me = node.args.args[0].arg

    def held(expr):  # self.x, or self.x[...] / self.x.y
        while isinstance(expr, (ast.Attribute, ast.Subscript)):
            if isinstance(expr, ast.Attribute) and isinstance(expr.value, ast.Name) and expr.value.id == me:
                return True
            expr = expr.value
        return False

    for n in ast.walk(node):
        targets = n.targets if isinstance(n, (ast.Assign, ast.Delete)) else [n.target] if isinstance(n, (ast.AugAssign, ast.AnnAssign)) else []
        if any(held(t) for t in targets):
            return True
        if isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute) and n.func.attr in _MUTATING_METHODS and held(n.func.value):
            return True
    return False


def _warmers(klass, target_name, limit=3):
    """Public methods of `klass` (its own, not inherited) callable with no arguments (`peek`,
    `elements`), the target and properties left out: called before the target, they leave the
    instance in states a fresh one is never in (a peeked item cached, an index set)."""
    out = []
    for name, attr in vars(klass).items():
        if name.startswith("_") or name == target_name or not inspect.isfunction(attr):
            continue
        if inspect.isgeneratorfunction(attr):
            continue
        try:
            params = list(inspect.signature(attr).parameters.values())[1:]
        except (TypeError, ValueError):
            continue
        if all(p.default is not p.empty or p.kind in (p.VAR_POSITIONAL, p.VAR_KEYWORD) for p in params):
            out.append(name)
    return out[:limit]


def _checks_tuple(node):
    """Whether the body (nested functions included) checks a value for being a tuple."""
    for n in ast.walk(node) if node is not None else ():
        if (isinstance(n, ast.Call) and isinstance(n.func, ast.Name) and n.func.id == "isinstance" and len(n.args) == 2
                and isinstance(n.args[1], ast.Name) and n.args[1].id == "tuple"):
            return True
    return False


def _doc_keys(raw, limit=6):
    """Identifiers the function's own docstring quotes (``major``, 'minor'), in order, at most
    `limit`; [] when there are more (a docstring quoting many names says nothing of the keys)."""
    doc = getattr(raw, "__doc__", None)
    if not isinstance(doc, str):
        return []
    found = []
    for m in _QUOTED.finditer(doc):
        text = next(g for g in m.groups() if g is not None)
        if text.isidentifier() and not keyword.iskeyword(text) and text not in found:
            found.append(text)
    return found if len(found) <= limit else []


def _describe():
    raw = STATE["raw"]
    target = getattr(STATE["owner"], STATE["name"])
    instance_first = STATE["method"] or STATE.get("construct")  # `self` is not an input
    params = _describe_callable(target if not instance_first else raw, instance_first)
    node = _def_node(raw, STATE["qualname"])
    for p in params or []:
        if p["kind"] == "VAR_POSITIONAL" and _checks_tuple(node):
            p["tuples"] = True  # `isinstance(form, tuple)`: its elements may be `(func, *args)` forms
        if p["kind"] == "VAR_KEYWORD":
            # the keys the body reads by literal, else those its own docstring quotes
            # (``major``, ``minor``: `replace(**parts)` passes them on)
            keys = _keys_read(node, p["name"]) or _doc_keys(raw)
            if keys:
                p["keys"] = keys
            continue
        members = _member_values(node, p["name"])
        if members:
            p["members"] = [codec.encode(v) for v in members]
        attrs = _attributes_read(node, p["name"])
        if attrs and p["hint"].get("kind", "any") == "any":
            p["attrs"] = attrs
        if p["hint"].get("kind", "any") != "any":
            continue
        file_use = _file_use(node, p["name"])
        if file_use is not None:
            p["file"] = file_use  # variations.file_pool: in-memory files to write to or read from
        use = _param_use(node, p["name"])
        if use is not None:
            p["use"] = use  # variations.generate: exception classes, or callables of that arity
        checked = _isinstance_classes(node, p["name"])
        if checked is not None:
            # a type-dispatching parameter: instances of the codebase's classes it checks for
            # (built with their own constructors), and values of none of the checked types
            p["instances"] = [x for klass in checked for x in _construct(klass)[:4]][:8]
    answer = {"params": params or [], "literals": _literals(node), "inits": [], "moduleLiterals": _module_literals()}
    # strings the target's regexes accept, and quoted examples in the docstrings (variations.pool_for)
    found = answer["moduleLiterals"]
    found["regexStr"], found["regexNear"], found["docStr"] = [], False, []
    try:
        data = _data_literals(node)
        found["dataStr"], found["dataInt"] = data["str"], data["int"]
    except Exception:  # noqa: BLE001 - never lose the description
        found["dataStr"], found["dataInt"] = [], []
    try:
        found["regexStr"], found["regexNear"] = _regex_strings(node)
    except Exception:  # noqa: BLE001 - repo objects with odd attributes: never lose the description
        pass
    try:
        found["docStr"] = _doc_strings()
    except Exception:  # noqa: BLE001
        pass
    if STATE["method"]:
        klass = STATE["klass"]
        constructor = _constructor_of(klass)
        init_params = _describe_callable(constructor, True) if constructor is not None else []
        answer["initParams"] = init_params or []
        answer["warmers"] = _warmers(klass, STATE["name"])
        answer["mutatesSelf"] = _mutates_self(node)
        answer["initLiterals"] = _literals(_def_node(None, STATE["qualname"].rsplit(".", 1)[0] + ".__init__"))
        strings = list(found.get("regexStr") or []) + list(found.get("docStr") or []) + list(found.get("str") or [])
        try:
            answer["inits"] = _factory_inits(klass, strings)
        except Exception:  # noqa: BLE001 - never lose the description
            answer["inits"] = []
    return answer


def _constructor_of(klass):
    """The `__init__` or `__new__` that takes a class's constructor arguments: the first one a class of
    the library defines along its MRO (a subclass inheriting its base's `__init__`; a namedtuple
    subclass with its own `__new__`, intervaltree's `Interval(begin, end, data=None)`), or None."""
    for base in klass.__mro__:
        if base is object or base.__module__ == "builtins":
            continue
        own = vars(base)
        if "__init__" in own and inspect.isfunction(own["__init__"]):
            return own["__init__"]
        new = own.get("__new__")
        if isinstance(new, staticmethod) and inspect.isfunction(new.__func__):
            return new.__func__
    return None


_FACTORY_NAME = ("parse", "from", "make", "create", "build", "load", "new", "of")


def _factory_inits(klass, strings, limit=8):
    """Init arguments of instances the codebase's own factories build from its strings: the class's
    class/static methods and the module's parse/from/make-style functions that take one argument,
    called with regex matches, docstring examples and module literals (`VersionInfo.parse('1.2.3-rc.1')`).
    An instance counts when its repr is a call of the class with literal arguments and those
    arguments build an equal instance again; the arguments are then a method case's `init`."""
    module = sys.modules.get(klass.__module__)
    factories = [getattr(klass, n) for n, a in vars(klass).items() if isinstance(a, (classmethod, staticmethod))]
    if module is not None:
        for name, obj in sorted(vars(module).items()):
            if inspect.isfunction(obj) and obj.__module__ == module.__name__ and name.lstrip("_").startswith(_FACTORY_NAME):
                factories.append(obj)
    out, seen = [], set()
    for fn in factories[:12]:
        try:
            params = list(inspect.signature(fn).parameters.values())
        except (TypeError, ValueError):
            continue
        required = [p for p in params if p.default is p.empty and p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]
        if len(required) != 1:
            continue
        for text in strings[:24]:
            try:
                obj = _with_alarm(0.5, functools.partial(fn, text))
            except BaseException:  # noqa: BLE001 - factories reject most strings
                continue
            if type(obj) is not klass:
                continue
            init = _init_from_repr(obj, klass)
            if init is None:
                continue
            key = json.dumps(init, sort_keys=True)
            if key not in seen:
                seen.add(key)
                out.append(init)
            if len(out) >= limit:
                return out
    return out


def _init_from_repr(obj, klass):
    try:
        text = repr(obj)
        call = ast.parse(text, mode="eval").body
    except BaseException:  # noqa: BLE001
        return None
    if not isinstance(call, ast.Call) or any(isinstance(a, ast.Starred) for a in call.args) or any(k.arg is None for k in call.keywords):
        return None
    name = call.func.attr if isinstance(call.func, ast.Attribute) else getattr(call.func, "id", None)
    if name != klass.__name__:
        return None
    try:
        args = [ast.literal_eval(a) for a in call.args]
        kwargs = {k.arg: ast.literal_eval(k.value) for k in call.keywords}
        rebuilt = _with_alarm(0.5, functools.partial(klass, *args, **kwargs))
        if not values.equal(obj, rebuilt) and repr(rebuilt) != text:
            return None
        return {"args": [values.to_input(a) for a in args], "kwargs": {k: values.to_input(v) for k, v in kwargs.items()}}
    except BaseException:  # noqa: BLE001 - not literal, or the class rejects its own repr
        return None


# ----------------------------------------------------------------------------- running cases

def _resolve_callable(init):
    if not STATE["method"]:
        return getattr(STATE["owner"], STATE["name"]), None
    return None, STATE["klass"]


def _line_tracer(lines, exits=None):
    """The lines run in the mutation subject's frames (the target, or op_setup's `mutantOf`); with
    `exits`, the line each call of the subject itself (not a function nested in it) left from, a
    return or the line an exception came out of, in order."""
    subject = STATE["subject"]
    filename, first, last = subject["filename"], subject["first"], subject["last"]
    own_first = getattr(getattr(subject.get("raw"), "__code__", None), "co_firstlineno", first)

    def local(frame, event, arg):
        if event == "line":
            lines.add(frame.f_lineno)
        elif event == "return" and exits is not None and frame.f_code.co_firstlineno == own_first:
            exits.append(frame.f_lineno)
        return local

    def global_(frame, event, arg):
        code = frame.f_code
        if code.co_filename == filename and first <= code.co_firstlineno <= last:
            return local
        return None

    return global_


def _is_lazy(value):
    """A result judged on its first items: any iterator (generator objects, map, filter, zip,
    itertools objects, iterator classes), never a str/bytes/list or other plain container."""
    return isinstance(value, collections.abc.Iterator)


def _plain_state_of(obj):
    """What common.stated_case's expression evaluates for an instance after a method call: its state
    (_state_of) without the iterators it holds (a source it reads from, which cannot be encoded) and
    its plain functions (a callback it was given: xmltodict's handler keeps `item_callback`)."""
    return {k: v for k, v in values.attributes_of(obj).items() if not isinstance(v, (collections.abc.Iterator, types.FunctionType))}


def _is_nested_lazy(value):
    """A tuple or list holding iterators (`partition` → two filters, `divide` → n iterators, `spy`
    → (head, iterator)): judged with each iterator element collected, common.collected_case
    "nested"."""
    return type(value) in (tuple, list) and any(isinstance(x, collections.abc.Iterator) for x in value)


def _collect_nested(value):
    """What common.collected_case's "nested" form evaluates: the first GENERATOR_ITEMS elements of
    the result, each iterator among them collected to a list of its first GENERATOR_ITEMS items."""
    return [list(itertools.islice(x, GENERATOR_ITEMS)) if isinstance(x, collections.abc.Iterator) else x
            for x in itertools.islice(value, GENERATOR_ITEMS)]


def run_case(case, trace=False):
    """The outcome of one case: returns / raises / unserialisable / impure / error.

    A (non-generator) call that returns an iterator is judged on its first GENERATOR_ITEMS items
    (`lazy: true` on the outcome), as common.collected_case makes the task judge it. `case["lazy"]`
    fixes the form a recorded case is judged in (mutate.py replays, record.py's second run): True,
    the result is collected whatever it is (list(islice(result, N)), as the collected case does);
    "nested", each iterator element of the result is (_collect_nested); False, nothing is (the plain
    case encodes the result itself); absent, an iterator is collected, and so are the iterator
    elements of a tuple or list (_is_nested_lazy).
    A call that returns a function it cannot encode is `unserialisable` with reason `callable-result`
    and `probes` (argument lists to call it with); a case with `probe` calls the returned function on
    it and gives `[value]`, as common.probed_case makes the task judge it.
    A constructor target (`<Class>.__init__`) builds the class on the case's arguments and gives
    `[<its state>]` (_state_of; `construct: true` on the outcome), as common.constructed_case makes
    the task judge it. A method case with `state` gives `[(<result>, <the instance's state after>)]`
    (_plain_state_of), as common.stated_case makes the task judge it.
    """
    try:
        args = [codec.decode(a) for a in case.get("args", [])]
        kwargs = {k: codec.decode(v) for k, v in (case.get("kwargs") or {}).items()}
        probe = case.get("probe")
        probe_args = None if probe is None else [codec.decode(a) for a in probe]
        init = case.get("init")
        restore = None
        if init is not None:
            init_args = [codec.decode(a) for a in init.get("args", [])]
            init_kwargs = {k: codec.decode(v) for k, v in (init.get("kwargs") or {}).items()}
            if init.get("restore") is not None:
                # the receiver rebuilt from its attributes (common.restored_case), __init__ not called
                restore = {k: codec.decode(v) for k, v in init["restore"]["attrs"].items()}
    except BaseException as exc:  # noqa: BLE001
        return {"kind": "error", "reason": "bad-input", "message": _short_error(exc)}
    if STATE["method"] and init is None:
        return {"kind": "error", "reason": "no-init", "message": "a method case needs init"}
    lines, exits = set(), []
    _FLAGS.clear()
    result = exc = instance = None
    raised = lazy = False
    _ACTIVE[0] = True
    try:
        if trace:
            sys.settrace(_line_tracer(lines, exits))
        if STATE["method"]:
            try:
                if restore is not None:
                    instance = values.rebuild(values.receiver_class(STATE["klass"], init["restore"]["type"], STATE["name"]), restore)
                else:
                    instance = STATE["klass"](*init_args, **init_kwargs)
            except BaseException as e:  # noqa: BLE001
                sys.settrace(None)
                _ACTIVE[0] = False
                return {"kind": "error", "reason": "init-raises", "message": _type_name(type(e))}
            if case.get("warm"):
                # another method called first (`peek()` before `__next__`), as common.warmed_case judges it
                try:
                    getattr(instance, case["warm"])()
                except BaseException as e:  # noqa: BLE001
                    sys.settrace(None)
                    _ACTIVE[0] = False
                    return {"kind": "error", "reason": "warm-raises", "message": _type_name(type(e))}
            fn = None if STATE.get("property") else getattr(instance, STATE["name"])
        else:
            fn = getattr(STATE["owner"], STATE["name"])
        if STATE.get("generator"):
            try:
                result = fn(*args, **kwargs)
            except BaseException as e:  # noqa: BLE001
                # Raised before the first item (bad arguments): the task builds the generator while it
                # decodes the inputs, so this is not an outcome a case can judge.
                sys.settrace(None)
                _ACTIVE[0] = False
                return {"kind": "error", "reason": "bad-input", "message": _type_name(type(e))}
            result = list(itertools.islice(result, GENERATOR_ITEMS))
        elif STATE.get("property"):
            # the attribute of the built instance, as common.attribute_case judges it: [value]
            result = [_in_genexpr(lambda: getattr(instance, STATE["name"]))]
        elif STATE.get("construct"):
            # the state the constructor leaves, as common.constructed_case judges it
            result = [_in_genexpr(lambda: values.attributes_of(STATE["klass"](*args, **kwargs)))]
        elif probe_args is not None:
            # the returned function called on the probe: judged as list(<call>(<probe>) for _ in (0,))
            result = [_in_genexpr(lambda: fn(*args, **kwargs)(*probe_args))]
        elif case.get("state") and STATE["method"]:
            # the result and the state the call leaves, as common.stated_case judges it
            value = _in_genexpr(lambda: fn(*args, **kwargs))
            result = [(value, _plain_state_of(instance))]
        elif case.get("warm") and STATE["method"]:
            result = [_in_genexpr(lambda: fn(*args, **kwargs))]
        else:
            result = _in_genexpr(lambda: fn(*args, **kwargs)) if restore is not None else fn(*args, **kwargs)
            form = case.get("lazy")
            if form == "nested" or (form is None and _is_nested_lazy(result)):
                lazy = "nested"
                result = _collect_nested(result)
            elif form or (form is None and _is_lazy(result)):
                # from here on an exception is raised while iterating: the case's `raises`
                lazy = True
                result = list(itertools.islice(result, GENERATOR_ITEMS))
            elif restore is not None:
                # on a receiver rebuilt from its attributes, as common.restored_case judges it
                result = [result]
    except BaseException as e:  # noqa: BLE001 - the exact type is the answer
        raised, exc = True, e
    finally:
        sys.settrace(None)
        _ACTIVE[0] = False
    if _FLAGS:
        return {"kind": "impure", "reason": "impure:" + sorted(_FLAGS)[0]}
    if raised and isinstance(exc, MemoryError):
        return {"kind": "error", "reason": "memory", "message": "MemoryError"}
    out = {"lines": sorted(lines)} if trace else {}
    if trace and exits:
        # the line the call of the target left from: with the outcome, the case's behaviour class
        out["exit"] = exits[-1]
    try:
        after = _args_after(args)
    except BaseException:  # noqa: BLE001
        return {"kind": "unserialisable", "reason": "unserialisable", **out}
    out["argsAfter"] = after
    if lazy:
        out["lazy"] = lazy
    if STATE.get("construct"):
        out["construct"] = True
    if case.get("state") and STATE["method"]:
        out["state"] = True
    if case.get("warm") and STATE["method"]:
        out["warm"] = case["warm"]
    if STATE.get("property"):
        out["attribute"] = True
    if instance is not None and not raised and (result is instance or (type(result) is list and len(result) == 1 and result[0] is instance)):
        out["returnsSelf"] = True  # a fluent method: its result already shows the state it leaves
    if raised:
        out.update(kind="raises", type=_type_name(type(exc)))
        if _raised_by_repository(exc):
            out["raisedBy"] = "repository"
        elif _documented(type(exc)):
            out["documented"] = True
        # the type the REPL shows (a case that asserts only that the call raises keeps it for its example)
        out["shown"] = [out["type"]]
        return out
    try:
        out.update(kind="returns", value=codec.encode(result))
    except BaseException:  # noqa: BLE001
        kept = {k: v for k, v in out.items() if k == "lines"}
        if callable(result) and probe_args is None and not lazy:
            # a function: the task can judge what it returns when called (common.probed_case)
            return {"kind": "unserialisable", "reason": "callable-result", "probes": _probes_for(result), **kept}
        return {"kind": "unserialisable", "reason": "unserialisable", **kept}
    single = bool(STATE.get("property") or STATE.get("construct") or probe_args is not None
                  or (STATE["method"] and case.get("warm")) or (restore is not None and not lazy))
    shown = _shown_outputs(result, single, instance if case.get("state") and STATE["method"] else None)
    if shown is not None:
        out["shown"] = shown
    return out


_RAISE_LINES = {}


def _raise_lines(filename):
    """The lines of a file's `raise` and `assert` statements (each statement's whole span)."""
    lines = _RAISE_LINES.get(filename)
    if lines is None:
        lines = set()
        try:
            with open(filename, "rb") as handle:
                tree = ast.parse(handle.read())
            for node in ast.walk(tree):
                if isinstance(node, (ast.Raise, ast.Assert)):
                    lines.update(range(node.lineno, (node.end_lineno or node.lineno) + 1))
        except (OSError, SyntaxError, ValueError, RecursionError):
            pass
        _RAISE_LINES[filename] = lines
    return lines


def _raised_by_repository(exc):
    """Whether the repository's own code raised `exc`: the innermost frame of its traceback in a
    file under the repository's folders is at a `raise` (a re-raise too) or `assert` statement.
    False for an exception that came out of a call from there (`None.lower()`, `int('x')`,
    `d[key]`): the library never chose to raise it (issue 19: only promised assertions)."""
    roots = STATE.get("roots") or ()
    where = None
    tb = exc.__traceback__
    while tb is not None:
        filename = os.path.realpath(tb.tb_frame.f_code.co_filename)
        if filename.startswith(roots):
            where = (filename, tb.tb_lineno)
        tb = tb.tb_next
    return where is not None and where[1] in _raise_lines(where[0])


def _documented(exc_type):
    """Whether the docstring of the function the cases call, or of its class, names the type."""
    name = getattr(exc_type, "__name__", "")
    docs = [getattr(STATE.get("raw"), "__doc__", None), getattr(STATE.get("klass"), "__doc__", None)]
    pattern = re.compile(r"(?<![\w.])%s\b" % re.escape(name)) if name else None
    return pattern is not None and any(isinstance(d, str) and pattern.search(d) for d in docs)


SHOWN_LIMIT = 300
_ADDRESS = re.compile(r" at 0x[0-9a-fA-F]+")


def _shown(value):
    """`repr(value)` as the REPL prints it, an object's address as `0x...` (doctest's ELLIPSIS
    matches it); None when repr fails or is longer than SHOWN_LIMIT."""
    try:
        text = repr(value)
    except BaseException:  # noqa: BLE001
        return None
    if not isinstance(text, str) or len(text) > SHOWN_LIMIT:
        return None
    return _ADDRESS.sub(" at 0x...", text)


def _shown_outputs(result, single, stated):
    """What the REPL prints for the calls a prompt's example shows of this case (render-prompt.ts):
    the result's repr; for a form judged as `[value]` (a property, a constructor's state, a probed
    function, a warmed or restored receiver) the value's; for a stated case (`stated`: its
    instance) the call's result and then `vars()` of the instance, as the example's `vars(_o)`
    prints it (the judged state leaves iterators and functions out). None when one of them has no
    short repr."""
    if stated is not None or single:
        if type(result) is not list or len(result) != 1:
            return None
        result = result[0]
    if stated is not None:
        if type(result) is not tuple or len(result) != 2 or not hasattr(stated, "__dict__"):
            return None
        shown = [_shown(result[0]), _shown(vars(stated))]
    else:
        shown = [_shown(result)]
    return None if any(s is None for s in shown) else shown


def _probes_for(fn):
    """Argument lists (tagged) to call a returned function with, by its signature's positional
    parameters: a few ints, a string, a list and a dict for one; pairs for two; a few for more or
    for *args. A signature that cannot be read counts as one parameter."""
    required, variadic = 1, False
    try:
        params = inspect.signature(fn).parameters.values()
        positional = [p for p in params if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]
        required = sum(1 for p in positional if p.default is p.empty)
        variadic = any(p.kind == p.VAR_POSITIONAL for p in params)
    except (TypeError, ValueError):
        pass
    ones = [[0], [1], [3], [-2], ["abc"], [[1, 2, 3]], [{"a": 1}]]
    pairs = [[1, 2], [3, 4], [0, 5], ["a", "b"], [[1], [2]]]
    if required == 0:
        chosen = [[]] + (ones[:4] + pairs[:2] if variadic else [])
    elif required == 1:
        chosen = ones + (pairs[:2] if variadic else [])
    elif required == 2:
        chosen = pairs
    else:
        chosen = [list(range(1, required + 1)), [0] * required, list(range(required, 0, -1))]
    return [[codec.encode(v) for v in probe] for probe in chosen]


def _apply_mutant(index):
    subject = STATE["subject"]
    fn = _subject_node()
    clone = mutants_mod.apply_mutant(fn, index)
    module = mutants_mod.wrap_for_compile(clone, subject["qualname"])
    code = compile(module, subject["filename"], "exec", dont_inherit=True)
    found = mutants_mod.find_code(code, subject["raw"].__code__.co_qualname)
    if found is None:
        raise RuntimeError("mutated code object not found")
    subject["raw"].__code__ = found  # ValueError when free variables differ


def _points_before_fork(mutant):
    """The subject's mutation points found here, in the worker, where the cache outlives the fork:
    each mutant's child then only copies and compiles (mutants.cached_points)."""
    if mutant is None:
        return
    fn = _subject_node()
    if fn is not None:
        mutants_mod.cached_points(fn)


def _subject_node():
    """The def node of the mutation subject (the target, or op_setup's `mutantOf`), or None."""
    subject = STATE["subject"]
    tree = _module_tree(subject["filename"])
    return mutants_mod.find_function(tree, subject["qualname"]) if tree is not None else None


def _in_child(work, timeout_ms):
    """Runs work() in a forked child with a wall-clock limit; returns its JSON answer."""
    r, w = os.pipe()
    pid = os.fork()
    if pid == 0:  # child
        os.close(r)
        try:
            os.setpgid(0, 0)
        except OSError:
            pass
        try:
            import resource

            resource.setrlimit(resource.RLIMIT_AS, (STATE.get("memoryBytes", 2 << 30),) * 2)
        except (ImportError, ValueError, OSError):
            pass
        sink = CappedSink()
        sys.stdout = sys.stderr = sink
        try:
            answer = work()
        except BaseException as exc:  # noqa: BLE001
            answer = {"kind": "error", "reason": "harness", "message": _short_error(exc)}
        try:
            data = json.dumps(answer, separators=(",", ":")).encode()
        except BaseException as exc:  # noqa: BLE001
            data = json.dumps({"kind": "error", "reason": "harness", "message": _short_error(exc)}).encode()
        if len(data) > MAX_ANSWER_BYTES:
            data = json.dumps({"kind": "unserialisable", "reason": "too-large"}).encode()
        view = memoryview(data)
        while view:
            n = os.write(w, view)
            view = view[n:]
        os._exit(0)
    os.close(w)
    chunks = []
    size = 0
    deadline = _now() + timeout_ms / 1000.0
    timed_out = False
    while True:
        left = deadline - _now()
        if left <= 0:
            timed_out = True
            break
        ready, _, _ = select.select([r], [], [], left)
        if not ready:
            continue
        chunk = os.read(r, 1 << 16)
        if not chunk:
            break
        size += len(chunk)
        chunks.append(chunk)
    os.close(r)
    if timed_out:
        for target in (-pid, pid):
            try:
                os.kill(target, signal.SIGKILL)
            except OSError:
                pass
    try:
        os.waitpid(pid, 0)
    except ChildProcessError:
        pass
    if timed_out:
        return {"kind": "timeout", "reason": "timeout"}
    try:
        return json.loads(b"".join(chunks).decode())
    except ValueError:
        return {"kind": "crash", "reason": "crash"}


def _now():
    import time

    return time.monotonic()


def op_run(req):
    case, trace, mutant = req["case"], req.get("trace", False), req.get("mutant")

    def work():
        if mutant is not None:
            _apply_mutant(mutant)
        return _run_limited(case, trace, None)

    _points_before_fork(mutant)
    return _in_child(work, req.get("timeoutMs", 2000))


class CaseTimeout(BaseException):
    """Raised in the child by SIGALRM when one case of a batch runs past its own limit."""


def _on_alarm(_signum, _frame):
    raise CaseTimeout()


def _run_limited(case, trace, limit_ms):
    """run_case with a wall-clock limit of its own (None: only the batch's), and the time it took as
    `ms`. A case past its limit is `timeout`; the alarm repeats every 50 ms, so code that catches the
    first one is stopped by the next (the batch's limit stays the last resort)."""
    started = _now()
    if limit_ms is not None:
        signal.signal(signal.SIGALRM, _on_alarm)
        signal.setitimer(signal.ITIMER_REAL, max(limit_ms, 1) / 1000.0, 0.05)
    try:
        outcome = run_case(case, trace)
        if any(str(outcome.get(k, "")).endswith("CaseTimeout") for k in ("type", "message")):
            outcome = {"kind": "timeout", "reason": "timeout"}  # caught by run_case as the call's exception
    except CaseTimeout:
        outcome = {"kind": "timeout", "reason": "timeout"}
    finally:
        if limit_ms is not None:
            signal.setitimer(signal.ITIMER_REAL, 0, 0)
    outcome["ms"] = round((_now() - started) * 1000, 3)
    return outcome


def op_batch(req):
    """Runs `cases` in one child. `caseTimeoutMs` (one per case) limits each case on its own; with
    `expected` (each case's canonical verdict, `withArgsAfter` saying which judge the arguments after
    the call), the batch stops at the first case that differs from it: a mutant is killed by one;
    with `stopOnTimeout`, it stops after a case cut at its limit."""
    cases, trace, mutant = req["cases"], req.get("trace", False), req.get("mutant")
    limits = req.get("caseTimeoutMs") or [None] * len(cases)
    expected = req.get("expected")
    with_aa = req.get("withArgsAfter") or [False] * len(cases)
    stop_on_timeout = bool(req.get("stopOnTimeout"))

    def work():
        if mutant is not None:
            try:
                _apply_mutant(mutant)
            except BaseException as exc:  # noqa: BLE001
                return {"kind": "error", "reason": "not-applicable", "message": _short_error(exc)}
        outcomes = []
        for k, case in enumerate(cases):
            outcome = _run_limited(case, trace, limits[k])
            outcomes.append(outcome)
            if expected is not None and common.judged_verdict(outcome, with_aa[k], expected[k]) != expected[k]:
                break
            if stop_on_timeout and outcome.get("kind") == "timeout":
                break  # interrupted mid-call: what the child holds now is not what a fresh call would find
        return {"kind": "batch", "outcomes": outcomes}

    _points_before_fork(mutant)
    return _in_child(work, req.get("timeoutMs", 10000))


def op_mutants(req):
    fn = _subject_node()
    if fn is None:
        return {"mutants": [], "error": "source of the function not found"}
    listing = mutants_mod.enumerate_mutants(fn)
    # Lines where reaching the line does not mean every part of it ran (conditional expressions,
    # and/or, comprehensions, lambdas): line coverage is no evidence there (mutate.py, equivalence).
    partial = set()
    for node in ast.walk(fn):
        if isinstance(node, (ast.IfExp, ast.BoolOp, ast.ListComp, ast.SetComp, ast.DictComp, ast.GeneratorExp, ast.Lambda)):
            partial.update(range(node.lineno, (getattr(node, "end_lineno", None) or node.lineno) + 1))
    dead = _dead_branch_lines(fn)
    for m in listing:
        m["partialLine"] = m.get("line") in partial
        if dead and all(line in dead for line in range(m["reach"][0], m["reach"][1] + 1)):
            m["dead"] = True
    return {"mutants": listing}


# Node types an interpreter-level condition may hold: names, attributes, constants, comparisons and
# boolean logic, `sys.version_info[0]`; never a call (evaluating the test must run nothing).
_STATIC_TEST_NODES = (ast.Name, ast.Attribute, ast.Constant, ast.Compare, ast.BoolOp, ast.UnaryOp, ast.Tuple,
                      ast.Subscript, ast.Load, ast.boolop, ast.cmpop, ast.unaryop, ast.Slice)


def _dead_branch_lines(fn):
    """Lines of `fn` no input can run in this interpreter: the branch an `if` never takes because its
    test reads only module-level names (`if PY2:`, `if sys.version_info < (3,):`, `if six.PY3:`), the
    same for every call. A mutant there behaves as the original on every input (mutate.py leaves it
    out of the score): junit-xml's `decode` is mostly a Python 2 branch."""
    local = {a.arg for a in ast.walk(fn.args) if isinstance(a, ast.arg)}
    local.update(n.id for n in ast.walk(fn) if isinstance(n, ast.Name) and isinstance(n.ctx, (ast.Store, ast.Del)))
    namespace = vars(STATE["subject"]["module"])
    dead = set()
    for node in ast.walk(fn):
        if not isinstance(node, ast.If) or not all(isinstance(n, _STATIC_TEST_NODES) for n in ast.walk(node.test)):
            continue
        names = [n.id for n in ast.walk(node.test) if isinstance(n, ast.Name)]
        if not names or any(name in local or (name not in namespace and not hasattr(builtins, name)) for name in names):
            continue
        try:
            taken = bool(eval(compile(ast.Expression(node.test), "<test>", "eval"), dict(namespace)))  # noqa: S307 - no calls
        except Exception:  # noqa: BLE001 - a test that needs more than module-level names
            continue
        branch = node.orelse if taken else node.body
        for stmt in branch:
            dead.update(range(stmt.lineno, (stmt.end_lineno or stmt.lineno) + 1))
    return dead


OPS = {"setup": op_setup, "describe": op_describe, "run": op_run, "batch": op_batch, "mutants": op_mutants}


def main():
    request_fd, result_fd = int(sys.argv[1]), int(sys.argv[2])
    devnull = os.open(os.devnull, os.O_RDWR)
    os.dup2(devnull, 1)
    os.dup2(devnull, 2)
    sys.stdout = sys.stderr = CappedSink()
    install_guards()
    reader = os.fdopen(request_fd, "rb")
    while True:
        line = reader.readline()
        if not line:
            os._exit(0)
        req = json.loads(line)
        if req.get("op") == "quit":
            os._exit(0)
        if "memoryBytes" in req:
            STATE["memoryBytes"] = req["memoryBytes"]
        try:
            answer = OPS[req["op"]](req)
        except BaseException as exc:  # noqa: BLE001
            answer = {"ok": False, "kind": "error", "reason": "harness", "error": _short_error(exc)}
        data = (json.dumps(answer, separators=(",", ":")) + "\n").encode()
        view = memoryview(data)
        while view:
            n = os.write(result_fd, view)
            view = view[n:]


if __name__ == "__main__":
    main()
