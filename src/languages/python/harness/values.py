"""Live Python values → tagged *inputs* (docs/task-format.md), inside processes that import repo code.

Plain data becomes ordinary tags. Any other object becomes a `repr` tag when its repr, with every
name rewritten to a fully qualified path (`Point(1, 2)` → `geo.shapes.Point(1, 2)`), evaluates back
to a value of the same type that encodes (or compares) equal; otherwise it is not an input.
"""
import ast
import builtins
import importlib
import io
import sys
import types

codec = None  # set by the loader: the scoring codec

MAX_REPR_CHARS = 2000


class NotAnInput(Exception):
    """The value cannot be written as an input the subject can rebuild."""


def to_input(value, _depth=0):
    if _depth > 32:
        raise NotAnInput("nested too deeply")
    t = type(value)
    if value is None or t in (bool, int, float, str, bytes):
        return codec.encode(value)
    if t is list or t is tuple:
        return {"t": t.__name__, "v": [to_input(x, _depth + 1) for x in value]}
    if t is set or t is frozenset:
        items = [to_input(x, _depth + 1) for x in value]
        items.sort(key=codec.canonical)
        return {"t": t.__name__, "v": items}
    if t is dict:
        return {"t": "dict", "v": [[to_input(k, _depth + 1), to_input(v, _depth + 1)] for k, v in value.items()]}
    if (t is io.StringIO or t is io.BytesIO) and not value.closed and value.tell() == 0:
        # an in-memory file not yet read from (a test's `StringIO()` to dump into, `StringIO(text)` to load)
        return {"t": "repr", "v": "io.%s(%r)" % (t.__name__, value.getvalue()), "imports": ["io"]}
    ref = codec._ref_of(value)
    if ref is not None:
        # a class or function by the name its module holds it under (`len`, `toolz.identity`); not
        # one of a test module, which the task's workspace may not have
        module, qualname = ref
        if module == "__main__" or "test" in module.lower():
            raise NotAnInput("a function of a test module")
        if module == "builtins":
            return {"t": "repr", "v": qualname, "imports": []}
        return {"t": "repr", "v": "%s.%s" % (module, qualname), "imports": [module]}
    try:
        return repr_input(value)
    except NotAnInput:
        found = data_path(value)
        if found is not None:
            return found
        try:
            return restored_input(value, _depth)
        except NotAnInput:
            raise NotAnInput("no repr that evaluates back, no module path, no restorable state") from None


# Modules whose module-level data an input may be taken from by path (set per call by the tracer:
# the target's own module). An object with no repr that evaluates back (a tuple holding lambdas and
# an inspect.Signature, toolz's signature registry) is still an input when the module holds it.
HOME = []
_PATHS = {}  # module name -> {id(obj): (obj, source)}
MAX_PATH_NODES = 20000


def _key_source(key):
    """Source text of a dict key when it is short and plain (`'map'`, `3`, `map`), else None."""
    if type(key) in (str, int) and len(repr(key)) <= 60:
        return repr(key)
    ref = codec._ref_of(key)
    if ref is not None and ref[0] == "builtins":
        return ref[1]
    return None


def _index_module(name):
    """{id(obj): (obj, source)} of the objects module `name` holds in its module-level dicts, lists
    and tuples, up to three levels down: `toolz._signatures.signatures[map][0]`, or by position
    (`list(mod.table.values())[2]`) where a key has no short source. Built once per module."""
    if name in _PATHS:
        return _PATHS[name]
    index = {}
    module = sys.modules.get(name)
    frontier = []
    if module is not None:
        for attr, obj in sorted(vars(module).items()):
            if not attr.startswith("__") and isinstance(obj, (dict, list, tuple)):
                frontier.append((obj, "%s.%s" % (name, attr)))
    nodes = 0
    for _depth in range(3):
        following = []
        for container, source in frontier:
            if isinstance(container, dict):
                items = list(container.items())
                keyed = [_key_source(k) for k, _ in items]
                children = [(v, "%s[%s]" % (source, k) if k is not None else "list(%s.values())[%d]" % (source, i))
                            for i, ((_, v), k) in enumerate(zip(items, keyed))]
            else:
                children = [(v, "%s[%d]" % (source, i)) for i, v in enumerate(container)]
            for child, child_source in children:
                nodes += 1
                if nodes > MAX_PATH_NODES:
                    _PATHS[name] = index
                    return index
                if id(child) not in index and not isinstance(child, (str, int, float, bool, bytes, type(None))):
                    index[id(child)] = (child, child_source)
                    if isinstance(child, (dict, list, tuple)):
                        following.append((child, child_source))
        frontier = following
    _PATHS[name] = index
    return index


