#!/usr/bin/env python3
"""Builds the sample suite `environments/sample/` from the example library `examples/textkit/`.

One task per target function. For each task it writes:

- `task.json`: the package index (schema: src/tasks/task-schema.ts), with a prompt made from the
  target's signature, docstring and a few recorded examples;
- its workspace, stored once for the suite (docs/task-format.md, "Stored once"): the suite's
  `_base/` is the library as it is; the task's `overlay/` holds the target's module with only the
  target's body replaced by `raise NotImplementedError` (signature and docstring kept) and the
  library's test files with their tests of the target removed, and `overlay.json` lists the test
  files left with no test (`deleted`);
- `hidden/cases.json`: hand-chosen inputs whose outputs are RECORDED by running the original code
  and encoding the result with src/languages/python/judge/codec.py (each case run twice, kept only when
  both runs agree);
- `hidden/tests/test_<symbol>.py`: behaviour tests run by pytest;
- `solution/<path>`: the original module at its workspace-relative path.

The output is deterministic (same bytes on every run): no timestamps, sorted JSON keys, sorted
file walks. After writing, every task is verified on copies in a temporary folder (the generated
tree is never executed in place, so no __pycache__ lands in it): the library's remaining tests pass
on the masked workspace, and the hidden tests and cases pass against the solution and all fail
against the masked workspace.

Usage (always with /usr/bin/python3):
  scripts/make-sample-suite.py [--out DIR] [--no-verify]
  scripts/make-sample-suite.py check-cases --workspace DIR --cases FILE [--case-timeout-ms N]

`check-cases` runs a cases.json against a workspace in this process (host-side check for tests;
the hardened judge is src/languages/python/judge/judge.py) and prints {"results": [{id, passed, detail}]}.
"""
import sys

sys.dont_write_bytecode = True

import argparse  # noqa: E402
import ast  # noqa: E402
import importlib  # noqa: E402
import json  # noqa: E402
import os  # noqa: E402
import re  # noqa: E402
import shutil  # noqa: E402
import signal  # noqa: E402
import subprocess  # noqa: E402
import tempfile  # noqa: E402
import textwrap  # noqa: E402
import xml.etree.ElementTree as ElementTree  # noqa: E402
from pathlib import Path  # noqa: E402

REPO_ROOT = Path(__file__).resolve().parent.parent
LIBRARY_DIR = REPO_ROOT / "examples" / "textkit"
LIBRARY_REPO = "examples/textkit"
CODEC_DIR = REPO_ROOT / "src" / "languages" / "python" / "judge"
DEFAULT_OUT = REPO_ROOT / "environments" / "sample"
SUITE = "sample"
BASE_DIR = "_base"
OVERLAY_DIR = "overlay"

sys.path.insert(0, str(CODEC_DIR))
import codec  # noqa: E402

SKIPPED_NAMES = {"__pycache__", ".pytest_cache", ".mypy_cache", ".git"}


def case(*args, **kwargs):
    """One hand-chosen input: positional and keyword arguments of the target."""
    return (args, kwargs)


# ---------------------------------------------------------------------------------------------
# Hidden test scripts. Top-level test functions only, no parametrize, exact types before equality.
# Every test calls the target, so each one fails on the masked workspace.

TEST_WRAP_TEXT = '''
import pytest

from textkit.wrap import wrap_text

TEXT = "Sphinx of black quartz, judge my vow. Pack my box with five dozen liquor jugs."


def test_lines_fit_the_width_and_keep_every_word():
    for width in (8, 12, 20, 33, 80):
        lines = wrap_text(TEXT, width)
        assert type(lines) is list
        assert all(type(line) is str for line in lines)
        assert all(0 < len(line) <= width for line in lines)
        assert " ".join(lines).split() == TEXT.split()


def test_lines_are_filled_greedily():
    lines = wrap_text(TEXT, 20)
    for line, following in zip(lines, lines[1:]):
        assert len(line) + 1 + len(following.split()[0]) > 20


def test_paragraphs_are_separated_by_one_empty_line():
    lines = wrap_text("alpha beta\\n\\n\\n  \\ngamma\\n\\ndelta epsilon", 11)
    assert type(lines) is list and lines == ["alpha beta", "", "gamma", "", "delta", "epsilon"]


def test_long_words_are_cut_only_when_asked():
    word = "x" * 23
    cut = wrap_text("ab " + word + " cd", 10)
    assert type(cut) is list and cut == ["ab", "x" * 10, "x" * 10, "xxx cd"]
    whole = wrap_text("ab " + word + " cd", 10, break_long_words=False)
    assert type(whole) is list and whole == ["ab", word, "cd"]


def test_blank_text_gives_no_lines():
    result = wrap_text(" \\n\\t\\n ", 4)
    assert type(result) is list and result == []


def test_bad_arguments_raise():
    with pytest.raises(ValueError):
        wrap_text("some words", 0)
    with pytest.raises(TypeError):
        wrap_text(b"some words", 10)
'''

