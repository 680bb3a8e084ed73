"""The examples of the prompt of task __CODEMIDAS_TASK_ID__, run as doctests on the reference.

Written by codemidas build for its examples gate only (the gate scores this file on the workspace
with the original bodies back, then removes it): scoring an episode never runs it. One test per
example, `test_example_<id>`. An example of the prompt's "Examples" section runs in a fresh
namespace after that section's import lines; one of any other section (a docstring the prompt
quotes) runs in a copy of its module's namespace after the earlier examples of its section, as
doctest runs a docstring. Outputs are compared as doctest compares them (ELLIPSIS,
NORMALIZE_WHITESPACE, exception details ignored), with two readings more: a shown `None` is no
output, and two outputs that are Python literals of equal values match (a set printed in another
order).
"""
import ast
import doctest
import importlib
import json

EXAMPLES = {e["id"]: e for e in json.loads(__CODEMIDAS_EXAMPLES__)}

FLAGS = doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE | doctest.IGNORE_EXCEPTION_DETAIL


class _Checker(doctest.OutputChecker):
    def check_output(self, want, got, optionflags):
        if doctest.OutputChecker.check_output(self, want, got, optionflags):
            return True
        if want.strip() == "None" and got.strip() == "":
            return True
        try:
            return ast.literal_eval(want.strip()) == ast.literal_eval(got.strip())
        except Exception:  # noqa: BLE001 - not literals: the doctest comparison stands
            return False


def _run(globs, text, name):
    test = doctest.DocTestParser().get_doctest(text, globs, name, None, 0)
    runner = doctest.DocTestRunner(checker=_Checker(), optionflags=FLAGS)
    out = []
    runner.run(test, out=out.append, clear_globs=False)
    # a DocTest runs in a copy of the namespace it is given: what the text defined is in test.globs
    globs.update(test.globs)
    return runner.failures, "".join(out)


def _check(example_id):
    example = EXAMPLES[example_id]
    if example["module"] is None:
        globs = {"__name__": "__prompt__"}
    else:
        globs = dict(vars(importlib.import_module(example["module"])))
    for text in example["before"]:
        _run(globs, text, "before")
    failures, report = _run(globs, example["text"], example_id)
    assert failures == 0, report


# One test per example, `test_example_<id>` (the judge reports each test function by its name).
