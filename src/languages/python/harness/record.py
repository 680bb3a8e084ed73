"""record.py: records the behaviour of target functions by running the ORIGINAL code.

`python3 -I -B record.py < config.json > result.json`, in a sandbox holding the repository. For each
target, candidate inputs are collected in order — the repository's own tests traced at run time
(`repo-test`), docstring examples (`doctest`), literal arguments at call sites (`call-site`), values
generated from type hints and neighbouring literals (`type-hint`), values built with the codebase's
own constructors (`constructed`), inputs an LLM proposed (`llm`, the target's `proposed`; only the
inputs: the outputs are recorded here like any other) — then each is run twice on the original, in two worker processes
(each call in a fresh fork, with its own hash seed per worker), and kept only when both runs give the
same tagged verdict. See docs in src/pipeline/record/README.md for the config and result shapes.
"""
import ast
import collections
import itertools
import json
import os
import random
import shutil
import signal
import subprocess
import sys
import tempfile
import time

import sys
import importlib.util as _ilu
import os as _os

_spec = _ilu.spec_from_file_location("_codemidas__load", _os.path.join(_os.path.dirname(_os.path.abspath(__file__)), "_load.py"))
_load = _ilu.module_from_spec(_spec)
sys.modules["_codemidas__load"] = _load
_spec.loader.exec_module(_load)

common = _load.load("common")
variations = _load.load("variations")
mutants = _load.load("mutants")
codec = common.codec

TRY_CAPS = {"repo-test": 80, "doctest": 60, "inner-call": 60, "result-flow": 40, "call-site": 40, "type-hint": 80, "constructed": 40, "llm": 20}
# Inputs whose call returned a function are tried again with the function called on probe arguments
# (worker `callable-result`, common.probed_case): this many inputs, this many probes each.
MAX_PROBED_INPUTS = 6
MAX_PROBES = 7
# First runs of this many inputs share one forked child (_FirstRuns).
FIRST_RUN_CHUNK = 16


def run_tracer(config, mode, work_dir, timeout_ms, calls=None):
    out_path = os.path.join(work_dir, "trace-%s.jsonl" % mode)
    cfg_path = os.path.join(work_dir, "trace-config.json")
    with open(cfg_path, "w", encoding="utf-8") as handle:
        json.dump({"repoRoot": config["repoRoot"], "sysPath": config["sysPath"], "testPaths": config.get("testPaths"),
                   "targets": [{"module": t["module"], "qualname": t["qualname"], "kind": t["kind"]} for t in config["targets"]],
                   "calls": calls or []}, handle)
    open(out_path, "w").close()
    proc = subprocess.Popen(common.python_command("tracer.py", mode, cfg_path, out_path), env=common.python_env(),
                            stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                            cwd=config["repoRoot"], start_new_session=True)
    timed_out = False
    try:
        proc.wait(timeout=timeout_ms / 1000.0)
    except subprocess.TimeoutExpired:
        timed_out = True
    try:
        os.killpg(proc.pid, signal.SIGKILL)
    except OSError:
        pass
    proc.wait()
    records, summary = [], {}
    with open(out_path, encoding="utf-8") as handle:
        for line in handle:
            try:
                record = json.loads(line)
            except ValueError:
                continue  # a line cut by the kill
            if "summary" in record:
                summary = record["summary"]
            else:
                records.append(record)
    # the repository's tests (pytest mode): how many ran, the files that did not import, the stand-ins
    return records, {"mode": mode, "timedOut": timed_out, "records": len(records), **summary}


def _seen_by_param(params, inputs):
    names = [p["name"] for p in params if p["kind"] in ("POSITIONAL_ONLY", "POSITIONAL_OR_KEYWORD")]
    seen = collections.defaultdict(list)
    for case_input in inputs:
        for name, value in zip(names, case_input["args"]):
            seen[name].append(value)
        for name, value in (case_input.get("kwargs") or {}).items():
            seen[name].append(value)
    return {k: v[:8] for k, v in seen.items()}


