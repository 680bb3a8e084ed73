"""Text helpers written against `six`, as code that still supports Python 2 is."""

import six


def to_text(value, encoding="utf-8"):
    """Return `value` as text.

    Bytes are decoded with `encoding`; text is returned as it is; anything else goes through
    `six.text_type` (that is, `str`). A `bool` becomes `'yes'` or `'no'`.
    """
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, six.binary_type):
        return value.decode(encoding)
    if isinstance(value, six.string_types):
        return value
    return six.text_type(value)


def headline(text, small_words=("a", "an", "and", "of", "the", "to")):
    """Title-case `text` (bytes or str) as a headline.

    Words are split on whitespace. The first and the last word are always capitalised; the other
    words in `small_words` (compared case-insensitively) are lower-cased; every other word gets an
    upper-case first letter and lower-case rest. Words are joined with single spaces.
    """
    words = six.ensure_str(text).split()
    out = []
    for index, word in enumerate(words):
        if 0 < index < len(words) - 1 and word.lower() in small_words:
            out.append(word.lower())
        else:
            out.append(word[:1].upper() + word[1:].lower())
    return " ".join(out)


def initials(name, separator="."):
    """The initials of a name: the first letter of each word, upper-cased, each followed by `separator`.

    Hyphenated parts count as words (`'Jean-Luc Picard'` gives `'J.L.P.'`). An empty name gives `''`.
    A name that is not text or bytes raises `TypeError`.
    """
    if not isinstance(name, (six.binary_type, six.string_types)):
        raise TypeError("name must be text or bytes")
    parts = six.ensure_str(name).replace("-", " ").split()
    letters = [part[0].upper() for part in parts if part[0].isalpha()]
    return "".join(letter + separator for letter in letters)
