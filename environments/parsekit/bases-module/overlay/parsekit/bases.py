"""Integers in bases 2 to 36."""

_DIGITS = "0123456789abcdefghijklmnopqrstuvwxyz"


def to_base(number, base):
    """Writes an int in ``base`` (2..36) with lower-case digits and a leading ``-`` when negative.

    Raises TypeError for a non-int ``number`` (bool included) and ValueError for a base outside
    2..36.

    >>> to_base(255, 16)
    'ff'
    >>> to_base(-5, 2)
    '-101'
    """
    raise NotImplementedError


def from_base(text, base):
    """Reads an int written in ``base`` (2..36); digits are case-insensitive, one leading sign allowed.

    Underscores between digits are ignored (``"1_000"``). Raises ValueError for a base outside
    2..36, an empty number, or a digit not valid in the base.

    >>> from_base("ff", 16)
    255
    >>> from_base("-1_01", 2)
    -5
    """
    raise NotImplementedError
