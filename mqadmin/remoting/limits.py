"""What a server holds back so that no crowd of peers can exhaust it: file descriptors, partial-frame
memory, and log volume when either runs out.

- :func:`connection_limit`: how many connections a server takes before it refuses more, derived from
  ``RLIMIT_NOFILE`` so that the process keeps descriptors for its own files (commit log, queues,
  config writes) when peers open connections without end.
- :class:`PartialFrameBudget`: the bytes of unfinished frames held across all connections of a
  server; over the budget, the connection holding the most is closed (the 16 MiB frame limit alone
  lets a thousand stalled peers hold 16 GiB).

When either runs out, the line saying so is written once per interval
(:class:`~mqadmin.remoting.logthrottle.ThrottledLog` with a burst of one).
"""

from __future__ import annotations

import logging
import resource
import socket
from collections.abc import Callable, Iterator
from typing import Protocol

from mqadmin.remoting.logthrottle import ThrottledLog

__all__ = [
    "ACCEPT_BATCH",
    "DEFAULT_PARTIAL_FRAME_BUDGET",
    "PartialFrameBudget",
    "accept_ready",
    "connection_limit",
]

log = logging.getLogger("mqadmin.remoting")

#: Total bytes of unfinished frames a server holds for all its peers together.
DEFAULT_PARTIAL_FRAME_BUDGET = 64 * 1024 * 1024


ACCEPT_BATCH = 64
"""Connections taken per readiness of a listening socket, so a crowd cannot starve open ones."""


def accept_ready(
    listener: socket.socket, failed: Callable[[OSError], None], batch: int = ACCEPT_BATCH
) -> Iterator[socket.socket]:
    """The connections waiting on a readable listening socket, ``batch`` at most. An ``accept()``
    that fails for another reason than none being left (out of descriptors, memory) goes to
    ``failed`` and ends the batch: retrying at once would spin, the socket stays readable."""
    for _ in range(batch):
        try:
            sock, _addr = listener.accept()
        except (BlockingIOError, InterruptedError):
            return
        except ConnectionAbortedError:
            continue
        except OSError as e:
            failed(e)
            return
        yield sock


def connection_limit(soft_limit: int | None = None) -> int | None:
    """Connections to accept at most under the file-descriptor limit (None: no limit applies).

    An eighth of the descriptors (at least 32) stays free for everything that is not a peer.
    """
    if soft_limit is None:
        soft_limit = resource.getrlimit(resource.RLIMIT_NOFILE)[0]
    if soft_limit == resource.RLIM_INFINITY or soft_limit <= 0:
        return None
    return max(1, soft_limit - max(32, soft_limit // 8))


class Sheddable(Protocol):
    addr: str

    def abort(self, reason: str | None = None) -> None: ...


class PartialFrameBudget:
    """Bytes of unfinished frames held by a server's connections, capped in total.

    Each connection reports what its decoder holds after every read (:meth:`update`) and reports 0
    when it goes away (:meth:`release`). When the total passes ``limit``, connections are aborted,
    largest holding first, until it is back under; every other connection is left alone.
    """

    __slots__ = ("_held", "_log", "limit", "shed", "total")

    def __init__(self, limit: int = DEFAULT_PARTIAL_FRAME_BUDGET) -> None:
        if limit <= 0:
            raise ValueError("the partial frame budget must be positive")
        self.limit = limit
        self.total = 0
        #: connections aborted for the budget since the start
        self.shed = 0
        self._held: dict[Sheddable, int] = {}
        self._log = ThrottledLog(log, burst=1)

    def update(self, conn: Sheddable, held: int) -> None:
        """``conn``'s decoder now holds ``held`` bytes of a frame still incomplete."""
        old = self._held.pop(conn, 0)
        if held:
            self._held[conn] = held
        self.total += held - old
        if self.total > self.limit:
            self._shed()

    def release(self, conn: Sheddable) -> None:
        """``conn`` holds nothing any more (closed)."""
        self.total -= self._held.pop(conn, 0)

    def _shed(self) -> None:
        while self.total > self.limit and self._held:
            victim = max(self._held, key=self._held.__getitem__)
            held = self._held.pop(victim)
            self.total -= held
            self.shed += 1
            self._log.warning(
                "partial frame budget",
                "partial frames of all connections passed the %d byte budget: closing %s, which held %d",
                self.limit,
                victim.addr,
                held,
            )
            victim.abort(f"partial frames over the server's {self.limit} byte budget")
