"""Fixed-width histograms over a closed range."""


class Histogram:
    """Counts values in ``bins`` equal-width buckets covering ``[low, high]``."""

    def __init__(self, low, high, bins=10):
        raise NotImplementedError

    def bucket_of(self, value):
        """The index (0-based) of the bucket holding ``value``, or None when it is outside the range.

        Bucket ``i`` covers ``[low + i*w, low + (i+1)*w)`` with ``w = (high - low) / bins``; the
        upper bound ``high`` itself belongs to the last bucket.

        >>> Histogram(0, 10, 5).bucket_of(4)
        2
        >>> Histogram(0, 10, 5).bucket_of(10)
        4
        """
        raise NotImplementedError

    def add(self, values):
        """Counts every value of ``values``; values outside the range go to ``outside``. Returns self."""
        raise NotImplementedError

    def counts(self):
        """The bucket counts as a tuple of ``(bucket_low, bucket_high, count)``, from the lowest bucket.

        Bounds are floats rounded to 6 decimals.

        >>> Histogram(0, 4, 2).add([0, 1, 3, 4, 9]).counts()
        ((0.0, 2.0, 2), (2.0, 4.0, 2))
        """
        raise NotImplementedError
