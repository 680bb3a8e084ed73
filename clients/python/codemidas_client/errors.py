"""Errors raised by the client.

Every failed RPC surfaces as :class:`CodeMidasError` carrying the gRPC status code and the server's
message. The server's own errors (bad request, unknown task or episode, illegal move) come with the
codes ``INVALID_ARGUMENT``, ``NOT_FOUND``, ``FAILED_PRECONDITION`` and ``ABORTED``: only the server
application produces those, so a caller can trust them as the environment's answer.
"""

from __future__ import annotations

import grpc


class CodeMidasError(Exception):
    """A gRPC call to the environment server failed.

    Attributes:
        code: the ``grpc.StatusCode``.
        code_name: the code's name, e.g. ``"NOT_FOUND"``.
        details: the server's message.
        method: the RPC that failed, e.g. ``"Step"``.
    """

    def __init__(self, method: str, code: grpc.StatusCode, details: str) -> None:
        self.method = method
        self.code = code
        self.code_name = code.name if code is not None else "UNKNOWN"
        self.details = details or ""
        super().__init__(f"{method} failed: {self.code_name}: {self.details}")

    @classmethod
    def from_rpc_error(cls, method: str, err: grpc.RpcError) -> "CodeMidasError":
        code = err.code() if hasattr(err, "code") else grpc.StatusCode.UNKNOWN
        details = err.details() if hasattr(err, "details") else str(err)
        return cls(method, code or grpc.StatusCode.UNKNOWN, details or "")


class EpisodeError(Exception):
    """A client-side misuse: an action on an episode the client does not know, or bad arguments."""
