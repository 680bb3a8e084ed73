import pytest

from parsekit.ranges import format_ranges, parse_ranges


def test_parse():
    assert parse_ranges("1-3,7") == [1, 2, 3, 7]
    assert parse_ranges("") == []
    with pytest.raises(ValueError):
        parse_ranges("3-1")


def test_format():
    assert format_ranges([3, 1, 2, 9]) == "1-3,9"
    assert format_ranges([1, 2]) == "1,2"


def test_round_trip():
    assert parse_ranges(format_ranges([1, 2, 3, 5, 8, 9, 10])) == [1, 2, 3, 5, 8, 9, 10]
