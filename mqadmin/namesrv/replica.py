"""The channel between the name server's primary process and one worker: routes out, in order.

A worker answers route queries from a copy of encoded route bodies. It fills the copy on demand
(FILL: one topic, one form) and the primary tells it, in the same ordered stream, of every topic
whose route may have changed since (INVALIDATE, or CLEAR for all). Because answers and
invalidations travel one stream and are applied in the order they were written, a worker's copy
only moves forward in time: what it holds is never older than what it answered before. SYNC is a
barrier: its reply arrives after every invalidation the primary had made when it read the SYNC.

The stream is a socket pair made by the primary before it starts the worker, so nothing listens
for it. Messages: ``uint32 length | kind byte | payload`` (length counts kind and payload), at most
:data:`MAX_MESSAGE` bytes: more than any route the primary accepts (a registration that would make a
larger one is refused), so every answer crosses; one that would not is sent as FORWARD instead, and
the primary answers the query itself.
"""

from __future__ import annotations

import asyncio
import logging
import struct
from collections.abc import Callable
from typing import Any, Final

from mqadmin.namesrv.routequery import FORWARD, Forward, NotFound, RouteQuery, not_found_remark

__all__ = [
    "MAX_MESSAGE",
    "FillAnswer",
    "ReplicaFeed",
    "ReplicaProtocol",
    "RouteReplica",
]

log = logging.getLogger("mqadmin.namesrv")

_BODY, _NOT_FOUND, _FORWARD = 0, 1, 2
"""Fill outcomes on the channel: here is the body; the topic has no route; ask with the request itself."""

FillAnswer = bytes | NotFound | Forward
"""What the primary's tables answer a fill (:meth:`~mqadmin.namesrv.routequery.RouteTables.fill`)."""

_HEAD = struct.Struct(">IB")
_FILL_HEAD = struct.Struct(">BBI")  # standard, status, topic length
_ID = struct.Struct(">Q")
MAX_MESSAGE = 64 << 20
"""The longest message either end accepts: a route body (under 16 MiB) and its topic fit many times."""

# kinds: worker -> primary
_K_FILL = ord("F")
_K_SYNC = ord("S")
_K_READY = ord("R")
# kinds: primary -> worker
_K_ANSWER = ord("A")
_K_INVALIDATE = ord("I")
_K_CLEAR = ord("C")
_K_SYNCED = ord("Y")

_INVALIDATE_ALL_FROM = 4096
"""More pending invalidations than this are sent as one CLEAR."""


def _message(kind: int, payload: bytes = b"") -> bytes:
    return _HEAD.pack(1 + len(payload), kind) + payload


def _topic_bytes(topic: str) -> bytes:
    return topic.encode("utf-8", "surrogatepass")


class ReplicaProtocol(asyncio.Protocol):
    """Message framing over the socket pair; subclasses handle ``message(kind, payload)``."""

    def __init__(self) -> None:
        self.transport: asyncio.Transport | None = None
        self._buf = bytearray()
        self._out: list[bytes] = []  # written together at the end of the loop turn, in order
        self.closed: asyncio.Future[None] = asyncio.get_running_loop().create_future()

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        self.transport = transport  # type: ignore[assignment]

    def data_received(self, data: bytes) -> None:
        buf = self._buf
        buf += data
        pos = 0
        while len(buf) - pos >= 5:
            length, kind = _HEAD.unpack_from(buf, pos)
            if length < 1 or length > MAX_MESSAGE:
                log.error("replica channel: bad message length %d, closing it", length)
                self.close()
                return
            end = pos + 4 + length
            if end > len(buf):
                break
            payload = bytes(buf[pos + 5 : end])
            pos = end
            try:
                self.message(kind, payload)
            except Exception:
                log.exception("replica channel: message %r failed", chr(kind))
        if pos:
            del buf[:pos]

    def message(self, kind: int, payload: bytes) -> None:
        raise NotImplementedError

    def send(self, kind: int, payload: bytes = b"") -> None:
        """Queue a message; all queued in one loop turn leave in one write (a storm of fills
        after a large change is thousands of messages)."""
        if not self._out:
            asyncio.get_running_loop().call_soon(self._write_out)
        self._out.append(_message(kind, payload))

    def _write_out(self) -> None:
        out, self._out = self._out, []
        if out and self.transport is not None and not self.transport.is_closing():
            self.transport.write(b"".join(out))

    def close(self) -> None:
        if self.transport is not None:
            self.transport.close()

    def connection_lost(self, exc: Exception | None) -> None:
        if not self.closed.done():
            self.closed.set_result(None)


