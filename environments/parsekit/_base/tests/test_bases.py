import pytest

from parsekit.bases import from_base, to_base


def test_round_trip():
    for n in [0, 1, -1, 35, 36, 1295, -46655]:
        for base in [2, 8, 16, 36]:
            assert from_base(to_base(n, base), base) == n


def test_errors():
    with pytest.raises(ValueError):
        to_base(3, 1)
    with pytest.raises(ValueError):
        from_base("z", 35)
