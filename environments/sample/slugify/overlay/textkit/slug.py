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
    raise NotImplementedError


def unique_slug(slug, taken):
    """Returns ``slug``, or ``slug-2``, ``slug-3``, ... : the first form not in ``taken``."""
    if slug not in taken:
        return slug
    n = 2
    while "%s-%d" % (slug, n) in taken:
        n += 1
    return "%s-%d" % (slug, n)
