"""Recorder-side helpers shared by record.py and mutate.py. Nothing here imports repository code:
that happens only in worker.py and tracer.py processes, which this module starts and kills."""
import functools
import hashlib
import itertools
import json
import keyword
import os
import re
import select
import signal
import subprocess
import sys
import time

_load = sys.modules["_codemidas__load"]

HERE = _load.HERE
codec = _load.load("codec")
values = _load.load("values")
values.codec = codec

SOURCES = ("repo-test", "doctest", "call-site", "inner-call", "result-flow", "type-hint", "constructed", "mutant-search", "llm")


class WorkerDied(Exception):
    pass


# The hash seed of the run whose outcome becomes a case (the judge runs subjects with the same one:
# judge.HASH_SEED), and of the second run that must agree with it: a result whose order follows string
# hashes (a set's iteration) differs between the two and is dropped as non-deterministic; one that
# happens to agree is judged under the seed it was recorded with, so its reward never flips.
HASH_SEED = "0"
SECOND_HASH_SEED = "1"


def python_command(script, *args):
    """argv running one of the harness's scripts isolated as -I would (-s -P -B, and `python_env`),
    but honouring PYTHONHASHSEED, which -I ignores."""
    return [sys.executable, "-s", "-P", "-B", os.path.join(HERE, script)] + [str(a) for a in args]


def python_env(hash_seed=HASH_SEED):
    """This process's environment without PYTHON* variables (what -E would ignore), with the seed."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("PYTHON")}
    env["PYTHONHASHSEED"] = hash_seed
    return env


class Worker:
    """One worker.py process serving one target; answers are JSON lines on a private pipe."""

    def __init__(self, config, log=None, hash_seed=HASH_SEED):
        self.config = config
        self.hash_seed = hash_seed
        req_r, self.req_w = os.pipe()
        self.res_r, res_w = os.pipe()
        self.proc = subprocess.Popen(
            python_command("worker.py", req_r, res_w), env=python_env(hash_seed),
            pass_fds=(req_r, res_w), stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
            stderr=log if log is not None else subprocess.DEVNULL, cwd=config["repoRoot"], start_new_session=True)
        os.close(req_r)
        os.close(res_w)
        self.buffer = b""

    def call(self, request, timeout_s):
        data = (json.dumps(request, separators=(",", ":")) + "\n").encode()
        try:
            view = memoryview(data)
            while view:
                n = os.write(self.req_w, view)
                view = view[n:]
        except OSError:
            raise WorkerDied("worker gone")
        deadline = time.monotonic() + timeout_s
        while b"\n" not in self.buffer:
            left = deadline - time.monotonic()
            if left <= 0:
                self.close()
                raise WorkerDied("worker did not answer in time")
            ready, _, _ = select.select([self.res_r], [], [], left)
            if not ready:
                continue
            chunk = os.read(self.res_r, 1 << 20)
            if not chunk:
                self.close()
                raise WorkerDied("worker exited")
            self.buffer += chunk
        line, self.buffer = self.buffer.split(b"\n", 1)
        return json.loads(line)

    def close(self):
        if self.proc.poll() is None:
            try:
                os.killpg(self.proc.pid, signal.SIGKILL)
            except OSError:
                pass
        try:
            self.proc.wait(timeout=5)
        except subprocess.TimeoutExpired:
            pass
        for fd in (self.req_w, self.res_r):
            try:
                os.close(fd)
            except OSError:
                pass


def start_worker(config, target, hash_seed=HASH_SEED):
    """A worker with the target's module imported, or (None, drop) when that fails."""
    worker = Worker(config, hash_seed=hash_seed)
    try:
        answer = worker.call({"op": "setup", "sysPath": config["sysPath"], "module": target["module"],
                              "qualname": target["qualname"], "kind": target["kind"],
                              "importTimeoutMs": config.get("importTimeoutMs", 20000),
                              "memoryBytes": config.get("memoryBytes", 2 << 30),
                              # mutants of a helper the target reaches (Unit.via), not of the target itself
                              "mutantOf": target.get("mutantOf")}, config.get("importTimeoutMs", 20000) / 1000.0 + 10)
    except WorkerDied as exc:
        worker.close()
        return None, {"code": "import-error", "reason": "the worker died while importing %s: %s" % (target["module"], exc)}
    if not answer.get("ok"):
        worker.close()
        return None, {"code": answer.get("code", "import-error"), "reason": answer.get("error", "cannot load the target")[:300]}
    worker.info = answer
    worker.target = target
    return worker, None


