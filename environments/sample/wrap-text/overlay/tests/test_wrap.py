import pytest

from textkit.wrap import shorten


def test_shorten_keeps_whole_words():
    assert shorten("Hello   brave new world", 15) == "Hello brave..."
    assert shorten("short", 10) == "short"


def test_shorten_refuses_a_placeholder_that_does_not_fit():
    with pytest.raises(ValueError):
        shorten("a long sentence", 2, placeholder="[...]")
