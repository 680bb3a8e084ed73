"""Tagged, exact-type serialisation of Python values (see docs/task-format.md, "Tagged values").

Shared by the recorder, the judge and the subject. Comparison of two encoded values is plain
equality of their canonical JSON: no __eq__ of any object is ever called.
"""
import base64
import enum
import importlib
import io
import json
import math
import re
import sys
import types

MAX_DEPTH = 64


class EncodeError(Exception):
    """The value cannot be serialised exactly (e.g. a function, a generator, a cycle)."""


def _float_repr(x):
    if math.isnan(x):
        return "nan"
    return repr(x)


def encode(value, _depth=0, _seen=()):
    """`_seen`: the ids of the values being encoded above this one, outermost first. A value that is
    one of them (a cycle: a linked list's `prev`, a node's `parent`) is encoded as
    `{"t": "back", "v": n}`, n the distance up that stack, so two structures with the same shape of
    cycles encode alike."""
    if _depth > MAX_DEPTH:
        raise EncodeError("value nested too deeply")
    t = type(value)
    if value is None:
        return {"t": "none", "v": None}
    if t is bool:
        return {"t": "bool", "v": value}
    if t is int:
        return {"t": "int", "v": str(value)}
    if t is float:
        return {"t": "float", "v": _float_repr(value)}
    if t is str:
        return {"t": "str", "v": value}
    if t is bytes:
        return {"t": "bytes", "v": base64.b64encode(value).decode("ascii")}
    if value is NotImplemented or value is Ellipsis:
        # what a comparison method returns for an operand it does not handle (`URL() == 1` asks
        # `URL.__eq__(1)` first): a result a test writes by its name
        return {"t": "repr", "v": repr(value), "imports": []}
    if id(value) in _seen:
        return {"t": "back", "v": len(_seen) - _seen.index(id(value))}
    _seen = _seen + (id(value),)
    if t is list or t is tuple:
        return {"t": t.__name__, "v": [encode(x, _depth + 1, _seen) for x in value]}
    if t is set or t is frozenset:
        items = [encode(x, _depth + 1, _seen) for x in value]
        items.sort(key=canonical)
        return {"t": t.__name__, "v": items}
    if t is dict:
        return {"t": "dict", "v": [[encode(k, _depth + 1, _seen), encode(v, _depth + 1, _seen)] for k, v in value.items()]}
    if isinstance(value, enum.Enum):
        return _object(t, {"name": value._name_}, _depth, _seen)
    if (t.__module__, t.__qualname__) in _REPR_VALUE_TYPES:
        tagged = _repr_value(value, t)
        if tagged is not None:
            return tagged
        if t.__qualname__ in ("datetime", "time") and value.tzinfo is not None:
            # a tzinfo of the library's own (isodate's FixedOffset): the naive value and the tzinfo's state
            return _object(t, {"naive": value.replace(tzinfo=None), "tzinfo": value.tzinfo}, _depth, _seen)
    if t is io.StringIO or t is io.BytesIO:
        # an in-memory file (what `dump(obj, fp)` wrote to): the text or bytes it holds
        try:
            held = value.getvalue()
        except ValueError:
            raise EncodeError("a closed %s" % t.__qualname__) from None
        return _object(t, {"value": held}, _depth, _seen)
    base = _builtin_base(t)
    if base is not None:
        # A subclass of a builtin value type (namedtuple, OrderedDict, Counter, IntEnum-like): its
        # content by the builtin's own C methods (never an override), plus any instance attributes.
        content = {"value": _BASE_CONTENT[base](value)}
        extra = getattr(value, "__dict__", None)
        attrs = _without_bound_methods(extra) if isinstance(extra, dict) else None
        if attrs:
            content["attrs"] = attrs
        slots = _slot_state(value)
        if slots:
            content["slots"] = slots
        return _object(t, content, _depth, _seen)
    state = getattr(value, "__dict__", None)
    if isinstance(state, dict) and _data_instance(t):
        return {
            "t": "object",
            "v": {"type": t.__module__ + "." + t.__qualname__, "state": encode(_without_bound_methods(state), _depth + 1, _seen)},
        }
    slots = _slot_state(value)
    if slots is not None:
        return {
            "t": "object",
            "v": {"type": t.__module__ + "." + t.__qualname__, "state": encode(slots, _depth + 1, _seen)},
        }
    ref = _ref_of(value)
    if ref is not None:
        return {"t": "ref", "v": ref}
    if t is object:
        # a bare `object()`, a module's sentinel (orderedmultidict's nodes hold `_absent`): no state
        # to tell one from another, an object all the same
        return {"t": "object", "v": {"type": "builtins.object", "state": {"t": "dict", "v": []}}}
    raise EncodeError("cannot serialise a value of type %s.%s" % (t.__module__, t.__qualname__))


def _data_instance(t):
    """Whether a value of type `t` with a `__dict__` is data to encode by its state: not a function,
    a partial or another callable whose call is C code, but an instance of a class even when that
    class defines `__call__` in Python (boolean.py's expressions evaluate themselves when called)."""
    for klass in t.__mro__:
        if "__call__" in vars(klass):
            return isinstance(vars(klass)["__call__"], types.FunctionType)
    return True


