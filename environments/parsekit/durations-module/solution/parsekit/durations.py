"""Durations written as ``1h30m``, ``90s`` or ``2d4h``."""

_UNITS = {"d": 86400, "h": 3600, "m": 60, "s": 1}
_ORDER = "dhms"


def parse_duration(text):
    """Parses a duration such as ``"1h30m"`` into whole seconds.

    The text is a sequence of ``<number><unit>`` parts with units ``d``, ``h``, ``m`` and ``s``,
    each unit at most once and in that order (largest first). Surrounding whitespace is ignored
    and the unit letters are case-insensitive. A lone ``"0"`` means zero seconds.

    Raises TypeError when ``text`` is not a str, and ValueError when it is empty, has a part
    without a number or a unit, repeats a unit or has them out of order.

    >>> parse_duration("1h30m")
    5400
    >>> parse_duration("2D")
    172800
    """
    if not isinstance(text, str):
        raise TypeError("duration must be a str")
    text = text.strip().lower()
    if text == "":
        raise ValueError("empty duration")
    if text == "0":
        return 0
    total = 0
    last = -1
    number = ""
    for ch in text:
        if ch.isdigit():
            number += ch
            continue
        if ch not in _UNITS:
            raise ValueError("unknown unit %r" % ch)
        if number == "":
            raise ValueError("unit %r without a number" % ch)
        rank = _ORDER.index(ch)
        if rank <= last:
            raise ValueError("units out of order or repeated")
        last = rank
        total += int(number) * _UNITS[ch]
        number = ""
    if number != "":
        raise ValueError("number without a unit")
    return total


def format_duration(seconds, parts=2):
    """Formats whole seconds as the largest ``parts`` non-zero units, e.g. ``"1h 30m"``.

    Units are days, hours, minutes and seconds (``d``, ``h``, ``m``, ``s``). Zero-valued units are
    skipped; smaller units beyond ``parts`` are dropped (truncated, not rounded). Zero seconds is
    ``"0s"``. Raises TypeError for a non-int (bool included) and ValueError for a negative value
    or ``parts`` below 1.

    >>> format_duration(5400)
    '1h 30m'
    >>> format_duration(90061, parts=3)
    '1d 1h 1m'
    """
    if isinstance(seconds, bool) or not isinstance(seconds, int):
        raise TypeError("seconds must be an int")
    if seconds < 0:
        raise ValueError("negative duration")
    if parts < 1:
        raise ValueError("parts must be at least 1")
    if seconds == 0:
        return "0s"
    out = []
    rest = seconds
    for unit in _ORDER:
        size = _UNITS[unit]
        count, rest = divmod(rest, size)
        if count:
            out.append("%d%s" % (count, unit))
        if len(out) == parts:
            break
    return " ".join(out)
