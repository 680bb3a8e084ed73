import pytest

from textkit.tables import format_table


def test_format_table_with_headers():
    text = format_table([[1, "a"], [22, "bbb"]], headers=["n", "name"])
    assert text == " n | name\n---+-----\n 1 | a\n22 | bbb"


def test_format_table_alignment_letters():
    assert format_table([["ab", "c"], ["a", "cde"]], align="cr") == "ab |   c\na  | cde"


def test_format_table_rejects_ragged_rows():
    with pytest.raises(ValueError):
        format_table([[1, 2], [3]])


def test_format_table_empty():
    assert format_table([]) == ""