def data_path(value):
    """A `repr` input naming `value` by where a HOME module holds it, or None. The expression is
    evaluated here and must give the very object back."""
    for name in HOME:
        try:
            hit = _index_module(name).get(id(value))
        except Exception:  # noqa: BLE001 - odd module data: no path
            continue
        if hit is None or hit[0] is not value:
            continue
        tagged = {"t": "repr", "v": hit[1], "imports": [name]}
        try:
            if codec.decode(tagged) is value:
                return tagged
        except Exception:  # noqa: BLE001
            pass
    return None


def _dotted(obj):
    if isinstance(obj, types.ModuleType):
        return obj.__name__, obj.__name__
    module = getattr(obj, "__module__", None)
    qualname = getattr(obj, "__qualname__", None)
    if not isinstance(module, str) or not isinstance(qualname, str) or "<" in qualname:
        raise NotAnInput("a name in the repr is not importable")
    if module == "builtins":
        return None, qualname
    return module, module + "." + qualname


def repr_input(value):
    try:
        text = repr(value)
    except Exception as exc:  # noqa: BLE001 - repo code
        raise NotAnInput("repr failed: %s" % type(exc).__name__)
    if len(text) > MAX_REPR_CHARS:
        raise NotAnInput("repr too long")
    module = type(value).__module__
    qualified = _QUALIFIED.get((module, text))
    if qualified is None:
        if len(_QUALIFIED) >= MAX_QUALIFIED:
            _QUALIFIED.clear()
        try:
            tree = ast.parse(text, mode="eval")
        except SyntaxError:
            raise NotAnInput("repr is not an expression")  # `<Leaf object at 0x...>`: not kept
        try:
            qualified = _qualified(tree, module)
        except NotAnInput as exc:
            qualified = exc
        _QUALIFIED[(module, text)] = qualified
    if isinstance(qualified, NotAnInput):
        raise NotAnInput(str(qualified))
    tagged = {"t": "repr", "v": qualified[0], "imports": list(qualified[1])}
    try:
        rebuilt = codec.decode(tagged)
    except Exception as exc:  # noqa: BLE001
        raise NotAnInput("repr does not evaluate: %s" % type(exc).__name__)
    if not equal(value, rebuilt):
        raise NotAnInput("repr does not evaluate to an equal value")
    return tagged


# repr_input's qualified texts, by (the value's module, its repr): the tracer converts the same
# arguments at call after call (an expression tree passed down a recursive simplifier), and parsing
# and rewriting the names of a repr cost 50 µs of each conversion's 65. The rebuilt value is still
# checked against each value converted.
_QUALIFIED = {}
MAX_QUALIFIED = 50000


def _qualified(tree, module_name):
    """(the expression `tree` with every name rewritten to the fully qualified path it has in
    `module_name`'s namespace, as source; the modules those paths import); raises NotAnInput."""
    home = sys.modules.get(module_name)
    namespace = vars(home) if home is not None else {}
    imports = set()

    class Qualify(ast.NodeTransformer):
        def visit_Name(self, node):
            name = node.id
            if name in namespace:
                obj = namespace[name]
            elif hasattr(builtins, name):
                return node
            else:
                try:
                    obj = importlib.import_module(name)
                except Exception:  # noqa: BLE001
                    raise NotAnInput("unknown name %r in repr" % name)
            module, dotted = _dotted(obj)
            if module is None:
                return node
            imports.add(module)
            return ast.copy_location(ast.parse(dotted, mode="eval").body, node)

    tree = ast.fix_missing_locations(Qualify().visit(tree))
    return ast.unparse(tree), tuple(sorted(imports))


