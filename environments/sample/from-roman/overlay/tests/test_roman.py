import pytest

from textkit.roman import to_roman


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
