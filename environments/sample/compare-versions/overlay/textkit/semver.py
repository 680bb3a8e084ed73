"""Semantic Versioning 2.0.0: parsing, precedence and bumping."""
from collections import namedtuple

Version = namedtuple("Version", ["major", "minor", "patch", "prerelease", "build"])
Version.__doc__ = "A parsed version: three ints and two tuples of str identifiers."

_IDENT_CHARS = frozenset("0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ-")


def _identifiers(text, what, numeric_rules):
    parts = text.split(".")
    for part in parts:
        if not part or not set(part) <= _IDENT_CHARS:
            raise ValueError("invalid %s identifier %r" % (what, part))
        if numeric_rules and part.isdigit() and len(part) > 1 and part[0] == "0":
            raise ValueError("numeric %s identifier has a leading zero: %r" % (what, part))
    return tuple(parts)


def parse_version(text):
    """Parses ``MAJOR.MINOR.PATCH[-PRERELEASE][+BUILD]`` into a Version.

    Raises TypeError when ``text`` is not a str and ValueError when it is not a valid version
    (numbers with leading zeros, empty identifiers and characters outside [0-9A-Za-z-] included).
    """
    if not isinstance(text, str):
        raise TypeError("version must be a str")
    rest, plus, build_text = text.partition("+")
    core, dash, pre_text = rest.partition("-")
    numbers = core.split(".")
    if len(numbers) != 3:
        raise ValueError("expected MAJOR.MINOR.PATCH, got %r" % (text,))
    for number in numbers:
        if not number.isdigit() or not number.isascii() or (len(number) > 1 and number[0] == "0"):
            raise ValueError("invalid version number %r in %r" % (number, text))
    prerelease = _identifiers(pre_text, "pre-release", True) if dash else ()
    build = _identifiers(build_text, "build", False) if plus else ()
    return Version(int(numbers[0]), int(numbers[1]), int(numbers[2]), prerelease, build)


def compare_versions(a, b):
    """Compares two version strings by Semantic Versioning 2.0.0 precedence.

    Returns -1 when ``a`` comes before ``b``, 0 when they have the same precedence and 1 when ``a``
    comes after. Major, minor and patch compare as numbers. A version with a pre-release comes
    before the same version without one. Pre-releases compare identifier by identifier: numeric
    identifiers (digits only) compare as numbers and come before alphanumeric ones, which compare
    in ASCII order; when all shared identifiers are equal the longer list comes after. Build
    metadata is ignored. Both arguments are parsed with ``parse_version``, so they raise the same
    TypeError and ValueError.
    """
    raise NotImplementedError


def bump_version(text, part):
    """Returns the version after ``text`` when bumping ``part`` ("major", "minor" or "patch").

    Lower parts reset to 0; pre-release and build are dropped. Bumping the patch of a pre-release
    (``1.2.3-rc.1``) releases it (``1.2.3``), as npm does. Raises ValueError for another ``part``.
    """
    version = parse_version(text)
    if part == "major":
        return "%d.0.0" % (version.major + 1)
    if part == "minor":
        return "%d.%d.0" % (version.major, version.minor + 1)
    if part == "patch":
        patch = version.patch if version.prerelease else version.patch + 1
        return "%d.%d.%d" % (version.major, version.minor, patch)
    raise ValueError("part must be 'major', 'minor' or 'patch', got %r" % (part,))