def equal(a, b):
    """Whether `a` and `b` are the same value: of one type and encoding the same; for values the codec
    cannot encode, `==`, or else the same repr (compiled patterns of the third-party `regex`, whose
    `==` is identity, show their pattern and flags)."""
    if type(a) is not type(b):
        return False
    try:
        return codec.same(codec.encode(a), codec.encode(b))
    except codec.EncodeError:
        try:
            return bool(a == b) or repr(a) == repr(b)
        except Exception:  # noqa: BLE001
            return False


# An object with no repr that evaluates back (a parser holding its tokens, an interpreter holding its
# options, a result object of the library's own) is still an input when it can be rebuilt from its
# attributes: `object.__new__(<Class>)` with its `__dict__` (or its slots) filled in, __init__ not
# called. Only plain classes of an importable, non-test module whose instances `object.__new__`
# builds (no __new__ of their own, no builtin base), every attribute an input itself; iterators the
# object holds (a consumed tokenizer) are left out, as the worker's state forms leave them out.
MAX_RESTORED_CHARS = 3000
MAX_RESTORED_ATTRS = 24


def restore_source(type_path, attr_sources, new="object.__new__", slots=False):
    """The expression rebuilding an instance of `type_path` (`module.Class`) from its attributes:
    `(lambda _o: vars(_o).update({'a': 1}) or _o)(object.__new__(module.Class))`, or for a class
    whose instances hold their attributes in `__slots__` (`slots`),
    `(lambda _o: any(object.__setattr__(_o, k, v) for k, v in {'a': 1}.items()) or _o)(...)`; `new`
    builds the empty instance."""
    items = ", ".join("%r: %s" % (name, src) for name, src in attr_sources)
    if slots:
        return "(lambda _o: any(object.__setattr__(_o, k, v) for k, v in {%s}.items()) or _o)(%s(%s))" % (items, new, type_path)
    return "(lambda _o: vars(_o).update({%s}) or _o)(%s(%s))" % (items, new, type_path)


def rebuild(klass, attributes):
    """The live equivalent of restore_source: an instance of `klass` holding `attributes` (decoded
    values), built without calling its __init__."""
    instance = object.__new__(klass)
    if slotted(klass):
        for name, value in attributes.items():
            object.__setattr__(instance, name, value)
    else:
        vars(instance).update(attributes)
    return instance


def slotted(klass):
    """Whether instances of `klass` hold attributes in slots: a class of its MRO declares `__slots__`
    (parsimonious's expressions, whose mix-in base declares none and so gives them a `__dict__` too)."""
    return isinstance(klass, type) and any("__slots__" in vars(b) for b in klass.__mro__ if b is not object)


def _slot_names(klass):
    names = vars(klass).get("__slots__", ())
    return (names,) if isinstance(names, str) else tuple(names)


def attributes_of(obj):
    """An instance's attributes: `vars`, or for a class with `__slots__` the slots that are set, over
    the class's MRO, and its `__dict__` where it has one too (common.STATE_OF_O, the same in a judged
    expression)."""
    if hasattr(obj, "__dict__") and not slotted(type(obj)):
        return dict(vars(obj))
    state = {k: getattr(obj, k) for c in type(obj).__mro__ for k in _slot_names(c) if k not in ("__weakref__", "__dict__") and hasattr(obj, k)}
    state.update(getattr(obj, "__dict__", {}))
    return state


def receiver_class(klass, type_path, name):
    """The class a receiver restored as `type_path` is an instance of: `klass` (a method target's
    owner), or the subclass of it that `type_path` names in klass's own module when that subclass
    inherits method `name` unchanged (a base class's method called on a subclass's instance:
    parsers' and matchers' `match`, defined once, called on every kind of node). Raises NotAnInput
    for another class."""
    ref = codec._ref_of(klass)
    if ref is None or type_path == "%s.%s" % tuple(ref):
        return klass
    found = sys.modules.get(ref[0]) if type_path.startswith(ref[0] + ".") else None
    for part in type_path[len(ref[0]) + 1:].split(".") if found is not None else ():
        found = getattr(found, part, None)
    if not inherits_method(klass, found, name):
        raise NotAnInput("a receiver of another class, or one that overrides the method")
    return found


