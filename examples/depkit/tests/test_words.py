from depkit.plain import chunked, run_lengths
from depkit.words import headline, initials, to_text


def test_to_text():
    assert to_text(b"caf\xc3\xa9") == "café"
    assert to_text(True) == "yes"
    assert to_text(12) == "12"


def test_headline():
    assert headline("the lord of the rings") == "The Lord of the Rings"
    assert headline(b"war and peace") == "War and Peace"


def test_initials():
    assert initials("Jean-Luc Picard") == "J.L.P."
    assert initials("ada lovelace", separator="") == "AL"


def test_plain():
    assert chunked([1, 2, 3], 2) == [[1, 2], [3]]
    assert run_lengths("aaab") == [("a", 3), ("b", 1)]
