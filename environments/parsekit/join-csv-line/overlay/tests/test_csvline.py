import pytest

from parsekit.csvline import join_csv_line, split_csv_line


def test_split():
    assert split_csv_line("a,b") == ["a", "b"]
    assert split_csv_line("") == [""]
    with pytest.raises(ValueError):
        split_csv_line('"open')