def run_one(worker, case, config, trace=False, mutant=None):
    timeout_ms = config.get("callTimeoutMs", 2000)
    request = {"op": "run", "case": case, "timeoutMs": timeout_ms, "trace": trace}
    if mutant is not None:
        request["mutant"] = mutant
    return worker.call(request, timeout_ms / 1000.0 + 30)


def run_batch(worker, cases, config, trace=False, mutant=None, timeout_ms=None, case_limits=None, expected=None, with_args_after=None,
              stop_on_timeout=False):
    """The worker's outcomes of `cases` in one child (each with `ms`). `case_limits`: each case's own
    wall-clock limit in ms; `expected` (canonical verdicts, with `with_args_after`): stop at the first
    case that differs (the outcomes end there)."""
    if timeout_ms is None:
        timeout_ms = config.get("callTimeoutMs", 2000) * 2 + 200 * len(cases)
        if case_limits is not None:
            timeout_ms = min(timeout_ms, int(sum(case_limits)) + 2000)
    request = {"op": "batch", "cases": cases, "timeoutMs": timeout_ms, "trace": trace}
    if mutant is not None:
        request["mutant"] = mutant
    if case_limits is not None:
        request["caseTimeoutMs"] = case_limits
    if expected is not None:
        request["expected"] = expected
        request["withArgsAfter"] = with_args_after or [False] * len(cases)
    if stop_on_timeout:
        request["stopOnTimeout"] = True
    return worker.call(request, timeout_ms / 1000.0 + 30)


# A mutant's run of a case is cut at this multiple of the original's time (the original's traced run,
# itself slower than an untraced one), and never below MUTANT_CASE_FLOOR_MS: a mutant that loops
# forever costs half a second, not the whole batch's limit. Only mutants ever run under it.
MUTANT_CASE_FACTOR = 50
MUTANT_CASE_FLOOR_MS = 500


def mutant_case_limits(outcomes, config):
    """Each case's limit for a mutant's run, from the original's outcomes (their `ms`)."""
    ceiling = config.get("callTimeoutMs", 2000)
    return [min(ceiling, max(MUTANT_CASE_FLOOR_MS, int(MUTANT_CASE_FACTOR * (o.get("ms") or ceiling)))) for o in outcomes]


def input_of(case):
    """The input of a case: init, args, kwargs, and `probe` (the arguments the returned function is
    called with, see probed_case) when it has one."""
    out = {"init": case.get("init"), "args": case.get("args", []), "kwargs": case.get("kwargs") or {}}
    if case.get("probe") is not None:
        out["probe"] = case["probe"]
    if case.get("state"):
        out["state"] = True
    if case.get("warm"):
        out["warm"] = case["warm"]
    return out


def lazy_form(case_or_outcome):
    """The collected form of a case or outcome (worker.run_case `lazy`): True (the result collected,
    list(islice(<call>, N))), "nested" (each iterator element of a tuple or list result collected)
    or False (the call itself)."""
    form = case_or_outcome.get("lazy")
    return "nested" if form == "nested" else bool(form)


def judged_input(case):
    """A recorded case's input as mutate.py replays it: with `lazy` fixing the form the task judges
    it in (lazy_form), see worker.run_case."""
    return dict(input_of(case), lazy=lazy_form(case))


def input_key(case):
    return codec.canonical(input_of(case))


def case_id(qualname, case):
    slug = qualname.replace(".", "-").replace("_", "-").lower()
    return "%s-%s" % (slug, hashlib.sha256(input_key(case).encode()).hexdigest()[:10])


MUTABLE_TAGS = ("list", "dict", "set", "repr", "object")


def verdict(outcome, with_args_after):
    """The part of an outcome a hidden test judges, as canonical text (None: not a usable outcome)."""
    kind = outcome.get("kind")
    if kind == "returns":
        judged = {"returns": outcome["value"]}
    elif kind == "raises":
        judged = {"raises": outcome["type"]}
    else:
        return None
    if with_args_after:
        judged["argsAfter"] = outcome.get("argsAfter")
    # floats to 12 digits: the judge compares them within a tolerance (codec.close)
    return codec.canonical(codec.rounded(judged))


def needs_args_after(case):
    return any(a.get("t") in MUTABLE_TAGS for a in case.get("args", []))


