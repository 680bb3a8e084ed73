import pytest

from parsekit.csvline import join_csv_line, split_csv_line


def test_split():
    assert split_csv_line("a,b") == ["a", "b"]
    assert split_csv_line("") == [""]
    with pytest.raises(ValueError):
        split_csv_line('"open')


def test_join_then_split():
    fields = ["plain", "with,comma", 'quote"d', " padded"]
    assert split_csv_line(join_csv_line(fields)) == fields
