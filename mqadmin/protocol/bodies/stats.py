"""Per-queue offsets: ``TopicStatsTable`` (GET_TOPIC_STATS_INFO) and ``ConsumeStats`` (GET_CONSUME_STATS).

Both are maps keyed by :class:`MessageQueue`, written with object keys. A 4.x broker fills a
``HashMap``, a 5.x broker a ``ConcurrentHashMap`` (both default-sized, so they part at 12, 24, 48...
queues). The 5.x classes also gained a property each (``topicPutTps``, ``OffsetWrapper.pullOffset``),
which a 4.x body lacks: those are ``None`` here for a 4.x body, and their presence is what tells the
writer which map the table was.

Each type is declared once (:mod:`mqadmin.protocol.bodies.declared`). The tables' text encoders
are the hand-written part, because a broker writes a row per queue; a test holds them to the
declaration's JSON object.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Self, TypeVar

from mqadmin.protocol import fastjson
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


def _in_java_order(table: dict[MessageQueue, V], concurrent: bool) -> dict[MessageQueue, V]:
    """The table as a default-sized ``ConcurrentHashMap`` (or ``HashMap``) iterates it."""
    n = len(table)
    if n < 2:
        return table
    return hash_ordered(
        table, chm_capacity(n) if concurrent else hash_map_capacity(n), MessageQueue.java_hash
    )


def _mq_json(table: dict[MessageQueue, Any], concurrent: bool, standard: bool) -> dict[Any, Any]:
    ordered = _in_java_order(table, concurrent)
    return {k.to_object_key(): v.to_json_obj(standard) for k, v in ordered.items()}


# The hand-written part: a broker answers GET_CONSUME_STATS and GET_TOPIC_STATS_INFO for every queue,
# so the tables write their text directly: _mq_json's text at f-string speed (a test holds the two
# to the same bytes).
def _mq_text(table: dict[MessageQueue, Any], concurrent: bool, standard: bool) -> str:
    q = fastjson.quote
    items = []
    for mq, v in _in_java_order(table, concurrent).items():
        name = "" if mq.broker_name is None else f'"brokerName":{q(mq.broker_name)},'
        topic = "" if mq.topic is None else f',"topic":{q(mq.topic)}'
        key = f'{{{name}"queueId":{mq.queue_id}{topic}}}'
        items.append(f"{q(key) if standard else key}:{v._text()}")  # standard: the key as a string
    return "{" + ",".join(items) + "}"


def _or(default: Any) -> Callable[[Any], Any]:
    """The view of a 5.x member: the 5.3.3 bean holds ``default`` where a 4.x body has none."""
    return lambda v: default if v is None else v


@dataclass(slots=True)
class TopicOffset(DeclaredBody):
    """A queue's offset range on the broker."""

    min_offset: int = wire(default=0, read=j.int64)
    max_offset: int = wire(default=0, read=j.int64)
    last_update_timestamp: int = wire(default=0, read=j.int64)

    # The hand-written part: a table has a row per queue, read and written by hand for speed (a test
    # holds both to the declaration: members read in its order, so the same error for a bad row).
    @classmethod
    def from_json_obj(cls, value: Any, what: str | None = None) -> Self:
        get = j.obj(value, what or "TopicOffset").get
        return cls(
            last_update_timestamp=j.int64(get("lastUpdateTimestamp"), "lastUpdateTimestamp"),
            max_offset=j.int64(get("maxOffset"), "maxOffset"),
            min_offset=j.int64(get("minOffset"), "minOffset"),
        )

    def _text(self) -> str:
        return (
            f'{{"lastUpdateTimestamp":{self.last_update_timestamp},"maxOffset":{self.max_offset},'
            f'"minOffset":{self.min_offset}}}'
        )


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

    def encode(self, standard: bool = False) -> bytes:
        tps = self.topic_put_tps
        table = _mq_text(self.offset_table, tps is not None, standard)
        text = (
            f'{{"offsetTable":{table}}}'
            if tps is None
            else f'{{"offsetTable":{table},"topicPutTps":{fastjson.dumps(tps)}}}'
        )
        return text.encode()


@dataclass(slots=True)
class OffsetWrapper(DeclaredBody):
    """A group's progress on one queue: the broker's offset against the committed one.

    ``pull_offset``: 5.x only (Java default 0); ``None`` for a 4.x broker's body.
    """

    broker_offset: int = wire(default=0, read=j.int64)
    consumer_offset: int = wire(default=0, read=j.int64)
    last_timestamp: int = wire(default=0, read=j.int64)
    pull_offset: int | None = wire(read=j.opt_int64, view=_or(0))

    # The hand-written part: as TopicOffset's, a row per queue read and written by hand.
    @classmethod
    def from_json_obj(cls, value: Any, what: str | None = None) -> Self:
        get = j.obj(value, what or "OffsetWrapper").get
        return cls(
            j.int64(get("brokerOffset"), "brokerOffset"),
            j.int64(get("consumerOffset"), "consumerOffset"),
            j.int64(get("lastTimestamp"), "lastTimestamp"),
            j.opt_int64(get("pullOffset"), "pullOffset"),
        )

    def _text(self) -> str:
        pull = "" if self.pull_offset is None else f',"pullOffset":{self.pull_offset}'
        return (
            f'{{"brokerOffset":{self.broker_offset},"consumerOffset":{self.consumer_offset},'
            f'"lastTimestamp":{self.last_timestamp}{pull}}}'
        )


def _concurrent(table: dict[MessageQueue, OffsetWrapper]) -> bool:
    """The offsets of a 5.x broker (``pullOffset`` present) were a ``ConcurrentHashMap``, a 4.x
    broker's a ``HashMap``."""
    return any(w.pull_offset is not None for w in table.values())


@dataclass(slots=True)
class ConsumeStats(DeclaredBody):
    """A consumer group's progress on every queue of one broker, and its consume rate."""

    offset_table: dict[MessageQueue, OffsetWrapper] = wire(
        factory=dict,
        read=_mq_table(OffsetWrapper.from_json_obj),
        write=lambda v, standard: _mq_json(v, _concurrent(v), standard),
    )
    consume_tps: float = wire(default=0.0, read=j.double)

    def encode(self, standard: bool = False) -> bytes:
        table = _mq_text(self.offset_table, _concurrent(self.offset_table), standard)
        return f'{{"consumeTps":{fastjson.dumps(self.consume_tps)},"offsetTable":{table}}}'.encode()

    def total_diff(self) -> int:
        """``computeTotalDiff``: broker offset minus consumer offset, summed over the queues."""
        return sum(w.broker_offset - w.consumer_offset for w in self.offset_table.values())