SAME_CLASS_NAMES = {"other", "that", "rhs", "right"}


def _own_instances(target, inits, limit=6):
    """`<module>.<Owner>(<init>)` as `repr` inputs, for the inits that have a source form."""
    out = []
    for init in inits[:limit]:
        imports = set()
        try:
            source = common.instance_source(target, init, imports)
        except ValueError:
            continue
        out.append({"t": "repr", "v": source, "imports": sorted(imports)})
    return out


# Receivers shared between a class's methods: the instances the repository's tests and doctests
# called any of its methods on, or built with its constructor, are receivers for every method
# (intervaltree's `merge_overlaps`, which no test calls, gets the trees its siblings' doctests built
# instead of only `IntervalTree()`).
CLASS_INITS = 8


def _class_key(target):
    return "%s:%s" % (target["module"], target["qualname"].rsplit(".", 1)[0])


def class_inits(config, by_target):
    """{`module:Owner`: [init]}: the inits of the traced calls of each class's methods, and the
    arguments of its traced constructor calls (a `<Owner>.__init__` target), plain inits before
    rebuilt receivers (not a subclass's), deduplicated, at most CLASS_INITS each."""
    plain, restored = collections.defaultdict(list), collections.defaultdict(list)
    for index, target in enumerate(config["targets"]):
        if target.get("kind") != "method":
            continue
        key = _class_key(target)
        constructor = target["qualname"].endswith(".__init__")
        for record in by_target.get(index, []):
            if "reject" in record:
                continue
            init = {"args": record["args"], "kwargs": record["kwargs"]} if constructor else record.get("init")
            if init is not None and init.get("restore") is not None and init["restore"]["type"] != key.replace(":", "."):
                continue  # a subclass's instance: it inherits this method, maybe not the others
            if init is not None:
                (restored if init.get("restore") is not None else plain)[key].append(init)
    return {key: variations._dedupe(plain[key] + restored[key])[:CLASS_INITS] for key in set(plain) | set(restored)}


