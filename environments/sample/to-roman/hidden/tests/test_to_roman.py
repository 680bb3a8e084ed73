import pytest

from textkit.roman import to_roman

VALUES = {"I": 1, "V": 5, "X": 10, "L": 50, "C": 100, "D": 500, "M": 1000}


def _value(numeral):
    total = 0
    for symbol, following in zip(numeral, numeral[1:] + " "):
        value = VALUES[symbol]
        total += -value if following != " " and VALUES[following] > value else value
    return total


def test_every_numeral_reads_back_to_its_number():
    for number in range(1, 4000):
        numeral = to_roman(number)
        assert type(numeral) is str
        assert _value(numeral) == number


def test_numerals_are_canonical():
    for number in range(1, 4000):
        numeral = to_roman(number)
        for bad in ("IIII", "XXXX", "CCCC", "MMMM", "VV", "LL", "DD", "IL", "IC", "ID", "IM", "XD", "XM"):
            assert bad not in numeral


def test_known_numerals():
    result = [to_roman(n) for n in (1, 4, 9, 14, 40, 90, 400, 1994, 3999)]
    assert type(result) is list and result == ["I", "IV", "IX", "XIV", "XL", "XC", "CD", "MCMXCIV", "MMMCMXCIX"]


def test_out_of_range_raises_value_error():
    for number in (0, -1, 4000, 10 ** 6):
        with pytest.raises(ValueError):
            to_roman(number)


def test_non_integers_raise_type_error():
    for value in (1.0, "7", None, False):
        with pytest.raises(TypeError):
            to_roman(value)
