import pytest

from textkit.wrap import shorten, wrap_text


def test_wrap_text_fills_lines_greedily():
    assert wrap_text("The quick brown fox jumps over the lazy dog", 10) == [
        "The quick",
        "brown fox",
        "jumps over",
        "the lazy",
        "dog",
    ]


def test_wrap_text_keeps_paragraphs_apart():
    assert wrap_text("one two\n\n\nthree", 20) == ["one two", "", "three"]


def test_wrap_text_breaks_long_words_only_when_asked():
    assert wrap_text("abcdefghijkl mn", 5) == ["abcde", "fghij", "kl mn"]
    assert wrap_text("abcdefghijkl mn", 5, break_long_words=False) == ["abcdefghijkl", "mn"]


def test_wrap_text_rejects_bad_arguments():
    with pytest.raises(ValueError):
        wrap_text("x", 0)
    with pytest.raises(TypeError):
        wrap_text(None, 10)


def test_shorten_keeps_whole_words():
    assert shorten("Hello   brave new world", 15) == "Hello brave..."
    assert shorten("short", 10) == "short"


def test_shorten_refuses_a_placeholder_that_does_not_fit():
    with pytest.raises(ValueError):
        shorten("a long sentence", 2, placeholder="[...]")
