"""Candidate inputs as tagged values, without importing repository code: call-site literals, values
generated from type hints and neighbouring literals, and variations of known inputs for the
mutant-guided search. Every function here is deterministic for a given `random.Random`."""
import ast
import itertools
import re

import sys

_load = sys.modules["_codemidas__load"]

codec = _load.load("codec")

MAX_INT_ABS = 10 ** 6


def tag(value):
    return codec.encode(value)


def plain(tagged):
    """The Python value of a plain tagged value, or raise ValueError (repr/object tags)."""
    if tagged.get("t") in ("repr", "object", "unavailable"):
        raise ValueError("not plain")
    if tagged.get("t") in ("list", "tuple", "set", "frozenset"):
        for x in tagged["v"]:
            plain(x)
    if tagged.get("t") == "dict":
        for k, v in tagged["v"]:
            plain(k)
            plain(v)
    return codec.decode(tagged)


# ----------------------------------------------------------------------------- call sites

def parse_call_site(argument_texts):
    """(args, kwargs) tagged from argument source texts, or None when one is not a literal."""
    args, kwargs = [], {}
    for text in argument_texts:
        text = text.strip()
        if text.startswith("*"):
            return None
        name = None
        try:
            node = ast.parse(text, mode="eval").body
        except SyntaxError:
            try:
                call = ast.parse("f(%s)" % text, mode="eval").body
            except SyntaxError:
                return None
            if len(call.keywords) != 1 or call.args or call.keywords[0].arg is None:
                return None
            name, node = call.keywords[0].arg, call.keywords[0].value
        try:
            value = ast.literal_eval(node)
            tagged = tag(value)
        except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError, codec.EncodeError):
            return None
        if name is None:
            if kwargs:
                return None
            args.append(tagged)
        else:
            kwargs[name] = tagged
    return args, kwargs


# ----------------------------------------------------------------------------- type hints

def _dedupe(items):
    out, seen = [], set()
    for item in items:
        key = codec.canonical(item)
        if key not in seen:
            seen.add(key)
            out.append(item)
    return out


def pool_for(hint, literals, seen, depth=0, name=None):
    """Tagged values for one parameter: from its hint, the body's literals (± 1) and values seen;
    with no hint, from what was seen, else from the parameter's name (`func`, `d`, `seq`, `n`, `s`)."""
    kind = hint.get("kind", "any")
    ints = [0, 1, -1, 2, 3, 10] + [i + d for i in literals.get("int", []) for d in (0, -1, 1) if abs(i) < MAX_INT_ABS]
    ints += [i for i in literals.get("moduleInt", []) if abs(i) < MAX_INT_ABS]
    ints[6:6] = [i for i in literals.get("dataInt", [])[:6] if abs(i) < MAX_INT_ABS]
    strs = ["", "a", "ab", "abc", "hello world", "A-b c"] + [s for s in literals.get("str", [])] + [s + "x" for s in literals.get("str", []) if s]
    # module literals early enough to survive the pool's cut (generate keeps 12-24 per parameter)
    strs[4:4] = literals.get("moduleStr", [])[:8]
    strs += literals.get("moduleStr", [])[8:]
    # strings the module's regexes accept and the docstrings' quoted examples: earlier still, as
    # they are often the only inputs that get past a validating regex to the real work (the first
    # regex match leads, so it is the base value the other parameters vary around)
    regex_strs, doc_strs = literals.get("regexStr", []), literals.get("docStr", [])
    strs[2:2] = regex_strs[1:4] + doc_strs[:2]
    strs[0:0] = regex_strs[:1]
    # the keys and values of the lookup tables the body names (worker._data_literals): the values
    # that find something in them, early, as they are few among the module's literals
    strs[2:2] = literals.get("dataStr", [])[:6]
    strs[16:16] = regex_strs[4:8]
    strs += regex_strs[8:] + doc_strs[2:]
    # the README's shown inputs (common.readme_strings): a few after the first values, the rest last
    readme_strs = literals.get("readmeStr", [])
    strs[8:8] = readme_strs[:4]
    strs += readme_strs[4:]
    # the repository's data files (common.data_texts): two whole texts early, their lines later
    file_strs = literals.get("fileStr", [])
    strs[5:5] = file_strs[:2]
    strs[14:14] = file_strs[2:6]
    floats = [0.0, 1.0, -1.0, 0.5, 2.5] + [f + d for f in literals.get("float", []) for d in (0.0, -1.0, 1.0)] + [float(i) for i in literals.get("int", [])[:3]]
    if kind == "int":
        out = [tag(i) for i in ints]
    elif kind == "float":
        out = [tag(f) for f in floats]
    elif kind == "str":
        out = [tag(s) for s in strs]
    elif kind == "bytes":
        out = [tag(b) for b in (b"", b"a", b"abc", b"\x00\xff")]
    elif kind == "bool":
        out = [tag(False), tag(True)]
    elif kind == "none":
        out = [tag(None)]
    elif kind == "callable":
        out = callable_pool(arity=hint.get("arity"))
    elif kind == "literal":
        out = list(hint.get("values", []))
    elif kind == "class":
        out = list(hint.get("values", []))
    elif kind == "union":
        parts = [pool_for(h, literals, [], depth + 1) for h in hint.get("of", [])]
        out = []
        for group in itertools.zip_longest(*parts):
            out.extend(x for x in group if x is not None)
    elif kind in ("list", "set", "frozenset", "tuple") and depth < 2:
        items = pool_for(hint.get("item", {"kind": "any"}), literals, [], depth + 1)[:6]
        out = []
        for size in (0, 1, 2, 3, 5):
            if size and not items:
                continue
            chosen = [items[(k * 2 + size) % len(items)] for k in range(size)] if items else []
            if kind in ("set", "frozenset"):
                chosen = _dedupe(chosen)
                chosen.sort(key=codec.canonical)
            out.append({"t": kind, "v": chosen})
        if kind == "list" and hint.get("iterable"):
            out = _with_iterators(out)
    elif kind == "tuple-fixed" and depth < 2:
        parts = [pool_for(h, literals, [], depth + 1)[:4] or [tag(None)] for h in hint.get("of", [])]
        out = [{"t": "tuple", "v": [p[min(k, len(p) - 1)] for p in parts]} for k in range(4)]
    elif kind == "dict" and depth < 2:
        keys = pool_for(hint.get("key", {"kind": "str"}), literals, [], depth + 1)[:4]
        vals = pool_for(hint.get("value", {"kind": "any"}), literals, [], depth + 1)[:4]
        out = [{"t": "dict", "v": []}]
        if keys and vals:
            out.append({"t": "dict", "v": [[keys[1 % len(keys)], vals[0]]]})
            out.append({"t": "dict", "v": _dedupe_pairs([[keys[k % len(keys)], vals[k % len(vals)]] for k in range(3)])})
    else:
        out = _from_seen(seen, literals, depth, name)
    return _dedupe(list(seen) + out)


