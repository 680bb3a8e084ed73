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
