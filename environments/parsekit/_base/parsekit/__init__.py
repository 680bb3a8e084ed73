"""parsekit: parsers, formatters and check-digit validators (standard library only)."""

__all__ = ["bases", "checksums", "csvline", "durations", "histogram", "ranges"]
