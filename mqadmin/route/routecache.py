"""Encoded route bodies, kept until the topic (or a broker it lives on) changes.

A name server answers the same few thousand topics over and over; encoding a route is a hundred
times the work of looking it up. Bodies are kept per (topic, standard or legacy form), dropped the
moment a table change touches the topic, and the cache stays under a byte budget (oldest first out).

A route body does not name its topic, so topics created alike on the same brokers have the very
same body: identical bodies are stored once, which keeps ten thousand cached routes small.
"""

from __future__ import annotations

from collections.abc import Callable

__all__ = ["ENTRY_OVERHEAD", "QUEUE_DATAS_MARK", "RouteBodyCache"]

QUEUE_DATAS_MARK = b',"queueDatas":'
"""Where ``orderTopicConf`` goes in a route body: members are alphabetical, it precedes queueDatas."""

ENTRY_OVERHEAD = 120
"""Bytes an entry costs besides its body (dict slot, key tuple), charged against the budget."""


class RouteBodyCache:
    """``(topic, standard) -> body`` with a byte budget; not thread-safe (one event loop owns it)."""

    __slots__ = ("_bodies", "_bytes", "_shared", "max_bytes", "on_drop")

    def __init__(self, max_bytes: int = 16 << 20) -> None:
        self.max_bytes = max_bytes
        #: Told of every topic whose route may have changed (None: every topic), cached or not:
        #: how copies of the routes kept elsewhere (worker processes) learn what to forget.
        self.on_drop: Callable[[str | None], None] | None = None
        self._bodies: dict[tuple[str, bool], bytes] = {}
        self._shared: dict[bytes, list[object]] = {}  # body -> [the stored copy, number of entries]
        self._bytes = 0

    def __len__(self) -> int:
        return len(self._bodies)

    @property
    def size_bytes(self) -> int:
        """What the cache holds: each distinct body once, plus the entries."""
        return self._bytes

    @property
    def distinct_bodies(self) -> int:
        return len(self._shared)

    def get(self, topic: str, standard: bool) -> bytes | None:
        return self._bodies.get((topic, standard))

    def put(self, topic: str, standard: bool, body: bytes) -> None:
        if len(body) + ENTRY_OVERHEAD > self.max_bytes:
            return
        key = (topic, standard)
        if key in self._bodies:
            self._forget(key)
        shared = self._shared.get(body)
        cost = ENTRY_OVERHEAD if shared is not None else ENTRY_OVERHEAD + len(body)
        bodies = self._bodies
        while bodies and self._bytes + cost > self.max_bytes:
            self._forget(next(iter(bodies)))
            shared = self._shared.get(body)
            cost = ENTRY_OVERHEAD if shared is not None else ENTRY_OVERHEAD + len(body)
        if shared is None:
            shared = self._shared[body] = [body, 0]
        shared[1] += 1  # type: ignore[operator]
        bodies[key] = shared[0]  # type: ignore[assignment]
        self._bytes += cost

    def drop(self, topic: str) -> None:
        """Forget both forms of one topic's route."""
        if self.on_drop is not None:
            self.on_drop(topic)
        for key in ((topic, True), (topic, False)):
            if key in self._bodies:
                self._forget(key)

    def clear(self) -> None:
        if self.on_drop is not None:
            self.on_drop(None)
        self._bodies.clear()
        self._shared.clear()
        self._bytes = 0

    def _forget(self, key: tuple[str, bool]) -> None:
        body = self._bodies.pop(key)
        self._bytes -= ENTRY_OVERHEAD
        shared = self._shared[body]
        shared[1] -= 1  # type: ignore[operator]
        if shared[1] == 0:
            del self._shared[body]
            self._bytes -= len(body)
