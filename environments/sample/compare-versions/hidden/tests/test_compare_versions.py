import pytest

from textkit.semver import compare_versions

# Ascending precedence, from the Semantic Versioning 2.0.0 specification and beyond.
CHAIN = [
    "0.9.9",
    "1.0.0-0.3.7",
    "1.0.0-alpha",
    "1.0.0-alpha.1",
    "1.0.0-alpha.beta",
    "1.0.0-beta",
    "1.0.0-beta.2",
    "1.0.0-beta.11",
    "1.0.0-rc.1",
    "1.0.0",
    "1.0.1",
    "1.2.0",
    "1.10.0",
    "2.0.0",
    "10.0.0",
]


def test_chain_is_totally_ordered():
    for i, a in enumerate(CHAIN):
        for j, b in enumerate(CHAIN):
            result = compare_versions(a, b)
            assert type(result) is int
            assert result == (i > j) - (i < j)


def test_build_metadata_is_ignored():
    result = compare_versions("1.0.0-rc.1+build.7", "1.0.0-rc.1+exp.sha.5114f85")
    assert type(result) is int and result == 0


def test_numeric_identifiers_compare_as_numbers_and_before_words():
    result = [compare_versions("1.0.0-2", "1.0.0-10"), compare_versions("1.0.0-999", "1.0.0-a")]
    assert type(result) is list and result == [-1, -1]


def test_invalid_versions_raise_value_error():
    for bad in ("1.0", "1.0.0.0", "1.01.0", "1.0.0-", "1.0.0-alpha..1", "1.0.0+", "v1.0.0", "1.0.0-a_b"):
        with pytest.raises(ValueError):
            compare_versions(bad, "1.0.0")
        with pytest.raises(ValueError):
            compare_versions("1.0.0", bad)


def test_non_strings_raise_type_error():
    with pytest.raises(TypeError):
        compare_versions(1, "1.0.0")