TEST_SLUGIFY = '''
import re

import pytest

from textkit.slug import slugify


def test_slug_uses_only_lower_case_ascii_letters_digits_and_separators():
    for text in ("Hello, World!", "  Crème brûlée -- 2024 ", "Ça va? Très bien!", "Tab\\tand\\nnewline"):
        slug = slugify(text)
        assert type(slug) is str
        assert re.fullmatch(r"[a-z0-9]+(-[a-z0-9]+)*", slug)


def test_accents_are_folded():
    slug = slugify("Ångström Öl Façade")
    assert type(slug) is str and slug == "angstrom-ol-facade"


def test_apostrophes_do_not_split_words():
    slug = slugify("Rock 'n' Roll isn't dead")
    assert type(slug) is str and slug == "rock-n-roll-isnt-dead"


def test_max_length_keeps_whole_words_within_the_limit():
    text = "the quick brown fox jumps over the lazy dog"
    full = slugify(text)
    for limit in range(1, len(full) + 3):
        slug = slugify(text, max_length=limit)
        assert type(slug) is str
        assert len(slug) <= limit
        assert full.startswith(slug)
        if len(slug) >= 3:
            assert full[len(slug):] == "" or full[len(slug)] == "-"


def test_custom_separator():
    slug = slugify("One two  THREE", separator="_")
    assert type(slug) is str and slug == "one_two_three"


def test_invalid_arguments_raise():
    with pytest.raises(ValueError):
        slugify("abc", separator="x")
    with pytest.raises(ValueError):
        slugify("abc", max_length=0)
    with pytest.raises(TypeError):
        slugify(["abc"])
'''

TEST_TO_ROMAN = '''
import pytest

from textkit.roman import to_roman

VALUES = {"I": 1, "V": 5, "X": 10, "L": 50, "C": 100, "D": 500, "M": 1000}


def _value(numeral):
    total = 0
    for symbol, following in zip(numeral, numeral[1:] + " "):
        value = VALUES[symbol]
        total += -value if following != " " and VALUES[following] > value else value
    return total


def test_every_numeral_reads_back_to_its_number():
    for number in range(1, 4000):
        numeral = to_roman(number)
        assert type(numeral) is str
        assert _value(numeral) == number


def test_numerals_are_canonical():
    for number in range(1, 4000):
        numeral = to_roman(number)
        for bad in ("IIII", "XXXX", "CCCC", "MMMM", "VV", "LL", "DD", "IL", "IC", "ID", "IM", "XD", "XM"):
            assert bad not in numeral


def test_known_numerals():
    result = [to_roman(n) for n in (1, 4, 9, 14, 40, 90, 400, 1994, 3999)]
    assert type(result) is list and result == ["I", "IV", "IX", "XIV", "XL", "XC", "CD", "MCMXCIV", "MMMCMXCIX"]


def test_out_of_range_raises_value_error():
    for number in (0, -1, 4000, 10 ** 6):
        with pytest.raises(ValueError):
            to_roman(number)


def test_non_integers_raise_type_error():
    for value in (1.0, "7", None, False):
        with pytest.raises(TypeError):
            to_roman(value)
'''

TEST_FROM_ROMAN = '''
import pytest

from textkit.roman import from_roman, to_roman


def test_every_canonical_numeral_parses():
    for number in range(1, 4000):
        value = from_roman(to_roman(number))
        assert type(value) is int and value == number


def test_case_and_surrounding_whitespace_are_ignored():
    for text in ("mcmxciv", " MCMXCIV", "McMxCiV\\n", "\\tmcmXCIV  "):
        value = from_roman(text)
        assert type(value) is int and value == 1994


def test_non_canonical_numerals_are_refused():
    for text in ("IIII", "VV", "IIV", "IL", "XCX", "CMM", "DCD", "MMMM", "IXI", "LXL", "IVI"):
        with pytest.raises(ValueError):
            from_roman(text)


def test_garbage_is_refused():
    for text in ("", "   ", "ABC", "X I", "12", "MCMXCIV!"):
        with pytest.raises(ValueError):
            from_roman(text)


def test_non_strings_raise_type_error():
    for value in (12, None, b"XII"):
        with pytest.raises(TypeError):
            from_roman(value)
'''

TEST_FORMAT_TABLE = '''
import pytest

from textkit.tables import format_table


def test_headers_rule_and_default_alignment():
    text = format_table([["apple", 3, 1.25], ["kiwi", 12, None]], headers=["fruit", "qty", "price"])
    assert type(text) is str
    assert text.split("\\n") == [
        "fruit | qty | price",
        "------+-----+------",
        "apple |   3 |  1.25",
        "kiwi  |  12 |",
    ]


def test_all_lines_have_no_trailing_spaces_and_columns_line_up():
    rows = [["a", "bb", "ccc"], ["dddd", "e", "f"], ["g", "hhhhh", "i"]]
    text = format_table(rows, align="lcr")
    assert type(text) is str
    lines = text.split("\\n")
    assert len(lines) == 3
    assert all(line == line.rstrip() for line in lines)
    assert len({line.index("|") for line in lines}) == 1


def test_centre_puts_the_extra_space_on_the_right():
    text = format_table([["abcd", "x"], ["ab", "y"], ["a", "z"]], align="cl")
    assert type(text) is str and text == "abcd | x\\n ab  | y\\n a   | z"


def test_booleans_are_not_numbers():
    text = format_table([[True, 1], [False, 10]])
    assert type(text) is str and text == "True  |  1\\nFalse | 10"


def test_bad_shapes_raise_value_error():
    with pytest.raises(ValueError):
        format_table([[1, 2], [3, 4, 5]])
    with pytest.raises(ValueError):
        format_table([[1, 2]], headers=["a"])
    with pytest.raises(ValueError):
        format_table([[1, 2]], align="lz")
    with pytest.raises(ValueError):
        format_table([["two\\nlines", 2]])
'''

