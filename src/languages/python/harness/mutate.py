"""mutate.py: mutation testing of recorded cases, then a mutant-guided search for inputs.

`python3 -I -B mutate.py < config.json > result.json`. For each target, the worker lists AST mutants
of the function body (see mutants.py); each mutant runs every recorded case in a forked child of the
worker with the function's code object swapped for the mutated one. A mutant is killed when any
case's verdict (return value or exception type, and arguments after the call where recorded)
differs, or when it times out or crashes. For each survivor, variations of the inputs that reach
the mutated line (line coverage of the original) are run on the original and the mutant side by
side; an input on which they differ, and which records deterministically on the original (twice,
two processes), becomes a new case with source `mutant-search`.

Likely-equivalent mutants: a survivor whose search ran through all its candidates and which behaved
exactly like the original on every input that reached its line — at least EQUIVALENT_MIN_REACHING
distinct inputs that reach the line and return a value on the original, recorded cases and search
candidates together, judged by line coverage of the original, with at least two different values (else the line's
effect never shows and surviving proves nothing), on a line without a conditional expression, and/or,
comprehension or lambda (where reaching the line does not mean the mutated part ran) — is reported as `likely-equivalent` and left out of the score's denominator (it stays in
`survivors`, prefixed "likely equivalent (not counted):"). Unreached and budget-cut survivors always
count. Mutants in a branch this interpreter never takes (an `if` whose test reads only module-level
names, `if PY2:`; worker._dead_branch_lines) are not run and not counted either (prefix DEAD_PREFIX).

A target with `mutantOf: {module, qualname}` (record-candidates.ts, the entry pass) is run as always,
but the mutants are those of that other function's body (a helper its calls reach, Unit.via) and the
line coverage is of that function's frames; when no case runs a line of it, the target ends at once
with the error `entry-unreached`. A target's `search: false` runs no search for it, and its
`stopBelow` ends it (error `below-threshold`) as soon as more of its mutants survive than a score of
stopBelow allows.

Generators, and calls that return an iterator (`lazy` cases, judged per case): cases run on the
collected first items (worker.GENERATOR_ITEMS), and every replay runs a case in the form the task
judges it (worker.run_case `lazy`); calls that return a function (`probe` cases) run with the
returned function called on the probe arguments. The result's `cases` gives the recorded cases, and
`newCases` the new ones, in the form the task judges them (common.judged_cases, collected_case,
probed_case). A case to collect or probe whose inputs have no source form is dropped
(`rejected: {"no-source": n}`).
"""
import json
import random
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

CHUNK = 16
EQUIVALENT_MIN_REACHING = 16
EQUIVALENT_PREFIX = "likely equivalent (not counted): "
DEAD_PREFIX = "in a branch this interpreter never takes (not counted): "


class Target:
    def __init__(self, config, target, worker, worker_b):
        self.config, self.target, self.worker, self.worker_b = config, target, worker, worker_b

    def batch(self, inputs, mutant=None, trace=False, limits=None, expected=None, with_aa=None):
        try:
            answer = common.run_batch(self.worker, inputs, self.config, trace=trace, mutant=mutant,
                                      case_limits=limits, expected=expected, with_args_after=with_aa)
        except common.WorkerDied:
            self.restart()
            return {"kind": "crash"}
        return answer

    def one(self, case_input, mutant=None, second=False):
        worker = self.worker_b if second else self.worker
        try:
            return common.run_one(worker, case_input, self.config, mutant=mutant)
        except common.WorkerDied:
            self.restart()
            return {"kind": "crash"}

    def restart(self):
        for attr in ("worker", "worker_b"):
            w = getattr(self, attr)
            if w.proc.poll() is not None:
                w.close()
                new, _ = common.start_worker(self.config, self.target, hash_seed=w.hash_seed)
                if new is not None:
                    setattr(self, attr, new)


def _kills(answer, expected, with_aa):
    """(killed, how) for a mutant's batch answer against the expected verdicts."""
    kind = answer.get("kind")
    if kind == "error" and answer.get("reason") == "not-applicable":
        return None, "not-applicable"
    if kind in ("timeout", "crash"):
        return True, kind
    if kind != "batch":
        return True, "error"
    # the worker stops at the first case that differs: the outcomes may end there
    for outcome, want, aa in zip(answer["outcomes"], expected, with_aa):
        if common.judged_verdict(outcome, aa, want) != want:
            return True, "timeout" if outcome.get("kind") == "timeout" else "differs"
    return False, ""


