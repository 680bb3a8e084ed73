"""Strings that MATCH a compiled regular expression, built by walking its parse tree.

A library that validates its input with a regex (`VersionInfo._REGEX`, `HEX_COLOR_RE`) only reaches
its interesting branches with strings the regex accepts, which generic strings almost never are.
`strings_for(pattern, seed)` walks `re._parser` (`sre_parse` before Python 3.11) and builds a few
candidates — the shortest (every repeat at its minimum, first alternative), one with every optional
part present, then random ones with small repeat counts that take each alternative and optional
part in turn (half of them also write a look-ahead's text) — and keeps only those the pattern
accepts (`fullmatch`, else `match`: anchors, word boundaries and look-behinds are not modelled, so a
candidate may miss). Deterministic for (pattern, seed); the work is capped (steps per candidate,
length, candidates), so it never hangs on a pathological pattern (a caller that runs the final match
check on strange patterns may still add an alarm, as the worker does).
"""
import random

try:  # Python 3.11+
    from re import _parser as sre_parse  # type: ignore[attr-defined]
    from re import _constants as sre_constants  # type: ignore[attr-defined]
except ImportError:  # pragma: no cover - older Pythons
    import sre_constants  # type: ignore[no-redef]
    import sre_parse  # type: ignore[no-redef]

MAXREPEAT = getattr(sre_constants, "MAXREPEAT", 4294967295)

DIGITS = "0123456789"
LOWER = "abcdefghijklmnopqrstuvwxyz"
UPPER = LOWER.upper()
WORD = LOWER + UPPER + DIGITS + "_"
# characters tried, in order, for a negated class, NOT_LITERAL or a non-word/non-digit category
OTHERS = "a0xZ_-. 9b#!/:+,;=@"


class _OutOfBudget(Exception):
    pass


def _name(op):
    return getattr(op, "name", None) or str(op)


class _Walker:
    """One candidate string: mode 'short' (minimum repeats, first alternative), 'full' (optional parts
    present, one pass of each repeat) or 'random' (random alternatives and small repeat counts)."""

    def __init__(self, rng, mode, max_repeat, max_len, max_steps, lookahead=False, cycle=None):
        self.rng, self.mode, self.lookahead = rng, mode, lookahead
        # visits per BRANCH / optional part over all candidates: random candidates take the
        # alternatives in turn, so every alternative shows up among the first few strings
        self.cycle = cycle if cycle is not None else {}
        self.max_repeat, self.max_len, self.max_steps = max_repeat, max_len, max_steps
        self.steps = 0
        self.out = []
        self.length = 0
        self.groups = {}

    def emit(self, text):
        self.length += len(text)
        if self.length > self.max_len:
            raise _OutOfBudget()
        self.out.append(text)

    def tick(self):
        self.steps += 1
        if self.steps > self.max_steps:
            raise _OutOfBudget()

    def seq(self, items):
        for op, av in items:
            self.node(op, av)

    def node(self, op, av):
        self.tick()
        name = _name(op)
        if name == "LITERAL":
            self.emit(chr(av))
        elif name == "NOT_LITERAL":
            self.emit(self.pick_other(lambda ch: ord(ch) != av))
        elif name == "ANY":
            self.emit("a" if self.mode != "random" else self.rng.choice(LOWER + DIGITS))
        elif name == "IN":
            self.emit(self.pick_in(av))
        elif name == "BRANCH":
            alternatives = av[1]
            chosen = alternatives[0] if self.mode == "short" else (
                alternatives[-1] if self.mode == "full" else alternatives[self.turn(av, len(alternatives))])
            self.seq(chosen)
        elif name == "SUBPATTERN":
            group, body = av[0], av[-1]
            start = len(self.out)
            self.seq(body)
            if group is not None:
                self.groups[group] = "".join(self.out[start:])
        elif name == "ATOMIC_GROUP":
            self.seq(av)
        elif name in ("MAX_REPEAT", "MIN_REPEAT", "POSSESSIVE_REPEAT"):
            lo, hi, body = av
            self.repeat(lo, hi, body)
        elif name == "GROUPREF":
            self.emit(self.groups.get(av, ""))
        elif name == "GROUPREF_EXISTS":
            group, yes, no = av[0], av[1], av[2]
            if group in self.groups:
                self.seq(yes)
            elif no:
                self.seq(no)
        elif name == "CATEGORY":
            self.emit(self.pick_category(av))
        elif name == "ASSERT" and self.lookahead and av[0] == 1:
            self.seq(av[1])  # a trailing look-ahead's text, for `match` (a prefix match) to accept
        elif name in ("AT", "ASSERT", "ASSERT_NOT"):
            pass  # anchors and look-arounds: not modelled (the final match check filters)
        else:
            raise _OutOfBudget()  # an opcode this walker does not know

    def repeat(self, lo, hi, body):
        hi = hi if hi != MAXREPEAT else lo + self.max_repeat
        if self.mode == "short":
            n = lo
        elif self.mode == "full":
            n = max(lo, min(hi, 1))
        elif hi == lo + 1:
            n = lo + self.turn(body, 2, start=1)  # an optional part: present, absent, present, ...
        else:
            n = self.rng.choice([lo, lo, lo + 1, lo + 1, lo + 2, lo + self.max_repeat])
        n = max(lo, min(n, hi))
        for _ in range(n):
            self.seq(body)

    def turn(self, key, n, start=0):
        k = self.cycle.get(id(key), start)
        self.cycle[id(key)] = k + 1
        return k % n

    # ------------------------------------------------------------------------- characters

    def pick_other(self, accept):
        for ch in OTHERS if self.mode != "random" else self.rng.sample(OTHERS, len(OTHERS)):
            if accept(ch):
                return ch
        raise _OutOfBudget()

    def pick_category(self, cat):
        cat = _name(cat)
        if cat.endswith("NOT_DIGIT"):
            return self.pick_other(lambda ch: not ch.isdigit())
        if cat.endswith("DIGIT"):
            return "0" if self.mode == "short" else self.rng.choice(DIGITS)
        if cat.endswith("NOT_SPACE"):
            return self.pick_other(lambda ch: not ch.isspace())
        if cat.endswith("SPACE"):
            return " "
        if cat.endswith("NOT_WORD"):
            return self.pick_other(lambda ch: not (ch.isalnum() or ch == "_"))
        if cat.endswith("WORD"):
            return "a" if self.mode == "short" else self.rng.choice(WORD)
        if cat.endswith("NOT_LINEBREAK"):
            return "a"
        if cat.endswith("LINEBREAK"):
            return "\n"
        raise _OutOfBudget()

    def pick_in(self, items):
        negate = any(_name(op) == "NEGATE" for op, _ in items)
        items = [(op, av) for op, av in items if _name(op) != "NEGATE"]
        if negate:
            return self.pick_other(lambda ch: not _in_set(items, ch))
        if not items:
            raise _OutOfBudget()
        op, av = items[0] if self.mode == "short" else self.rng.choice(items)
        name = _name(op)
        if name == "LITERAL":
            return chr(av)
        if name == "RANGE":
            lo, hi = av
            return chr(lo) if self.mode == "short" else chr(self.rng.randint(lo, min(hi, lo + 200)))
        if name == "CATEGORY":
            return self.pick_category(av)
        raise _OutOfBudget()