def collect(config, target, traced, desc, rng, sources, rejected):
    """Candidate inputs [(source, input)] in source order, deduplicated, each source capped."""
    by_source = collections.OrderedDict((s, []) for s in ("repo-test", "doctest", "call-site", "inner-call", "result-flow", "type-hint", "constructed", "llm"))
    is_method = desc.get("needsInstance", False)
    traced_inits = []
    for record in traced:
        src = record["source"]
        sources.setdefault(src, {"tried": 0, "kept": 0})
        if "reject" in record:
            sources[src]["tried"] += 1
            rejected[record["reject"]] += 1
            continue
        # a constructor target's traced call is the class's own: its arguments, no instance
        case_input = {"init": None if desc.get("construct") else record.get("init"), "args": record["args"], "kwargs": record["kwargs"]}
        by_source[src].append(case_input)
        if record.get("init") is not None:
            traced_inits.append(record["init"])

    inits = []
    if is_method:
        for site in target.get("initCallSites") or []:
            parsed = variations.parse_call_site(site.get("argumentTexts", []))
            if parsed is not None:
                inits.append({"args": parsed[0], "kwargs": parsed[1]})
        pooled = (config.get("_classInits") or {}).get(_class_key(target), [])
        inits = traced_inits + pooled + list(desc.get("inits") or []) + inits
        init_params = desc.get("initParams") or []
        generated = variations.generate(init_params, desc.get("initLiterals") or {}, _seen_by_param(init_params, inits), rng, 12)
        inits += [{"args": g["args"], "kwargs": g["kwargs"]} for g in generated]
        inits = variations._dedupe(inits)[:12] or [{"args": [], "kwargs": {}}]

    def with_init(case_inputs):
        if not is_method:
            return case_inputs
        out = []
        for k, case_input in enumerate(case_inputs):
            if k == 0:
                # every init for a method with few inputs (`__str__`, `next_version(part)`), six otherwise
                out.extend(dict(case_input, init=init) for init in inits[: 6 if len(case_inputs) > 6 else 12])
            else:
                out.append(dict(case_input, init=inits[k % len(inits)]))
        return out

    sites = list(target.get("callSites") or [])
    if desc.get("construct"):
        sites += target.get("initCallSites") or []  # the class's call sites are the constructor's
    for site in sites:
        parsed = variations.parse_call_site(site.get("argumentTexts", []))
        sources.setdefault("call-site", {"tried": 0, "kept": 0})
        if parsed is None:
            sources["call-site"]["tried"] += 1
            rejected["not-literal"] += 1
            continue
        by_source["call-site"].extend(with_init([{"init": None, "args": parsed[0], "kwargs": parsed[1]}]))

    params = desc.get("params") or []
    known = [x for group in by_source.values() for x in group]
    seen_by_param = _seen_by_param(params, known)
    if is_method:
        # `other` of a method (`__eq__`, `__lt__`, `union`): instances of its own class, built from
        # the inits the method's cases use
        for p in params:
            if p["name"] in SAME_CLASS_NAMES and p.get("hint", {}).get("kind", "any") == "any":
                seen_by_param[p["name"]] = _own_instances(target, inits) + list(seen_by_param.get(p["name"], []))
    generated = variations.generate(params, desc.get("literals") or {}, seen_by_param, rng, 80)
    for case_input in with_init(generated):
        # built with the codebase's constructors; the generated callables (`len`, `lambda x: x + 1`) and iterators are type-hint values
        uses_repr = any(a.get("t") == "repr" and not variations.is_generated_repr(a)
                        for a in list(case_input["args"]) + list(case_input["kwargs"].values()))
        by_source["constructed" if uses_repr else "type-hint"].append(case_input)

    # an LLM's proposals (record-candidates `proposals`): tagged inputs, run like the others; a
    # method's proposal without an init takes the inits the other inputs use, in turn
    for k, proposal in enumerate(target.get("proposed") or []):
        case_input = {"init": None, "args": list(proposal.get("args") or []), "kwargs": dict(proposal.get("kwargs") or {})}
        if is_method and not desc.get("construct"):
            case_input["init"] = proposal.get("init") or inits[k % len(inits)]
        by_source["llm"].append(case_input)

    if is_method and desc.get("warmers"):
        # the same inputs on instances another method was called on first (`peek()` before
        # `__next__`): states a fresh instance is never in; at most 8, in the cases' own sources
        base = [(src, x) for src, group in by_source.items() for x in group if x.get("init") is not None][:8]
        for src, case_input in base:
            for name in desc["warmers"]:
                by_source[src].append(dict(case_input, warm=name))

    seen = set()
    out = []
    for src, group in by_source.items():
        unique = []
        for case_input in group:
            key = common.input_key(case_input)
            if key in seen:
                continue
            seen.add(key)
            unique.append(case_input)
        cap = TRY_CAPS[src]
        if len(unique) > cap:
            keep = sorted(rng.sample(range(len(unique)), cap))
            rejected["over-try-cap"] += len(unique) - cap
            unique = [unique[k] for k in keep]
        out.extend((src, case_input) for case_input in unique)
    return out


