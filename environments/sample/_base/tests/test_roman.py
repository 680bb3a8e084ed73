import pytest

from textkit.roman import from_roman, to_roman


def test_to_roman_known_values():
    assert to_roman(1) == "I"
    assert to_roman(4) == "IV"
    assert to_roman(1994) == "MCMXCIV"
    assert to_roman(3999) == "MMMCMXCIX"


def test_to_roman_range_and_type():
    with pytest.raises(ValueError):
        to_roman(0)
    with pytest.raises(TypeError):
        to_roman(True)


def test_from_roman_known_values():
    assert from_roman("MCMXCIV") == 1994
    assert from_roman("  xlii ") == 42


def test_from_roman_refuses_non_canonical_numerals():
    for text in ("IIII", "IC", "VX", "MMMM", ""):
        with pytest.raises(ValueError):
            from_roman(text)


def test_round_trip():
    for n in range(1, 4000):
        assert from_roman(to_roman(n)) == n
