"""Transport errors that always name the peer, so a failed call says where it went wrong.

Every error is one line when printed: an operator reading ``mqadmin`` output (or a runbook log) sees
which name server or broker refused, timed out, hung up, or answered with an error code.
"""

from __future__ import annotations

from collections.abc import Container

from mqadmin.protocol.codes import request_name, response_name
from mqadmin.protocol.command import RemotingCommand

__all__ = [
    "RemoteCommandError",
    "RemotingClosedError",
    "RemotingConnectError",
    "RemotingError",
    "RemotingSendError",
    "RemotingTimeoutError",
    "accepted",
]


def _one_line(text: str) -> str:
    """Java remarks may hold newlines (FAQ links); an error message must stay on one line."""
    return " ".join(text.split())


def _describe_request(code: int | None) -> str:
    """``GET_ROUTEINFO_BY_TOPIC (105)``, or ``request code 30001`` for codes without a name."""
    if code is None:
        return "the request"
    name = request_name(code)
    return f"request code {code}" if name == str(code) else f"{name} ({code})"


class RemotingError(Exception):
    """Base of every transport error; ``addr`` is the peer as the caller named it (``host:port``)."""

    addr: str

    def __init__(self, addr: str, message: str) -> None:
        super().__init__(message)
        self.addr = addr


class RemotingConnectError(RemotingError):
    """The connection could not be opened: refused, unreachable, bad address, or connect timeout."""

    reason: str
    timeout: float | None

    def __init__(self, addr: str, reason: str, *, timeout: float | None = None) -> None:
        self.reason = reason
        self.timeout = timeout
        if timeout is not None:
            message = f"connect to {addr} failed: timed out after {timeout:g} s"
        else:
            message = f"connect to {addr} failed: {_one_line(reason)}"
        super().__init__(addr, message)


class RemotingTimeoutError(RemotingError):
    """No response within the per-call timeout; the connection itself stays usable."""

    timeout: float
    request_code: int | None

    def __init__(self, addr: str, timeout: float, request_code: int | None = None) -> None:
        self.timeout = timeout
        self.request_code = request_code
        super().__init__(
            addr, f"no response from {addr} to {_describe_request(request_code)} within {timeout:g} s"
        )


class RemotingSendError(RemotingError):
    """The request could not be written to the connection (it was closed or failed under us)."""

    request_code: int | None
    reason: str

    def __init__(self, addr: str, reason: str, request_code: int | None = None) -> None:
        self.request_code = request_code
        self.reason = reason
        super().__init__(
            addr, f"send {_describe_request(request_code)} to {addr} failed: {_one_line(reason)}"
        )


class RemotingClosedError(RemotingSendError):
    """The connection closed before the response arrived (``mid_response``: part of a frame was in)."""

    mid_response: bool

    def __init__(
        self,
        addr: str,
        request_code: int | None = None,
        *,
        mid_response: bool = False,
        reason: str | None = None,
    ) -> None:
        self.mid_response = mid_response
        what = "closed mid-response" if mid_response else "closed"
        message = (
            f"connection to {addr} {what} while waiting for the answer to {_describe_request(request_code)}"
        )
        if reason:
            message += f": {_one_line(reason)}"
        # bypass RemotingSendError's wording; keep its attributes
        RemotingError.__init__(self, addr, message)
        self.request_code = request_code
        self.reason = reason or what


class RemoteCommandError(RemotingError):
    """The peer answered, but with a code the caller does not accept (anything but SUCCESS by default).

    ``version`` is the responder's version field, so codes whose meaning changed in 5.0 get the right
    name; ``response`` is the whole answer for callers that need its ext fields or body.
    """

    code: int
    code_name: str
    remark: str | None
    request_code: int | None
    response: RemotingCommand | None

    def __init__(
        self,
        addr: str,
        code: int,
        remark: str | None,
        request_code: int | None = None,
        *,
        version: int | None = None,
        response: RemotingCommand | None = None,
    ) -> None:
        self.code = code
        self.code_name = response_name(code, version)
        self.remark = remark
        self.request_code = request_code
        self.response = response
        message = f"CODE: {code} ({self.code_name}) from {addr}"
        if remark:
            message += f": {_one_line(remark)}"
        super().__init__(addr, message)


def accepted(
    addr: str, request: RemotingCommand, response: RemotingCommand, ok_codes: Container[int]
) -> RemotingCommand:
    """``response`` when its code is in ``ok_codes``, else the :class:`RemoteCommandError` saying so."""
    if response.code not in ok_codes:
        raise RemoteCommandError(
            addr, response.code, response.remark, request.code, version=response.version, response=response
        )
    return response