def _dedupe_pairs(pairs):
    out, keys = [], set()
    for k, v in pairs:
        c = codec.canonical(k)
        if c not in keys:
            keys.add(c)
            out.append([k, v])
    return out


# Parameters that index a sequence: with ints seen for them, slices are tried too.
INDEX_NAMES = {"index", "idx", "key", "item", "i", "pos", "subscript"}
SLICE_ATTRIBUTES = {"start", "stop", "step"}
SLICE_INPUTS = [{"t": "repr", "v": "slice(%s)" % a, "imports": []}
                for a in ("1, 3", "None, None, -1", "-2, None", "None, 2", "0, 5, 2", "3, 0, -1", "None, None, 2")]


def _with_slices(values):
    """`values` (an index's ints) with SLICE_INPUTS after the first four."""
    return values[:4] + SLICE_INPUTS + values[4:]


def _from_seen(seen, literals, depth, name=None):
    """No usable hint: values of the kinds seen for this parameter (defaults, call sites, tests); when
    nothing but None was seen, values its name suggests (name_pool), then a generic mix."""
    kinds = [s.get("t") for s in seen]
    out = []
    only_none = all(k == "none" for k in kinds)
    if only_none and depth == 0:
        named = name_pool(name, literals)
        if named:
            return named + [tag(v) for v in (0, "abc", [1, 2, 3], None)]
        kinds = []  # a `=None` default says nothing of the values: the generic mix below (None included)
    for t in dict.fromkeys(kinds):
        if t in ("int", "float", "str", "bytes", "bool", "none"):
            out.extend(pool_for({"kind": t}, literals, [], depth + 1))
        elif t in ("list", "tuple", "set", "frozenset", "dict"):
            for s in seen:
                if s.get("t") == t:
                    out.extend(vary(s, [], limit=8))
    if depth == 0 and "int" in kinds and isinstance(name, str) and name.lower().lstrip("_") in INDEX_NAMES:
        # ints seen for an index (`r[2]` in a docstring): slices too, for `__getitem__` and friends
        out = _with_slices(out)
    if depth == 0 and out and (name_kind(name) or ("",))[0] in ("callable", "binary", "predicate") and "repr" not in kinds:
        # a function-named parameter seen only with plain values (a test passing `1` to check the
        # non-callable branch; its own functions did not serialise): callables first, then those
        out = name_pool(name, literals)[:6] + out
    elif depth == 0 and any(k not in ("none", "int", "float", "str", "bytes", "bool", "list", "tuple", "set", "frozenset", "dict")
                            for k in kinds):
        # objects seen (a test's own functions, instances): the values the name suggests beside them
        out.extend(name_pool(name, literals)[:12])
    if out and depth == 0 and name_kind(name) == ("seq", False):
        # lists seen for a sequence-named parameter (`seq`, `iterable`): one-shot iterators over
        # them too, for the `iter(seq) is seq` branches such functions keep for iterators
        out = _with_iterators(out)
    if not out:
        generic = [0, 1, -1, 2, "", "abc", [], [1, 2, 3], [3, 1, 2], {"a": 1, "b": 2}, None, {}, True]
        generic[6:6] = literals.get("regexStr", [])[:3] + literals.get("docStr", [])[:2] + literals.get("readmeStr", [])[:3]
        generic[4:4] = literals.get("dataStr", [])[:6]  # the keys of the tables the body looks up
        if literals.get("regexNear") and literals.get("regexStr"):
            # the target (or a function it calls) checks a regex: lead with a string it accepts
            generic.insert(0, literals["regexStr"][0])
        generic += [i for i in literals.get("int", [])[:4]] + [s for s in literals.get("str", [])[:3]]
        generic += [s for s in literals.get("moduleStr", [])[:6]]
        out = [tag(v) for v in generic]
    return out


# ----------------------------------------------------------------------------- names and callables

# Callables as `repr` inputs (the subject evaluates the expression): (source, imports).
# Unary ones first, type-agnostic before arithmetic; then binary and variadic ones.
CALLABLES_UNARY = [("str", []), ("len", []), ("lambda x: x + 1", []), ("lambda x: x * 2", []),
                   ("lambda x: x % 2 == 0", []), ("abs", []), ("bool", []), ("str.upper", []),
                   ("max", []), ("min", []), ("lambda x: -x", []), ("sorted", [])]
CALLABLES_PREDICATE = [("bool", []), ("lambda x: x % 2 == 0", []), ("lambda x: 'a' in str(x)", []),
                       ("lambda x: len(str(x)) % 2 == 0", []), ("callable", []), ("lambda x: not x", [])]
CALLABLES_BINARY = [("lambda x, y: x + y", []), ("operator.add", ["operator"]), ("max", []), ("min", []),
                    ("operator.mul", ["operator"]), ("lambda *a: a", [])]
# For a parameter the body calls with no arguments (`lamda()`): returning, and raising by type.
CALLABLES_NULLARY = [("lambda: 1", []), ("lambda: 1 / 0", []), ("lambda: [][0]", []), ("lambda: {}['k']", []),
                     ("lambda: int('x')", []), ("lambda: None", []), ("list", []), ("lambda: 'abc'", [])]
# For a parameter the body catches (`except err:`): exception classes, one a tuple of two.
EXCEPTION_CLASSES = [("ZeroDivisionError", []), ("IndexError", []), ("KeyError", []), ("ValueError", []),
                     ("TypeError", []), ("LookupError", []), ("Exception", []), ("(KeyError, ValueError)", [])]
# `(func, arg)` forms for a *args of callables whose body checks for tuples.
TUPLE_FORMS = [("operator.add", ["operator"], 4), ("pow", [], 2), ("operator.sub", ["operator"], 10)]
CALLABLE_SOURCES = {src for src, _ in CALLABLES_UNARY + CALLABLES_PREDICATE + CALLABLES_BINARY + CALLABLES_NULLARY + EXCEPTION_CLASSES}


def iter_input(list_tagged):
    """A one-shot iterator over a plain list's items, as a `repr` input (`iter([1, 2, 3])`): the
    subject builds a fresh one per case, so code that treats an iterator unlike a list (consumes it
    once, peeks, calls `next`) is reached."""
    items = [repr(plain(x)) for x in list_tagged["v"]]
    return {"t": "repr", "v": "iter([%s])" % ", ".join(items), "imports": []}