TEST_MERGE_INTERVALS = '''
import random

import pytest

from textkit.intervals import merge_intervals


def _covered(intervals, point):
    return any(start <= point <= end for start, end in intervals)


def test_result_is_sorted_disjoint_and_covers_the_same_points():
    rng = random.Random(7)
    for _ in range(200):
        intervals = []
        for _ in range(rng.randint(0, 8)):
            start = rng.randint(-20, 20)
            intervals.append((start, start + rng.randint(0, 6)))
        merged = merge_intervals(intervals)
        assert type(merged) is list
        assert all(type(item) is tuple and len(item) == 2 for item in merged)
        for (_, end), (start, _) in zip(merged, merged[1:]):
            assert end < start
        for point in range(-21, 28):
            assert _covered(merged, point) == _covered(intervals, point)


def test_touching_intervals_merge_unless_told_not_to():
    merged = merge_intervals([(4, 6), (0, 2), (2, 4)])
    assert type(merged) is list and merged == [(0, 6)]
    apart = merge_intervals([(4, 6), (0, 2), (2, 4)], touching=False)
    assert type(apart) is list and apart == [(0, 2), (2, 4), (4, 6)]


def test_input_is_not_modified():
    intervals = [[5, 9], [1, 6]]
    merged = merge_intervals(intervals)
    assert type(merged) is list and merged == [(1, 9)]
    assert intervals == [[5, 9], [1, 6]]


def test_float_bounds_are_kept():
    merged = merge_intervals([(0.5, 1.5), (1.25, 2.0), (3, 4)])
    assert type(merged) is list and merged == [(0.5, 2.0), (3, 4)]
    assert type(merged[0][1]) is float and type(merged[1][0]) is int


def test_invalid_intervals_raise():
    with pytest.raises(ValueError):
        merge_intervals([(1, 2), (9, 3)])
    with pytest.raises(ValueError):
        merge_intervals([(1, 2, 3)])
    with pytest.raises(TypeError):
        merge_intervals([(1, "2")])
'''

TEST_COMPARE_VERSIONS = '''
import pytest

from textkit.semver import compare_versions

# Ascending precedence, from the Semantic Versioning 2.0.0 specification and beyond.
CHAIN = [
    "0.9.9",
    "1.0.0-0.3.7",
    "1.0.0-alpha",
    "1.0.0-alpha.1",
    "1.0.0-alpha.beta",
    "1.0.0-beta",
    "1.0.0-beta.2",
    "1.0.0-beta.11",
    "1.0.0-rc.1",
    "1.0.0",
    "1.0.1",
    "1.2.0",
    "1.10.0",
    "2.0.0",
    "10.0.0",
]


def test_chain_is_totally_ordered():
    for i, a in enumerate(CHAIN):
        for j, b in enumerate(CHAIN):
            result = compare_versions(a, b)
            assert type(result) is int
            assert result == (i > j) - (i < j)


def test_build_metadata_is_ignored():
    result = compare_versions("1.0.0-rc.1+build.7", "1.0.0-rc.1+exp.sha.5114f85")
    assert type(result) is int and result == 0


def test_numeric_identifiers_compare_as_numbers_and_before_words():
    result = [compare_versions("1.0.0-2", "1.0.0-10"), compare_versions("1.0.0-999", "1.0.0-a")]
    assert type(result) is list and result == [-1, -1]


def test_invalid_versions_raise_value_error():
    for bad in ("1.0", "1.0.0.0", "1.01.0", "1.0.0-", "1.0.0-alpha..1", "1.0.0+", "v1.0.0", "1.0.0-a_b"):
        with pytest.raises(ValueError):
            compare_versions(bad, "1.0.0")
        with pytest.raises(ValueError):
            compare_versions("1.0.0", bad)


def test_non_strings_raise_type_error():
    with pytest.raises(TypeError):
        compare_versions(1, "1.0.0")
'''

# ---------------------------------------------------------------------------------------------
# The tasks. `examples` are indices into `cases` shown in the prompt.

