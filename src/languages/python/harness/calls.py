"""Small helpers shared by the tracer and the worker for calling into the repository's code."""
import contextlib
import functools
import signal


class Alarm(BaseException):
    """Raised inside `with_alarm`'s function when its time is up (a BaseException, so the code under
    test cannot swallow it with `except Exception`)."""


def with_alarm(seconds, fn, error=Alarm):
    """Runs fn() under a SIGALRM timer of `seconds`; raises `error` (default Alarm) when it runs out."""
    with alarm_after(seconds, error):
        return fn()


@contextlib.contextmanager
def alarm_after(seconds, error=Alarm):
    """The block runs under a SIGALRM timer of `seconds`; `error` is raised inside it when it runs out."""

    def on_alarm(signum, frame):
        raise error()

    old = signal.signal(signal.SIGALRM, on_alarm)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, old)


def raw_function(obj):
    """The plain function under staticmethod/classmethod/functools.wraps layers (a property's or a
    cached_property's getter included), or None."""
    for _ in range(20):
        if isinstance(obj, (staticmethod, classmethod)):
            obj = obj.__func__
        elif isinstance(obj, property) and obj.fget is not None:
            obj = obj.fget
        elif isinstance(obj, functools.cached_property):
            obj = obj.func
        elif hasattr(obj, "__wrapped__"):
            obj = obj.__wrapped__
        else:
            break
    return obj if hasattr(obj, "__code__") else None