class ReplicaFeed(ReplicaProtocol):
    """The primary's end for one worker: answers fills, sends invalidations in order.

    ``answer(topic, standard)`` gives a fill's outcome from the primary's tables. Invalidations
    gather until the end of the loop turn (or until anything else is written to the worker, which
    they always precede), so a registration touching ten thousand topics is one message.
    """

    def __init__(self, answer: Callable[[str, bool], FillAnswer]) -> None:
        super().__init__()
        self._answer = answer
        self._pending: set[str] = set()
        self._clear = False
        self._scheduled = False
        self.ready: asyncio.Future[None] = asyncio.get_running_loop().create_future()

    def invalidate(self, topic: str | None) -> None:
        """A route changed (None: possibly every route): the worker must forget it soon."""
        if self._clear:
            return
        if topic is None or len(self._pending) >= _INVALIDATE_ALL_FROM:
            self._clear = True
            self._pending.clear()
        else:
            self._pending.add(topic)
        if not self._scheduled:
            self._scheduled = True
            asyncio.get_running_loop().call_soon(self.flush)

    def flush(self) -> None:
        """Send what is pending: one CLEAR, or one INVALIDATE naming the topics."""
        self._scheduled = False
        if self._clear:
            self._clear = False
            self.send(_K_CLEAR)
        elif self._pending:
            topics, self._pending = self._pending, set()
            self.send(_K_INVALIDATE, "\n".join(topics).encode("utf-8", "surrogatepass"))

    def message(self, kind: int, payload: bytes) -> None:
        if kind == _K_FILL:
            standard = payload[0] == 1
            topic = payload[1:].decode("utf-8", "surrogatepass")
            status, body = _fill_status(self._answer(topic, standard))
            self.flush()
            raw = _topic_bytes(topic)
            if body is not None and 1 + _FILL_HEAD.size + len(raw) + len(body) > MAX_MESSAGE:
                log.error("replica channel: the route of %r is too large to send, forwarding", topic[:128])
                status, body = _FORWARD, None
            head = _FILL_HEAD.pack(payload[0], status, len(raw))
            self.send(_K_ANSWER, head + raw + (body or b""))
        elif kind == _K_SYNC:
            self.flush()
            self.send(_K_SYNCED, payload)
        elif kind == _K_READY:
            if not self.ready.done():
                self.ready.set_result(None)
        else:
            log.warning("replica channel: unknown message %r from a worker", chr(kind))

    def connection_lost(self, exc: Exception | None) -> None:
        if not self.ready.done():
            self.ready.set_exception(ConnectionError("worker gone before it was ready"))
        super().connection_lost(exc)


def _fill_status(ans: FillAnswer) -> tuple[int, bytes | None]:
    if isinstance(ans, bytes):
        return _BODY, ans
    return (_NOT_FOUND if isinstance(ans, NotFound) else _FORWARD), None


class RouteReplica(ReplicaProtocol):
    """The worker's end: a cache of route bodies kept in step with the primary, and a route source
    (:class:`~mqadmin.namesrv.routequery.RouteSource`) that holds plain routes only.

    ``cache`` is anything with ``get``, ``put``, ``drop`` and ``clear`` by ``(topic, standard)``
    (a :class:`~mqadmin.route.routecache.RouteBodyCache`).
    """

    complete: Final = False

    def __init__(self, cache: Any) -> None:
        super().__init__()
        self.cache = cache
        self._fills: dict[tuple[str, bool], asyncio.Future[FillAnswer]] = {}
        self._syncs: dict[int, asyncio.Future[None]] = {}
        self._next_sync = 0

    def route_body(self, query: RouteQuery) -> bytes | None:
        """The cached body of a plain query, or None (never NOT_READY: the primary decides that, and a
        query it does not answer yet is never cached here)."""
        if not query.plain:
            return None
        return self.cache.get(query.topic, query.standard)  # type: ignore[no-any-return]

    def ready(self) -> None:
        self.send(_K_READY)

    async def fill(self, query: RouteQuery) -> FillAnswer:
        """Ask the primary for the route of a plain query (queries for the same one share the question);
        any other query is for the primary to answer with the request itself."""
        topic, standard = query.topic, query.standard
        if topic is None or not query.plain:
            return FORWARD
        key = (topic, standard)
        fut = self._fills.get(key)
        if fut is None:
            if self.closed.done():
                raise ConnectionError("the name server's primary process is gone")
            fut = self._fills[key] = asyncio.get_running_loop().create_future()
            self.send(_K_FILL, (b"\x01" if standard else b"\x00") + _topic_bytes(topic))
        return await asyncio.shield(fut)

    async def sync(self) -> None:
        """Return once every invalidation the primary has made by now is applied here."""
        if self.closed.done():
            return
        self._next_sync += 1
        n = self._next_sync
        fut = self._syncs[n] = asyncio.get_running_loop().create_future()
        self.send(_K_SYNC, _ID.pack(n))
        await asyncio.shield(fut)

    def message(self, kind: int, payload: bytes) -> None:
        if kind == _K_ANSWER:
            std, status, n = _FILL_HEAD.unpack_from(payload, 0)
            topic = payload[6 : 6 + n].decode("utf-8", "surrogatepass")
            standard = std == 1
            ans: FillAnswer = FORWARD
            if status == _BODY:
                body = payload[6 + n :]
                self.cache.put(topic, standard, body)
                ans = self.cache.get(topic, standard) or body  # the shared copy
            elif status == _NOT_FOUND:
                ans = NotFound(not_found_remark(topic))
            fut = self._fills.pop((topic, standard), None)
            if fut is not None and not fut.done():
                fut.set_result(ans)
        elif kind == _K_INVALIDATE:
            for topic in payload.decode("utf-8", "surrogatepass").split("\n"):
                self.cache.drop(topic)
        elif kind == _K_CLEAR:
            self.cache.clear()
        elif kind == _K_SYNCED:
            sync = self._syncs.pop(_ID.unpack(payload)[0], None)
            if sync is not None and not sync.done():
                sync.set_result(None)
        else:
            log.warning("replica channel: unknown message %r from the primary", chr(kind))

    def connection_lost(self, exc: Exception | None) -> None:
        gone = ConnectionError("the name server's primary process is gone")
        waiting: list[asyncio.Future[Any]] = [*self._fills.values(), *self._syncs.values()]
        for fut in waiting:
            if not fut.done():
                fut.set_exception(gone)
        self._fills.clear()
        self._syncs.clear()
        super().connection_lost(exc)
