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
    seen = set()
    for raw in text.split(","):
        item = raw.strip()
        if not item:
            continue
        if "-" in item:
            low_text, _, high_text = item.partition("-")
            low_text, high_text = low_text.strip(), high_text.strip()
            if not (low_text.isdigit() and high_text.isdigit()):
                raise ValueError("malformed range %r" % item)
            low, high = int(low_text), int(high_text)
            if low > high:
                raise ValueError("reversed range %r" % item)
            seen.update(range(low, high + 1))
        else:
            if not item.isdigit():
                raise ValueError("malformed number %r" % item)
            seen.add(int(item))
    return sorted(seen)


def format_ranges(numbers, min_run=3):
    """Writes ints as a compact range list: runs of ``min_run`` or more consecutive values as ``a-b``.

    The input may be unsorted and hold duplicates; the output is sorted. Shorter runs are written
    number by number. An empty input gives ``""``. Raises ValueError when ``min_run`` is below 2.

    >>> format_ranges([7, 1, 2, 3])
    '1-3,7'
    >>> format_ranges([1, 2, 5], min_run=2)
    '1-2,5'
    """
    if min_run < 2:
        raise ValueError("min_run must be at least 2")
    values = sorted(set(numbers))
    out = []
    i = 0
    while i < len(values):
        j = i
        while j + 1 < len(values) and values[j + 1] == values[j] + 1:
            j += 1
        if j - i + 1 >= min_run:
            out.append("%d-%d" % (values[i], values[j]))
        else:
            out.extend(str(v) for v in values[i : j + 1])
        i = j + 1
    return ",".join(out)