TASKS = [
    {
        "name": "wrap-text",
        "title": "Greedy, paragraph-aware text wrapping",
        "path": "textkit/wrap.py",
        "module": "textkit.wrap",
        "symbol": "wrap_text",
        "test": TEST_WRAP_TEXT,
        "examples": (0, 8, 12),
        "cases": [
            case("The quick brown fox jumps over the lazy dog", 10),
            case("The quick brown fox jumps over the lazy dog"),
            case("", 10),
            case("   \n\n  ", 5),
            case("hello world", 5),
            case("hello world", 11),
            case("hello world", 10),
            case("a b c d e f", 3),
            case("abcdefghijkl mn", 5),
            case("abcdefghijkl mn", 5, break_long_words=False),
            case("ab abcdefgh", 4),
            case("xy abcdefgh z", 4, break_long_words=False),
            case("one two\n\n\nthree four", 7),
            case("line one\nline two", 20),
            case("para\n \t \nnext", 10),
            case("\n\nlead and trail\n\n", 4),
            case("word", 1),
            case("tab\tseparated\twords", 9),
            case("abcdef", 3),
            case("abcdefg hi", 3),
            case("x", 0),
            case("x", -3),
            case(None, 10),
            case(b"bytes", 10),
        ],
    },
    {
        "name": "slugify",
        "title": "URL slugs with accent folding and word-boundary truncation",
        "path": "textkit/slug.py",
        "module": "textkit.slug",
        "symbol": "slugify",
        "test": TEST_SLUGIFY,
        "examples": (0, 3, 11),
        "cases": [
            case("Hello, World!"),
            case("  Leading and trailing  "),
            case("Héllo Wörld"),
            case("Don't stop"),
            case("It\u2019s fine"),
            case("a--b__c"),
            case(""),
            case("!!!"),
            case("C++ & Python 3.11"),
            case("a b c", separator="_"),
            case("a b c", separator="--"),
            case("hello big world", max_length=9),
            case("hello big world", max_length=8),
            case("hello big world", max_length=15),
            case("hello big world", max_length=14),
            case("supercalifragilistic", max_length=5),
            case("ß straße"),
            case("Ünïcödé ÆØÅ"),
            case("\uff26\uff35\uff2c\uff2c width"),
            case("a b", separator=" "),
            case("x", separator=""),
            case("x", separator="a"),
            case("x", separator="1"),
            case("x", max_length=0),
            case(42),
        ],
    },
    {
        "name": "to-roman",
        "title": "Integers to Roman numerals",
        "path": "textkit/roman.py",
        "module": "textkit.roman",
        "symbol": "to_roman",
        "test": TEST_TO_ROMAN,
        "examples": (0, 8, 12),
        "cases": [
            case(1),
            case(3),
            case(4),
            case(9),
            case(14),
            case(40),
            case(49),
            case(90),
            case(1994),
            case(400),
            case(444),
            case(1000),
            case(3999),
            case(3888),
            case(2024),
            case(0),
            case(4000),
            case(-5),
            case(True),
            case(5.0),
            case("12"),
            case(None),
        ],
    },
    {
        "name": "from-roman",
        "title": "Strict parsing of Roman numerals",
        "path": "textkit/roman.py",
        "module": "textkit.roman",
        "symbol": "from_roman",
        "test": TEST_FROM_ROMAN,
        "examples": (3, 5, 9),
        "cases": [
            case("I"),
            case("IV"),
            case("IX"),
            case("XLII"),
            case("xlii"),
            case("  MCMXCIV "),
            case("MMMCMXCIX"),
            case("CDXLIV"),
            case("MMXXIV"),
            case("IIII"),
            case("IC"),
            case("VX"),
            case("MMMM"),
            case(""),
            case("   "),
            case("IIV"),
            case("XM"),
            case("ABC"),
            case("IM"),
            case("DCCC"),
            case("LXXX"),
            case("CMXC"),
            case("MDCLXVI"),
            case(12),
            case(None),
        ],
    },
    {
        "name": "format-table",
        "title": "Plain-text tables with column alignment",
        "path": "textkit/tables.py",
        "module": "textkit.tables",
        "symbol": "format_table",
        "test": TEST_FORMAT_TABLE,
        "examples": (0, 7, 11),
        "cases": [
            case([[1, "a"], [22, "bbb"]], headers=["n", "name"]),
            case([[1, "a"], [22, "bbb"]]),
            case([]),
            case([], headers=["a", "b"]),
            case([["x", None], [None, None]]),
            case([[1.5, 2], [10, None]]),
            case([[True, 1]]),
            case([["ab", "c"], ["a", "cde"]], align="cr"),
            case([["abc"], ["a"], ["ab"]], align="c"),
            case([["a", "b"]], align="lx"),
            case([["a", "b"]], align="l"),
            case([[1, 2], [3]]),
            case([[1, 2]], headers=["only"]),
            case([["a\nb"]]),
            case((("t", 1), ("u", 22))),
            case([["long header value", 3]], headers=["h", "k"]),
            case([[-1, 10], [100, -20]], headers=["a", "b"]),
            case([[]]),
            case([["a"]], headers=["x"], align="r"),
            case([[0.1, "x"]]),
            case([[None]], headers=["h"]),
            case([["wide", 1], ["w", 22]], headers=["name", "number"], align="cc"),
        ],
    },
    {
        "name": "merge-intervals",
        "title": "Merging overlapping closed intervals",
        "path": "textkit/intervals.py",
        "module": "textkit.intervals",
        "symbol": "merge_intervals",
        "test": TEST_MERGE_INTERVALS,
        "examples": (0, 3, 11),
        "cases": [
            case([(5, 6), (1, 3), (2, 4)]),
            case([]),
            case([(1, 2), (2, 3)]),
            case([(1, 2), (2, 3)], touching=False),
            case([(1, 10), (2, 3), (4, 5)]),
            case([[1, 2], [3, 4]]),
            case([(1.5, 2.5), (2, 3)]),
            case([(0, 0), (0, 0)]),
            case([(0, 0), (0, 0)], touching=False),
            case([(3, 4), (1, 2), (3, 5)]),
            case([(-5, -1), (-3, 0), (2, 2)]),
            case([(3, 1)]),
            case([(1, 3)]),
            case([(1, 2, 3)]),
            case([(1,)]),
            case([5]),
            case([("a", "b")]),
            case([(True, 2)]),
            case([(1, None)]),
            case([(1, 5), (2, 3), (5, 7)], touching=False),
            case([(1, 2), (3, 4), (2.5, 3)]),
            case(((2, 3), (1, 2))),
        ],
    },
    {
        "name": "compare-versions",
        "title": "Semantic Versioning 2.0.0 precedence",
        "path": "textkit/semver.py",
        "module": "textkit.semver",
        "symbol": "compare_versions",
        "test": TEST_COMPARE_VERSIONS,
        "examples": (2, 7, 18),
        "cases": [
            case("1.0.0", "2.0.0"),
            case("2.0.0", "1.9.9"),
            case("1.10.0", "1.9.0"),
            case("1.0.10", "1.0.9"),
            case("1.0.0", "1.0.0"),
            case("1.0.0-alpha", "1.0.0"),
            case("1.0.0", "1.0.0-rc.1"),
            case("1.0.0-alpha", "1.0.0-alpha.1"),
            case("1.0.0-alpha.1", "1.0.0-alpha.beta"),
            case("1.0.0-beta.11", "1.0.0-beta.2"),
            case("1.0.0-beta", "1.0.0-alpha.1"),
            case("1.0.0-rc.1", "1.0.0-rc.1"),
            case("1.0.0+build.1", "1.0.0+build.2"),
            case("1.0.0-rc.1+x", "1.0.0-rc.1"),
            case("1.0.0-A", "1.0.0-a"),
            case("1.0.0-alpha-2", "1.0.0-alpha-10"),
            case("1.0.0-1", "1.0.0-a"),
            case("1.0.0-x.1", "1.0.0-x.1.0"),
            case("1.2", "1.2.0"),
            case("01.0.0", "1.0.0"),
            case("1.0.0-01", "1.0.0"),
            case("1.0.0-", "1.0.0"),
            case("1.0.0", "v1.0.0"),
            case(1, "1.0.0"),
            case("1.0.0", None),
            case("10.0.0", "9.99.99"),
        ],
    },
]