def expected_verdict(case):
    judged = dict(case["expect"])
    if case.get("argsAfter") is not None:
        judged["argsAfter"] = case["argsAfter"]
    return codec.canonical(codec.rounded(judged))


# A case's `raises` when the hidden test checks only that the call raises (an exception the library
# never raises itself, on an input outside its contract), and the types it never stands for: the
# judge's, from the codec both share.
ANY_EXCEPTION = codec.ANY_EXCEPTION
NOT_ANY_EXCEPTION = codec.NOT_ANY_EXCEPTION


def promised_outcome(outcome):
    """Whether a hidden test may assert this outcome exactly: a result always; an exception only when
    the repository's own code raised it (worker._raised_by_repository: a `raise` or `assert` of the
    library) or the documentation of the function called (or its class) names its type
    (worker._documented). A `TypeError` out of `None.lower()` or a `ValueError` out of `int('x')`
    is neither: its case asserts only that the call raises (ANY_EXCEPTION; issue 19, part 4)."""
    return outcome.get("kind") != "raises" or outcome.get("raisedBy") == "repository" or bool(outcome.get("documented"))


def expected_verdict_of(outcome, with_args_after):
    """The verdict of the case an original outcome gives (make_case): an exception not promised as
    ANY_EXCEPTION."""
    if outcome.get("kind") == "raises" and not promised_outcome(outcome) and outcome.get("type") not in NOT_ANY_EXCEPTION:
        outcome = dict(outcome, type=ANY_EXCEPTION)
    return verdict(outcome, with_args_after)


def judged_verdict(outcome, with_args_after, want):
    """An outcome's verdict as the judge reads it against the expected verdict `want`: any exception
    but NOT_ANY_EXCEPTION's meets a case that expects ANY_EXCEPTION."""
    if (want is not None and outcome.get("kind") == "raises" and outcome.get("type") not in NOT_ANY_EXCEPTION
            and '"raises":"%s"' % ANY_EXCEPTION in want):
        outcome = dict(outcome, type=ANY_EXCEPTION)
    return verdict(outcome, with_args_after)


def make_case(target, case_input, outcome, source, generator=False):
    """A recorded case from an input and its outcome. An outcome collected from a returned iterator
    (worker `lazy`) gives a case marked `lazy: true`, judged like a generator's (collected_case); the
    mark never reaches the task: mutate.py converts or removes it (judged_cases)."""
    lazy = lazy_form(outcome) if not generator else False
    case = {"id": "", "module": target["module"], "target": target["qualname"], "init": case_input.get("init"),
            "args": case_input.get("args", []), "kwargs": case_input.get("kwargs") or {}}
    if outcome["kind"] == "returns":
        case["expect"] = {"returns": outcome["value"]}
    elif promised_outcome(outcome) or outcome["type"] in NOT_ANY_EXCEPTION:
        case["expect"] = {"raises": outcome["type"]}
    else:
        # an exception the library never raises itself: the case asserts only that the call raises
        case["expect"] = {"raises": ANY_EXCEPTION}
    probe = case_input.get("probe")
    if probe is not None:
        case["probe"] = probe
    if outcome.get("construct"):
        case["construct"] = True
        case["init"] = None
    if case_input.get("state"):
        case["state"] = True
    if outcome.get("attribute"):
        case["attribute"] = True
    if case_input.get("warm"):
        case["warm"] = case_input["warm"]
    collected = (generator or lazy or probe is not None or bool(outcome.get("construct")) or bool(case_input.get("state"))
                 or bool(outcome.get("attribute")) or bool(case_input.get("warm")) or restored(case))
    case["argsAfter"] = outcome.get("argsAfter") if needs_args_after(case) and not collected else None
    case["source"] = source
    if outcome.get("shown") is not None:
        # what the REPL prints for it (worker._shown_outputs): the prompt's examples show that
        case["shown"] = outcome["shown"]
    if outcome.get("exit") is not None:
        # the line the target's call ended on (a return, or where an exception came out): with the
        # outcome, the case's behaviour class (the prompt shows one example of each)
        case["path"] = "line %d" % outcome["exit"]
    case["id"] = case_id(target["qualname"], case)
    if lazy:
        case["lazy"] = lazy
    return case


