import pytest

from textkit.intervals import contains


def test_contains_includes_the_ends():
    assert contains([(1, 2), (5, 8)], 5)
    assert not contains([(1, 2), (5, 8)], 3)
