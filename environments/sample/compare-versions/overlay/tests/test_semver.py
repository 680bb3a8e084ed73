import pytest

from textkit.semver import Version, bump_version, parse_version


def test_parse_version_parts():
    assert parse_version("1.2.3-rc.1+build.5") == Version(1, 2, 3, ("rc", "1"), ("build", "5"))


def test_parse_version_rejects_leading_zeros():
    with pytest.raises(ValueError):
        parse_version("01.2.3")


def test_bump_version():
    assert bump_version("1.2.3", "minor") == "1.3.0"
    assert bump_version("1.2.3-rc.1", "patch") == "1.2.3"
    with pytest.raises(ValueError):
        bump_version("1.2.3", "build")
