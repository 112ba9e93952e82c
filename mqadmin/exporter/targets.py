"""Why a target of a scrape could not be read, and a line each time a target changes state.

``rocketmq_broker_up 0`` says a master did not answer; the reason says what to do about it:

- ``timeout``: it did not answer by the scrape's deadline (a frozen, overloaded or far broker);
- ``refused``: no connection (nothing listens, the host is unreachable, the connection was closed);
- ``auth``: it answered that our credentials are refused (ACL keys wrong or missing);
- ``protocol``: it answered something else we could not use (another error code, a body we cannot
  read): a version or a bug, not the network.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime

from mqadmin.admin.errors import NameServersUnavailableError
from mqadmin.exporter.collect import Scrape
from mqadmin.protocol.codes import ResponseCode
from mqadmin.remoting.errors import (
    RemoteCommandError,
    RemotingConnectError,
    RemotingSendError,
    RemotingTimeoutError,
)

__all__ = ["REASONS", "TargetStates", "reason_of", "target_errors"]

REASONS = ("timeout", "refused", "auth", "protocol")
"""Every reason a target can have, in the order the README explains them."""

_AUTH_WORDS = ("accesskey", "access key", "signature", "acl", "authenticat", "authoriz")


def reason_of(exc: BaseException) -> str:
    """One of :data:`REASONS` for the failure of one target."""
    if isinstance(exc, RemotingConnectError):
        return "timeout" if exc.timeout is not None else "refused"
    if isinstance(exc, (RemotingTimeoutError, TimeoutError)):
        return "timeout"
    if isinstance(exc, RemotingSendError | ConnectionError):
        return "refused"
    if isinstance(exc, RemoteCommandError):
        remark = (exc.remark or "").lower()
        if exc.code == ResponseCode.NO_PERMISSION or any(w in remark for w in _AUTH_WORDS):
            return "auth"
        return "protocol"
    if isinstance(exc, NameServersUnavailableError) and exc.failures:  # every name server failed
        return reason_of(exc.failures[-1][1])
    if isinstance(exc, OSError):
        return "refused"
    return "protocol"  # a body we cannot read (BadResponseError, ProtocolError) or anything else


@dataclass(frozen=True, slots=True)
class TargetError:
    """A target of one scrape that could not be read: a master, or the name servers (``broker`` "")."""

    cluster: str
    broker: str
    addr: str
    reason: str
    message: str


def target_errors(sample: Scrape, namesrv_addrs: str = "") -> list[TargetError]:
    """The targets of ``sample`` that could not be read, the name servers first."""
    out: list[TargetError] = []
    if sample.namesrv_error is not None:
        e = sample.namesrv_error
        out.append(TargetError("", "", namesrv_addrs, reason_of(e), str(e) or type(e).__name__))
    for b in sample.brokers:
        if b.error is not None:
            out.append(TargetError(b.cluster, b.broker, b.addr, reason_of(b.error), str(b.error)))
    return out


@dataclass(slots=True)
class TargetStates:
    """Each target's last state (up, or down with a reason); :meth:`update` says each change once, by
    ``say`` (a line on stderr from ``exportMetrics --listen``)."""

    say: Callable[[str], None]
    namesrv_addrs: str = ""
    _last: dict[tuple[str, str, str], str] = field(default_factory=dict)

    def update(self, sample: Scrape) -> None:
        now: dict[tuple[str, str, str], tuple[str, str]] = {}
        for b in sample.brokers:
            now[(b.cluster, b.broker, b.addr)] = ("up", "")
        if sample.namesrv_error is None:
            now[("", "", self.namesrv_addrs)] = ("up", "")
        for t in target_errors(sample, self.namesrv_addrs):
            now[(t.cluster, t.broker, t.addr)] = (t.reason, t.message)
        for key, (state, message) in now.items():
            before = self._last.get(key)
            if before == state or (before is None and state == "up"):
                continue
            self._last[key] = state
            self.say(_line(key, state, before, message))
        for key in [k for k in self._last if k not in now]:  # left the cluster: forgotten, said once
            if self._last.pop(key) != "up":
                self.say(_line(key, "gone", None, "no longer in the cluster table"))


def _line(key: tuple[str, str, str], state: str, before: str | None, message: str) -> str:
    cluster, broker, addr = key
    who = f"broker {broker} ({addr}) of {cluster}" if broker else f"name server {addr}"
    stamp = datetime.now().astimezone().isoformat(timespec="seconds")
    if state == "up":
        return f"{stamp} exportMetrics: {who} is up again (was {before})"
    if state == "gone":
        return f"{stamp} exportMetrics: {who}: {message}"
    return f"{stamp} exportMetrics: {who} cannot be read: {state}: {message}"
