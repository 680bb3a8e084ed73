import pytest

from textkit.roman import from_roman, to_roman


def test_every_canonical_numeral_parses():
    for number in range(1, 4000):
        value = from_roman(to_roman(number))
        assert type(value) is int and value == number


def test_case_and_surrounding_whitespace_are_ignored():
    for text in ("mcmxciv", " MCMXCIV", "McMxCiV\n", "\tmcmXCIV  "):
        value = from_roman(text)
        assert type(value) is int and value == 1994


def test_non_canonical_numerals_are_refused():
    for text in ("IIII", "VV", "IIV", "IL", "XCX", "CMM", "DCD", "MMMM", "IXI", "LXL", "IVI"):
        with pytest.raises(ValueError):
            from_roman(text)


def test_garbage_is_refused():
    for text in ("", "   ", "ABC", "X I", "12", "MCMXCIV!"):
        with pytest.raises(ValueError):
            from_roman(text)


def test_non_strings_raise_type_error():
    for value in (12, None, b"XII"):
        with pytest.raises(TypeError):
            from_roman(value)