def record_target(config, target, traced):
    seed = config.get("seed", 0)
    rng = random.Random("%s:%s" % (seed, target["unitId"]))
    sources, rejected = {}, collections.Counter()
    result = {"unitId": target["unitId"], "cases": [], "sources": sources, "rejected": rejected, "drop": None}
    worker_a, drop = common.start_worker(config, target)
    if drop is not None:
        result["drop"] = drop
        return result
    worker_b, drop = common.start_worker(config, target, hash_seed=common.SECOND_HASH_SEED)
    if drop is not None:
        worker_a.close()
        result["drop"] = drop
        return result
    workers = [worker_a, worker_b]
    target = dict(target, shadowed=bool(worker_a.info.get("shadowed")))  # common.module_source
    try:
        desc = worker_a.call({"op": "describe", "timeoutMs": 20000}, 60)
        if not isinstance(desc.get("params"), list):
            desc = {"params": [], "literals": {}}
        desc["needsInstance"] = worker_a.info.get("needsInstance", False)
        desc["construct"] = worker_a.info.get("construct", False)
        module_literals = desc.get("moduleLiterals") or {}
        for key in ("literals", "initLiterals"):
            if isinstance(desc.get(key), dict):
                desc[key] = dict(desc[key], moduleStr=module_literals.get("str", []), moduleInt=module_literals.get("int", []),
                                 regexStr=module_literals.get("regexStr", []), regexNear=module_literals.get("regexNear", False),
                                 docStr=module_literals.get("docStr", []), dataStr=module_literals.get("dataStr", []),
                                 fileStr=config.get("_dataTexts", []), readmeStr=config.get("_readmeStrs", []),
                                 dataInt=module_literals.get("dataInt", []))
        candidates = collect(config, target, traced, desc, rng, sources, rejected)
        kept, impure, timeouts, tried, probed = [], set(), 0, 0, 0
        deadline = time.monotonic() + config.get("targetBudgetMs", 90000) / 1000.0
        ahead = _FirstRuns(workers, candidates, config)
        for position, (src, case_input) in enumerate(candidates):
            if time.monotonic() > deadline:
                rejected["budget"] += 1
                continue
            if tried >= 5 and timeouts == tried:
                rejected["timeout"] += 1  # every input so far hung: give the rest up
                sources.setdefault(src, {"tried": 0, "kept": 0})["tried"] += 1
                continue
            tried += 1
            sources.setdefault(src, {"tried": 0, "kept": 0})["tried"] += 1
            first = ahead.take(position, case_input) or _run(workers, 0, case_input, config, trace=True)
            if first["kind"] not in ("returns", "raises"):
                reason = first.get("reason") or first["kind"]
                rejected[reason] += 1
                if reason == "callable-result" and probed < MAX_PROBED_INPUTS and case_input.get("probe") is None:
                    # the call returned a function: judge what it returns on a few probe arguments
                    probed += 1
                    candidates.extend((src, dict(case_input, probe=p)) for p in (first.get("probes") or [])[:MAX_PROBES])
                timeouts += reason == "timeout"
                if reason.startswith("impure:"):
                    impure.add(reason)
                continue
            # the second run judges the result in the first's form (collected when it was an iterator)
            second = _run(workers, 1, dict(case_input, lazy=common.lazy_form(first)), config)
            if common.verdict(first, True) != common.verdict(second, True):
                rejected["timeout" if second.get("kind") == "timeout" else ("impure" if second.get("kind") == "impure" else "non-deterministic")] += 1
                continue
            kept.append((src, case_input, first))
        plain_method = desc["needsInstance"] and not worker_a.info.get("generator", False) and not worker_a.info.get("property", False)
        one_value = plain_method and _returns_one_value(kept)
        if one_value:
            # a method that returns one value for every input it does not reject (`seek` returns
            # None): judged by its result and the state the call leaves on the instance
            # (common.stated_case), when that varies
            kept = _with_state(workers, config, kept, rejected) or kept
        selected = select(kept, config.get("maxCases", 40), rejected)
        if (plain_method and not one_value and desc.get("mutatesSelf") and selected
                and not all(o.get("returnsSelf") for _, _, o in selected if o["kind"] == "returns")):
            # a method that changes its instance and returns a value (a tree's `rotate`, a parser's
            # `_parse_*` advancing its index), not a fluent one returning itself: judged by both
            # when the state encodes for nearly every chosen input and stays small
            selected = _stated_if_encodable(workers, config, selected)
        cases = []
        for src, case_input, outcome in selected:
            case = common.make_case(target, case_input, outcome, src, generator=worker_a.info.get("generator", False))
            sources[src]["kept"] += 1
            cases.append(case)
        if impure:
            result["drop"] = {"code": sorted(impure)[0], "reason": "the function used %s while recording" % sorted(impure)[0].split(":", 1)[1]}
        elif cases and len({common.expected_verdict(c) for c in cases}) < 2:
            # one result for every input (a function that only changes global state, a constant):
            # returning that value would pass every hidden test
            result["drop"] = {"code": "constant-result", "reason": "all %d recorded inputs gave the same result; a task would be passed by returning it" % len(cases)}
        elif not cases:
            if tried and timeouts == tried:
                result["drop"] = {"code": "timeout", "reason": "every input ran past %d ms" % config.get("callTimeoutMs", 2000)}
            else:
                result["drop"] = {"code": "no-cases", "reason": "no input gave a deterministic, serialisable result (%s)" % _summary(rejected)}
        else:
            result["cases"] = cases
    finally:
        for w in workers:
            w.close()
    result["rejected"] = dict(sorted(rejected.items()))
    result["sources"] = {k: sources[k] for k in common.SOURCES if k in sources}
    return result