def _without_bound_methods(attrs):
    """An instance's attributes without the bound methods it keeps as shortcuts
    (sortedcontainers' SortedDict holds `self._list_add = self._list.add`): behaviour, not state;
    a function of a module (`self.key = len`) stays."""
    return {k: v for k, v in attrs.items()
            if not (isinstance(v, (types.MethodType, types.BuiltinMethodType)) and not isinstance(getattr(v, "__self__", None), types.ModuleType))}


# Standard-library value types without instance state that Python prints as the call that builds
# them: a result of one is kept as that call (`datetime.date(2024, 2, 29)`, `decimal.Decimal('1.5')`),
# as the REPL shows it and a test would write it. Checked by module and name, so encoding imports nothing.
_REPR_VALUE_TYPES = frozenset([
    ("datetime", "date"), ("datetime", "datetime"), ("datetime", "time"), ("datetime", "timedelta"), ("datetime", "timezone"),
    ("decimal", "Decimal"), ("fractions", "Fraction"), ("uuid", "UUID"),
])


def _repr_value(value, t):
    """`value` as a `repr` tag qualified by its module (`Decimal('1.5')` -> `decimal.Decimal('1.5')`),
    or None when the text does not give back an equal value of the same type (a datetime with a
    tzinfo that does not print as code)."""
    text = repr(value)
    if text.startswith(t.__qualname__ + "("):
        text = t.__module__ + "." + text
    tagged = {"t": "repr", "v": text, "imports": [t.__module__]}
    try:
        rebuilt = decode(tagged)
    except Exception:  # noqa: BLE001 - a repr that is no expression: not this encoding
        return None
    return tagged if type(rebuilt) is t and rebuilt == value and repr(rebuilt) == repr(value) else None


_NAME_CHARS = re.compile(r"[A-Za-z0-9_]+\Z")  # literals CPython interns when it compiles them
_REF_TYPES = (type, types.FunctionType, types.BuiltinFunctionType)


def _ref_of(value):
    """[module, qualname] of a class or a function that its module holds under that name (the very
    object: `len`, `ValueError`, `toolz.functoolz.identity`), else None (a lambda, a closure, a
    partial, a bound method)."""
    if not isinstance(value, _REF_TYPES):
        return None
    module, qualname = getattr(value, "__module__", None), getattr(value, "__qualname__", None)
    if not isinstance(module, str) or not isinstance(qualname, str) or "<" in qualname:
        return None
    found = sys.modules.get(module)
    for part in qualname.split("."):
        found = getattr(found, part, None)
    return [module, qualname] if found is value else None


_BASE_CONTENT = {
    tuple: lambda v: tuple.__getitem__(v, slice(None)),
    list: lambda v: list.__getitem__(v, slice(None)),
    dict: lambda v: dict(dict.items(v)),
    set: lambda v: set(set.__iter__(v)),
    frozenset: lambda v: frozenset(frozenset.__iter__(v)),
    str: lambda v: str.__getitem__(v, slice(None)),
    bytes: lambda v: bytes.__getitem__(v, slice(None)),
    int: lambda v: int.__add__(v, 0),
    float: lambda v: float.__float__(v),
}


def _builtin_base(t):
    for klass in t.__mro__[1:]:
        if klass in _BASE_CONTENT:
            return klass
    return None


def _object(t, state, depth, seen):
    return {"t": "object", "v": {"type": t.__module__ + "." + t.__qualname__, "state": encode(state, depth + 1, seen)}}


def _slot_state(value):
    names = []
    for klass in type(value).__mro__:
        slots = klass.__dict__.get("__slots__", ())
        if isinstance(slots, str):
            slots = (slots,)
        names.extend(s for s in slots if s not in ("__dict__", "__weakref__"))
    if not names:
        return None
    return {n: getattr(value, n) for n in names if hasattr(value, n)}


def decode(tagged, namespace=None):
    """Builds a fresh Python value from its tagged form (inputs of a case)."""
    t = tagged["t"]
    v = tagged.get("v")
    if t == "none":
        return None
    if t == "bool":
        return bool(v)
    if t == "int":
        return int(v)
    if t == "float":
        return float(v)
    if t == "str":
        # interned where the compiler interns a literal (name characters only), so a string input
        # is the same object a test written in source would pass: `pad is no_pad` holds for
        # `'__no__pad__'` in a direct call as it does in a judged expression
        return sys.intern(str(v)) if _NAME_CHARS.match(v) else str(v)
    if t == "bytes":
        return base64.b64decode(v)
    if t == "list":
        return [decode(x, namespace) for x in v]
    if t == "tuple":
        return tuple(decode(x, namespace) for x in v)
    if t == "set":
        return {decode(x, namespace) for x in v}
    if t == "frozenset":
        return frozenset(decode(x, namespace) for x in v)
    if t == "dict":
        return {decode(k, namespace): decode(val, namespace) for k, val in v}
    if t == "ref":
        found = importlib.import_module(v[0])
        for part in v[1].split("."):
            found = getattr(found, part)
        return found
    if t == "back":
        raise ValueError("a cycle (tag back) is a result, never an input")
    if t == "repr":
        env = {}
        for name in tagged.get("imports", []):
            env[name.split(".")[0]] = __import__(name)
        if namespace:
            env.update(namespace)
        return eval(v, env)  # inputs come from the task package, never from the agent
    raise ValueError("unknown tag %r" % (t,))