# ---------------------------------------------------------------------------------------------
# Running cases (shared by the recorder and by `check-cases`).


class CaseTimeout(Exception):
    """A case ran past its limit."""


def _on_alarm(signum, frame):
    raise CaseTimeout()


def exception_name(exc_type):
    return exc_type.__module__ + "." + exc_type.__qualname__


def resolve_callable(case_spec):
    """The function to call for a case: module attribute, or a method of a freshly built instance."""
    module = importlib.import_module(case_spec["module"])
    parts = case_spec["target"].split(".")
    init = case_spec.get("init")
    if init is None:
        target = module
        for part in parts:
            target = getattr(target, part)
        return target
    klass = module
    for part in parts[:-1]:
        klass = getattr(klass, part)
    args = [codec.decode(a) for a in init.get("args", [])]
    kwargs = {k: codec.decode(v) for k, v in init.get("kwargs", {}).items()}
    return getattr(klass(*args, **kwargs), parts[-1])


def run_case(case_spec, timeout_ms=None):
    """Runs one case; returns (expect, args_after) in the cases.json form."""
    args = [codec.decode(a) for a in case_spec["args"]]
    kwargs = {k: codec.decode(v) for k, v in case_spec["kwargs"].items()}
    if timeout_ms:
        previous = signal.signal(signal.SIGALRM, _on_alarm)
        signal.setitimer(signal.ITIMER_REAL, timeout_ms / 1000.0)
    try:
        func = resolve_callable(case_spec)
        try:
            result = func(*args, **kwargs)
        except CaseTimeout:
            raise
        except Exception as exc:  # the behaviour under test, recorded by type
            expect = {"raises": exception_name(type(exc))}
        else:
            expect = {"returns": codec.encode(result)}
    finally:
        if timeout_ms:
            signal.setitimer(signal.ITIMER_REAL, 0)
            signal.signal(signal.SIGALRM, previous)
    return expect, [codec.encode(a) for a in args]


# ---------------------------------------------------------------------------------------------
# Masking and test stripping, by line ranges found with ast.


def find_function(tree, dotted):
    scope = tree.body
    node = None
    for part in dotted.split("."):
        node = next((n for n in scope if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)) and n.name == part), None)
        if node is None:
            raise SystemExit("symbol %s not found" % dotted)
        scope = node.body
    if not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
        raise SystemExit("symbol %s is not a function" % dotted)
    return node


def docstring_node(func):
    first = func.body[0]
    if not (isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant) and isinstance(first.value.value, str)):
        raise SystemExit("%s has no docstring" % func.name)
    if len(func.body) < 2:
        raise SystemExit("%s has nothing but a docstring" % func.name)
    return first