def judged_elsewhere(case, generator=False):
    """Whether the task judges the case in another form than the call itself: collected (a generator
    target, a `lazy` case) or probed (the call returned a function). Such a case needs every input
    as source."""
    return bool(generator or case.get("lazy") or case.get("probe") is not None or case.get("construct") or case.get("state")
                or case.get("attribute") or case.get("warm") or restored(case))


def restored(case):
    """Whether a method case's instance is rebuilt from its attributes (init `restore`, traced at the
    call) rather than built by its class: the task judges it as restored_case."""
    init = case.get("init")
    return isinstance(init, dict) and init.get("restore") is not None


# Kept equal to worker.GENERATOR_ITEMS: the recorder collects exactly what the task's case evaluates.
GENERATOR_ITEMS = 100


def to_source(tagged, imports):
    """Python source of a tagged input (the names a `repr` value needs are added to `imports`)."""
    return values.source_of(tagged, imports)


def collected_case(target, case, bound):
    """A generator target's case (or a `lazy` case: the call returned an iterator) as the task
    judges it: a call of builtins.list on
    `itertools.islice(<module>.<qualname>(<args>), GENERATOR_ITEMS)` (a `repr` input, built when the
    subject decodes the inputs), expecting the list of the first items or the exception type raised
    while iterating. A "nested" lazy case (a tuple or list of iterators) is judged on the list of
    its elements, each iterator collected, the call made inside builtins.list. `bound`: the method is called on a built instance (case init), else on the
    module attribute path (functions, static and class methods). Raises ValueError when an input has
    no source form."""
    imports = {"itertools"}
    callee = _callee(target, case, bound, imports)
    if case.get("lazy") == "nested":
        # a tuple or list of iterators: each iterator element collected (worker._collect_nested);
        # the call sits in the generator's second `for`, so it runs inside builtins.list
        imports.add("collections.abc")
        expr = ("((list(itertools.islice(_x, %d)) if isinstance(_x, collections.abc.Iterator) else _x)"
                " for _ in (0,) for _x in itertools.islice(%s(%s), %d))") % (GENERATOR_ITEMS, callee, call_args_source(case, imports), GENERATOR_ITEMS)
    else:
        expr = "itertools.islice(%s(%s), %d)" % (callee, call_args_source(case, imports), GENERATOR_ITEMS)
    return _list_case(case, expr, imports)


def module_source(target, imports):
    """The target's module as source: its dotted name, or `importlib.import_module('<name>')` when
    that name, read through the package's attributes, is something else (worker setup `shadowed`:
    `from .itemlist import itemlist` in the package's __init__)."""
    module = target["module"]
    imports.add(module)
    if target.get("shadowed"):
        imports.add("importlib")
        return "importlib.import_module(%r)" % module
    return module


def _callee(target, case, bound, imports):
    """`<module>.<qualname>` (functions, static and class methods) or, `bound`,
    `<module>.<Owner>(<init>).<name>` (a method called on a built instance)."""
    qualname = target["qualname"]
    module = module_source(target, imports)
    if bound:
        return "%s.%s" % (instance_source(target, case.get("init"), imports), qualname.rsplit(".", 1)[1])
    return "%s.%s" % (module, qualname)


def instance_source(target, init, imports):
    """`<module>.<Owner>(<init args>)`: an instance of a method target's class, as source; for an
    init with `restore` (the receiver traced at the call), the instance rebuilt from its attributes,
    `(lambda _o: vars(_o).update({...}) or _o)(object.__new__(<module>.<Owner>))`."""
    module = module_source(target, imports)
    owner = target["qualname"].rsplit(".", 1)[0]
    if init and init.get("restore") is not None:
        attrs = init["restore"]["attrs"]
        # a subclass's instance (values.receiver_class) is named by its own class, in the same module
        restored = init["restore"]["type"]
        if restored.startswith(target["module"] + "."):
            owner = restored[len(target["module"]) + 1:]
        return values.restore_source("%s.%s" % (module, owner), [(k, to_source(attrs[k], imports)) for k in attrs],
                                     slots=bool(init["restore"].get("slots")))
    return "%s.%s(%s)" % (module, owner, call_args_source(init or {"args": [], "kwargs": {}}, imports))


def restored_case(target, case):
    """A method's case on an instance rebuilt from the attributes it had when the repository's own
    code called the method (a parser halfway through its tokens), as the task judges it:
    `list(_o.<name>(<args>) for _ in (0,) for _o in (<instance_source>,))`, expecting `[result]`.
    Raises ValueError when an input has no source form."""
    imports = set()
    name = target["qualname"].rsplit(".", 1)[1]
    expr = "(_o.%s(%s) for _ in (0,) for _o in (%s,))" % (name, call_args_source(case, imports), instance_source(target, case.get("init"), imports))
    return _list_case(case, expr, imports)


