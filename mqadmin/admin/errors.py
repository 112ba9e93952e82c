"""Errors of the admin API beyond the transport's own (:mod:`mqadmin.remoting.errors`)."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from mqadmin.protocol.errors import ProtocolError
from mqadmin.remoting.errors import (
    RemoteCommandError,
    RemotingClosedError,
    RemotingConnectError,
    RemotingError,
    RemotingSendError,
    RemotingTimeoutError,
)

__all__ = [
    "AdminError",
    "BadResponseError",
    "DeadlineError",
    "NameServersUnavailableError",
    "RemoteCommandError",
    "RemotingClosedError",
    "RemotingConnectError",
    "RemotingError",
    "RemotingSendError",
    "RemotingTimeoutError",
    "bad_response",
    "is_unreachable",
]


class AdminError(Exception):
    """A request that cannot be made or whose answer makes no sense (not a transport failure)."""


class BadResponseError(AdminError):
    """The peer answered SUCCESS with a body or header we cannot use."""

    def __init__(self, addr: str, what: str) -> None:
        super().__init__(f"unusable answer from {addr}: {what}")
        self.addr = addr


class NameServersUnavailableError(RemotingError):
    """Every name server of the list failed to answer (each one was tried in turn)."""

    def __init__(self, failures: list[tuple[str, RemotingError]]) -> None:
        self.failures = failures
        detail = "; ".join(str(e) for _, e in failures)
        addrs = ",".join(a for a, _ in failures)
        super().__init__(addrs, f"no name server answered ({detail})")

    @property
    def all_timed_out(self) -> bool:
        return all(isinstance(e, RemotingTimeoutError) for _, e in self.failures)


class DeadlineError(RemotingTimeoutError):
    """A fan-out call still unfinished when the fan-out's deadline passed."""

    def __init__(self, addr: str, deadline: float, request_code: int | None = None) -> None:
        super().__init__(addr, deadline, request_code)
        self.args = (f"no answer from {addr} before the {deadline:g} s deadline",)


@contextmanager
def bad_response(addr: str, what: str) -> Iterator[None]:
    """An answer that does not decode inside is the peer's fault: a :class:`BadResponseError` on ``what``.

    Used as ``with bad_response(addr, what):``.
    """
    try:
        yield
    except ProtocolError as exc:
        raise BadResponseError(addr, f"{what}: {exc}") from None


def is_unreachable(exc: BaseException) -> bool:
    """Failures that say nothing about the request, only that the peer could not be used.

    These make a name server call move on to the next name server.
    """
    return isinstance(exc, RemotingConnectError | RemotingTimeoutError | RemotingSendError)
