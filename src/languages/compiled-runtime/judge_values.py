"""Comparison helpers the Go, Rust and Java judges share (each keeps its own `same` and `verdict`,
which know its codec): a message clipped for the report, two floats within a relative 1e-9."""
import math

MAX_MESSAGE = 600


def clip(text):
    text = str(text)
    return text if len(text) <= MAX_MESSAGE else text[: MAX_MESSAGE - 3] + "..."


def close_floats(a, b):
    """Two floats (or their texts) equal within a relative 1e-9 (an absolute 1e-12 near zero); NaN
    and the infinities only equal as the same text."""
    if a == b:
        return True
    try:
        x, y = float(a), float(b)
    except (TypeError, ValueError):
        return False
    if math.isnan(x) or math.isnan(y) or math.isinf(x) or math.isinf(y):
        return False
    return abs(x - y) <= max(1e-9 * max(abs(x), abs(y)), 1e-12)