# The state of instance `_o` in a judged expression (values.attributes_of): its attributes, or the
# slots set for a class with `__slots__` and its `__dict__` where it has one too.
STATE_OF_O = ("dict(vars(_o)) if hasattr(_o, '__dict__') and not any('__slots__' in vars(c) for c in type(_o).__mro__[:-1])"
              " else {**{k: getattr(_o, k) for c in type(_o).__mro__"
              " for k in (lambda s: (s,) if isinstance(s, str) else s)(vars(c).get('__slots__', ()))"
              " if k not in ('__weakref__', '__dict__') and hasattr(_o, k)}, **getattr(_o, '__dict__', {})}")


def _list_case(case, expr, imports):
    """A case judged as builtins.list called on one `repr` expression (the forms above)."""
    return {"id": case["id"], "module": "builtins", "target": "list", "init": None,
            "args": [{"t": "repr", "v": expr, "imports": sorted(imports)}], "kwargs": {},
            "expect": case["expect"], "argsAfter": None, "source": case["source"],
            **{k: case[k] for k in ("shown", "path") if case.get(k) is not None}}


def probed_case(target, case, bound):
    """A case whose call returned a function (a closure, a composed or curried function), as the
    task judges it: the returned function called with the case's `probe` arguments, evaluated
    lazily inside a call of builtins.list, `list(<callee>(<args>)(<probe>) for _ in (0,))`, so an
    exception of either call is the case's `raises` (the subject only builds the generator while it
    decodes the inputs). Expects the list of that one value (worker.run_case gives it in that form).
    Raises ValueError when an input has no source form."""
    imports = set()
    callee = _callee(target, case, bound, imports)
    probe = {"args": case["probe"], "kwargs": {}}
    expr = "(%s(%s)(%s) for _ in (0,))" % (callee, call_args_source(case, imports), call_args_source(probe, imports))
    return _list_case(case, expr, imports)


def constructed_case(target, case):
    """A constructor target's case (`<Class>.__init__`) as the task judges it: the state the
    constructor leaves, its attributes (`vars`, or the slots set for a class with `__slots__`,
    worker._state_of), the class built inside builtins.list (so its exception is the case's
    `raises`): `list(<state of _o> for _ in (0,) for _o in (<module>.<Class>(<args>),))`, expecting
    `[<state>]`. Raises ValueError when an input has no source form."""
    imports = set()
    expr = "(%s for _ in (0,) for _o in (%s,))" % (STATE_OF_O, instance_source(target, case, imports))
    return _list_case(case, expr, imports)


def stated_case(target, case):
    """A method's case judged by its result and the state the call leaves on the instance (a method
    that returns None or always the same value, `seek`, `_init_len`): the attributes after the call
    without the iterators and plain functions the instance holds (worker._plain_state_of: a
    source it reads from, a callback it was given, neither of which a call changes), the instance
    built inside builtins.list:
    `list((_r, <state of _o>) for _ in (0,) for _o in (<module>.<Owner>(<init>),) for _r in (_o.<name>(<args>),))`,
    expecting `[(<result>, <state>)]`. Raises ValueError when an input has no source form."""
    imports = {"collections.abc", "types"}
    name = target["qualname"].rsplit(".", 1)[1]
    expr = ("((_r, {k: v for k, v in (%s).items() if not isinstance(v, (collections.abc.Iterator, types.FunctionType))})"
            " for _ in (0,) for _o in (%s,) for _r in (_o.%s(%s),))") % (
        STATE_OF_O, instance_source(target, case.get("init"), imports), name, call_args_source(case, imports))
    return _list_case(case, expr, imports)


def attribute_case(target, case):
    """A property's case (its getter the target) as the task judges it: the attribute read on an
    instance built inside builtins.list, `list(_o.<name> for _ in (0,) for _o in
    (<module>.<Owner>(<init>),))`, expecting `[value]` (worker.run_case gives it in that form).
    Raises ValueError when an init input has no source form."""
    imports = set()
    name = target["qualname"].rsplit(".", 1)[1]
    expr = "(_o.%s for _ in (0,) for _o in (%s,))" % (name, instance_source(target, case.get("init"), imports))
    return _list_case(case, expr, imports)