def is_generated_repr(tagged):
    """A `repr` input this module generated (a callable of the pools, an `iter([...])`, a
    `types.SimpleNamespace(...)`), not a value built with the codebase's own constructors."""
    v = tagged.get("v")
    return tagged.get("t") == "repr" and isinstance(v, str) and (
        v in CALLABLE_SOURCES or (v.startswith("iter([") and v.endswith("])")) or v.startswith("types.SimpleNamespace(")
        or _file_content(tagged) is not None)


def _file_content(tagged):
    """The text or bytes an `io.StringIO(...)` / `io.BytesIO(...)` input (file_pool) holds, else None."""
    v = tagged.get("v")
    if tagged.get("t") != "repr" or not isinstance(v, str) or not v.endswith(")"):
        return None
    for prefix in ("io.StringIO(", "io.BytesIO("):
        if v.startswith(prefix):
            try:
                held = ast.literal_eval(v[len(prefix):-1])
            except (ValueError, SyntaxError):
                return None
            return held if isinstance(held, (str, bytes)) else None
    return None


def file_pool(use, literals):
    """In-memory files for a parameter the body writes to ('write': empty ones, text and bytes) or
    reads from ('read': the repository's data files, the body's strings and a few plain texts, as
    text and as bytes), as `io.StringIO(...)` / `io.BytesIO(...)` inputs."""
    if use == "write":
        texts = [""]
    else:
        found = (literals.get("fileStr", [])[:4] + literals.get("dataStr", [])[:4] + literals.get("docStr", [])[:2]
                 + literals.get("str", [])[:4] + ["", "abc", "a = 1\n", "[1, 2]\n"])
        texts = list(dict.fromkeys(t for t in found if isinstance(t, str) and len(t) < 4096))[:10]
    return [file_input(text) for text in texts] + [file_input(text.encode("utf-8", "surrogatepass")) for text in texts[:3]]


def file_input(held):
    """An `io.StringIO(...)` (text) or `io.BytesIO(...)` (bytes) input holding `held`."""
    return {"t": "repr", "v": "io.%s(%r)" % ("StringIO" if isinstance(held, str) else "BytesIO", held), "imports": ["io"]}


def namespace_pool(attrs, literals, count=12):
    """Objects with just the attributes a function reads from a parameter that has no type hint
    (`args.version`, `args.part`: a parsed command line, an options object), as
    `types.SimpleNamespace(...)` inputs; each attribute's values come from its name (name_pool),
    else from the body's strings and ints, and vary from one object to the next."""
    per_attr = []
    for attr in attrs:
        values = [x for x in name_pool(attr, literals) if x.get("t") != "repr"]
        if not values:
            values = [tag(v) for v in literals.get("str", [])[:6] + literals.get("int", [])[:4]] + [tag(v) for v in ("abc", 0, 1, None)]
        per_attr.append([x for x in values if _is_plain(x)][:8] or [tag(None)])
    # the first value of every attribute, then one attribute at a time through its other values
    choices = [[0] * len(attrs)]
    for index in range(1, max(len(v) for v in per_attr)):
        for j, values in enumerate(per_attr):
            if index < len(values):
                choices.append([index if k == j else 0 for k in range(len(attrs))])
    return _dedupe([_namespace_input([(attr, plain(values[i])) for attr, values, i in zip(attrs, per_attr, choice)])
                    for choice in choices[:count]])


def _namespace_input(pairs):
    """`types.SimpleNamespace(<name>=<value>, ...)` as a `repr` input, from (name, plain value) pairs."""
    return {"t": "repr", "v": "types.SimpleNamespace(%s)" % ", ".join("%s=%r" % pair for pair in pairs), "imports": ["types"]}


def _is_plain(tagged):
    try:
        plain(tagged)
    except ValueError:
        return False
    return True


def _with_iterators(lists):
    """`lists` (tagged lists or tuples) with one-shot iterators over the first two non-empty ones
    after the second value (over a small list when there is none), and over an empty one at the end."""
    nonempty = [x for x in lists if x.get("t") in ("list", "tuple") and x["v"]][:2]
    try:
        iters = [iter_input(x) for x in nonempty or [tag(SMALL_SEQS[0])]] + [iter_input({"t": "list", "v": []})]
    except ValueError:
        return lists
    return lists[:2] + iters[:-1] + lists[2:] + iters[-1:]


def _callable_tag(source, imports):
    return {"t": "repr", "v": source, "imports": list(imports)}


def callable_pool(binary=False, predicate=False, arity=None):
    """Callables as `repr` inputs, the likeliest for the use first: binary ones first for a binop /
    reducer (or a hint with two parameters), predicates first for a predicate, else unary ones."""
    if arity == 0:
        return [_callable_tag(src, imports) for src, imports in CALLABLES_NULLARY]
    if binary or arity == 2:
        groups = [CALLABLES_BINARY, CALLABLES_UNARY, CALLABLES_PREDICATE]
    elif predicate:
        groups = [CALLABLES_PREDICATE, CALLABLES_UNARY, CALLABLES_BINARY]
    else:
        groups = [CALLABLES_UNARY, CALLABLES_PREDICATE, CALLABLES_BINARY]
    out = [_callable_tag(src, imports) for group in groups for src, imports in group]
    return _dedupe(out)


_NAME_KINDS = {
    "callable": {"func", "f", "fn", "function", "funcs", "functions", "fns", "key", "keyfunc", "callback", "factory",
                 "default_factory", "transform", "mapper", "hook", "handler", "getter", "g", "forms"},
    "binary": {"binop", "op", "operator", "reducer", "combine", "combiner", "merge", "merger", "accumulator", "cmp"},
    "predicate": {"pred", "predicate", "cond", "condition", "filter", "check"},
    "dict": {"d", "dct", "dict", "dicts", "mapping", "mappings", "dictionary", "table", "dd"},
    "seq": {"seq", "seqs", "sequence", "sequences", "iterable", "iterables", "items", "coll", "colls", "xs", "lst",
            "elements", "elems", "iterator", "it"},
    "int": {"n", "k", "i", "j", "count", "size", "index", "idx", "num", "number", "length", "width", "height",
            "major", "minor", "patch", "step", "start", "stop", "times", "depth", "offset", "pos"},
    "str": {"s", "string", "text", "word", "name", "version", "ver", "hex", "color", "colour", "label", "prefix",
            "suffix", "sep", "char", "line", "title"},
    "exception": {"exc", "exception", "exceptions", "exc_type", "error", "errors", "err", "catch"},
}
_AMBIGUOUS = {"key"}
_PLURAL = {"funcs", "functions", "fns", "forms", "dicts", "mappings", "seqs", "sequences", "iterables", "colls"}


