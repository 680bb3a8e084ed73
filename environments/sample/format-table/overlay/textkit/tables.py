"""Plain-text tables."""

_ALIGNMENTS = "lrc"


def _cell_text(value):
    """The text of one cell: "" for None, str() of anything else."""
    return "" if value is None else str(value)


def _is_number(value):
    return type(value) in (int, float)


def _pad(text, width, how):
    gap = width - len(text)
    if how == "r":
        return " " * gap + text
    if how == "c":
        return " " * (gap // 2) + text + " " * (gap - gap // 2)
    return text + " " * gap


def format_table(rows, headers=None, align=None):
    """Formats ``rows`` (a sequence of sequences of cells) as a plain-text table.

    Cells are shown with ``str()``; ``None`` shows as an empty cell. Columns are separated by
    ``" | "``; with ``headers``, a header line and a rule of dashes joined by ``"-+-"`` come first.
    Each column is as wide as its widest cell (header included). ``align`` is a string with one
    letter per column: ``l`` (left), ``r`` (right) or ``c`` (centre, extra space on the right).
    Without it, a column whose non-None cells are all int or float (bool is not a number) is
    right-aligned and every other column is left-aligned. Trailing spaces are stripped from every
    line; lines are joined with ``"\\n"`` with no final newline. No headers and no rows give ``""``.

    Raises ValueError when a row's length differs from the first row's (or the headers'), when
    ``align`` has the wrong length or a letter other than l, r, c, or when a cell's text contains a
    newline.
    """
    raise NotImplementedError
