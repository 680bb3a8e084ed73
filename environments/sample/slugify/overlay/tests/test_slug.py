import pytest

from textkit.slug import unique_slug


def test_unique_slug_counts_up():
    assert unique_slug("post", set()) == "post"
    assert unique_slug("post", {"post", "post-2"}) == "post-3"
