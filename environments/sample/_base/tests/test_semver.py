import pytest

from textkit.semver import Version, bump_version, compare_versions, parse_version


def test_parse_version_parts():
    assert parse_version("1.2.3-rc.1+build.5") == Version(1, 2, 3, ("rc", "1"), ("build", "5"))


def test_parse_version_rejects_leading_zeros():
    with pytest.raises(ValueError):
        parse_version("01.2.3")


def test_compare_versions_orders_pre_releases():
    chain = ["1.0.0-alpha", "1.0.0-alpha.1", "1.0.0-alpha.beta", "1.0.0-beta", "1.0.0-beta.2",
             "1.0.0-beta.11", "1.0.0-rc.1", "1.0.0"]
    for lower, higher in zip(chain, chain[1:]):
        assert compare_versions(lower, higher) == -1
        assert compare_versions(higher, lower) == 1


def test_compare_versions_ignores_build():
    assert compare_versions("1.0.0+a", "1.0.0+b") == 0


def test_bump_version():
    assert bump_version("1.2.3", "minor") == "1.3.0"
    assert bump_version("1.2.3-rc.1", "patch") == "1.2.3"
    with pytest.raises(ValueError):
        bump_version("1.2.3", "build")
