"""A topic's offset ranges on one broker: ``TopicStatsTable`` (GET_TOPIC_STATS_INFO), a table of
:class:`TopicOffset` keyed by queue (:mod:`.queue_tables`).

Declared once (:mod:`mqadmin.protocol.bodies.declared`); the table's text encoder is the hand-written
part, because a broker writes a row per queue; a test holds it to the declaration's JSON object.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Self

from mqadmin.protocol import fastjson
from mqadmin.protocol.bodies import fieldcheck as j
from mqadmin.protocol.bodies.declared import DeclaredBody, to_json, wire
from mqadmin.protocol.bodies.message_queue import MessageQueue
from mqadmin.protocol.bodies.queue_tables import mq_json, mq_table, mq_text, or_default

__all__ = ["TopicOffset", "TopicStatsTable"]


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
        read=mq_table(TopicOffset.from_json_obj),
        write=lambda v, standard: mq_json(v, False, standard),  # a 4.x HashMap; 5.x: to_json_obj
    )
    topic_put_tps: float | None = wire(read=j.opt_double, view=or_default(0.0))

    # The hand-written part: a 5.x broker's table is a ConcurrentHashMap, and what says the body is
    # 5.x is the other member (topicPutTps), which the table's writer does not see.
    def to_json_obj(self, standard: bool = False) -> dict[str, Any]:
        if self.topic_put_tps is None:
            return to_json(self, standard)
        return {"offsetTable": mq_json(self.offset_table, True, standard), "topicPutTps": self.topic_put_tps}

    def encode(self, standard: bool = False) -> bytes:
        tps = self.topic_put_tps
        table = mq_text(self.offset_table, tps is not None, standard)
        text = (
            f'{{"offsetTable":{table}}}'
            if tps is None
            else f'{{"offsetTable":{table},"topicPutTps":{fastjson.dumps(tps)}}}'
        )
        return text.encode()
