import pytest

from textkit.roman import from_roman


def test_from_roman_known_values():
    assert from_roman("MCMXCIV") == 1994
    assert from_roman("  xlii ") == 42


def test_from_roman_refuses_non_canonical_numerals():
    for text in ("IIII", "IC", "VX", "MMMM", ""):
        with pytest.raises(ValueError):
            from_roman(text)
