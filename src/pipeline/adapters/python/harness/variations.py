"""Candidate inputs as tagged values, without importing repository code: call-site literals, values
generated from type hints and neighbouring literals, and variations of known inputs for the
mutant-guided search. Every function here is deterministic for a given `random.Random`."""
import ast
import itertools

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


def pool_for(hint, literals, seen, depth=0):
    """Tagged values for one parameter: from its hint, the body's literals (± 1) and values seen."""
    kind = hint.get("kind", "any")
    ints = [0, 1, -1, 2, 3, 10] + [i + d for i in literals.get("int", []) for d in (0, -1, 1) if abs(i) < MAX_INT_ABS]
    ints += [i for i in literals.get("moduleInt", []) if abs(i) < MAX_INT_ABS]
    strs = ["", "a", "ab", "abc", "hello world", "A-b c"] + [s for s in literals.get("str", [])] + [s + "x" for s in literals.get("str", []) if s]
    # module literals early enough to survive the pool's cut (generate keeps 12-24 per parameter)
    strs[4:4] = literals.get("moduleStr", [])[:8]
    strs += literals.get("moduleStr", [])[8:]
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
        out = _from_seen(seen, literals, depth)
    return _dedupe(list(seen) + out)


def _dedupe_pairs(pairs):
    out, keys = [], set()
    for k, v in pairs:
        c = codec.canonical(k)
        if c not in keys:
            keys.add(c)
            out.append([k, v])
    return out


def _from_seen(seen, literals, depth):
    """No usable hint: values of the kinds seen for this parameter (defaults, call sites, tests)."""
    kinds = [s.get("t") for s in seen]
    out = []
    for t in dict.fromkeys(kinds):
        if t in ("int", "float", "str", "bytes", "bool", "none"):
            out.extend(pool_for({"kind": t}, literals, [], depth + 1))
        elif t in ("list", "tuple", "set", "frozenset", "dict"):
            for s in seen:
                if s.get("t") == t:
                    out.extend(vary(s, [], limit=8))
    if not out:
        generic = [0, 1, -1, 2, "", "abc", [], [1, 2, 3], [3, 1, 2], None]
        generic += [i for i in literals.get("int", [])[:4]] + [s for s in literals.get("str", [])[:3]]
        generic += [s for s in literals.get("moduleStr", [])[:6]]
        out = [tag(v) for v in generic]
    return out


def generate(params, literals, seen_by_param, rng, limit):
    """Inputs {args, kwargs} from per-parameter pools: a base, one parameter varied at a time, then
    random combinations; parameters with defaults are left out of the base."""
    usable = [p for p in params if p["kind"] not in ("VAR_POSITIONAL", "VAR_KEYWORD")]
    pools = []
    for p in usable:
        seen = list(seen_by_param.get(p["name"], []))
        default = p.get("default")
        if default is not None and default.get("t") != "unavailable":
            seen.insert(0, default)
        pool = pool_for(p["hint"], literals, seen)
        pools.append(pool[:24] or [tag(None)])
    omit_default = [p.get("default") is not None for p in usable]

    def build(choice):
        args, kwargs = [], {}
        positional_open = True
        for p, value, omit in zip(usable, choice, omit_default):
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
    for i, pool in enumerate(pools):
        for value in pool[: 12 if len(pools) > 1 else 24]:
            choice = list(base)
            choice[i] = value
            out.append(build(choice))
    for _ in range(limit * 2):
        if not pools:
            break
        out.append(build([rng.choice(pool) for pool in pools]))
    out = [x for x in out if x is not None]
    return _dedupe(out)[:limit]


# ----------------------------------------------------------------------------- variations (search)

def vary(tagged, constants, limit=40):
    """Neighbours of one tagged value: ints ±1/±2/0/negated, boundary constants, shortened and
    extended strings and sequences, elements varied in place."""
    t = tagged.get("t")
    out = []
    try:
        if t == "int":
            n = int(tagged["v"])
            cand = [n - 1, n + 1, n - 2, n + 2, 0, -n, -1, 1, n * 2, n // 2]
            for c in constants:
                if type(c) is int:
                    cand += [c - 1, c, c + 1]
                elif type(c) is float:
                    cand += [int(c), int(c) + 1, int(c) - 1]
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
            shapes = [items[:-1], items[1:], [], items + items[-1:], list(reversed(items)), items[:1]]
            for c in constants:
                if type(c) is int and 0 <= c <= 32 and items:
                    shapes += [(items * 33)[:c], (items * 33)[: c + 1], (items * 33)[: max(c - 1, 0)]]
            for k, item in enumerate(items[:4]):
                for v in vary(item, constants, limit=6):
                    shapes.append(items[:k] + [v] + items[k + 1:])
            out = [{"t": t, "v": s} for s in shapes]
        elif t in ("set", "frozenset"):
            items = tagged["v"]
            out = [{"t": t, "v": items[:-1]}, {"t": t, "v": items[1:]}, {"t": t, "v": []}]
        elif t == "dict":
            pairs = tagged["v"]
            shapes = [pairs[:-1], pairs[1:], []]
            for k, (key, value) in enumerate(pairs[:3]):
                for v in vary(value, constants, limit=4):
                    shapes.append(pairs[:k] + [[key, v]] + pairs[k + 1:])
            out = [{"t": "dict", "v": s} for s in shapes]
        elif t == "none":
            out = []
    except (ValueError, TypeError, OverflowError, KeyError):
        out = []
    key = codec.canonical(tagged)
    return [x for x in _dedupe(out) if codec.canonical(x) != key][:limit]


def neighbours(case_input, constants, rng, limit):
    """Inputs near one input: each argument varied alone, adjacent positional arguments swapped,
    every int argument set to the boundary constants, and the init arguments varied."""
    out = []
    args, kwargs, init = case_input["args"], case_input.get("kwargs") or {}, case_input.get("init")
    for k, value in enumerate(args):
        for v in vary(value, constants):
            out.append({"init": init, "args": args[:k] + [v] + args[k + 1:], "kwargs": kwargs})
    for name in sorted(kwargs):
        for v in vary(kwargs[name], constants):
            out.append({"init": init, "args": args, "kwargs": dict(kwargs, **{name: v})})
    for k in range(len(args) - 1):
        swapped = list(args)
        swapped[k], swapped[k + 1] = swapped[k + 1], swapped[k]
        out.append({"init": init, "args": swapped, "kwargs": kwargs})
    ints = [c for c in constants if type(c) is int]
    for c in ints:
        for d in (-1, 0, 1):
            new = [tag(c + d) if a.get("t") == "int" else a for a in args]
            out.append({"init": init, "args": new, "kwargs": kwargs})
    if init is not None:
        iargs = init.get("args", [])
        for k, value in enumerate(iargs):
            for v in vary(value, constants, limit=10):
                out.append({"init": {"args": iargs[:k] + [v] + iargs[k + 1:], "kwargs": init.get("kwargs") or {}}, "args": args, "kwargs": kwargs})
    out = _dedupe(out)
    rng.shuffle(out)
    return out[:limit]
