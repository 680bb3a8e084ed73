from parsekit.histogram import Histogram


def test_buckets():
    h = Histogram(0, 10, 5)
    assert h.bucket_of(0) == 0
    assert h.bucket_of(-1) is None
    h.add([1, 2, 11])
    assert h.outside == 1
    assert h.counts()[0] == (0.0, 2.0, 1)