def mask_function(source, symbol):
    """The source with the body of `symbol` (after its docstring) replaced by `raise NotImplementedError`."""
    func = find_function(ast.parse(source), symbol)
    doc = docstring_node(func)
    lines = source.splitlines(keepends=True)
    indent = lines[doc.lineno - 1][: doc.col_offset]
    masked = lines[: doc.end_lineno] + [indent + "raise NotImplementedError\n"] + lines[func.end_lineno :]
    return "".join(masked)


def function_header_and_doc(source, symbol):
    func = find_function(ast.parse(source), symbol)
    doc = docstring_node(func)
    lines = source.splitlines()
    first = min([func.lineno] + [d.lineno for d in func.decorator_list])
    header = textwrap.dedent("\n".join(lines[first - 1 : doc.lineno - 1]))
    return header, ast.get_docstring(func)


def _mentions(node, symbol):
    return any(
        (isinstance(n, ast.Name) and n.id == symbol) or (isinstance(n, ast.Attribute) and n.attr == symbol)
        for n in ast.walk(node)
    )


def strip_tests_of(source, symbol):
    """Removes the top-level tests that mention `symbol` and the imports of it. None: nothing left."""
    tree = ast.parse(source)
    lines = source.splitlines(keepends=True)
    replacements = []  # (first line, last line, new text), 1-based inclusive
    for node in tree.body:
        first = min([node.lineno] + [d.lineno for d in getattr(node, "decorator_list", [])])
        if isinstance(node, ast.ImportFrom) and any(a.name == symbol for a in node.names):
            kept = [a for a in node.names if a.name != symbol]
            text = ""
            if kept:
                names = ", ".join(a.name + (" as " + a.asname if a.asname else "") for a in kept)
                text = "from %s%s import %s\n" % ("." * node.level, node.module or "", names)
            replacements.append((first, node.end_lineno, text))
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)) and _mentions(node, symbol):
            replacements.append((first, node.end_lineno, ""))
        elif _mentions(node, symbol):
            raise SystemExit("cannot strip a top-level use of %s that is not a test" % symbol)
    for first, last, text in sorted(replacements, reverse=True):
        lines[first - 1 : last] = [text] if text else []
    result = re.sub(r"\n{3,}", "\n\n\n", "".join(lines)).rstrip("\n") + "\n"
    remaining = ast.parse(result)
    if _mentions(remaining, symbol):
        raise SystemExit("a mention of %s is left in a test file" % symbol)
    has_tests = any(
        isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef)) and n.name.startswith("test") for n in remaining.body
    )
    return result if has_tests else None


# ---------------------------------------------------------------------------------------------
# Writing the suite.


def library_files():
    """(relative path, bytes) of every file of the library, sorted, without caches or dotfiles."""
    found = []
    for dirpath, dirnames, filenames in os.walk(LIBRARY_DIR):
        dirnames[:] = sorted(d for d in dirnames if d not in SKIPPED_NAMES and not d.startswith("."))
        for filename in sorted(filenames):
            if filename.startswith(".") or filename.endswith((".pyc", ".pyo")):
                continue
            full = Path(dirpath) / filename
            found.append((full.relative_to(LIBRARY_DIR).as_posix(), full.read_bytes()))
    return sorted(found)


def write_bytes(path, data):
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(data)


def write_json(path, value):
    write_bytes(path, (json.dumps(value, indent=2, sort_keys=True, ensure_ascii=False) + "\n").encode("utf-8"))


def record_cases(task):
    """Runs every input twice on the original code; keeps the cases whose two runs agree."""
    cases = []
    for number, (args, kwargs) in enumerate(task["cases"], start=1):
        spec = {
            "id": "%s-%d" % (task["name"], number),
            "module": task["module"],
            "target": task["symbol"],
            "init": None,
            "args": [codec.encode(a) for a in args],
            "kwargs": {k: codec.encode(v) for k, v in kwargs.items()},
        }
        first = run_case(spec)
        second = run_case(spec)
        if codec.canonical(first) != codec.canonical(second):  # canonical() takes any JSON value
            print("dropped %s: two runs disagree" % spec["id"], file=sys.stderr)
            continue
        expect, args_after = first
        spec["expect"] = expect
        spec["argsAfter"] = None if codec.canonical(args_after) == codec.canonical(spec["args"]) else args_after
        cases.append(spec)
    return cases


def render_call(symbol, spec):
    parts = [repr(codec.decode(a)) for a in spec["args"]]
    parts += ["%s=%r" % (k, codec.decode(v)) for k, v in spec["kwargs"].items()]
    return "%s(%s)" % (symbol, ", ".join(parts))