def name_kind(name):
    """('callable'|'binary'|'predicate'|'dict'|'seq'|'int'|'str', plural) for a parameter name, or None.
    The whole name is tried first, then its last `_` part (`hex_value` → no, `other_dict` → dict)."""
    if not isinstance(name, str) or not name:
        return None
    base = name.lower().lstrip("_")
    trimmed = base.rstrip("0123456789") or base
    for candidate in (base, trimmed, trimmed.rsplit("_", 1)[-1]):
        for kind, names in _NAME_KINDS.items():
            if candidate in names:
                return kind, candidate in _PLURAL
    return None


SMALL_DICTS = [{"a": 1, "b": 2}, {1: 2, 3: 4}, {}, {"a": 1, "b": 2, "c": 3}, {"x": "y", "a": "b"}, {0: 0, -1: 5}]
SMALL_SEQS = [[1, 2, 3], [3, 1, 2, 1], ["a", "b", "a"], [], [0], ["abc", "x", "de"], [5, -2, 0, 7, 5]]


def name_pool(name, literals, star=False):
    """Values a parameter's name suggests when it has no type hint and nothing was seen for it;
    `star`: the elements of a *args parameter (`*dicts` → dicts, `*funcs` → callables)."""
    found = name_kind(name)
    if found is None:
        return []
    kind, plural = found
    base_name = name.lower().lstrip("_")
    if kind in ("callable", "binary", "predicate"):
        one = callable_pool(binary=kind == "binary", predicate=kind == "predicate")
        if base_name in _AMBIGUOUS:  # `key`: a key function, or a dict key
            plain_values = [tag(v) for v in ("a", 1, "b", 0, "x")]
            one = [x for pair in itertools.zip_longest(one, plain_values) for x in pair if x is not None]
    elif kind == "dict":
        one = [tag(d) for d in SMALL_DICTS]
    elif kind == "seq":
        if plural and not star:  # `seqs`: a list of sequences
            return [tag(x) for x in ([[1, 2], [3]], [["a"], ["b", "c"]], [[]], [])]
        return _with_iterators([tag(x) for x in SMALL_SEQS])
    elif kind == "exception":  # `exc`, `error`: exception classes (one a tuple of two)
        one = [_callable_tag(src, imports) for src, imports in EXCEPTION_CLASSES]
    elif kind == "int":
        one = pool_for({"kind": "int"}, literals, [], 1)
        if base_name in INDEX_NAMES and not plural:
            one = _with_slices(one)
    else:
        one = pool_for({"kind": "str"}, literals, [], 1)
    if plural and not star:
        return [{"t": "list", "v": one[:2]}, {"t": "list", "v": one[:1]}, {"t": "list", "v": []}, {"t": "list", "v": one[1:4]}]
    return one


# `*args` names that say nothing of the elements; when such a parameter is (with at most one other,
# `self` having been removed) the whole interface, its elements are tried as small ints.
GENERIC_STAR_NAMES = {"args", "argv", "values", "vals", "nums", "numbers"}


def generate(params, literals, seen_by_param, rng, limit):
    """Inputs {args, kwargs} from per-parameter pools: a base, one parameter varied at a time, then
    random combinations; parameters with defaults are left out of the base. A *args parameter takes
    part when its hint or name gives its elements (`*dicts`, `*funcs`): 0-3 extra positional values;
    a **kwargs parameter through the keys the body reads from it (`keys`), as optional keywords."""
    usable, pools = [], []
    for p in params:
        if p["kind"] == "VAR_KEYWORD":
            # the keys the body reads (worker._keys_read: kwargs.get('key')): optional keyword
            # arguments, left out of the base and tried one at a time
            for key in p.get("keys") or []:
                usable.append({"name": key, "kind": "KEYWORD_ONLY", "default": tag(None)})
                pools.append(pool_for({"kind": "any"}, literals, list(seen_by_param.get(key, [])), name=key)[:12] or [tag(None)])
            continue
        if p["kind"] == "VAR_POSITIONAL":
            hint = p.get("hint") or {"kind": "any"}
            items = pool_for(hint, literals, [])[:6] if hint.get("kind", "any") != "any" else name_pool(p["name"], literals, star=True)[:6]
            if items and p.get("tuples") and items[0].get("t") == "repr":
                # callables, and `(func, arg)` forms beside them (`thread_first(1, (add, 4), inc)`)
                items = items[:3] + [{"t": "tuple", "v": [_callable_tag(src, imports), tag(arg)]} for src, imports, arg in TUPLE_FORMS]
            if not items and p["name"] in GENERIC_STAR_NAMES and len(params) <= 2:
                # a bare `*args` that is the whole interface (`Span(*args)` like range): small ints
                items = pool_for({"kind": "int"}, literals, [])[:6]
            if items:
                usable.append(p)
                pools.append(_star_pool(items))
            continue
        usable.append(p)
        seen = list(seen_by_param.get(p["name"], []))
        default = p.get("default")
        if default is not None and default.get("t") != "unavailable":
            seen.insert(0, default)
        pool = pool_for(p["hint"], literals, seen, name=p["name"])
        if p.get("members"):
            # values of the table the body looks it up in (`spec in SUPPORTED`): those first
            pool = list(p["members"]) + pool
        if "instances" in p:
            # isinstance checks on it: the checked classes' instances early, and a None and an int
            # (values of none of the checked types, for the `else: raise TypeError` branch)
            pool = pool[:2] + list(p["instances"]) + [tag(None), tag(0)] + pool[2:]
        if p.get("use") == "caught":
            pool = [_callable_tag(src, imports) for src, imports in EXCEPTION_CLASSES] + pool
        elif isinstance(p.get("use"), int) and p["use"] <= 2:
            pool = callable_pool(arity=p["use"])[:12] + pool  # the body calls it: callables first
        if p.get("file"):
            pool = file_pool(p["file"], literals) + pool
        if p.get("attrs") and set(p["attrs"]) <= SLICE_ATTRIBUTES:
            pool = SLICE_INPUTS + pool  # `key.start`, `key.step`: the body takes a slice
        elif p.get("attrs"):
            pool = namespace_pool(p["attrs"], literals) + pool
        pools.append(pool[:24] or [tag(None)])
    omit_default = [p.get("default") is not None for p in usable]

    def build(choice):
        args, kwargs = [], {}
        positional_open = True
        for p, value, omit in zip(usable, choice, omit_default):
            if p["kind"] == "VAR_POSITIONAL":
                if value is not None and positional_open:
                    args.extend(value["v"])
                continue
            if value is None:
                positional_open = False
                continue
            if p["kind"] in ("POSITIONAL_ONLY", "POSITIONAL_OR_KEYWORD") and positional_open:
                args.append(value)
            elif p["kind"] == "POSITIONAL_ONLY":
                return None
            else:
                kwargs[p["name"]] = value
        return {"init": None, "args": args, "kwargs": kwargs}

    base = [None if omit else pool[0] for pool, omit in zip(pools, omit_default)]
    out = [build(base)]
    # one parameter varied at a time, round-robin over the parameters (a short limit, as for a
    # method's inits, still reaches the later ones: `Window(start, stop, step=1)` gets a step)
    width = 12 if len(pools) > 1 else 24
    for j in range(width):
        for i, pool in enumerate(pools):
            if j < len(pool):
                choice = list(base)
                choice[i] = pool[j]
                out.append(build(choice))
    for _ in range(limit * 2):
        if not pools:
            break
        out.append(build([rng.choice(pool) for pool in pools]))
    out = [x for x in out if x is not None]
    return _dedupe(out)[:limit]


