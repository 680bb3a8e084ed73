"""Closed numeric intervals given as (start, end) pairs."""


def _check_interval(interval, index):
    """Validates one interval and returns it as a (start, end) tuple."""
    if not isinstance(interval, (tuple, list)) or len(interval) != 2:
        raise ValueError("interval %d is not a (start, end) pair" % index)
    start, end = interval
    for bound in (start, end):
        if type(bound) not in (int, float):
            raise TypeError("interval %d has a bound of type %s" % (index, type(bound).__name__))
    if start > end:
        raise ValueError("interval %d starts after it ends: %r > %r" % (index, start, end))
    return start, end


def merge_intervals(intervals, *, touching=True):
    """Merges overlapping closed intervals and returns them sorted by start.

    ``intervals`` is an iterable of ``(start, end)`` pairs (tuples or lists) of int or float with
    ``start <= end``. Intervals that overlap are merged into one; with ``touching`` (the default),
    intervals that only share an end point (``(1, 2)`` and ``(2, 3)``) are merged too, without it
    they stay apart. The result is a new list of tuples; the input is not modified. Each merged
    interval keeps the start of its first interval (in order of start, then input order) and the
    largest end (the first one seen on ties).

    Raises ValueError for an item that is not a pair or whose start is after its end, and
    TypeError for a bound that is not an int or float (bool included).
    """
    raise NotImplementedError


def contains(intervals, point):
    """Tells whether ``point`` lies in any of the closed ``intervals`` (ends included)."""
    for start, end in intervals:
        if start <= point <= end:
            return True
    return False