class _FirstRuns:
    """The first (traced) runs of the inputs, FIRST_RUN_CHUNK at a time in one child of worker A
    instead of a fork each: most of the cost of recording is forking. What a batch gives is only
    ever kept when the second run, in a fresh fork of worker B, agrees (so an input whose outcome
    depends on what earlier inputs of its batch left behind is rejected, never recorded wrong: the
    task's judge and mutate.py run the cases together in one process too). A batch stops after an
    input cut at its time limit (that input's outcome is its timeout); the inputs after it, and every
    input of a batch whose child died, run on their own as before. Inputs added while recording
    (probes of a returned function) join the batches when the loop reaches them."""

    def __init__(self, workers, candidates, config):
        self.workers, self.candidates, self.config = workers, candidates, config
        self.outcomes = {}
        self.tried = set()

    def take(self, position, case_input):
        if position not in self.tried:
            self._run_from(position)
        return self.outcomes.pop(position, None)

    def _run_from(self, position):
        chunk = list(range(position, min(position + FIRST_RUN_CHUNK, len(self.candidates))))
        self.tried.update(chunk)
        inputs = [self.candidates[k][1] for k in chunk]
        limit = self.config.get("callTimeoutMs", 2000)
        try:
            answer = common.run_batch(self.workers[0], inputs, self.config, trace=True, case_limits=[limit] * len(inputs),
                                      stop_on_timeout=True)
        except common.WorkerDied:
            _replace(self.workers, 0, self.config)
            return
        if answer.get("kind") != "batch":
            return
        for k, outcome in zip(chunk, answer["outcomes"]):
            self.outcomes[k] = outcome


# A method that changes its instance is judged by its result and the state it leaves when at least
# this share of its chosen inputs give a state that encodes, each verdict at most this long.
STATED_SHARE = 0.8
STATED_MAX_CHARS = 20000


def _stated_if_encodable(workers, config, selected):
    """`selected` in the stated form (warmed inputs keep their own form) when at least STATED_SHARE
    of the others give a state that encodes and each verdict is at most STATED_MAX_CHARS; else
    `selected` as it is."""
    stated = _with_state(workers, config, selected, collections.Counter())
    warmed = [k for k in selected if k[1].get("warm")]
    if (stated and len(stated) >= STATED_SHARE * (len(selected) - len(warmed))
            and all(len(json.dumps(o.get("value"))) <= STATED_MAX_CHARS for _, _, o in stated)):
        return stated + warmed
    return selected


def _returns_one_value(kept):
    """Whether every case that returns returns the same value; a case on a rebuilt or warmed
    receiver gives `[value]` (common.restored_case, warmed_case) and counts as its value
    (intervaltree's `add` returns None on every tree)."""
    returned = set()
    for _, case_input, o in kept:
        if o["kind"] != "returns":
            continue
        value = o.get("value")
        if ((common.restored(case_input) or case_input.get("warm")) and not case_input.get("state") and not o.get("lazy")
                and isinstance(value, dict) and value.get("t") == "list" and len(value.get("v") or []) == 1):
            value = value["v"][0]
        returned.add(json.dumps(value, sort_keys=True))
    return len(returned) == 1


