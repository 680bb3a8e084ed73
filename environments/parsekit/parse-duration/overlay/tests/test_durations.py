import pytest

from parsekit.durations import format_duration, parse_duration






def test_format():
    assert format_duration(0) == "0s"
    assert format_duration(3661) == "1h 1m"
    assert format_duration(3661, parts=3) == "1h 1m 1s"
    with pytest.raises(ValueError):
        format_duration(-1)
