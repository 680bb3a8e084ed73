"""Integer range lists as people type them: ``"1-3,7,10-12"``."""


def parse_ranges(text):
    """Expands a range list such as ``"1-3,7"`` into a sorted list of distinct ints.

    Items are separated by commas and may be a single number or ``a-b`` with ``a <= b``; spaces
    around items are ignored and empty items (``"1,,2"``, a trailing comma) are skipped. Numbers
    are non-negative. Overlapping items are merged. Raises ValueError for a malformed item or a
    reversed range (``"5-3"``).

    >>> parse_ranges("1-3,7")
    [1, 2, 3, 7]
    >>> parse_ranges("5, 3-4, 4")
    [3, 4, 5]
    """
    raise NotImplementedError


def format_ranges(numbers, min_run=3):
    """Writes ints as a compact range list: runs of ``min_run`` or more consecutive values as ``a-b``.

    The input may be unsorted and hold duplicates; the output is sorted. Shorter runs are written
    number by number. An empty input gives ``""``. Raises ValueError when ``min_run`` is below 2.

    >>> format_ranges([7, 1, 2, 3])
    '1-3,7'
    >>> format_ranges([1, 2, 5], min_run=2)
    '1-2,5'
    """
    raise NotImplementedError
