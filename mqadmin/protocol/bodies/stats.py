"""Per-queue offsets: ``TopicStatsTable`` (GET_TOPIC_STATS_INFO) and ``ConsumeStats`` (GET_CONSUME_STATS).

Both are maps keyed by :class:`MessageQueue`, written with object keys. A 4.x broker fills a
``HashMap``, a 5.x broker a ``ConcurrentHashMap`` (both default-sized, so they part at 12, 24, 48...
queues). The 5.x classes also gained a property each (``topicPutTps``, ``OffsetWrapper.pullOffset``),
which a 4.x body lacks: those are ``None`` here for a 4.x body, and their presence is what tells the
writer which map the table was.

Each type is declared once (:mod:`mqadmin.protocol.bodies.declared`).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, TypeVar

from mqadmin.protocol.bodies import fieldcheck as j
from mqadmin.protocol.bodies.declared import DeclaredBody, to_json, wire
from mqadmin.protocol.bodies.message_queue import MessageQueue
from mqadmin.protocol.javacoll import chm_capacity, hash_map_capacity, hash_ordered

V = TypeVar("V")

__all__ = ["ConsumeStats", "OffsetWrapper", "TopicOffset", "TopicStatsTable"]


def _mq_table(parse: Callable[[Any, str], V]) -> Callable[[Any, str], dict[MessageQueue, V]]:
    """The reader of a map keyed by queues (null: an empty one), its values read by ``parse``."""

    def read(v: Any, what: str) -> dict[MessageQueue, V]:
        if v is None:
            return {}
        d = j.obj(v, what)
        out: dict[MessageQueue, V] = {}
        for k, x in d.items():
            if x is None:
                continue
            out[MessageQueue.from_json_obj(k, f"{what} key")] = parse(x, f"{what} value")
        return out

    return read


def _mq_json(table: dict[MessageQueue, Any], concurrent: bool, standard: bool) -> dict[Any, Any]:
    n = len(table)
    cap = chm_capacity(n) if concurrent else hash_map_capacity(n)
    ordered = table if n < 2 else hash_ordered(table, cap, MessageQueue.java_hash)
    return {k.to_object_key(): v.to_json_obj(standard) for k, v in ordered.items()}


def _or(default: Any) -> Callable[[Any], Any]:
    """The view of a 5.x member: the 5.3.3 bean holds ``default`` where a 4.x body has none."""
    return lambda v: default if v is None else v


@dataclass(slots=True)
class TopicOffset(DeclaredBody):
    """A queue's offset range on the broker."""

    min_offset: int = wire(default=0, read=j.int64)
    max_offset: int = wire(default=0, read=j.int64)
    last_update_timestamp: int = wire(default=0, read=j.int64)


@dataclass(slots=True)
class TopicStatsTable(DeclaredBody):
    """Offset ranges of every queue of a topic on one broker.

    ``topic_put_tps``: 5.x only (Java default 0.0); ``None`` for a 4.x broker's body.
    """

    offset_table: dict[MessageQueue, TopicOffset] = wire(
        factory=dict,
        read=_mq_table(TopicOffset.from_json_obj),
        write=lambda v, standard: _mq_json(v, False, standard),  # a 4.x HashMap; 5.x: to_json_obj
    )
    topic_put_tps: float | None = wire(read=j.opt_double, view=_or(0.0))

    # The hand-written part: a 5.x broker's table is a ConcurrentHashMap, and what says the body is
    # 5.x is the other member (topicPutTps), which the table's writer does not see.
    def to_json_obj(self, standard: bool = False) -> dict[str, Any]:
        if self.topic_put_tps is None:
            return to_json(self, standard)
        return {"offsetTable": _mq_json(self.offset_table, True, standard), "topicPutTps": self.topic_put_tps}


@dataclass(slots=True)
class OffsetWrapper(DeclaredBody):
    """A group's progress on one queue: the broker's offset against the committed one.

    ``pull_offset``: 5.x only (Java default 0); ``None`` for a 4.x broker's body.
    """

    broker_offset: int = wire(default=0, read=j.int64)
    consumer_offset: int = wire(default=0, read=j.int64)
    last_timestamp: int = wire(default=0, read=j.int64)
    pull_offset: int | None = wire(read=j.opt_int64, view=_or(0))


def _offsets_json(table: dict[MessageQueue, OffsetWrapper], standard: bool) -> dict[Any, Any]:
    """The offsets of a 5.x broker (``pullOffset`` present) were a ``ConcurrentHashMap``, a 4.x
    broker's a ``HashMap``."""
    concurrent = any(w.pull_offset is not None for w in table.values())
    return _mq_json(table, concurrent, standard)


@dataclass(slots=True)
class ConsumeStats(DeclaredBody):
    """A consumer group's progress on every queue of one broker, and its consume rate."""

    offset_table: dict[MessageQueue, OffsetWrapper] = wire(
        factory=dict, read=_mq_table(OffsetWrapper.from_json_obj), write=_offsets_json
    )
    consume_tps: float = wire(default=0.0, read=j.double)

    def total_diff(self) -> int:
        """``computeTotalDiff``: broker offset minus consumer offset, summed over the queues."""
        return sum(w.broker_offset - w.consumer_offset for w in self.offset_table.values())