def inherits_method(klass, subclass, name):
    """Whether `subclass` is a subclass of `klass` in the same module, importable by its name, that
    inherits method `name` unchanged."""
    import inspect

    return (isinstance(subclass, type) and issubclass(subclass, klass) and subclass.__module__ == klass.__module__
            and codec._ref_of(subclass) is not None
            and inspect.getattr_static(subclass, name, None) is inspect.getattr_static(klass, name, None))


def replayable_init(value):
    """{"args", "kwargs"} (tagged inputs) with which `type(value)` builds an equal instance again, for
    instances no traced `__init__` built and no attribute dict restores: a namedtuple subclass's
    fields in order (intervaltree's `Interval(1, 5, 'a')`), a dataclass's init fields by name. None
    for other values, or when the call raises or builds something unequal."""
    import dataclasses

    klass = type(value)
    if isinstance(value, tuple) and isinstance(getattr(klass, "_fields", None), tuple):
        args, kwargs = list(value), {}
    elif dataclasses.is_dataclass(value) and getattr(klass, "__dataclass_params__", None) is not None and klass.__dataclass_params__.eq:
        args, kwargs = [], {f.name: getattr(value, f.name) for f in dataclasses.fields(value) if f.init}
    else:
        return None
    try:
        tagged = {"args": [to_input(a) for a in args], "kwargs": {k: to_input(v) for k, v in kwargs.items()}}
        again = klass(*args, **kwargs)
        if type(again) is not klass or not again == value:
            return None
    except Exception:  # noqa: BLE001 - NotAnInput, or a constructor that takes other arguments
        return None
    return tagged


def restorable_class(klass, container=None):
    """`module.qualname` of a class whose instances can be rebuilt from their attributes, or None.
    With `container` (list or dict), of a subclass of that builtin instead, built by its `__new__`."""
    base = container or object
    if not isinstance(klass, type) or klass.__new__ is not base.__new__:
        return None
    if any(b not in (object, base) and b.__module__ == "builtins" for b in klass.__mro__):
        return None
    if container is not None and slotted(klass):
        return None
    ref = codec._ref_of(klass)
    if ref is None or ref[0] in ("builtins", "__main__") or "test" in ref[0].lower():
        return None
    return "%s.%s" % tuple(ref)


def restorable_state(value, _depth=0, container=None):
    """(`module.Class`, {attribute: tagged input}) of an object restored_input can rebuild; raises
    NotAnInput."""
    type_path = restorable_class(type(value), container)
    if type_path is None:
        raise NotAnInput("not a plain class of the library")
    if id(value) in _RESTORING:
        raise NotAnInput("holds itself")
    state = attributes_of(value)
    if len(state) > MAX_RESTORED_ATTRS:
        raise NotAnInput("no plain attributes")
    _RESTORING.add(id(value))
    try:
        return type_path, _restored_attrs(value, state, _depth)
    finally:
        _RESTORING.discard(id(value))


# ids of the objects whose attributes restorable_state is converting. An object met again inside its
# own attributes (boolean.py's TRUE whose `dual` is FALSE, whose `dual` is TRUE) fails at once: its
# nested conversion would repeat the same steps until "nested too deeply", 32 levels down, which
# cost a receiver holding such a cycle 4 ms per traced call.
_RESTORING = set()


def _restored_attrs(value, state, _depth):
    import collections.abc

    attrs = {}
    for name, attr in state.items():
        if type(name) is not str or not name.isidentifier():
            raise NotAnInput("an odd attribute name")
        if isinstance(attr, collections.abc.Iterator):
            continue
        try:
            attrs[name] = to_input(attr, _depth + 1)
        except NotAnInput:
            default = default_input(type(value), attr)
            if default is not None:
                attrs[name] = default
                continue
            # a cache of what the object computed (bound methods, compiled patterns) starts empty
            if "cache" not in name.lower() or type(attr) not in (dict, list, set):
                raise
            attrs[name] = {"t": type(attr).__name__, "v": []}
    return attrs


