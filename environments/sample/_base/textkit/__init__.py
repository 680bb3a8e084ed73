"""textkit: small text utilities (wrapping, slugs, roman numerals, tables, intervals, versions)."""
from textkit.intervals import contains, merge_intervals
from textkit.roman import from_roman, to_roman
from textkit.semver import Version, bump_version, compare_versions, parse_version
from textkit.slug import slugify, unique_slug
from textkit.tables import format_table
from textkit.wrap import shorten, wrap_text

__all__ = [
    "Version",
    "bump_version",
    "compare_versions",
    "contains",
    "format_table",
    "from_roman",
    "merge_intervals",
    "parse_version",
    "shorten",
    "slugify",
    "to_roman",
    "unique_slug",
    "wrap_text",
]
