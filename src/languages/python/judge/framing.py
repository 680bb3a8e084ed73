"""Length-prefixed frames on a pipe between the judge and a subject.

A frame is MAGIC (4 bytes) + payload length (4 bytes, big-endian) + UTF-8 JSON payload. Anything
else on the pipe (a wrong magic, an oversized length, bytes that are not JSON) is garbage: the
reader raises FrameError and the judge fails the case instead of guessing.
"""
import json
import os
import select
import struct
import time

MAGIC = b"CMF1"
HEADER = struct.Struct(">4sI")
MAX_FRAME_BYTES = 32 * 1024 * 1024


class FrameError(Exception):
    """The peer sent something that is not a well-formed frame."""


class FrameTimeout(Exception):
    """No complete frame arrived before the deadline."""


class FrameEOF(Exception):
    """The peer closed its end before a complete frame arrived."""


def encode_frame(obj):
    payload = json.dumps(obj, separators=(",", ":"), ensure_ascii=True).encode("ascii")
    if len(payload) > MAX_FRAME_BYTES:
        raise FrameError("frame of %d bytes exceeds the %d-byte cap" % (len(payload), MAX_FRAME_BYTES))
    return HEADER.pack(MAGIC, len(payload)) + payload


def write_frame_blocking(fd, obj):
    """Subject side: plain blocking write of one frame."""
    data = encode_frame(obj)
    view = memoryview(data)
    while view:
        n = os.write(fd, view)
        view = view[n:]


def read_exact_blocking(fd, n):
    chunks = []
    while n > 0:
        chunk = os.read(fd, min(n, 1 << 20))
        if not chunk:
            raise FrameEOF("peer closed the pipe")
        chunks.append(chunk)
        n -= len(chunk)
    return b"".join(chunks)


def read_frame_blocking(fd):
    """Subject side: plain blocking read of one frame."""
    magic, length = HEADER.unpack(read_exact_blocking(fd, HEADER.size))
    if magic != MAGIC or length > MAX_FRAME_BYTES:
        raise FrameError("bad frame header")
    return _parse(read_exact_blocking(fd, length))


def _parse(payload):
    try:
        return json.loads(payload.decode("utf-8"))
    except (UnicodeDecodeError, ValueError, RecursionError) as exc:
        raise FrameError("frame payload is not JSON: %s" % exc) from None


def write_frame_deadline(fd, obj, deadline):
    """Judge side: writes one frame to a non-blocking fd, giving up at `deadline` (time.monotonic)."""
    view = memoryview(encode_frame(obj))
    while view:
        remaining = deadline - time.monotonic()
        if remaining <= 0:
            raise FrameTimeout("peer did not read its input in time")
        _, writable, _ = select.select([], [fd], [], remaining)
        if not writable:
            continue
        try:
            n = os.write(fd, view)
        except BlockingIOError:
            continue
        except BrokenPipeError:
            raise FrameEOF("peer closed its input") from None
        view = view[n:]


def read_frame_deadline(fd, deadline):
    """Judge side: reads one frame from a non-blocking fd, giving up at `deadline`."""
    header = _read_exact_deadline(fd, HEADER.size, deadline)
    magic, length = HEADER.unpack(header)
    if magic != MAGIC:
        raise FrameError("bad frame magic %r" % (magic,))
    if length > MAX_FRAME_BYTES:
        raise FrameError("frame of %d bytes exceeds the %d-byte cap" % (length, MAX_FRAME_BYTES))
    return _parse(_read_exact_deadline(fd, length, deadline))


def _read_exact_deadline(fd, n, deadline):
    chunks = []
    while n > 0:
        remaining = deadline - time.monotonic()
        if remaining <= 0:
            raise FrameTimeout("no answer in time")
        readable, _, _ = select.select([fd], [], [], remaining)
        if not readable:
            continue
        try:
            chunk = os.read(fd, min(n, 1 << 20))
        except BlockingIOError:
            continue
        if not chunk:
            raise FrameEOF("peer closed the pipe")
        chunks.append(chunk)
        n -= len(chunk)
    return b"".join(chunks)