def _in_set(items, ch):
    code = ord(ch)
    for op, av in items:
        name = _name(op)
        if name == "LITERAL" and av == code:
            return True
        if name == "RANGE" and av[0] <= code <= av[1]:
            return True
        if name == "CATEGORY":
            cat = _name(av)
            tests = {"DIGIT": ch.isdigit(), "SPACE": ch.isspace(), "WORD": ch.isalnum() or ch == "_",
                     "LINEBREAK": ch == "\n"}
            for key, hit in tests.items():
                if cat.endswith("NOT_" + key):
                    if not hit:
                        return True
                    break
                if cat.endswith(key):
                    if hit:
                        return True
                    break
    return False


def _accepts(pattern, text):
    try:
        return pattern.fullmatch(text) is not None or pattern.match(text) is not None
    except Exception:  # noqa: BLE001 - a str pattern given bytes, a broken pattern
        return False


def strings_for(pattern, seed=0, limit=6, max_repeat=3, max_len=64, max_steps=4000, attempts=24):
    """Up to `limit` distinct strings the compiled `pattern` accepts, shortest-first candidates then
    random ones; [] for a pattern this walker cannot model. bytes patterns give bytes."""
    source = pattern.pattern
    is_bytes = isinstance(source, bytes)
    try:
        tree = sre_parse.parse(source, pattern.flags)
    except Exception:  # noqa: BLE001 - a pattern this Python parses differently
        return []
    items = list(tree.data if hasattr(tree, "data") else tree)
    rng = random.Random("%s:%r" % (seed, source))
    modes = ["short", "full"] + ["random"] * max(attempts - 2, 0)
    out, seen, cycle = [], set(), {}
    for k, mode in enumerate(modes):
        if len(out) >= limit:
            break
        walker = _Walker(rng, mode, max_repeat, max_len, max_steps, lookahead=k % 2 == 1, cycle=cycle)
        try:
            walker.seq(items)
        except (_OutOfBudget, ValueError, OverflowError, RecursionError):
            continue
        text = "".join(walker.out)
        if is_bytes:
            try:
                text = text.encode("latin-1")
            except UnicodeEncodeError:
                continue
        if text in seen:
            continue
        seen.add(text)
        if _accepts(pattern, text):
            out.append(text)
    return out