def render_prompt(task, source, cases):
    header, doc = function_header_and_doc(source, task["symbol"])
    symbol, path, module = task["symbol"], task["path"], task["module"]
    examples = []
    for index in task["examples"]:
        spec = cases[index]
        examples.append(">>> " + render_call(symbol, spec))
        expect = spec["expect"]
        if "returns" in expect:
            examples.append(repr(codec.decode(expect["returns"])))
        else:
            examples.append("Traceback (most recent call last):")
            examples.append("%s: ..." % expect["raises"].split(".")[-1])
    return "\n".join(
        [
            "# Implement `%s` in `%s`" % (symbol, path),
            "",
            "The workspace holds `textkit`, a small pure-Python text utility library (Python 3.11, "
            "standard library only). The function `%s` in `%s` (imported as `from %s import %s`) "
            "has lost its body: it now raises `NotImplementedError`. Implement it so that it behaves "
            "as described below. Keep its signature and leave the rest of the library as it is."
            % (symbol, path, module, symbol),
            "",
            "## Signature",
            "",
            "```python",
            header,
            "```",
            "",
            "## Behaviour",
            "",
            doc,
            "",
            "## Examples",
            "",
            "```python",
            *examples,
            "```",
            "",
            "Hidden tests check many more inputs than these, including the error cases. Results are "
            "compared with their exact types (a `tuple` is not a `list`, `True` is not `1`), and "
            "exceptions by their exact type, never by their message.",
            "",
        ]
    )


def build_task(task, out_dir, files):
    name, path, symbol = task["name"], task["path"], task["symbol"]
    task_dir = out_dir / name
    original = dict(files)[path].decode("utf-8")
    cases = record_cases(task)
    if not 12 <= len(cases) <= 30:
        raise SystemExit("%s: %d cases kept, expected 12 to 30" % (name, len(cases)))
    # The workspace is the suite's base (the library as it is) with this task's changes over it.
    deleted = []
    for rel, data in files:
        changed = data
        if rel == path:
            changed = mask_function(original, symbol).encode("utf-8")
        elif rel.startswith("tests/") and rel.endswith(".py"):
            stripped = strip_tests_of(data.decode("utf-8"), symbol)
            if stripped is None:
                deleted.append(rel)
                continue
            changed = stripped.encode("utf-8")
        if changed != data:
            write_bytes(task_dir / OVERLAY_DIR / rel, changed)
    write_json(task_dir / "overlay.json", {"schemaVersion": 1, "base": BASE_DIR, "deleted": deleted})
    write_bytes(task_dir / "solution" / path, original.encode("utf-8"))
    script = "tests/test_%s.py" % symbol
    write_bytes(task_dir / "hidden" / script, task["test"].lstrip("\n").encode("utf-8"))
    write_json(task_dir / "hidden" / "cases.json", {"schemaVersion": 1, "cases": cases})
    write_json(
        task_dir / "task.json",
        {
            "schemaVersion": 1,
            "id": "%s/%s" % (SUITE, name),
            "title": task["title"],
            "language": "python",
            "source": {"repo": LIBRARY_REPO, "revision": "working-tree", "path": path, "symbol": symbol},
            "prompt": render_prompt(task, original, cases),
            "runtime": {"image": "python"},
            "workdir": "/workspace",
            "tests": {"cases": "cases.json", "scripts": [script], "timeoutMs": 60000, "caseTimeoutMs": 5000},
            "protectedPaths": [],
            "rewardMode": "fraction",
        },
    )
    return len(cases)


def build(out_dir, verify):
    if out_dir.exists():
        if any(out_dir.iterdir()) and not (out_dir / "suite.json").is_file():
            raise SystemExit("%s exists and is not a suite folder; refusing to replace it" % out_dir)
        shutil.rmtree(out_dir)
    out_dir.mkdir(parents=True)
    sys.path.insert(0, str(LIBRARY_DIR))
    files = library_files()
    for rel, data in files:
        write_bytes(out_dir / BASE_DIR / rel, data)
    counts = {}
    for task in TASKS:
        counts[task["name"]] = build_task(task, out_dir, files)
    write_json(
        out_dir / "suite.json",
        {
            "schemaVersion": 1,
            "name": SUITE,
            "description": "Hand-built sample tasks over examples/textkit (one target function each).",
            "tasks": [task["name"] for task in TASKS],
        },
    )
    for name, count in counts.items():
        print("%s/%s: %d cases" % (SUITE, name, count))
    if verify:
        failures = []
        for task in TASKS:
            failures += verify_task(out_dir / task["name"])
        if failures:
            for line in failures:
                print("VERIFY FAILED: " + line, file=sys.stderr)
            raise SystemExit(1)
        print("verified %d tasks" % len(TASKS))


# ---------------------------------------------------------------------------------------------
# Verification on copies in a temporary folder.


def _python_env(pythonpath):
    env = {k: v for k, v in os.environ.items() if not k.startswith("PYTHON")}
    env["PYTHONDONTWRITEBYTECODE"] = "1"
    if pythonpath:
        env["PYTHONPATH"] = str(pythonpath)
    return env


def run_pytest(test_dir, pythonpath, work):
    """Runs pytest on `test_dir`; returns {test id: outcome} from the JUnit report."""
    report = work / ("report-%d.xml" % len(list(work.glob("report-*.xml"))))
    ini = work / "pytest.ini"
    ini.write_text("[pytest]\n")
    subprocess.run(
        [sys.executable, "-B", "-m", "pytest", "-q", "-p", "no:cacheprovider", "-c", str(ini),
         "--rootdir", str(test_dir), "--junitxml", str(report), str(test_dir)],
        cwd=work, env=_python_env(pythonpath), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        timeout=300, check=False,
    )
    outcomes = {}
    for testcase in ElementTree.parse(report).getroot().iter("testcase"):
        tags = {child.tag for child in testcase}
        status = "passed"
        for tag in ("skipped", "error", "failure"):
            if tag in tags:
                status = tag
        outcomes[testcase.get("classname") + "::" + testcase.get("name")] = status
    return outcomes


