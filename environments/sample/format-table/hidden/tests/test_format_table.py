import pytest

from textkit.tables import format_table


def test_headers_rule_and_default_alignment():
    text = format_table([["apple", 3, 1.25], ["kiwi", 12, None]], headers=["fruit", "qty", "price"])
    assert type(text) is str
    assert text.split("\n") == [
        "fruit | qty | price",
        "------+-----+------",
        "apple |   3 |  1.25",
        "kiwi  |  12 |",
    ]


def test_all_lines_have_no_trailing_spaces_and_columns_line_up():
    rows = [["a", "bb", "ccc"], ["dddd", "e", "f"], ["g", "hhhhh", "i"]]
    text = format_table(rows, align="lcr")
    assert type(text) is str
    lines = text.split("\n")
    assert len(lines) == 3
    assert all(line == line.rstrip() for line in lines)
    assert len({line.index("|") for line in lines}) == 1


def test_centre_puts_the_extra_space_on_the_right():
    text = format_table([["abcd", "x"], ["ab", "y"], ["a", "z"]], align="cl")
    assert type(text) is str and text == "abcd | x\n ab  | y\n a   | z"


def test_booleans_are_not_numbers():
    text = format_table([[True, 1], [False, 10]])
    assert type(text) is str and text == "True  |  1\nFalse | 10"


def test_bad_shapes_raise_value_error():
    with pytest.raises(ValueError):
        format_table([[1, 2], [3, 4, 5]])
    with pytest.raises(ValueError):
        format_table([[1, 2]], headers=["a"])
    with pytest.raises(ValueError):
        format_table([[1, 2]], align="lz")
    with pytest.raises(ValueError):
        format_table([["two\nlines", 2]])
