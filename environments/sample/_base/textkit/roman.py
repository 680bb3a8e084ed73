"""Roman numerals (standard subtractive form, 1 to 3999)."""

_VALUES = (
    (1000, "M"),
    (900, "CM"),
    (500, "D"),
    (400, "CD"),
    (100, "C"),
    (90, "XC"),
    (50, "L"),
    (40, "XL"),
    (10, "X"),
    (9, "IX"),
    (5, "V"),
    (4, "IV"),
    (1, "I"),
)

# Shape of each decimal digit 0-9 in terms of a place's one (1), five (5) and ten (T) symbols.
_DIGIT_SHAPES = ("", "1", "11", "111", "15", "5", "51", "511", "5111", "1T")

# (place value, one, five, ten) from the largest place down.
_PLACES = ((1000, "M", None, None), (100, "C", "D", "M"), (10, "X", "L", "C"), (1, "I", "V", "X"))

MAX_ROMAN = 3999


def to_roman(number):
    """Returns the Roman numeral for ``number`` in upper case, e.g. ``1994`` gives ``"MCMXCIV"``.

    Raises TypeError when ``number`` is not an int (bool is refused too) and ValueError when it is
    outside 1 to 3999.
    """
    if type(number) is bool or not isinstance(number, int):
        raise TypeError("number must be an int, not %s" % type(number).__name__)
    if not 1 <= number <= MAX_ROMAN:
        raise ValueError("number must be between 1 and %d, got %d" % (MAX_ROMAN, number))
    parts = []
    remaining = number
    for value, symbol in _VALUES:
        count, remaining = divmod(remaining, value)
        if count:
            parts.append(symbol * count)
        if remaining == 0:
            break
    return "".join(parts)


def from_roman(numeral):
    """Parses a Roman numeral and returns its value as an int.

    Letters may be upper or lower case and surrounding whitespace is ignored. Only the canonical
    form is accepted: ``"IIII"``, ``"IC"``, ``"VX"`` or ``"MMMM"`` are refused, so that
    ``from_roman(to_roman(n)) == n`` for every n in 1 to 3999 and no other string parses.

    Raises TypeError when ``numeral`` is not a str and ValueError when it is empty or not a
    canonical numeral.
    """
    if not isinstance(numeral, str):
        raise TypeError("numeral must be a str, not %s" % type(numeral).__name__)
    text = numeral.strip().upper()
    if not text:
        raise ValueError("empty numeral")
    total = 0
    pos = 0
    for place, one, five, ten in _PLACES:
        best_digit, best_len = 0, 0
        for digit in range(1, 10):
            shape = _DIGIT_SHAPES[digit]
            if (five is None and "5" in shape) or (ten is None and "T" in shape):
                continue
            form = shape.replace("1", one).replace("5", five or "").replace("T", ten or "")
            if len(form) > best_len and text.startswith(form, pos):
                best_digit, best_len = digit, len(form)
        total += best_digit * place
        pos += best_len
    if pos != len(text):
        raise ValueError("not a canonical Roman numeral: %r" % (numeral,))
    return total