def _star_pool(items):
    """Choices for a *args parameter from its element pool: each a list of extra positional values
    (internal `star` tag, spread into args by generate.build); one is a single list of elements,
    for the `f(*items)`-or-`f(items)` idiom."""
    e = items + items[:1] * 3
    shapes = [[e[0], e[1]], [e[0]], [], [e[0], e[0]], [e[1], e[2]], [e[0], e[3 % len(items)]], [e[0], e[1], e[2]],
              [{"t": "list", "v": [e[0], e[1]]}]]
    ints = sorted({int(x["v"]) for x in items if x.get("t") == "int"})
    if len(ints) >= 2:
        # range-like interfaces (`numeric_range(*args)`): a falling and a striding triple too
        lo, hi = ints[0], ints[-1]
        shapes[5:5] = [[tag(hi), tag(lo), tag(-1)], [tag(lo), tag(hi), tag(2)]]
    return _dedupe([{"t": "star", "v": shape} for shape in shapes])


# ----------------------------------------------------------------------------- variations (search)

def vary(tagged, constants, limit=40, parts=(), values=()):
    """Neighbours of one tagged value: ints ±1/±2/0/negated, boundary constants, shortened and
    extended strings and sequences, elements varied in place; strings also spliced with `parts`
    (`donors`: structured parts of known strings), and a container's items or values put in a list
    or swapped for `values` (`value_donors`: the values other inputs hold at some depth)."""
    t = tagged.get("t")
    out = []
    extra = 0
    try:
        if t == "int":
            n = int(tagged["v"])
            # ±1 and the bool an int may stand for (`True == 1`: the branches that set bools apart),
            # then the boundary constants (the first survive a short limit: a list's items), then the rest
            cand = [n - 1, n + 1, bool(n)]
            for c in constants:
                if type(c) is int:
                    cand += [c - 1, c, c + 1]
                elif type(c) is float:
                    cand += [int(c), int(c) + 1, int(c) - 1]
            cand += [n - 2, n + 2, 0, -n, -1, 1, n * 2, n // 2, not n]
            out = [tag(x) for x in cand if abs(x) <= MAX_INT_ABS]
        elif t == "float":
            x = float(tagged["v"])
            cand = [x - 1, x + 1, x / 2, 0.0, -x, x + 0.5, x - 0.5]
            for c in constants:
                if type(c) in (int, float):
                    cand += [float(c) - 0.5, float(c), float(c) + 0.5, float(c) - 1, float(c) + 1]
            out = [tag(v) for v in cand if v == v and abs(v) < 1e12]
        elif t == "bool":
            out = [tag(not tagged["v"])]
        elif t == "str":
            s = tagged["v"]
            cand = [s[:-1], s[1:], s + (s[-1:] or "a"), "", s * 2, s.upper(), s.lower(), s + " ", " " + s, s[: len(s) // 2]]
            cand += [s[:i] + " " + s[i:] for i in (1, 2) if len(s) > i]
            cand += splices(s, parts, limit=12)
            # on top of the limit, not in place of what it kept before (two for a value inside another)
            fields = _field_variations(s, constants, limit=12 if limit >= 40 else 2)
            extra = len(fields)
            cand += fields
            cand += _quoted_insertions(s, [c for c in constants if type(c) is str and 0 < len(c) <= 3])
            cand += _token_swaps(s, [c for c in constants if type(c) is str and c])
            cand += _digit_variations(s, constants)
            for c in constants:
                if type(c) is str:
                    cand += [c, c + s, s + c, c[:-1], c * 2]
                elif type(c) is int and 0 <= c < 64:
                    cand += [(s or "a") * c, ("ab" * 40)[:c], ("ab" * 40)[: c + 1], ("ab" * 40)[: max(c - 1, 0)]]
            out = [tag(x) for x in cand if len(x) < 4096]
        elif t == "bytes":
            b = codec.decode(tagged)
            out = [tag(x) for x in (b[:-1], b[1:], b + b"a", b"", b * 2)]
        elif t in ("list", "tuple"):
            items = tagged["v"]
            groups = [[items[:-1], items[1:], [], items + items[-1:], list(reversed(items)), items[:1]]]
            groups.append([(items * 33)[:n] for c in constants if type(c) is int and 0 <= c <= 32 and items
                           for n in (c, c + 1, max(c - 1, 0))])
            for k, item in enumerate(items[:4]):
                groups.append([items[:k] + [v] + items[k + 1:] for v in _swaps(item, values, 2)])
                groups.append([items[:k] + [v] + items[k + 1:] for v in vary(item, constants, limit=6, parts=parts, values=values)])
            # the groups take turns, so a short limit (an item of a container) still varies the items
            out = [{"t": t, "v": x} for x in _turns(groups)]
        elif t in ("set", "frozenset"):
            items = tagged["v"]
            out = [{"t": t, "v": items[:-1]}, {"t": t, "v": items[1:]}, {"t": t, "v": []}]
        elif t == "dict":
            pairs = tagged["v"]
            groups = [[pairs[:-1], pairs[1:], []]]
            for k, (key, value) in enumerate(pairs[:3]):
                groups.append([pairs[:k] + [[key, v]] + pairs[k + 1:] for v in _swaps(value, values, 3)])
                groups.append([pairs[:k] + [[key, v]] + pairs[k + 1:] for v in vary(value, constants, limit=4, parts=parts, values=values)])
                if key.get("t") == "str":  # a key a name pattern rejects (`'a b'`, `'a.b'`)
                    groups.append([pairs[:k] + [[tag(x), value]] + pairs[k + 1:] for x in (key["v"] + " x", key["v"] + ".y", "")])
            out = [{"t": "dict", "v": x} for x in _turns(groups)]
        elif t == "none":
            out = []
        elif t == "repr" and tagged.get("v") in CALLABLE_SOURCES:
            # another of the generated callables (exception classes, nullary ones: of the same group)
            for group in (EXCEPTION_CLASSES, CALLABLES_NULLARY):
                if tagged["v"] in {src for src, _ in group}:
                    out = [_callable_tag(src, imports) for src, imports in group]
                    break
            else:
                out = callable_pool()
        elif _file_content(tagged) is not None:  # an in-memory file over variations of what it holds
            out = [file_input(codec.decode(x)) for x in vary(tag(_file_content(tagged)), constants, limit=limit, parts=parts)]
        elif is_generated_repr(tagged) and tagged["v"].startswith("iter(["):  # over variations of its items
            items = tag(ast.literal_eval(tagged["v"][len("iter("):-1]))
            out = [iter_input(x) for x in vary(items, constants, limit=limit) if x.get("t") == "list"]
        elif t == "repr" and not is_generated_repr(tagged):
            # a value built with the codebase's own constructors (`Interval(1, 2)`): one literal of the
            # call varied at a time (`Interval(1, 3)`, `Interval(2, 2)`)
            out = _literal_variations(tagged, constants, limit)
        elif is_generated_repr(tagged) and tagged["v"].startswith("types.SimpleNamespace("):  # one attribute varied
            call = ast.parse(tagged["v"], mode="eval").body
            attrs = [(k.arg, ast.literal_eval(k.value)) for k in call.keywords]
            for j, (name, value) in enumerate(attrs):
                out.extend(_namespace_input(attrs[:j] + [(name, plain(v))] + attrs[j + 1:])
                           for v in vary(tag(value), constants, limit=6) if _is_plain(v))
    except (ValueError, TypeError, OverflowError, KeyError):
        out = []
    key = codec.canonical(tagged)
    return [x for x in _dedupe(out) if codec.canonical(x) != key][:limit + extra]


MAX_VARIED_LITERALS = 6
MAX_REPR_SOURCE = 2000  # longer sources (a whole parsed document) are not varied literal by literal


def _literal_variations(tagged, constants, limit):
    """A `repr` input's source with one of its first MAX_VARIED_LITERALS literals (ints, floats,
    strings, bools) set to a neighbour of it (vary), the literals taking turns."""
    source = tagged.get("v")
    if not isinstance(source, str) or len(source) > MAX_REPR_SOURCE:
        return []
    try:
        tree = ast.parse(source, mode="eval")
    except SyntaxError:
        return []
    literals = [n for n in ast.walk(tree) if isinstance(n, ast.Constant) and type(n.value) in (int, float, str, bool)]
    groups = []
    for node in literals[:MAX_VARIED_LITERALS]:
        held = node.value
        group = []
        for v in vary(tag(held), constants, limit=6):
            try:
                node.value = codec.decode(v)
            except Exception:  # noqa: BLE001 - a neighbour with no plain value
                continue
            group.append({"t": "repr", "v": ast.unparse(tree), "imports": list(tagged.get("imports") or [])})
        node.value = held
        groups.append(group)
    return _turns(groups)[:limit]


DIGITS = re.compile(r"\d+")


def _digit_variations(s, constants):
    """`s` with one of its first three digit runs changed (`'50%'` → `'49%'`, `'-50%'`, `'101%'`):
    the numbers a parser reads out of a string, at ±1, 0 and the body's int constants ±1."""
    out = []
    for m in list(DIGITS.finditer(s))[:3]:
        if len(m.group()) > 9:
            continue
        n = int(m.group())
        nums = [n + 1, n - 1, 0, n * 10 + 5, -n]
        ints = [c for c in constants if type(c) is int and abs(c) < MAX_INT_ABS]
        nums = [str(x) for x in [n + 1, n - 1, 0, n * 10 + 5, -n] + [c + d for c in ints for d in (-1, 0, 1)]]
        nums += ["%d.5" % x for x in [n] + [c - 1 for c in ints] + ints]  # just past a boundary
        out.append([s[:m.start()] + x + s[m.end():] for x in nums])
    # round-robin over the runs, so the first run's variations do not crowd out the others
    return [x for group in itertools.zip_longest(*out) for x in group if x is not None][:18]


FIELD_WORD = re.compile(r"[A-Za-z_][A-Za-z0-9_-]{0,15}\Z")


def _field_variations(s, constants, limit=12):
    """`s` read as fields between the body's separator strings (`;`, `=`, `,`: constants of one or
    two characters, none a letter or digit, that `s` holds), with one of its first fields set to a
    number, to a word of the body (`'color'`) or to such a word and the separator next to the field
    before it (`'debug=green'` → `'debug=1'`, `'debug=background=green'`): the branches a parser of a
    delimited format takes on a field's kind, which shortening or splicing the string rarely reach."""
    strings = [c for c in constants if type(c) is str]
    separators = sorted({c for c in strings if 0 < len(c) <= 2 and not any(ch.isalnum() for ch in c) and c in s}, key=lambda c: (-len(c), c))
    if not separators:
        return []
    words = list(dict.fromkeys(c for c in strings if FIELD_WORD.match(c)))[:4]
    pieces = re.split("(%s)" % "|".join(re.escape(c) for c in separators), s)
    groups = []
    for k in range(0, len(pieces), 2)[:4]:
        field = pieces[k]
        if not field:
            continue
        sep = pieces[k - 1] if k > 0 else pieces[k + 1] if k + 1 < len(pieces) else separators[0]
        news = ["1"] + [w + sep + field for w in words[:2]] + words[:2] + [w + sep + "1" for w in words[:1]] + ["7"] + words[2:]
        groups.append(["".join(pieces[:k] + [new] + pieces[k + 1:]) for new in news if new != field])
    return _turns(groups)[:limit]


def _token_swaps(s, tokens):
    """`s` with a leading or trailing token of the body's strings swapped for each other one
    (`'>=1.0.0'` → `'<1.0.0'`, `'!=1.0.0'`): the operator or unit a parser reads off the ends."""
    out = []
    for c in sorted({c for c in tokens if len(c) <= 8}, key=lambda c: (-len(c), c))[:12]:
        if s.startswith(c) and len(s) > len(c):
            out.extend(d + s[len(c):] for d in tokens if d != c and len(d) <= 8)
            break
    for c in sorted({c for c in tokens if len(c) <= 8}, key=lambda c: (-len(c), c))[:12]:
        if s.endswith(c) and len(s) > len(c):
            out.extend(s[:-len(c)] + d for d in tokens if d != c and len(d) <= 8)
            break
    return out[:16]


OPENERS = {"[": "]", "{": "}", "(": ")"}
QUOTES = "\"'"
MAX_DONOR_LENGTH = 160


def segments(s, limit=24):
    """Spans (start, end) of the structured parts of a string, as a parser of it would see them:
    bracket-balanced groups (`[1, 2]`, `{a = 1}`, `(x)`), quoted strings, and the items a comma
    separates inside a group. Unbalanced text gives what balances; at most `limit` spans."""
    spans, stack = [], []
    k, n = 0, len(s)
    while k < n and len(spans) < limit * 2:
        ch = s[k]
        if ch in QUOTES:
            end = s.find(ch, k + 1)
            while end > 0 and s[end - 1] == "\\":
                end = s.find(ch, end + 1)
            if end < 0:
                break
            spans.append((k, end + 1))
            k = end + 1
            continue
        if ch in OPENERS:
            stack.append((ch, k))
        elif stack and ch == OPENERS[stack[-1][0]]:
            _, start = stack.pop()
            spans.append((start, k + 1))
            spans.extend(_items(s, start + 1, k))
        elif stack and ch in ")]}":
            stack = []
        k += 1
    spans = sorted(set(sp for sp in spans if sp[1] - sp[0] >= 1))
    return spans[:limit]


def _items(s, lo, hi):
    """The comma-separated items of s[lo:hi] at depth 0 (quotes and brackets skipped), stripped."""
    out, depth, quote, start = [], 0, None, lo
    for k in range(lo, hi + 1):
        ch = s[k] if k < hi else ","
        if quote:
            if ch == quote and s[k - 1] != "\\":
                quote = None
        elif ch in QUOTES:
            quote = ch
        elif ch in OPENERS:
            depth += 1
        elif ch in ")]}":
            depth -= 1
        elif ch == "," and depth == 0:
            a, b = start, k
            while a < b and s[a].isspace():
                a += 1
            while b > a and s[b - 1].isspace():
                b -= 1
            if b > a:
                out.append((a, b))
            start = k + 1
    return out if len(out) > 1 else []


def donors(strings, limit=24):
    """The structured parts of known strings (a target's inputs, the module's and its data files'
    strings): what a splice puts in place of another part. Short ones first, no repeats."""
    found = []
    for s in strings:
        if isinstance(s, str) and len(s) < 4096:
            found.extend(s[a:b] for a, b in segments(s) if b - a <= MAX_DONOR_LENGTH)
    # the kinds (groups of each bracket, quoted strings, other items) take turns, shortest first: a
    # `{…}` group is what an input of `[…]` groups lacks
    kinds = {}
    for d in sorted(dict.fromkeys(found), key=len):
        kinds.setdefault(d[0] if d[0] in OPENERS or d[0] in QUOTES else "", []).append(d)
    return _turns([kinds[k] for k in sorted(kinds)])[:limit]


def leaves(tagged_values, tags, depth=2, per_container=16):
    """The values of the given tags held in `tagged_values` and in their lists, tuples, sets and
    dicts (keys and values), at most `depth` levels down and `per_container` items of each, in order."""
    found = []

    def walk(tagged, level):
        t = tagged.get("t") if isinstance(tagged, dict) else None
        if t in tags:
            found.append(tagged)
        elif t in ("list", "tuple", "set", "frozenset") and level < depth:
            for x in tagged["v"][:per_container]:
                walk(x, level + 1)
        elif t == "dict" and level < depth:
            for key, v in tagged["v"][:per_container]:
                walk(key, level + 1)
                walk(v, level + 1)

    for tagged in tagged_values:
        walk(tagged, 0)
    return found


def init_values(init):
    """The tagged values an input's init holds: its arguments, or a rebuilt receiver's attributes."""
    init = init or {}
    return list(init.get("args") or []) + list((init.get("kwargs") or {}).values()) \
        + list(((init.get("restore") or {}).get("attrs") or {}).values())


def _held_scalars(init):
    """The ints and strings held inside an input's init (three levels down), without repeats."""
    return _dedupe(leaves(init_values(init), ("int", "str"), depth=3, per_container=8))[:16]


def _deep_variation(tagged, constants, parts, values, rng, depth=0):
    """`tagged` with one node, reached by a random path (a random item or value at each level,
    stopping at random), replaced by one of its variations (`vary`, `_swaps`) picked at random."""
    t = tagged.get("t")
    children = tagged["v"] if t in ("list", "tuple") else [v for _, v in tagged["v"]] if t == "dict" else []
    if children and depth < 4 and rng.random() < 0.7:
        k = rng.randrange(len(children))
        inner = _deep_variation(children[k], constants, parts, values, rng, depth + 1)
        if t == "dict":
            return {"t": t, "v": [[key, inner] if j == k else [key, v] for j, (key, v) in enumerate(tagged["v"])]}
        return {"t": t, "v": children[:k] + [inner] + children[k + 1:]}
    choices = _swaps(tagged, values, 4) + vary(tagged, constants, limit=12, parts=parts, values=values)
    return rng.choice(choices) if choices else tagged


def _turns(groups):
    """The groups' items taken in turn (the first of each, then the second of each, ...)."""
    return [x for turn in itertools.zip_longest(*groups) for x in turn if x is not None]


def _swaps(value, values, limit):
    """A container's item or value in a list of one and of two (a table becomes an array of tables),
    and swapped for known values of another kind (`values`)."""
    out = []
    if value.get("t") in ("dict", "list", "tuple"):
        out += [{"t": "list", "v": [value]}, {"t": "list", "v": [value, value]}]
    out += [v for v in values if v.get("t") != value.get("t")][:limit]
    return out


def value_donors(case_inputs, limit=12):
    """The containers and scalars held inside the inputs' arguments (below the top level, up to two
    levels down), kinds taking turns: what `_swaps` puts in place of an item or a value."""
    kinds = {}

    def walk(tagged, depth):
        t = tagged.get("t") if isinstance(tagged, dict) else None
        if t is None or t in ("repr", "object", "unavailable"):
            return
        if depth > 0:
            kinds.setdefault(t, {}).setdefault(codec.canonical(tagged), tagged)
        if depth < 2 and t in ("list", "tuple"):
            for x in tagged["v"][:8]:
                walk(x, depth + 1)
        elif depth < 2 and t == "dict":
            for _, v in tagged["v"][:8]:
                walk(v, depth + 1)

    for case_input in case_inputs:
        for tagged in list(case_input.get("args") or []) + list((case_input.get("kwargs") or {}).values()):
            walk(tagged, 0)
    return _turns([list(kinds[k].values()) for k in sorted(kinds)])[:limit]


def _quoted_insertions(s, tokens, limit=8):
    """`s` with one of the body's short string constants put inside one of its quoted parts
    (`'["a", "b"]'` → `'["a,", "b"]'`): the separators and escapes a parser must skip in a string."""
    quoted = [(a, b) for a, b in segments(s) if s[a] in QUOTES and b - a >= 2][:3]
    out = [s[:b - 1] + c + s[b - 1:] for a, b in quoted for c in dict.fromkeys(tokens)]
    return out[:limit]


def splices(s, parts, limit=24):
    """`s` with one structured part replaced by a donor part, every item of a group replaced by it
    (so a list stays homogeneous), an item dropped, and an item doubled: inputs of a new shape for
    a parser, built from shapes it already accepts (`[1, 2]` and `{x = 1}` give `[{x = 1}, {x = 1}]`)."""
    spans = segments(s)
    if not spans:
        return []
    out = []
    groups = {}
    for a, b in spans:
        for c, d in spans:
            if (c, d) != (a, b) and c < a and b < d:
                groups.setdefault((c, d), []).append((a, b))
    for (c, d), inner in list(groups.items())[:4]:
        items = [sp for sp in inner if not any(o[0] <= sp[0] and sp[1] <= o[1] and o != sp for o in inner)]
        for donor in parts[:8]:
            text, last = [], c + 1
            for a, b in items:
                text.append(s[last:a] + donor)
                last = b
            out.append(s[:c + 1] + "".join(text) + s[last:])
        if len(items) > 1:
            a, b = items[0]
            out.append(s[:a] + s[a:b] + ", " + s[a:b] + s[b:])
            nxt = items[1][0]
            out.append(s[:a] + s[nxt:])
    for a, b in [sp for sp in spans if sp != (0, len(s))][:8]:
        for donor in parts[:6]:
            if donor != s[a:b]:
                out.append(s[:a] + donor + s[b:])
    return [x for x in dict.fromkeys(out) if x != s and len(x) < 4096][:limit]


def _own_ints(case_input):
    """The ints an input holds (its arguments, init arguments and their list/tuple elements): an
    argument compared with another (`x in numeric_range(1, 10)`) is varied around them too."""
    found = []

    def walk(tagged, depth=0):
        t = tagged.get("t") if isinstance(tagged, dict) else None
        if t == "int" and abs(int(tagged["v"])) < MAX_INT_ABS:
            found.append(int(tagged["v"]))
        elif t in ("list", "tuple") and depth < 1:
            for x in tagged["v"][:8]:
                walk(x, depth + 1)

    init = case_input.get("init") or {}
    restored = list(((init.get("restore") or {}).get("attrs") or {}).values())
    for tagged in list(case_input.get("args") or []) + list((case_input.get("kwargs") or {}).values()) + list(init.get("args") or []) + restored:
        walk(tagged)
    return list(dict.fromkeys(found))[:8]


def neighbours(case_input, constants, rng, limit, parts=(), values=()):
    """Inputs near one input: each argument varied alone, adjacent positional arguments swapped,
    every int argument set to the boundary constants, and the init arguments varied. An input that
    calls the returned function (`probe`) keeps its probe, and its probe arguments are varied too."""
    out = []
    args, kwargs, init = case_input["args"], case_input.get("kwargs") or {}, case_input.get("init")
    probe = case_input.get("probe")

    state = {"state": True} if case_input.get("state") else {}
    if case_input.get("warm"):
        state["warm"] = case_input["warm"]

    def near(init=init, args=args, kwargs=kwargs, probe=probe):
        return {"init": init, "args": args, "kwargs": kwargs, **({"probe": probe} if probe is not None else {}), **state}

    near_constants = list(constants) + _own_ints(case_input)
    # each input's splices take the donor parts in another order: a search over several seeds (and
    # survivors) tries more of them than the first few
    parts = rng.sample(list(parts), len(parts))
    for k, value in enumerate(args):
        for v in vary(value, near_constants, parts=parts, values=values):
            out.append(near(args=args[:k] + [v] + args[k + 1:]))
    for name in sorted(kwargs):
        for v in vary(kwargs[name], near_constants, parts=parts, values=values):
            out.append(near(kwargs=dict(kwargs, **{name: v})))
    # an argument set to a value the receiver's init holds, of its kind (the key a mapping was built
    # with, the item a list holds): where a lookup finds something instead of raising KeyError
    held = _held_scalars(init)
    for k, value in enumerate(args):
        for v in [h for h in held if h.get("t") == value.get("t")][:6]:
            out.append(near(args=args[:k] + [v] + args[k + 1:]))
    # one node deep inside a container argument varied at random (a table inside an array inside a
    # table): the enumeration above varies the top levels only
    for k, value in enumerate(args):
        if value.get("t") in ("list", "tuple", "dict"):
            for _ in range(8):
                out.append(near(args=args[:k] + [_deep_variation(value, constants, parts, values, rng)] + args[k + 1:]))
    for k in range(len(args) - 1):
        swapped = list(args)
        swapped[k], swapped[k + 1] = swapped[k + 1], swapped[k]
        out.append(near(args=swapped))
    ints = [c for c in constants if type(c) is int]
    for c in ints:
        for d in (-1, 0, 1):
            out.append(near(args=[tag(c + d) if a.get("t") == "int" else a for a in args]))
    if init is not None and init.get("restore") is not None:
        # a receiver rebuilt from its attributes (traced at the call): one attribute varied at a time,
        # its ints around the body's constants and the ones it holds (a parser's `_index`)
        restore = init["restore"]
        attrs = restore["attrs"]
        for name in sorted(attrs):
            for v in vary(attrs[name], near_constants, limit=6, parts=parts):
                out.append(near(init=dict(init, restore=dict(restore, attrs=dict(attrs, **{name: v})))))
    elif init is not None:
        iargs = init.get("args", [])
        for k, value in enumerate(iargs):
            for v in vary(value, constants, limit=10, parts=parts):
                out.append(near(init={"args": iargs[:k] + [v] + iargs[k + 1:], "kwargs": init.get("kwargs") or {}}))
    for k, value in enumerate(probe or []):
        for v in vary(value, constants, limit=10):
            out.append(near(probe=probe[:k] + [v] + probe[k + 1:]))
    out = _dedupe(out)
    rng.shuffle(out)
    return out[:limit]
