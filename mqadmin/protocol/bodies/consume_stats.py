"""A consumer group's progress on one broker: ``ConsumeStats`` (GET_CONSUME_STATS), a table of
:class:`OffsetWrapper` keyed by queue (:mod:`.queue_tables`), and its consume rate.

Declared once (:mod:`mqadmin.protocol.bodies.declared`); the table's text encoder is the hand-written
part, because a broker writes a row per queue; a test holds it to the declaration's JSON object.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Self

from mqadmin.protocol import fastjson
from mqadmin.protocol.bodies import fieldcheck as j
from mqadmin.protocol.bodies.declared import DeclaredBody, wire
from mqadmin.protocol.bodies.message_queue import MessageQueue
from mqadmin.protocol.bodies.queue_tables import mq_json, mq_table, mq_text, or_default

__all__ = ["ConsumeStats", "OffsetWrapper"]


@dataclass(slots=True)
class OffsetWrapper(DeclaredBody):
    """A group's progress on one queue: the broker's offset against the committed one.

    ``pull_offset``: 5.x only (Java default 0); ``None`` for a 4.x broker's body.
    """

    broker_offset: int = wire(default=0, read=j.int64)
    consumer_offset: int = wire(default=0, read=j.int64)
    last_timestamp: int = wire(default=0, read=j.int64)
    pull_offset: int | None = wire(read=j.opt_int64, view=or_default(0))

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
        read=mq_table(OffsetWrapper.from_json_obj),
        write=lambda v, standard: mq_json(v, _concurrent(v), standard),
    )
    consume_tps: float = wire(default=0.0, read=j.double)

    def encode(self, standard: bool = False) -> bytes:
        table = mq_text(self.offset_table, _concurrent(self.offset_table), standard)
        return f'{{"consumeTps":{fastjson.dumps(self.consume_tps)},"offsetTable":{table}}}'.encode()

    def total_diff(self) -> int:
        """``computeTotalDiff``: broker offset minus consumer offset, summed over the queues."""
        return sum(w.broker_offset - w.consumer_offset for w in self.offset_table.values())
