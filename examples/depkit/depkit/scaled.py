"""Scaling helpers built on a helper package that no package source has."""

import codemidas_absent_helper


def scaled(values, factor):
    """Each value times `factor`, rounded with the helper's rounding."""
    out = []
    for value in values:
        out.append(codemidas_absent_helper.round_half_even(value * factor))
    return out
