"""Fixed-width histograms over a closed range."""


class Histogram:
    """Counts values in ``bins`` equal-width buckets covering ``[low, high]``."""

    def __init__(self, low, high, bins=10):
        if bins < 1:
            raise ValueError("bins must be at least 1")
        if not low < high:
            raise ValueError("low must be below high")
        self.low = low
        self.high = high
        self.bins = bins
        self.buckets = [0] * bins
        self.outside = 0

    def bucket_of(self, value):
        """The index (0-based) of the bucket holding ``value``, or None when it is outside the range.

        Bucket ``i`` covers ``[low + i*w, low + (i+1)*w)`` with ``w = (high - low) / bins``; the
        upper bound ``high`` itself belongs to the last bucket.

        >>> Histogram(0, 10, 5).bucket_of(4)
        2
        >>> Histogram(0, 10, 5).bucket_of(10)
        4
        """
        if value < self.low or value > self.high:
            return None
        if value == self.high:
            return self.bins - 1
        width = (self.high - self.low) / self.bins
        index = int((value - self.low) // width)
        return min(index, self.bins - 1)

    def add(self, values):
        """Counts every value of ``values``; values outside the range go to ``outside``. Returns self."""
        for value in values:
            index = self.bucket_of(value)
            if index is None:
                self.outside += 1
            else:
                self.buckets[index] += 1
        return self

    def counts(self):
        """The bucket counts as a tuple of ``(bucket_low, bucket_high, count)``, from the lowest bucket.

        Bounds are floats rounded to 6 decimals.

        >>> Histogram(0, 4, 2).add([0, 1, 3, 4, 9]).counts()
        ((0.0, 2.0, 2), (2.0, 4.0, 2))
        """
        width = (self.high - self.low) / self.bins
        out = []
        for i, count in enumerate(self.buckets):
            start = round(self.low + i * width, 6)
            end = round(self.low + (i + 1) * width, 6)
            out.append((float(start), float(end), count))
        return tuple(out)
