"""Inputs for the Go mutant-guided search (mutate_driver.py): variations of a target's recorded
calls, one argument changed at a time, each still a Go expression of its parameter's type.

An argument is varied when it is a literal the search can read: a string ("..."), an integer, a
float, a rune, true/false, or a slice literal of such elements (`[]string{"a", "b"}`). Anything else
(a struct literal, a call, a package's name) is kept as it was.
"""
import ast
import json
import random
import re

# text probes a library of strings tends to treat differently: case, separators, digits, spaces,
# non-ASCII letters, control characters, emptiness
STRING_PROBES = ["", " ", "a", "A", "ab", "Hello World", "hello_world", "HelloWorld", "helloWorld", "hello-world",
                 "HTTPServer", "a1b2", "123", "-1.5", "x y  z", " padded ", "\t", "a\nb", "éß", "日本語", "ÀÉÎ", "a,b;c", "foo.bar/baz",
                 "v1.2.3", "1.0.0-alpha+001", "'quoted' \"text\"", "a\\b", "$HOME", "*?[]"]
INT_PROBES = [0, 1, -1, 2, 3, 7, 10, 100, 1000, 1024, 65535, 1000000]
FLOAT_PROBES = [0.0, 0.5, -0.5, 1.0, 1.5, -2.25, 1e3, 1e-3, 123456.789]
RUNE_PROBES = ["a", "Z", "0", " ", "_", "-", "é", "\t"]

INT_RANGES = {
    "int8": (-(1 << 7), (1 << 7) - 1), "int16": (-(1 << 15), (1 << 15) - 1), "int32": (-(1 << 31), (1 << 31) - 1), "rune": (-(1 << 31), (1 << 31) - 1),
    "int": (-(1 << 63), (1 << 63) - 1), "int64": (-(1 << 63), (1 << 63) - 1),
    "uint8": (0, 255), "byte": (0, 255), "uint16": (0, 65535), "uint32": (0, (1 << 32) - 1), "uint": (0, (1 << 64) - 1), "uint64": (0, (1 << 64) - 1), "uintptr": (0, (1 << 64) - 1),
}
STRING_LITERAL = re.compile(r'"(?:[^"\\\n]|\\.)*"')
INTEGER = re.compile(r"-?\d+")
FLOAT = re.compile(r"-?\d+\.\d*(?:[eE][-+]?\d+)?|-?\d+[eE][-+]?\d+")
RUNE = re.compile(r"'(?:[^'\\]|\\.)+'")


def go_string(text):
    """A Go interpreted string literal of text (JSON's escapes are Go's, non-ASCII kept as it is)."""
    return json.dumps(text, ensure_ascii=False)


def go_rune(ch):
    """A Go rune literal of one character."""
    escapes = {"\t": "\\t", "\n": "\\n", "\\": "\\\\", "'": "\\'"}
    return "'%s'" % escapes.get(ch, ch)


def read_rune(expr):
    """The code point of a Go rune literal, or None."""
    body = expr[1:-1]
    if len(body) == 1:
        return ord(body)
    try:
        value = ast.literal_eval('"%s"' % body)
        return ord(value) if isinstance(value, str) and len(value) == 1 else None
    except (ValueError, SyntaxError):
        return None


def read_string(expr):
    try:
        return json.loads(expr)
    except ValueError:
        try:
            value = ast.literal_eval(expr)
            return value if isinstance(value, str) else None
        except (ValueError, SyntaxError):
            return None


def split_top(text):
    """text split at its top-level commas (none inside brackets or literals)."""
    parts, depth, start, i = [], 0, 0, 0
    while i < len(text):
        ch = text[i]
        if ch in "\"'`":
            j = i + 1
            while j < len(text) and text[j] != ch:
                j += 2 if text[j] == "\\" and ch != "`" else 1
            i = j + 1
            continue
        if ch in "([{":
            depth += 1
        elif ch in ")]}":
            depth -= 1
        elif ch == "," and depth == 0:
            parts.append(text[start:i].strip())
            start = i + 1
        i += 1
    tail = text[start:].strip()
    if tail:
        parts.append(tail)
    return parts


