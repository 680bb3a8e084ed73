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
    raise NotImplementedError


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
    raise NotImplementedError