def _with_state(workers, config, kept, rejected):
    """`kept` re-run in the stated form (worker `state`, twice), or [] when the state after the call
    gives no two different verdicts either."""
    out = []
    for src, case_input, _outcome in kept:
        if case_input.get("warm"):
            continue  # the stated form builds its receiver without a warming call (common.stated_case)
        stated = dict(case_input, state=True)
        first = _run(workers, 0, stated, config, trace=True)
        if first["kind"] not in ("returns", "raises"):
            rejected["state-" + (first.get("reason") or first["kind"])] += 1
            continue
        second = _run(workers, 1, stated, config)
        if common.verdict(first, False) != common.verdict(second, False):
            rejected["state-non-deterministic"] += 1
            continue
        out.append((src, stated, first))
    return out if out and not _returns_one_value(out) else []


def _summary(rejected):
    return ", ".join("%s %d" % (k, v) for k, v in sorted(rejected.items())) or "no inputs"


def _run(workers, k, case_input, config, trace=False):
    try:
        return common.run_one(workers[k], case_input, config, trace=trace)
    except common.WorkerDied:
        _replace(workers, k, config)
        return {"kind": "crash", "reason": "crash"}


def _replace(workers, k, config):
    """A fresh worker for the target in place of workers[k], which died."""
    workers[k].close()
    replacement, _drop = common.start_worker(config, workers[k].target, hash_seed=workers[k].hash_seed)
    if replacement is not None:
        workers[k] = replacement


def select(kept, cap, rejected):
    """Up to `cap` cases: first those that reach new lines or a new kind of outcome (in source
    order), then the rest in order; returned in source order."""
    chosen, covered, kinds = [], set(), set()
    for k, (src, case_input, outcome) in enumerate(kept):
        lines = set(outcome.get("lines", []))
        kind = (outcome["kind"], outcome.get("type"), common.lazy_form(outcome))
        if (lines - covered or kind not in kinds) and len(chosen) < cap:
            chosen.append(k)
            covered |= lines
            kinds.add(kind)
    for k in range(len(kept)):
        if len(chosen) >= cap:
            break
        if k not in chosen:
            chosen.append(k)
    if len(kept) > len(chosen):
        rejected["over-cap"] += len(kept) - len(chosen)
    order = {s: i for i, s in enumerate(common.SOURCES)}
    chosen.sort(key=lambda k: (order.get(kept[k][0], 99), k))
    return [kept[k] for k in chosen]


# Cases of each target re-run under the tracer for the calls they make into the other targets
# (tracer.run_cases): at most this many per target.
INNER_CALLS_PER_TARGET = 24


def _needs_inner_calls(result):
    """A target recorded without any input from the repository's own tests or doctests (only
    generated values, or nothing): the calls other targets' cases make into it may show how it is
    really called."""
    if result.get("drop") and result["drop"].get("code") not in ("no-cases", "constant-result"):
        return False
    return not any(c.get("source") in ("repo-test", "doctest") for c in result.get("cases") or [])


# What one library function returns is what another of its functions takes (a parser's nodes go to the
# interpreter's visitors, a factory's objects to their methods): at most this many results of the other
# targets, each put in each positional parameter of a target that had no real input.
RESULT_FLOW_VALUES = 16
RESULT_FLOW_TAGS = ("dict", "list", "tuple", "repr", "set", "frozenset")


def _keys_named(tagged, names):
    """How many of a tagged dict's string keys (or of its first items', for a list) `names` holds."""
    t = tagged.get("t")
    if t == "dict":
        return sum(1 for k, _ in tagged["v"] if k.get("t") == "str" and k["v"] in names)
    if t in ("list", "tuple") and tagged["v"]:
        return _keys_named(tagged["v"][0], names)
    return 0


