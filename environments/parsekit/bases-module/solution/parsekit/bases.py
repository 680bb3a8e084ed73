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
    if isinstance(number, bool) or not isinstance(number, int):
        raise TypeError("number must be an int")
    if not 2 <= base <= 36:
        raise ValueError("base must be in 2..36")
    if number == 0:
        return "0"
    sign = "-" if number < 0 else ""
    number = abs(number)
    out = []
    while number:
        number, digit = divmod(number, base)
        out.append(_DIGITS[digit])
    return sign + "".join(reversed(out))


def from_base(text, base):
    """Reads an int written in ``base`` (2..36); digits are case-insensitive, one leading sign allowed.

    Underscores between digits are ignored (``"1_000"``). Raises ValueError for a base outside
    2..36, an empty number, or a digit not valid in the base.

    >>> from_base("ff", 16)
    255
    >>> from_base("-1_01", 2)
    -5
    """
    if not 2 <= base <= 36:
        raise ValueError("base must be in 2..36")
    text = text.strip().lower()
    sign = 1
    if text[:1] in ("-", "+"):
        sign = -1 if text[0] == "-" else 1
        text = text[1:]
    text = text.replace("_", "")
    if not text:
        raise ValueError("empty number")
    value = 0
    for ch in text:
        digit = _DIGITS.find(ch)
        if digit < 0 or digit >= base:
            raise ValueError("digit %r not valid in base %d" % (ch, base))
        value = value * base + digit
    return sign * value
