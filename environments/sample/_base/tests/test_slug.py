import pytest

from textkit.slug import slugify, unique_slug


def test_slugify_folds_accents_and_punctuation():
    assert slugify("Héllo, Wörld!") == "hello-world"
    assert slugify("Don't panic") == "dont-panic"


def test_slugify_uses_the_separator():
    assert slugify("a b c", separator="_") == "a_b_c"


def test_slugify_truncates_at_word_boundaries():
    assert slugify("hello big world", max_length=9) == "hello-big"
    assert slugify("supercalifragilistic", max_length=5) == "super"


def test_slugify_rejects_bad_separator():
    with pytest.raises(ValueError):
        slugify("x", separator="")


def test_unique_slug_counts_up():
    assert unique_slug("post", set()) == "post"
    assert unique_slug("post", {"post", "post-2"}) == "post-3"
