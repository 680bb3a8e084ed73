import re

import pytest

from textkit.slug import slugify


def test_slug_uses_only_lower_case_ascii_letters_digits_and_separators():
    for text in ("Hello, World!", "  Crème brûlée -- 2024 ", "Ça va? Très bien!", "Tab\tand\nnewline"):
        slug = slugify(text)
        assert type(slug) is str
        assert re.fullmatch(r"[a-z0-9]+(-[a-z0-9]+)*", slug)


def test_accents_are_folded():
    slug = slugify("Ångström Öl Façade")
    assert type(slug) is str and slug == "angstrom-ol-facade"


def test_apostrophes_do_not_split_words():
    slug = slugify("Rock 'n' Roll isn't dead")
    assert type(slug) is str and slug == "rock-n-roll-isnt-dead"


def test_max_length_keeps_whole_words_within_the_limit():
    text = "the quick brown fox jumps over the lazy dog"
    full = slugify(text)
    for limit in range(1, len(full) + 3):
        slug = slugify(text, max_length=limit)
        assert type(slug) is str
        assert len(slug) <= limit
        assert full.startswith(slug)
        if len(slug) >= 3:
            assert full[len(slug):] == "" or full[len(slug)] == "-"


def test_custom_separator():
    slug = slugify("One two  THREE", separator="_")
    assert type(slug) is str and slug == "one_two_three"


def test_invalid_arguments_raise():
    with pytest.raises(ValueError):
        slugify("abc", separator="x")
    with pytest.raises(ValueError):
        slugify("abc", max_length=0)
    with pytest.raises(TypeError):
        slugify(["abc"])