def warmed_case(target, case):
    """A method's case on an instance another of its methods was called on first (`peek()` before
    `__next__`), as the task judges it: `list(_o.<name>(<args>) for _ in (0,) for _o in
    (<module>.<Owner>(<init>),) for _w in (_o.<warm>(),))`, expecting `[result]` (worker.run_case
    gives it in that form). Raises ValueError when an input has no source form."""
    imports = set()
    name = target["qualname"].rsplit(".", 1)[1]
    expr = "(_o.%s(%s) for _ in (0,) for _o in (%s,) for _w in (_o.%s(),))" % (
        name, call_args_source(case, imports), instance_source(target, case.get("init"), imports), case["warm"])
    return _list_case(case, expr, imports)


def has_source(case_input):
    """Whether every input (init and probe included) has a source form, as collected_case and
    probed_case need."""
    try:
        call_args_source(case_input, set())
        call_args_source(case_input.get("init") or {}, set())
        call_args_source({"kwargs": ((case_input.get("init") or {}).get("restore") or {}).get("attrs") or {}}, set())
        call_args_source({"args": case_input.get("probe") or []}, set())
    except ValueError:
        return False
    return True


def judged_cases(target, cases, generator, bound):
    """Cases in the form the task judges them: a generator target's cases and every `lazy` case
    collected (collected_case), every case with a `probe` probed (probed_case), other cases as they
    are, without the `lazy` mark. Returns (cases, dropped): a case to collect or probe whose inputs
    have no source form is dropped and counted."""
    out, dropped = [], 0
    for case in cases:
        if judged_elsewhere(case, generator):
            try:
                if case.get("construct"):
                    out.append(constructed_case(target, case))
                elif case.get("state"):
                    out.append(stated_case(target, case))
                elif case.get("attribute"):
                    out.append(attribute_case(target, case))
                elif case.get("warm"):
                    out.append(warmed_case(target, case))
                elif case.get("probe") is not None:
                    out.append(probed_case(target, case, bound))
                elif restored(case) and not generator and not case.get("lazy"):
                    out.append(restored_case(target, case))
                else:
                    out.append(collected_case(target, case, bound))
            except ValueError:
                dropped += 1
        else:
            out.append({k: v for k, v in case.items() if k not in ("lazy", "construct")})
    return out, dropped


def call_args_source(call, imports):
    """`<args>, <name>=<value>` of a call's tagged inputs as source (to_source)."""
    parts = [to_source(a, imports) for a in call.get("args") or []]
    kwargs = sorted((call.get("kwargs") or {}).items())
    parts += ["%s=%s" % (k, to_source(v, imports)) for k, v in kwargs if _keyword_name(k)]
    # a key no keyword argument can spell (`**{'1': 1}` reaching a **kwargs parameter): passed by unpacking
    odd = ["%r: %s" % (k, to_source(v, imports)) for k, v in kwargs if not _keyword_name(k)]
    if odd:
        parts.append("**{%s}" % ", ".join(odd))
    return ", ".join(parts)


def _keyword_name(key):
    return isinstance(key, str) and key.isidentifier() and not keyword.iskeyword(key)


def map_targets(fn, items, config):
    """[fn(item) for item in items], `config["parallel"]` at a time (default 1). Each target's work is
    its own (its own workers, its own seeded random), so the results are those of running them one
    after the other; threads suffice, since the work runs in the worker processes."""
    items = list(items)
    parallel = max(1, int(config.get("parallel") or 1))
    if parallel == 1 or len(items) < 2:
        return [fn(item) for item in items]
    from concurrent.futures import ThreadPoolExecutor

    with ThreadPoolExecutor(max_workers=min(parallel, len(items))) as pool:
        return list(pool.map(fn, items))


def read_config():
    return json.loads(sys.stdin.read())


def write_result(result):
    sys.stdout.write(json.dumps(result, sort_keys=True, separators=(",", ":")) + "\n")
    sys.stdout.flush()


