import pytest

from parsekit.ranges import format_ranges, parse_ranges


def test_parse():
    assert parse_ranges("1-3,7") == [1, 2, 3, 7]
    assert parse_ranges("") == []
    with pytest.raises(ValueError):
        parse_ranges("3-1")