def _names_target(tagged, words):
    """Whether a tagged dict holds a string value that is one of `words` (the target's name split
    at underscores): a visitor's `visit_<type>` takes the nodes of that type."""
    return tagged.get("t") == "dict" and any(v.get("t") == "str" and v["v"].lower() in words for _, v in tagged["v"])


def _nested_dicts(tagged, depth=4, limit=24):
    """The dicts a tagged value holds below its top level (in list, tuple and dict items, `depth`
    levels down), outermost first, at most `limit`."""
    found = []

    def walk(value, level):
        t = value.get("t") if isinstance(value, dict) else None
        if level > 0 and t == "dict":
            found.append(value)
        if level >= depth or len(found) >= limit:
            return
        if t in ("list", "tuple"):
            for x in value["v"]:
                walk(x, level + 1)
        elif t == "dict":
            for _, v in value["v"]:
                walk(v, level + 1)

    walk(tagged, 0)
    return found[:limit]


def _body_strings(config, target):
    """The string constants of the target's own definition, read from its source file (never
    imported here); empty when the file or the definition is not found."""
    parts = target["module"].split(".")
    for root in config.get("sysPath") or [config["repoRoot"]]:
        for path in (os.path.join(root, *parts) + ".py", os.path.join(root, *parts, "__init__.py")):
            if not os.path.isfile(path):
                continue
            try:
                with open(path, encoding="utf-8") as handle:
                    tree = ast.parse(handle.read())
            except (OSError, SyntaxError, ValueError, UnicodeDecodeError):
                return set()
            node = mutants.find_function(tree, target["qualname"])
            if node is None:
                return set()
            return {n.value for n in ast.walk(node) if isinstance(n, ast.Constant) and isinstance(n.value, str)}
    return set()


def _result_flow(config, results):
    """{target index: traced-like records} for the targets with no real input (_needs_inner_calls):
    the containers and objects the other targets' cases returned, each in place of one untyped
    positional argument of the target's first recorded inputs (source `result-flow`)."""
    targets = config["targets"]
    returned = []  # (producing target's index, tagged value)
    for index, result in enumerate(results):
        for case in result.get("cases") or []:
            value = (case.get("expect") or {}).get("returns")
            if (isinstance(value, dict) and value.get("t") in RESULT_FLOW_TAGS and not case.get("lazy") and not case.get("state")
                    and case.get("probe") is None):
                returned.append((index, value))
    if not returned:
        return {}
    flow = {}
    for index, result in enumerate(results):
        if not _needs_inner_calls(result):
            continue
        # the values whose keys the target's body names first (`node['children']` takes a parser's
        # nodes before the interpreter's data), each producing target's in turn
        names = _body_strings(config, targets[index])
        by_producer = collections.OrderedDict()
        for producer, value in returned:
            if producer != index:
                # the dicts inside a result too (a parser's nodes nested in its tree's `children`)
                by_producer.setdefault(producer, []).extend([value] + _nested_dicts(value))
        # a dict before a list of dicts at the same score, and one whose string values name the
        # target (`{'type': 'comparator', ...}` for `visit_comparator`) first among those
        words = set(targets[index]["qualname"].rsplit(".", 1)[-1].lower().split("_")) - {""}
        for group in by_producer.values():
            group.sort(key=lambda v: (-_keys_named(v, names), -_names_target(v, words), v.get("t") != "dict"))
        ranked = sorted(by_producer.values(), key=lambda values: -max(_keys_named(v, names) for v in values))
        values, seen = [], set()
        for value in itertools.chain.from_iterable(itertools.zip_longest(*ranked)):
            key = common.codec.canonical(value) if value is not None else None
            if key is not None and key not in seen and len(key) < 4000:
                seen.add(key)
                values.append(value)
            if len(values) >= RESULT_FLOW_VALUES:
                break
        bases = [c for c in (result.get("cases") or []) if c.get("args")][:2]
        # only into parameters without a type hint (a hinted one gets values of its type already)
        params = [p for p in targets[index].get("params") or [] if p.get("kind") in ("positional", None) and p.get("name") not in ("self", "cls")]
        untyped = [k for k, p in enumerate(params) if not p.get("annotation")] if params else []
        records = []
        for base in bases:
            for p in [k for k in untyped if k < len(base["args"])]:
                for value in values:
                    args = base["args"][:p] + [value] + base["args"][p + 1:]
                    records.append({"target": index, "source": "result-flow", "init": base.get("init"), "args": args, "kwargs": base.get("kwargs") or {}})
        if records:
            flow[index] = records
    return flow