def scalar_variations(expr, typ, rnd):
    """Other expressions of the scalar type `typ` near `expr`, or [] when expr is no literal the search reads."""
    typ = (typ or "").strip()
    if STRING_LITERAL.fullmatch(expr):
        s = read_string(expr)
        if s is None:
            return []
        near = ["", s + s, s[1:], s[:-1], s.upper(), s.lower(), s.swapcase(), s.title(), " " + s, s + " ", s[::-1], s + "1", "é" + s, s.replace(" ", "_")]
        out = near + rnd.sample(STRING_PROBES, 8)
        return [go_string(x) for x in out]
    if expr in ("true", "false"):
        return ["false" if expr == "true" else "true"]
    if RUNE.fullmatch(expr):
        value = read_rune(expr)
        near = [] if value is None else [value + 1, value - 1, value ^ 0x20, value + 25, value - 25]
        runes = [chr(v) for v in near if 0x20 <= v < 0xD800] + RUNE_PROBES
        return [go_rune(r) for r in runes]
    if INTEGER.fullmatch(expr):
        n = int(expr)
        lo, hi = INT_RANGES.get(typ, INT_RANGES["int64"])
        # the small ones all: a length, an index or a width is often compared with a string's
        values = [n + 1, n - 1, -n, n * 2, n + 10, n // 2] + list(range(0, 9)) + rnd.sample(INT_PROBES, 4)
        return [str(v) for v in values if lo <= v <= hi]
    if FLOAT.fullmatch(expr):
        x = float(expr)
        values = [x + 1, x - 1, -x, x * 2, x / 3, round(x)] + rnd.sample(FLOAT_PROBES, 4)
        return [repr(float(v)) for v in values]
    return []


def variations(arg, rnd):
    """Other Go expressions for a typed argument ({"v": expr, "type": T}) of the same type."""
    expr, typ = arg.get("v", ""), arg.get("type") or ""
    m = re.fullmatch(r"\[\]([\w.]+)\{(.*)\}", expr, re.S)
    if m and typ.startswith("[]"):
        elem_type, items = m.group(1), split_top(m.group(2))
        if not all(scalar_variations(x, elem_type, rnd) or x in ("true", "false") for x in items):
            return []
        lists = [[], items[1:], items[:-1], items + items[:1], list(reversed(items))]
        for i, item in enumerate(items[:3]):
            for v in scalar_variations(item, elem_type, rnd)[:4]:
                lists.append(items[:i] + [v] + items[i + 1:])
        return ["[]%s{%s}" % (elem_type, ", ".join(x)) for x in lists]
    m = re.fullmatch(r"([\w.]+)\((.+)\)", expr, re.S)
    if m and not m.group(1).startswith("codemidas"):
        # a conversion of a literal (`Level(2)`, `time.Duration(1000)`): the literal varied inside it
        inner = m.group(2).strip()
        return ["%s(%s)" % (m.group(1), v) for v in scalar_variations(inner, "int64" if INTEGER.fullmatch(inner) else "", rnd)]
    return scalar_variations(expr, typ, rnd)


def search_inputs(cases, seed, limit):
    """Up to `limit` new calls (receiver, typed args) near the recorded `cases`, none already recorded."""
    rnd = random.Random(seed)
    seen = {json.dumps([((c.get("init") or {}).get("args") or [None])[0], [a.get("v") for a in c.get("args", [])]]) for c in cases}
    pool = []
    for case in cases:
        receiver = ((case.get("init") or {}).get("args") or [None])[0]
        args = case.get("args", [])
        for i, arg in enumerate(args):
            for v in variations(arg, rnd):
                new_args = [dict(a) for a in args]
                new_args[i]["v"] = v
                key = json.dumps([receiver, [a.get("v") for a in new_args]])
                if key in seen:
                    continue
                seen.add(key)
                pool.append((receiver, new_args))
    rnd.shuffle(pool)
    return pool[:limit]
