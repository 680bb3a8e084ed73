"""Helpers that need no dependency."""


def chunked(items, size):
    """Split `items` into lists of `size` items; the last may be shorter.

    `size` must be a positive int, else `ValueError`. An empty sequence gives `[]`.
    """
    if not isinstance(size, int) or size <= 0:
        raise ValueError("size must be a positive int")
    chunks = []
    for start in range(0, len(items), size):
        chunks.append(list(items[start:start + size]))
    return chunks


def run_lengths(text):
    """Run-length pairs of `text`: `'aaab'` gives `[('a', 3), ('b', 1)]`; `''` gives `[]`."""
    pairs = []
    for char in text:
        if pairs and pairs[-1][0] == char:
            pairs[-1] = (char, pairs[-1][1] + 1)
        else:
            pairs.append((char, 1))
    return pairs
