"""Greedy text wrapping and shortening."""


def _paragraphs(text):
    """Splits text into paragraphs (runs of non-blank lines), each as a list of words."""
    paragraphs = []
    current = []
    for line in text.splitlines():
        words = line.split()
        if words:
            current.extend(words)
        elif current:
            paragraphs.append(current)
            current = []
    if current:
        paragraphs.append(current)
    return paragraphs


def wrap_text(text, width=70, *, break_long_words=True):
    """Wraps text into lines of at most ``width`` characters.

    Runs of whitespace inside a paragraph collapse to one space. Paragraphs are separated by one
    or more blank lines in the input and by one empty string in the output. Lines are filled
    greedily: a word goes on the current line when it fits after a single space.

    A word longer than ``width`` starts a new line; with ``break_long_words`` it is cut into
    pieces of exactly ``width`` characters (the last piece may be shorter and the following words
    may join it), otherwise it is kept whole on a line of its own.

    Returns a list of str; text with no words gives ``[]``.
    Raises TypeError when ``text`` is not a str and ValueError when ``width`` is less than 1.
    """
    raise NotImplementedError


def shorten(text, width, placeholder="..."):
    """Collapses whitespace and cuts ``text`` to at most ``width`` characters at a word boundary.

    When the collapsed text is longer than ``width``, whole words are kept while they and the
    ``placeholder`` fit; the placeholder is appended after them. Raises ValueError when even the
    placeholder alone does not fit.
    """
    words = text.split()
    collapsed = " ".join(words)
    if len(collapsed) <= width:
        return collapsed
    if len(placeholder) > width:
        raise ValueError("placeholder is longer than width")
    kept = ""
    for word in words:
        candidate = word if not kept else kept + " " + word
        if len(candidate) + len(placeholder) > width:
            break
        kept = candidate
    return kept + placeholder
