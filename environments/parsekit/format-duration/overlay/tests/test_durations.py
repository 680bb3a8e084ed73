import pytest

from parsekit.durations import format_duration, parse_duration


def test_parse_basic():
    assert parse_duration("1h30m") == 5400
    assert parse_duration(" 45S ") == 45
    assert parse_duration("0") == 0


def test_parse_rejects_bad_text():
    for bad in ["", "h", "5", "1m1h", "1h1h", "3x"]:
        with pytest.raises(ValueError):
            parse_duration(bad)
    with pytest.raises(TypeError):
        parse_duration(5)