def run_cases_subprocess(workspace, cases_file):
    out = subprocess.run(
        [sys.executable, "-I", "-B", str(Path(__file__).resolve()), "check-cases",
         "--workspace", str(workspace), "--cases", str(cases_file)],
        env=_python_env(None), capture_output=True, text=True, timeout=300, check=True,
    )
    return json.loads(out.stdout)["results"]


def compose_workspace(task_dir, dest):
    """The task's workspace as the loader composes it: the suite's base, minus `deleted`, plus overlay/."""
    overlay = json.loads((task_dir / "overlay.json").read_text("utf-8"))
    shutil.copytree(task_dir.parent / overlay["base"], dest)
    for rel in overlay["deleted"]:
        target = dest / rel
        shutil.rmtree(target) if target.is_dir() else target.unlink()
    if (task_dir / OVERLAY_DIR).is_dir():
        shutil.copytree(task_dir / OVERLAY_DIR, dest, dirs_exist_ok=True)


def verify_task(task_dir):
    name = task_dir.name
    problems = []
    with tempfile.TemporaryDirectory(prefix="codemidas-sample-") as tmp:
        tmp = Path(tmp)
        masked = tmp / "masked"
        solved = tmp / "solved"
        compose_workspace(task_dir, masked)
        compose_workspace(task_dir, solved)
        shutil.copytree(task_dir / "solution", solved, dirs_exist_ok=True)
        hidden = tmp / "hidden"
        shutil.copytree(task_dir / "hidden" / "tests", hidden)
        work = tmp / "work"
        work.mkdir()

        own = run_pytest(masked / "tests", masked, work)
        if not own or any(s != "passed" for s in own.values()):
            problems.append("%s: the library's remaining tests do not all pass on the masked workspace: %s" % (name, own))
        on_solution = run_pytest(hidden, solved, work)
        if not 3 <= len(on_solution) <= 6 or any(s != "passed" for s in on_solution.values()):
            problems.append("%s: hidden tests on the solution: %s" % (name, on_solution))
        on_masked = run_pytest(hidden, masked, work)
        if len(on_masked) != len(on_solution) or any(s == "passed" for s in on_masked.values()):
            problems.append("%s: hidden tests on the masked workspace: %s" % (name, on_masked))

        cases_file = task_dir / "hidden" / "cases.json"
        for label, workspace, want in (("solution", solved, True), ("masked", masked, False)):
            for result in run_cases_subprocess(workspace, cases_file):
                if result["passed"] != want:
                    problems.append("%s: case %s on the %s: %s" % (name, result["id"], label, result["detail"]))
    return problems


# ---------------------------------------------------------------------------------------------
# check-cases


def check_cases(workspace, cases_file, timeout_ms):
    sys.path.append(str(Path(workspace).resolve()))
    document = json.loads(Path(cases_file).read_text("utf-8"))
    results = []
    for spec in document["cases"]:
        try:
            got, args_after = run_case(spec, timeout_ms)
        except CaseTimeout:
            results.append({"id": spec["id"], "passed": False, "detail": "timed out"})
            continue
        except Exception as exc:  # import errors and the like fail the case, nothing more
            results.append({"id": spec["id"], "passed": False, "detail": "could not run: %s" % exception_name(type(exc))})
            continue
        expect = spec["expect"]
        if "raises" in expect:
            passed = got.get("raises") == expect["raises"]
            detail = "expected %s, got %s" % (expect["raises"], got.get("raises") or codec.describe(got["returns"]))
        else:
            passed = "returns" in got and codec.same(got["returns"], expect["returns"])
            detail = "expected %s, got %s" % (
                codec.describe(expect["returns"]),
                codec.describe(got["returns"]) if "returns" in got else "raised " + got["raises"],
            )
        if passed and spec.get("argsAfter") is not None and codec.canonical(args_after) != codec.canonical(spec["argsAfter"]):
            passed, detail = False, "arguments after the call differ"
        results.append({"id": spec["id"], "passed": passed, "detail": "" if passed else detail})
    json.dump({"results": results}, sys.stdout, indent=1, sort_keys=True)
    sys.stdout.write("\n")


def main(argv):
    if argv and argv[0] == "check-cases":
        parser = argparse.ArgumentParser(prog="make-sample-suite.py check-cases")
        parser.add_argument("--workspace", required=True)
        parser.add_argument("--cases", required=True)
        parser.add_argument("--case-timeout-ms", type=int, default=5000)
        args = parser.parse_args(argv[1:])
        check_cases(args.workspace, args.cases, args.case_timeout_ms)
        return
    parser = argparse.ArgumentParser(prog="make-sample-suite.py", description=__doc__.split("\n")[0])
    parser.add_argument("--out", default=str(DEFAULT_OUT), help="output folder (default environments/sample)")
    parser.add_argument("--no-verify", action="store_true", help="skip running the checks on the output")
    args = parser.parse_args(argv)
    build(Path(args.out).resolve(), not args.no_verify)


if __name__ == "__main__":
    main(sys.argv[1:])