def default_input(klass, value):
    """A `repr` input naming `value` as a default of the `__init__` that builds `klass` when it is
    one (`<module>.<Class>.__init__.__defaults__[i]`, or `__kwdefaults__['name']`): an attribute an
    instance keeps from a default no repr gives back (xmltodict's handler keeps
    `item_callback=lambda *args: True`). None otherwise."""
    for base in klass.__mro__:
        init = vars(base).get("__init__")
        if init is None or not hasattr(init, "__defaults__"):
            continue
        ref = codec._ref_of(base)
        if ref is None:
            return None
        path = "%s.%s.__init__" % tuple(ref)
        for k, d in enumerate(init.__defaults__ or ()):
            if d is value:
                return {"t": "repr", "v": "%s.__defaults__[%d]" % (path, k), "imports": [ref[0]]}
        for key, d in (init.__kwdefaults__ or {}).items():
            if d is value:
                return {"t": "repr", "v": "%s.__kwdefaults__[%r]" % (path, key), "imports": [ref[0]]}
        return None
    return None


# A list or dict subclass of the library holding attributes besides its items (a token stream that
# knows which error to raise) is rebuilt by its builtin's `__new__`, its items put back by the
# builtin's own method (an override in the subclass is not called), then its attributes.
CONTAINER_FILL = {list: "extend", dict: "update"}


def restored_input(value, _depth=0):
    """A `repr` input rebuilding `value` from its attributes (restore_source), checked to give an
    object of the same type whose state encodes equal; raises NotAnInput."""
    container = next((base for base in CONTAINER_FILL if isinstance(value, base)), None)
    type_path, attrs = restorable_state(value, _depth, container)
    imports = {codec._ref_of(type(value))[0]}  # the class's module (restorable_class checked it has one)
    new = "object.__new__" if container is None else "%s.__new__" % container.__name__
    text = restore_source(type_path, [(k, source_of(v, imports)) for k, v in attrs.items()], new, slotted(type(value)))
    if container is not None:
        items = source_of(to_input(container(value), _depth + 1), imports)
        text = "(lambda _o: %s.%s(_o, %s) or _o)(%s)" % (container.__name__, CONTAINER_FILL[container], items, text)
    if len(text) > MAX_RESTORED_CHARS:
        raise NotAnInput("restored state too long")
    tagged = {"t": "repr", "v": text, "imports": sorted(imports)}
    try:
        rebuilt = codec.decode(tagged)
    except Exception as exc:  # noqa: BLE001
        raise NotAnInput("restored state does not evaluate: %s" % type(exc).__name__)
    if type(rebuilt) is not type(value):
        raise NotAnInput("restored state gives another type")
    if container is not None and not equal(container(value), container(rebuilt)):
        raise NotAnInput("restored items differ")
    before, after = attributes_of(value), attributes_of(rebuilt)
    emptied = {k for k, v in attrs.items() if v.get("t") in ("dict", "list", "set") and not v["v"] and before[k]}
    if set(after) != set(attrs) or not all(k in emptied or equal(before[k], after[k]) for k in attrs):
        raise NotAnInput("restored state differs")
    return tagged


def source_of(tagged, imports):
    """Python source of a tagged input (the modules a `repr` value needs are added to `imports`)."""
    t, v = tagged.get("t"), tagged.get("v")
    if t == "none":
        return "None"
    if t == "bool":
        return "True" if v else "False"
    if t == "int":
        return str(int(v))
    if t == "float":
        return "float(%r)" % v if v in ("nan", "inf", "-inf") else v
    if t in ("str", "bytes"):
        return repr(codec.decode(tagged))
    if t in ("list", "tuple", "set", "frozenset"):
        items = [source_of(x, imports) for x in v]
        if t == "list":
            return "[%s]" % ", ".join(items)
        if t == "tuple":
            return "(%s)" % (items[0] + "," if len(items) == 1 else ", ".join(items))
        if t == "set":
            return "{%s}" % ", ".join(items) if items else "set()"
        return "frozenset([%s])" % ", ".join(items)
    if t == "dict":
        return "{%s}" % ", ".join("%s: %s" % (source_of(k, imports), source_of(x, imports)) for k, x in v)
    if t == "repr":
        imports.update(tagged.get("imports") or [])
        return "(%s)" % v
    raise ValueError("no source for tag %r" % (t,))