# The repository's own data files (a parser's example documents, a test's fixtures): their texts,
# and some of their lines, are string inputs (variations.pool_for `fileStr`), which the calls the
# recorded cases make carry on to the inner functions (_record_inner_calls).
DATA_EXTENSIONS = (".toml", ".json", ".xml", ".yaml", ".yml", ".ini", ".cfg", ".conf", ".csv", ".tsv", ".html", ".htm", ".txt", ".properties")
DATA_SKIP_DIRS = {"node_modules", "__pycache__", "build", "dist", "site-packages", "venv", ".venv", "docs", "doc"}
DATA_SKIP_NAMES = ("license", "licence", "copying", "requirements", "constraints", "authors", "changelog", "changes", "manifest",
                   "top_level", "sources", "dependency_links", "entry_points", "not-zip-safe", "pkg-info", "setup.cfg", "tox.ini")
MAX_DATA_BYTES = 8000
MAX_DATA_FILES = 6
MAX_DATA_LINES = 12
COMMENT_STARTS = ("#", "//", ";", "<!--")


@functools.lru_cache(maxsize=4)
def data_texts(repo_root):
    """Texts of the repository's small data files (at most MAX_DATA_FILES, tests' and examples'
    first), then distinct lines of them that are not comments (at most MAX_DATA_LINES). Read once
    per process: every target's record and search use them."""
    found = []
    for dirpath, dirnames, filenames in os.walk(repo_root):
        dirnames[:] = sorted(d for d in dirnames if not d.startswith(".") and d not in DATA_SKIP_DIRS and not d.endswith(".egg-info"))
        for name in sorted(filenames):
            lower = name.lower()
            if name.startswith(".") or not lower.endswith(DATA_EXTENSIONS) or lower.startswith(DATA_SKIP_NAMES):
                continue
            path = os.path.join(dirpath, name)
            try:
                if os.path.getsize(path) > MAX_DATA_BYTES or os.path.islink(path):
                    continue
                with open(path, encoding="utf-8") as handle:
                    text = handle.read()
            except (OSError, UnicodeDecodeError):
                continue
            if text.strip():
                rel = os.path.relpath(path, repo_root)
                near_tests = any(part in ("test", "tests", "testing", "examples", "example", "fixtures", "data", "samples") for part in rel.split(os.sep)[:-1])
                found.append((0 if near_tests else 1, rel, text))
        if len(found) > 200:
            break
    found.sort()
    texts = [text for _, _, text in found[:MAX_DATA_FILES]]
    # their lines that are not comments, taken from each text in turn
    per_text = [[line.strip() for line in text.splitlines() if line.strip() and not line.strip().startswith(COMMENT_STARTS)]
                for text in texts]
    lines = []
    for group in itertools.zip_longest(*per_text):
        lines.extend(line for line in group if line is not None and line not in lines)
    lines = lines[:MAX_DATA_LINES]
    return tuple(texts + lines)


README_NAMES = ("readme.rst", "readme.md", "readme.txt", "readme")
MAX_README_BYTES = 65536
MAX_README_STRINGS = 40
# ``code`` (reStructuredText), `code` (Markdown), and '...' / "..." literals in its examples
_README_QUOTED = re.compile(r"``([^`\n]{1,120})``" + r"|(?<![`\w])`([^`\n]{1,120})`(?![`\w])"
                            + r"|(?<!\w)'([^'\n\\]{1,120})'(?!\w)" + r'|(?<!\w)"([^"\n\\]{1,120})"(?!\w)')


@functools.lru_cache(maxsize=4)
def readme_strings(repo_root):
    """The literals the repository's README shows (inline code, quoted strings in its examples), in
    order, distinct, at most MAX_README_STRINGS: the inputs its authors show a reader (jmespath's
    `foo[?age > `20`]`), which a parser's own docstrings seldom hold."""
    try:
        names = sorted(n for n in os.listdir(repo_root) if n.lower() in README_NAMES)
    except OSError:
        return ()
    out = []
    for name in names:
        path = os.path.join(repo_root, name)
        try:
            if os.path.islink(path):
                continue
            with open(path, encoding="utf-8") as handle:
                text = handle.read(MAX_README_BYTES)
        except (OSError, UnicodeDecodeError):
            continue
        for match in _README_QUOTED.finditer(text):
            found = next(g for g in match.groups() if g is not None)
            if found.strip() and found not in out and not found.startswith(("http://", "https://")):
                out.append(found)
    return tuple(out[:MAX_README_STRINGS])


def data_lines(repo_root):
    """Every line of the repository's data files (data_texts) that is not a comment."""
    return [line for text in data_texts(repo_root) for line in text.splitlines()
            if line.strip() and not line.strip().startswith(COMMENT_STARTS)]
