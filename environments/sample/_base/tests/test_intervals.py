import pytest

from textkit.intervals import contains, merge_intervals


def test_merge_intervals_merges_and_sorts():
    assert merge_intervals([(5, 6), (1, 3), (2, 4)]) == [(1, 4), (5, 6)]


def test_merge_intervals_touching():
    assert merge_intervals([(1, 2), (2, 3)]) == [(1, 3)]
    assert merge_intervals([(1, 2), (2, 3)], touching=False) == [(1, 2), (2, 3)]


def test_merge_intervals_rejects_reversed_interval():
    with pytest.raises(ValueError):
        merge_intervals([(3, 1)])


def test_contains_includes_the_ends():
    assert contains([(1, 2), (5, 8)], 5)
    assert not contains([(1, 2), (5, 8)], 3)
