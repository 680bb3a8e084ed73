"""URL slugs."""
import unicodedata


def _ascii_fold(text):
    """Removes accents (NFKD decomposition, combining marks dropped)."""
    decomposed = unicodedata.normalize("NFKD", text)
    return "".join(ch for ch in decomposed if not unicodedata.combining(ch))


def slugify(text, separator="-", max_length=None):
    """Turns ``text`` into a lower-case ASCII slug.

    Accents are removed (``"Café"`` gives ``"cafe"``); apostrophes are dropped without a break
    (``"don't"`` gives ``"dont"``); every other run of characters that are not ASCII letters or
    digits becomes one ``separator``; the slug never starts or ends with the separator.

    With ``max_length``, a longer slug is cut at the last separator that keeps it within the
    limit; a first word longer than the limit is cut hard at ``max_length`` characters.

    Raises TypeError when ``text`` is not a str; ValueError when ``separator`` is empty or contains
    an ASCII letter or digit, or when ``max_length`` is less than 1.
    """
    if not isinstance(text, str):
        raise TypeError("text must be a str")
    if not separator or any(ch.isascii() and ch.isalnum() for ch in separator):
        raise ValueError("separator must be non-empty and contain no letters or digits")
    if max_length is not None and max_length < 1:
        raise ValueError("max_length must be at least 1")
    words = []
    current = []
    for ch in _ascii_fold(text).lower():
        if ch.isascii() and ch.isalnum():
            current.append(ch)
        elif ch in "'\u2019":
            continue
        elif current:
            words.append("".join(current))
            current = []
    if current:
        words.append("".join(current))
    slug = separator.join(words)
    if max_length is None or len(slug) <= max_length:
        return slug
    kept = ""
    for word in words:
        candidate = word if not kept else kept + separator + word
        if len(candidate) > max_length:
            break
        kept = candidate
    return kept or words[0][:max_length]


def unique_slug(slug, taken):
    """Returns ``slug``, or ``slug-2``, ``slug-3``, ... : the first form not in ``taken``."""
    if slug not in taken:
        return slug
    n = 2
    while "%s-%d" % (slug, n) in taken:
        n += 1
    return "%s-%d" % (slug, n)
