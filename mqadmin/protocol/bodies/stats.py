"""Per-queue offsets: ``TopicStatsTable`` (GET_TOPIC_STATS_INFO) and ``ConsumeStats`` (GET_CONSUME_STATS).

Both are maps keyed by :class:`MessageQueue`, written with object keys. A 4.x broker fills a
``HashMap``, a 5.x broker a ``ConcurrentHashMap`` (both default-sized, so they part at 12, 24, 48...
queues). The 5.x classes also gained a property each (``topicPutTps``, ``OffsetWrapper.pullOffset``),
which a 4.x body lacks: those are ``None`` here for a 4.x body, and their presence is what tells the
writer which map the table was.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Self, TypeVar

from mqadmin.protocol.bodies import fieldcheck as j
from mqadmin.protocol.bodies.message_queue import MessageQueue
from mqadmin.protocol.javacoll import chm_capacity, hash_map_capacity, hash_ordered

V = TypeVar("V")

__all__ = ["ConsumeStats", "OffsetWrapper", "TopicOffset", "TopicStatsTable"]


def _mq_table(v: Any, what: str, parse: Callable[[Any, str], V]) -> dict[MessageQueue, V]:
    if v is None:
        return {}
    d = j.obj(v, what)
    out: dict[MessageQueue, V] = {}
    for k, x in d.items():
        if x is None:
            continue
        out[MessageQueue.from_json_obj(k, f"{what} key")] = parse(x, f"{what} value")
    return out


def _mq_json(table: dict[MessageQueue, Any], concurrent: bool, standard: bool) -> dict[Any, Any]:
    n = len(table)
    cap = chm_capacity(n) if concurrent else hash_map_capacity(n)
    ordered = table if n < 2 else hash_ordered(table, cap, MessageQueue.java_hash)
    return {k.to_object_key(): v.to_json_obj(standard) for k, v in ordered.items()}


@dataclass(slots=True)
class TopicOffset:
    """A queue's offset range on the broker."""

    min_offset: int = 0
    max_offset: int = 0
    last_update_timestamp: int = 0

    @classmethod
    def from_json_obj(cls, obj: Any, what: str = "TopicOffset") -> Self:
        d = j.obj(obj, what)
        return cls(
            j.int64(d.get("minOffset"), "minOffset"),
            j.int64(d.get("maxOffset"), "maxOffset"),
            j.int64(d.get("lastUpdateTimestamp"), "lastUpdateTimestamp"),
        )

    def to_json_obj(self, standard: bool = False) -> dict[str, Any]:
        return {
            "lastUpdateTimestamp": self.last_update_timestamp,
            "maxOffset": self.max_offset,
            "minOffset": self.min_offset,
        }


@dataclass(slots=True)
class TopicStatsTable(j.JsonBody):
    """Offset ranges of every queue of a topic on one broker.

    ``topic_put_tps``: 5.x only (Java default 0.0); ``None`` for a 4.x broker's body.
    """

    offset_table: dict[MessageQueue, TopicOffset] = field(default_factory=dict)
    topic_put_tps: float | None = None

    @classmethod
    def from_json_obj(cls, obj: Any) -> Self:
        d = j.obj(obj, "TopicStatsTable")
        return cls(
            _mq_table(d.get("offsetTable"), "offsetTable", TopicOffset.from_json_obj),
            j.opt_double(d.get("topicPutTps"), "topicPutTps"),
        )

    def to_json_obj(self, standard: bool = False) -> dict[str, Any]:
        out: dict[str, Any] = {
            "offsetTable": _mq_json(self.offset_table, self.topic_put_tps is not None, standard)
        }
        if self.topic_put_tps is not None:
            out["topicPutTps"] = self.topic_put_tps
        return out


@dataclass(slots=True)
class OffsetWrapper:
    """A group's progress on one queue: the broker's offset against the committed one.

    ``pull_offset``: 5.x only (Java default 0); ``None`` for a 4.x broker's body.
    """

    broker_offset: int = 0
    consumer_offset: int = 0
    last_timestamp: int = 0
    pull_offset: int | None = None

    @classmethod
    def from_json_obj(cls, obj: Any, what: str = "OffsetWrapper") -> Self:
        d = j.obj(obj, what)
        return cls(
            j.int64(d.get("brokerOffset"), "brokerOffset"),
            j.int64(d.get("consumerOffset"), "consumerOffset"),
            j.int64(d.get("lastTimestamp"), "lastTimestamp"),
            j.opt_int64(d.get("pullOffset"), "pullOffset"),
        )

    def to_json_obj(self, standard: bool = False) -> dict[str, Any]:
        out = {
            "brokerOffset": self.broker_offset,
            "consumerOffset": self.consumer_offset,
            "lastTimestamp": self.last_timestamp,
        }
        if self.pull_offset is not None:
            out["pullOffset"] = self.pull_offset
        return out


@dataclass(slots=True)
class ConsumeStats(j.JsonBody):
    """A consumer group's progress on every queue of one broker, and its consume rate."""

    offset_table: dict[MessageQueue, OffsetWrapper] = field(default_factory=dict)
    consume_tps: float = 0.0

    @classmethod
    def from_json_obj(cls, obj: Any, what: str = "ConsumeStats") -> Self:
        d = j.obj(obj, what)
        return cls(
            _mq_table(d.get("offsetTable"), "offsetTable", OffsetWrapper.from_json_obj),
            j.double(d.get("consumeTps"), "consumeTps"),
        )

    def to_json_obj(self, standard: bool = False) -> dict[str, Any]:
        concurrent = any(w.pull_offset is not None for w in self.offset_table.values())
        return {
            "consumeTps": self.consume_tps,
            "offsetTable": _mq_json(self.offset_table, concurrent, standard),
        }

    def total_diff(self) -> int:
        """``computeTotalDiff``: broker offset minus consumer offset, summed over the queues."""
        return sum(w.broker_offset - w.consumer_offset for w in self.offset_table.values())