def _reaches(mutant, lines):
    """False when a run's line coverage shows the mutated statement never ran: the mutant cannot
    differ from the original there, so it is not run (True when the run has no coverage)."""
    if lines is None:
        return True
    first, last = mutant.get("reach") or (mutant["line"], mutant["line"])
    return any(n in lines for n in range(first, last + 1))


def mutate_target(config, target):
    rng = random.Random("%s:%s:mutate" % (config.get("seed", 0), target["unitId"]))
    result = {"unitId": target["unitId"], "mutation": {"total": 0, "killed": 0, "score": 1, "survivors": []},
              "before": {"total": 0, "killed": 0, "score": 1, "survivors": []}, "newCases": [], "mutants": [],
              "search": {"tried": 0, "found": 0}, "baselineMismatches": 0, "error": None}
    cases = list(target.get("cases") or [])
    worker, drop = common.start_worker(config, target)
    if drop is not None:
        result["error"] = drop
        return result
    worker_b, drop = common.start_worker(config, target, hash_seed=common.SECOND_HASH_SEED)
    if drop is not None:
        worker.close()
        result["error"] = drop
        return result
    # source forms name a module its package's attribute shadows through importlib (common.module_source)
    target = dict(target, shadowed=bool(worker.info.get("shadowed")))
    t = Target(config, target, worker, worker_b)
    try:
        listing = worker.call({"op": "mutants"}, 60).get("mutants", [])
        # mutants in a branch this interpreter never takes (`if PY2:`): no input can tell them apart
        dead = [m for m in listing if m.get("dead")]
        listing = [m for m in listing if not m.get("dead")]
        cap = config.get("maxMutants", 150)
        if len(listing) > cap:
            listing = [listing[k] for k in sorted(rng.sample(range(len(listing)), cap))]
        try:
            desc = worker.call({"op": "describe", "timeoutMs": 20000}, 60)
        except common.WorkerDied:
            t.restart()
            desc = {}
        # the module's own short strings (colour names, version strings) as boundary constants of the search
        # and strings its regexes accept / its docstrings quote, first (they reach the valid branches)
        module_literals = desc.get("moduleLiterals") or {}
        t.module_strings = [v for v in (module_literals.get("regexStr") or [])[:6] + (module_literals.get("docStr") or [])[:4]
                            + (module_literals.get("dataStr") or [])[:6]
                            + (module_literals.get("str") or [])[:8] if isinstance(v, str)]
        gen, bound = worker.info.get("generator", False), worker.info.get("needsInstance", False)
        # a case the task judges collected (generator target, `lazy` case) needs its inputs as source
        collectable = [not common.judged_elsewhere(c, gen) or common.has_source(common.input_of(c)) for c in cases]
        if not all(collectable):
            result["rejected"] = {"no-source": collectable.count(False)}
            cases = [c for c, ok in zip(cases, collectable) if ok]
            if not cases:
                result["error"] = {"code": "no-cases", "reason": "no recorded input of this iterator has a source form for the collected case"}
                return result
        inputs = [common.input_of(c) for c in cases]
        # replayed in the form the task judges each case (collected or not): worker.run_case `lazy`
        runs = [common.judged_input(c) for c in cases]
        expected = [common.expected_verdict(c) for c in cases]
        with_aa = [c.get("argsAfter") is not None for c in cases]
        base = t.batch(runs, trace=True)
        lines = [set() for _ in cases]
        limits = []
        if base.get("kind") == "batch":
            good = []
            for k, outcome in enumerate(base["outcomes"]):
                lines[k] = set(outcome.get("lines", []))
                if common.judged_verdict(outcome, with_aa[k], expected[k]) == expected[k]:
                    good.append(k)
            result["baselineMismatches"] = len(cases) - len(good)
        else:
            good = []
            result["baselineMismatches"] = len(cases)
        if good:
            limits = common.mutant_case_limits([base["outcomes"][k] for k in good], config)
        inputs = [inputs[k] for k in good]
        runs = [runs[k] for k in good]
        expected = [expected[k] for k in good]
        with_aa = [with_aa[k] for k in good]
        lines = [lines[k] for k in good]
        if not inputs:
            result["error"] = {"code": "no-cases", "reason": "no recorded case reproduces in one process"}
            return result
        if target.get("mutantOf") and not any(lines):
            # mutants of a helper none of the entry's cases runs: none can be told apart, and the
            # search would only look for a way in (record-candidates.ts, the entry pass)
            result["error"] = {"code": "entry-unreached", "reason": "no case of the entry runs a line of it"}
            return result

        status = {}
        # a try through an entry ends once too many mutants survive for its score to reach stopBelow
        stop_below = target.get("stopBelow")
        survivors = 0
        for m in listing:
            # only the cases that run the mutated statement (the rest behave as on the original); with
            # none, an empty batch still tells whether the mutant applies
            on = [k for k in range(len(runs)) if _reaches(m, lines[k])]
            sub = lambda xs: [xs[k] for k in on]  # noqa: E731
            answer = t.batch(sub(runs), mutant=m["index"], limits=sub(limits), expected=sub(expected), with_aa=sub(with_aa))
            killed, how = _kills(answer, sub(expected), sub(with_aa))
            status[m["index"]] = (killed, how)
            survivors += killed is False
            if stop_below is not None and survivors > (1 - stop_below) * len(listing):
                result["error"] = {"code": "below-threshold", "reason": "%d of %d mutants survive: below %s" % (survivors, len(listing), stop_below)}
                return result
        valid = [m for m in listing if status[m["index"]][0] is not None]
        result["before"] = _score(valid, status, dead)

        if config.get("search", True) and target.get("search", True):
            searching = time.monotonic()
            search(config, t, target, rng, valid, status, inputs, lines, result, expected)
            result["searchMs"] = int((time.monotonic() - searching) * 1000)
        result["mutation"] = _score(valid, status, dead)
        if any(common.judged_elsewhere(c, gen) for c in cases + result["newCases"]):
            # generator targets, `lazy` and `probe` cases: given back in the form the task judges them
            result["cases"], dropped = common.judged_cases(target, cases, gen, bound)
            result["newCases"], dropped_new = common.judged_cases(target, result["newCases"], gen, bound)
            if dropped + dropped_new:
                rejected = result.setdefault("rejected", {})
                rejected["no-source"] = rejected.get("no-source", 0) + dropped + dropped_new
        result["mutants"] = [{"index": m["index"], "line": m["line"], "description": m["description"], "kind": m["kind"],
                              "killed": bool(status[m["index"]][0]), "how": status[m["index"]][1]} for m in valid]
    finally:
        t.worker.close()
        t.worker_b.close()
    return result


