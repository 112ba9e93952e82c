"""Long polling (Java ``PullRequestHoldService``): a pull that found nothing waits for a message.

A PULL_MESSAGE with the SUSPEND flag that would answer PULL_NOT_FOUND is parked on its
``topic@queueId`` instead of being answered. It is executed again, once and without suspending,
when a message for that queue arrives at or beyond its offset (and passes its tag filter), or when
its ``suspendTimeoutMillis`` runs out; the answer of that second execution is the response. A
parked pull whose connection closes is dropped unanswered, as Java drops it.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from dataclasses import dataclass, field

from mqadmin.protocol.command import RemotingCommand
from mqadmin.remoting.client import Connection

__all__ = ["HeldPull", "PullHoldService"]

log = logging.getLogger("mqadmin.broker")


@dataclass(eq=False)
class HeldPull:
    """One parked pull: whose it is, where it waits from, and how to answer it."""

    conn: Connection
    cmd: RemotingCommand
    topic: str
    queue_id: int
    offset: int
    tag_codes: frozenset[int] | None
    """Tag hashes the subscription accepts; None accepts everything."""
    future: asyncio.Future[RemotingCommand | None]
    timer: asyncio.TimerHandle | None = field(default=None, repr=False)

    def accepts(self, tags_code: int | None) -> bool:
        return self.tag_codes is None or tags_code is None or tags_code in self.tag_codes


Replay = Callable[[HeldPull], RemotingCommand | None]
"""Executes a held pull again (without suspending) and returns its response."""


class PullHoldService:
    """Parked pulls by ``(topic, queueId)``; :meth:`notify` after every store append."""

    def __init__(self, replay: Replay) -> None:
        self._replay = replay
        self._held: dict[tuple[str, int], list[HeldPull]] = {}
        self._by_conn: dict[Connection, set[HeldPull]] = {}

    def __len__(self) -> int:
        return sum(len(v) for v in self._held.values())

    def hold(
        self,
        conn: Connection,
        cmd: RemotingCommand,
        topic: str,
        queue_id: int,
        offset: int,
        tag_codes: frozenset[int] | None,
        timeout_s: float,
    ) -> asyncio.Future[RemotingCommand | None]:
        """Park a pull; the returned future gets its response."""
        loop = asyncio.get_running_loop()
        held = HeldPull(conn, cmd, topic, queue_id, offset, tag_codes, loop.create_future())
        held.timer = loop.call_later(max(timeout_s, 0.0), self._expire, held)
        self._held.setdefault((topic, queue_id), []).append(held)
        conns = self._by_conn.get(conn)
        if conns is None:
            conns = self._by_conn[conn] = set()
            conn.on_close.append(self._connection_closed)
        conns.add(held)
        return held.future

    def notify(self, topic: str, queue_id: int, max_offset: int, tags_code: int | None = None) -> None:
        """A message was stored in ``topic``/``queue_id``; queue now ends at ``max_offset``."""
        waiting = self._held.get((topic, queue_id))
        if not waiting:
            return
        ready = [h for h in waiting if max_offset > h.offset and h.accepts(tags_code)]
        if not ready:
            return
        for h in ready:
            self._release(h)
            self._answer(h)

    def _expire(self, held: HeldPull) -> None:
        held.timer = None
        if self._release(held):
            self._answer(held)

    def _answer(self, held: HeldPull) -> None:
        if held.future.done():
            return
        try:
            resp = self._replay(held)
        except Exception as e:
            log.exception("re-executing a held pull failed")
            held.future.set_exception(e)
            return
        held.future.set_result(resp)

    def _release(self, held: HeldPull) -> bool:
        """Forget a held pull; False when it was already gone."""
        key = (held.topic, held.queue_id)
        waiting = self._held.get(key)
        if waiting is None or held not in waiting:
            return False
        waiting.remove(held)
        if not waiting:
            del self._held[key]
        if held.timer is not None:
            held.timer.cancel()
            held.timer = None
        conns = self._by_conn.get(held.conn)
        if conns is not None:
            conns.discard(held)
        return True

    def _connection_closed(self, conn: Connection) -> None:
        for held in list(self._by_conn.pop(conn, ())):
            self._release(held)
            if not held.future.done():
                held.future.cancel()

    def cancel_all(self) -> None:
        """At shutdown: drop every parked pull."""
        for waiting in list(self._held.values()):
            for held in list(waiting):
                self._release(held)
                if not held.future.done():
                    held.future.cancel()
