import pytest

from parsekit.ranges import format_ranges, parse_ranges




def test_format():
    assert format_ranges([3, 1, 2, 9]) == "1-3,9"
    assert format_ranges([1, 2]) == "1,2"