def _score(valid, status, dead=()):
    counted = [m for m in valid if status[m["index"]][1] != "likely-equivalent"]
    killed = sum(1 for m in counted if status[m["index"]][0])
    total = len(counted)
    survivors = [m["description"] for m in counted if not status[m["index"]][0]]
    survivors += [EQUIVALENT_PREFIX + m["description"] for m in valid if status[m["index"]][1] == "likely-equivalent"]
    survivors += [DEAD_PREFIX + m["description"] for m in dead]
    return {"total": total, "killed": killed, "score": (killed / total) if total else 1, "survivors": survivors}


def _strings(case_input):
    """The strings an input holds (arguments, init arguments, a rebuilt receiver's attributes, and
    their items two levels down): where the search's splices take their parts from."""
    values = list(case_input.get("args") or []) + list((case_input.get("kwargs") or {}).values()) + variations.init_values(case_input.get("init"))
    return [x["v"] for x in variations.leaves(values, ("str",))]


def search(config, t, target, rng, valid, status, inputs, lines, result, expected):
    deadline = time.monotonic() + config.get("searchBudgetMs", 120000) / 1000.0
    per_mutant = config.get("searchPerMutant", 64)
    max_new = config.get("maxNewCases", 20)
    known = {common.input_key(i) for i in inputs}
    original_cache = {}
    new_cases = result["newCases"]
    new_limits = []  # each new case's limit for a mutant's run (common.mutant_case_limits of its original run)
    # the structured parts of the strings known (the inputs', the module's, the repository's data
    # files'): splices of them give a parser inputs of shapes no recorded input has (variations.splices)
    data_lines = (common.data_lines(config["repoRoot"]) + list(common.readme_strings(config["repoRoot"]))) if config.get("dataFiles", True) else []
    parts = variations.donors([x for i in inputs for x in _strings(i)] + getattr(t, "module_strings", []) + data_lines)
    values = variations.value_donors(inputs)
    # search inputs that ran lines no earlier input ran become seeds too (coverage-guided): a survivor
    # in a branch no recorded input reaches gets inputs near the first one that reached it
    found_seeds = []
    covered = set().union(*lines) if lines else set()
    # ... and so do those that ran lines no earlier input ran and then returned: where every recorded
    # input that reaches a line raises after it (a list of strings to `avg`), a mutant there shows
    # only on an input that goes on to return, which is often one more step away (`[4]` → `[4, 4]`)
    returns = ["returns" in json.loads(e) for e in expected]  # whether each recorded input returned
    returned = [ls for ls, r in zip(lines, returns) if r]
    covered_returning = set().union(*returned) if returned else set()
    tried = {}  # mutant index -> keys of the candidates already run on it

    gen = t.worker.info.get("generator", False)

    def original(batch):
        todo = [x for x in batch if common.input_key(x) not in original_cache]
        if todo:
            answer = t.batch(todo, trace=True)
            outs = answer.get("outcomes") if answer.get("kind") == "batch" else [t.one(x) for x in todo]
            for x, o in zip(todo, outs):
                original_cache[common.input_key(x)] = o
        return [original_cache[common.input_key(x)] for x in batch]

    def seeds_for(m):
        recorded = [inputs[k] for k in range(len(inputs)) if m["line"] in lines[k]]
        grown = [x for x, ls in found_seeds if _reaches(m, ls)]
        if not recorded and not grown:
            # no input runs the line: near the inputs found last (they went where no recorded one did)
            return ([x for x, _ in found_seeds[::-1]][:4] + list(inputs))[:8]
        return (grown[:4] + recorded)[:8] if recorded else grown[:8]

    def search_mutant(m, seeds):
        """Search near `seeds` for an input on which mutant m differs from the original: a new case
        and m killed when one is found; m likely-equivalent when the search ran out without one and
        the evidence holds."""
        # Evidence of equivalence: inputs that reach the line AND return a value on the original
        # (an input that raises may stop anywhere after the line), with at least two different
        # values among them (else what the line does never shows in the result).
        returning = [k for k in range(len(inputs)) if m["line"] in lines[k] and returns[k]]
        reaching = len(returning)
        outcomes_seen = {expected[k] for k in returning}
        done = tried.setdefault(m["index"], set())
        candidates = []
        for s in seeds:
            candidates.extend(variations.neighbours(s, (m.get("constants") or []) + getattr(t, "module_strings", []), rng,
                                                    max(8, per_mutant // len(seeds) + 4), parts=parts, values=values))
        unique, seen = [], set()
        for c in candidates:
            key = common.input_key(c)
            if key not in known and key not in seen and key not in done:
                seen.add(key)
                unique.append(c)
        unique = unique[:per_mutant]
        found = None
        exhausted = True
        for start in range(0, len(unique), CHUNK):
            if found is not None or time.monotonic() > deadline:
                exhausted = found is not None
                break
            chunk = unique[start:start + CHUNK]
            done.update(common.input_key(x) for x in chunk)
            result["search"]["tried"] += len(chunk)
            orig = original(chunk)
            for x, o in zip(chunk, orig):
                ran = set(o.get("lines") or ())
                if ran - covered and o.get("kind") in ("returns", "raises"):
                    covered.update(ran)
                    found_seeds.append((x, ran))
                elif ran - covered_returning and o.get("kind") == "returns":
                    found_seeds.append((x, ran))
                if o.get("kind") == "returns":
                    covered_returning.update(ran)
            # the mutant runs each input in the form its case would be judged in (collected when the
            # original returned an iterator): worker.run_case `lazy`
            judged = [dict(x, lazy=common.lazy_form(o)) for x, o in zip(chunk, orig)]
            # the mutant runs only the inputs that run its statement on the original (on the others it
            # gives the original's outcome); each limited on its own, at the mutants' limit from the
            # original's time: an input it loops forever on costs half a second, and kills it (a
            # task's case times out too)
            on = [k for k, o in enumerate(orig) if _reaches(m, set(o["lines"]) if "lines" in o else None)]
            mut = list(orig)
            if on:
                answer = t.batch([judged[k] for k in on], mutant=m["index"], limits=common.mutant_case_limits([orig[k] for k in on], config))
                outs = answer["outcomes"] if answer.get("kind") == "batch" else [t.one(judged[k], mutant=m["index"]) for k in on]
                for k, mo in zip(on, outs):
                    mut[k] = mo
            for x, o, mo in zip(chunk, orig, mut):
                lazy = common.lazy_form(o)
                aa = common.needs_args_after(x) and not common.judged_elsewhere(dict(x, lazy=lazy), gen)
                vo = common.expected_verdict_of(o, aa)
                if vo is not None and o.get("kind") == "returns" and m["line"] in o.get("lines", ()):
                    reaching += 1
                    outcomes_seen.add(vo)
                if vo is None or vo == common.judged_verdict(mo, aa, vo):
                    continue
                if common.judged_elsewhere(dict(x, lazy=lazy), gen) and not common.has_source(x):
                    continue  # no collected or probed case can be written for it (common.judged_cases)
                first = t.one(dict(x, lazy=lazy))
                second = t.one(dict(x, lazy=lazy), second=True)
                if common.expected_verdict_of(first, aa) == vo and common.expected_verdict_of(second, aa) == vo:
                    found = (x, dict(first, lazy=lazy))
                    break
        if found is not None:
            case = common.make_case(target, found[0], found[1], "mutant-search", generator=gen)
            new_cases.append(case)
            new_limits.extend(common.mutant_case_limits([found[1]], config))
            known.add(common.input_key(found[0]))
            status[m["index"]] = (True, "search")
            result["search"]["found"] += 1
        elif exhausted and reaching >= EQUIVALENT_MIN_REACHING and len(outcomes_seen) >= 2 and not m.get("partialLine"):
            status[m["index"]] = (False, "likely-equivalent")

    def killed_by_new_cases(m):
        if not new_cases:
            return False
        new_inputs = [common.judged_input(c) for c in new_cases]
        new_expected = [common.expected_verdict(c) for c in new_cases]
        new_aa = [c.get("argsAfter") is not None for c in new_cases]
        killed, how = _kills(t.batch(new_inputs, mutant=m["index"], limits=new_limits, expected=new_expected, with_aa=new_aa), new_expected, new_aa)
        if killed:
            status[m["index"]] = (True, "search-case")
        return bool(killed)

    used = {}  # mutant index -> the seeds its search started from
    for m in valid:
        if status[m["index"]][0] or len(new_cases) >= max_new or time.monotonic() > deadline:
            continue
        if killed_by_new_cases(m):
            continue
        used[m["index"]] = seeds_for(m)
        search_mutant(m, used[m["index"]])

    # a second pass for the survivors that seeds found after their own search now reach
    for m in valid:
        if status[m["index"]][0] or status[m["index"]][1] == "likely-equivalent" or m["index"] not in used:
            continue
        if len(new_cases) >= max_new or time.monotonic() > deadline:
            break
        before = {common.input_key(x) for x in used[m["index"]]}
        fresh = [x for x, ls in found_seeds if _reaches(m, ls) and common.input_key(x) not in before]
        if not fresh or killed_by_new_cases(m):
            continue
        search_mutant(m, fresh[:8])

    # a case found for a later mutant can kill an earlier one whose own search came up empty
    # (`a >= 0` → `a > 0` and `0` → `1` both die on a 0): one last pass over the survivors
    if new_cases:
        new_inputs = [common.judged_input(c) for c in new_cases]
        verdicts = [common.expected_verdict(c) for c in new_cases]
        with_aa = [c.get("argsAfter") is not None for c in new_cases]
        for m in valid:
            if status[m["index"]][0] or time.monotonic() > deadline + 30:
                continue
            killed, how = _kills(t.batch(new_inputs, mutant=m["index"], limits=new_limits, expected=verdicts, with_aa=with_aa), verdicts, with_aa)
            if killed:
                status[m["index"]] = (True, "search-case")


def main():
    config = common.read_config()
    def timed(target):
        started = time.monotonic()
        result = mutate_target(config, target)
        result["ms"] = int((time.monotonic() - started) * 1000)
        return result

    results = common.map_targets(timed, config["targets"], config)
    common.write_result({"targets": results})


if __name__ == "__main__":
    main()