def _record_inner_calls(config, work_dir, results, by_target, traces):
    """Every target's recorded cases run again under the tracer (mode `cases`); a target that had no
    real input (_needs_inner_calls) and gets new ones this way is recorded again with them."""
    calls = []
    for index, result in enumerate(results):
        for case in (result.get("cases") or [])[:INNER_CALLS_PER_TARGET]:
            calls.append({"target": index, "init": case.get("init"), "args": case.get("args") or [], "kwargs": case.get("kwargs") or {}})
    if not calls:
        return results
    started = time.monotonic()
    records, info = run_tracer(config, "cases", work_dir, config.get("traceTimeoutMs", 120000), calls=calls)
    info["ms"] = int((time.monotonic() - started) * 1000)
    traces.append(info)
    inner = collections.defaultdict(list)
    for record in records:
        if "reject" not in record:
            inner[record["target"]].append(record)
    for index, flow in _result_flow(config, results).items():
        inner[index].extend(flow)
    redo = [index for index in sorted(inner) if _needs_inner_calls(results[index])]

    def again(index):
        started = time.monotonic()
        result = record_target(config, config["targets"][index], by_target.get(index, []) + inner[index])
        result["ms"] = results[index].get("ms", 0) + int((time.monotonic() - started) * 1000)
        return result

    for index, result in zip(redo, common.map_targets(again, redo, config)):
        if result.get("drop") is None or results[index].get("drop") is not None:
            results[index] = result  # never a recording with cases for one without (constant-result)
        else:
            results[index]["ms"] = result["ms"]
    return results


def main():
    config = common.read_config()
    base = config.get("workDir") or "/var/lib/codemidas/work"
    os.makedirs(base, exist_ok=True)
    work_dir = tempfile.mkdtemp(prefix="record-", dir=base)
    traces = []
    by_target = collections.defaultdict(list)
    try:
        try:
            config["_dataTexts"] = list(common.data_texts(config["repoRoot"])) if config.get("dataFiles", True) else []
        except OSError:
            config["_dataTexts"] = []
        config["_readmeStrs"] = list(common.readme_strings(config["repoRoot"])) if config.get("dataFiles", True) else []
        modes = ["doctest"] + (["pytest"] if config.get("runRepoTests", True) else [])
        for mode in modes:
            timeout = config.get("traceTimeoutMs", 120000) if mode == "pytest" else config.get("doctestTimeoutMs", 60000)
            started = time.monotonic()
            records, info = run_tracer(config, mode, work_dir, timeout)
            info["ms"] = int((time.monotonic() - started) * 1000)
            traces.append(info)
            for record in records:
                by_target[record["target"]].append(record)
        config["_classInits"] = class_inits(config, by_target)

        def timed(index):
            started = time.monotonic()
            result = record_target(config, config["targets"][index], by_target.get(index, []))
            result["ms"] = int((time.monotonic() - started) * 1000)
            return result

        results = common.map_targets(timed, range(len(config["targets"])), config)
        if config.get("innerCalls", True) and len(config["targets"]) > 1:
            results = _record_inner_calls(config, work_dir, results, by_target, traces)
    finally:
        shutil.rmtree(work_dir, ignore_errors=True)
    common.write_result({"targets": results, "traces": traces})


if __name__ == "__main__":
    main()