def canonical(tagged):
    """Canonical JSON text of a tagged value: equal values give equal text."""
    return json.dumps(tagged, sort_keys=True, separators=(",", ":"), ensure_ascii=True)


def same(a, b):
    return canonical(a) == canonical(b)


# `expect.raises` of a case that checks only that the call raises (docs/task-format.md): any
# exception but NOT_ANY_EXCEPTION's, which are the masked body's and those that are no error of the
# call. The judge reads it, and so do the record harness's verdicts.
ANY_EXCEPTION = "*"
NOT_ANY_EXCEPTION = ("builtins.NotImplementedError", "builtins.SystemExit", "builtins.KeyboardInterrupt", "builtins.GeneratorExit")


# Floats are compared within these tolerances (math.isclose): a result computed in another order of
# the same arithmetic (0.1 + 0.2 + 0.3 against 0.3 + 0.2 + 0.1) differs in its last bits, which no
# prompt states (docs/task-format.md). NaN matches NaN, an infinity only itself.
FLOAT_REL_TOL = 1e-9
FLOAT_ABS_TOL = 1e-12


def close(a, b):
    """Whether two tagged values are the same but for floats within FLOAT_REL_TOL / FLOAT_ABS_TOL
    (inside lists, tuples, dicts' values and objects' states; a set's items, a dict's keys and
    everything else exactly). Never raises: a malformed tree is not close."""
    try:
        return _close(a, b)
    except Exception:  # noqa: BLE001 - an untrusted tree
        return False


def _close(a, b):
    if not (isinstance(a, dict) and isinstance(b, dict)) or a.get("t") != b.get("t"):
        return False
    t = a.get("t")
    if t == "float":
        x, y = float(a["v"]), float(b["v"])
        if math.isnan(x) or math.isnan(y):
            return math.isnan(x) and math.isnan(y)
        return x == y or math.isclose(x, y, rel_tol=FLOAT_REL_TOL, abs_tol=FLOAT_ABS_TOL)
    if t in ("list", "tuple"):
        return len(a["v"]) == len(b["v"]) and all(_close(x, y) for x, y in zip(a["v"], b["v"]))
    if t == "dict":
        return len(a["v"]) == len(b["v"]) and all(
            canonical(ka) == canonical(kb) and _close(va, vb) for (ka, va), (kb, vb) in zip(a["v"], b["v"]))
    if t == "object":
        return a["v"].get("type") == b["v"].get("type") and _close(a["v"].get("state"), b["v"].get("state"))
    return canonical(a) == canonical(b)


def rounded(tagged, digits=12):
    """A copy of a tagged value with every float written to `digits` significant digits: two results
    that differ only past them give the same canonical text (the record harness's verdicts, so a
    mutant is killed only by what the judge's `close` tells apart)."""
    if isinstance(tagged, list):
        return [rounded(x, digits) for x in tagged]
    if not isinstance(tagged, dict):
        return tagged
    if tagged.get("t") == "float":
        try:
            x = float(tagged["v"])
        except (TypeError, ValueError):
            return tagged
        if math.isnan(x) or math.isinf(x) or x == 0:
            return tagged
        return dict(tagged, v=repr(float("%.*g" % (digits, x))))
    return {k: rounded(v, digits) for k, v in tagged.items()}


def describe(tagged, limit=200):
    """A short human-readable rendering, for failure messages."""
    text = _describe(tagged)
    return text if len(text) <= limit else text[: limit - 3] + "..."


def _describe(tg):
    t, v = tg.get("t"), tg.get("v")
    if t == "none":
        return "None"
    if t in ("bool",):
        return repr(bool(v))
    if t in ("int", "float"):
        return str(v)
    if t == "str":
        return repr(v)
    if t == "bytes":
        return "bytes(b64:%s)" % v
    if t in ("list", "tuple", "set", "frozenset"):
        inner = ", ".join(_describe(x) for x in v)
        return {"list": "[%s]", "tuple": "(%s)", "set": "{%s}", "frozenset": "frozenset({%s})"}[t] % inner
    if t == "dict":
        return "{" + ", ".join("%s: %s" % (_describe(k), _describe(x)) for k, x in v) + "}"
    if t == "object":
        return "<%s %s>" % (v["type"], _describe(v["state"]))
    if t == "ref":
        return "%s.%s" % (v[0], v[1])
    if t == "back":
        return "<cycle: %s up>" % v
    return str(v)
