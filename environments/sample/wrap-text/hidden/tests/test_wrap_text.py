import pytest

from textkit.wrap import wrap_text

TEXT = "Sphinx of black quartz, judge my vow. Pack my box with five dozen liquor jugs."


def test_lines_fit_the_width_and_keep_every_word():
    for width in (8, 12, 20, 33, 80):
        lines = wrap_text(TEXT, width)
        assert type(lines) is list
        assert all(type(line) is str for line in lines)
        assert all(0 < len(line) <= width for line in lines)
        assert " ".join(lines).split() == TEXT.split()


def test_lines_are_filled_greedily():
    lines = wrap_text(TEXT, 20)
    for line, following in zip(lines, lines[1:]):
        assert len(line) + 1 + len(following.split()[0]) > 20


def test_paragraphs_are_separated_by_one_empty_line():
    lines = wrap_text("alpha beta\n\n\n  \ngamma\n\ndelta epsilon", 11)
    assert type(lines) is list and lines == ["alpha beta", "", "gamma", "", "delta", "epsilon"]


def test_long_words_are_cut_only_when_asked():
    word = "x" * 23
    cut = wrap_text("ab " + word + " cd", 10)
    assert type(cut) is list and cut == ["ab", "x" * 10, "x" * 10, "xxx cd"]
    whole = wrap_text("ab " + word + " cd", 10, break_long_words=False)
    assert type(whole) is list and whole == ["ab", word, "cd"]


def test_blank_text_gives_no_lines():
    result = wrap_text(" \n\t\n ", 4)
    assert type(result) is list and result == []


def test_bad_arguments_raise():
    with pytest.raises(ValueError):
        wrap_text("some words", 0)
    with pytest.raises(TypeError):
        wrap_text(b"some words", 10)
