"""The small answer bodies of a broker: one typed record each, read and written here.

- ``GetConsumerListByGroupResponseBody`` (GET_CONSUMER_LIST_BY_GROUP, 38): the client ids of a group;
- ``LockBatchResponseBody`` (LOCK_BATCH_MQ, 41): the queues locked, a ``HashSet<MessageQueue>``;
- ``GroupList`` (QUERY_TOPIC_CONSUME_BY_WHO, 300): the groups of a topic, a ``HashSet<String>``;
- ``QueryConsumeTimeSpanBody`` (QUERY_CONSUME_TIME_SPAN, 303): per queue, the times of its first,
  last and last consumed message;
- ``ProducerTableInfo`` (GET_ALL_PRODUCER_INFO, 328): producers by group;
- ``ResetOffsetBody`` (the body of RESET_CONSUMER_CLIENT_OFFSET the broker sends its clients): the
  offsets by queue, object keys for a Java client, a list for the C++ client that cannot read them;
- ``GetConsumerStatusBody`` (INVOKE_BROKER_TO_GET_CONSUMER_STATUS, 223): each client's answer as it
  gave it.

(GET_BROKER_MEMBER_GROUP's answer is beside its member group, in :mod:`~mqadmin.protocol.bodies.controller`.)

The set orders are Java's (a default-sized ``HashSet`` iterates in bucket order), so a Java peer and
a capture see the bytes a Java server writes.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Self

from mqadmin.protocol.bodies import fieldcheck as j
from mqadmin.protocol.bodies.declared import DeclaredBody, wire
from mqadmin.protocol.bodies.message_queue import MessageQueue
from mqadmin.protocol.javacoll import bucket_order, hash_map_capacity

__all__ = [
    "GetConsumerListByGroupResponseBody",
    "GetConsumerStatusBody",
    "GroupList",
    "LockBatchResponseBody",
    "ProducerInfo",
    "ProducerTableInfo",
    "QueryConsumeTimeSpanBody",
    "QueueTimeSpan",
    "ResetOffsetBody",
]


def _hash_set(items: list[Any], key: Any = None) -> list[Any]:
    """A default ``HashSet`` of ``items`` (first occurrence kept) in its iteration order."""
    unique = list(dict.fromkeys(items))
    if len(unique) < 2:
        return unique
    cap = hash_map_capacity(len(unique))
    return bucket_order(unique, cap, key) if key is not None else bucket_order(unique, cap)


@dataclass(slots=True)
class GetConsumerListByGroupResponseBody(DeclaredBody):
    consumer_id_list: list[str] = wire(factory=list, read=lambda v, what: j.str_list(v, what) or [])


@dataclass(slots=True)
class LockBatchResponseBody(DeclaredBody):
    lock_ok_mq_set: list[MessageQueue] = wire(
        factory=list,
        java="lockOKMQSet",
        read=lambda v, what: j.list_of(v, what, MessageQueue.from_json_obj) or [],
        write=lambda v, _: [mq.to_json_obj() for mq in _hash_set(v, MessageQueue.java_hash)],  # a HashSet
    )


@dataclass(slots=True)
class GroupList(DeclaredBody):
    group_list: list[str] = wire(
        factory=list,
        read=lambda v, what: list(dict.fromkeys(j.str_list(v, what) or [])),
        write=lambda v, _: _hash_set(v),  # a HashSet
    )


@dataclass(slots=True)
class QueueTimeSpan(DeclaredBody):
    """``QueueTimeSpan``: a queue's first, last and last consumed store times (epoch ms) and how far
    the consumer is behind; the ``...Str`` fields are those times as the broker's local text."""

    message_queue: MessageQueue = wire(
        required=True, absent={}, read=lambda v, what: MessageQueue.from_json_obj(v or {}, what)
    )
    min_time_stamp: int = wire(required=True, read=j.int64)
    max_time_stamp: int = wire(required=True, read=j.int64)
    consume_time_stamp: int = wire(required=True, read=j.int64)
    delay_time: int = wire(required=True, read=j.int64)
    min_time_stamp_str: str | None = wire(read=j.opt_str)
    max_time_stamp_str: str | None = wire(read=j.opt_str)
    consume_time_stamp_str: str | None = wire(read=j.opt_str)


@dataclass(slots=True)
class QueryConsumeTimeSpanBody(DeclaredBody):
    consume_time_span_set: list[QueueTimeSpan] = wire(
        factory=list, read=lambda v, what: j.list_of(v, what, QueueTimeSpan.from_json_obj) or []
    )


@dataclass(slots=True)
class ProducerInfo(DeclaredBody):
    """One producer of a group, as ``ProducerInfo`` of 5.x lists it."""

    client_id: str | None = wire(required=True, read=j.opt_str)
    remote_ip: str | None = wire(required=True, java="remoteIP", read=j.opt_str)
    language: str | None = wire(required=True, read=j.opt_str)
    version: int = wire(required=True, read=j.int32)
    last_update_timestamp: int = wire(required=True, read=j.int64)


@dataclass(slots=True)
class ProducerTableInfo(j.JsonBody):
    data: dict[str, list[ProducerInfo]] = field(default_factory=dict)

    @classmethod
    def from_json_obj(cls, obj: Any) -> Self:
        d = j.obj(obj, "ProducerTableInfo")
        table = j.obj(d.get("data") or {}, "data")
        return cls(
            {str(g): j.list_of(v, "producers", ProducerInfo.from_json_obj) or [] for g, v in table.items()}
        )

    def to_json_obj(self, standard: bool = False) -> dict[str, Any]:
        return {"data": {g: [p.to_json_obj(standard) for p in ps] for g, ps in self.data.items()}}


@dataclass(slots=True)
class ResetOffsetBody(j.JsonBody):
    """``offset_table`` in the order given; ``as_list`` writes it as the C++ client reads it."""

    offset_table: dict[MessageQueue, int] = field(default_factory=dict)
    as_list: bool = False

    @classmethod
    def from_json_obj(cls, obj: Any) -> Self:
        d = j.obj(obj, "ResetOffsetBody")
        raw = d.get("offsetTable") or {}
        if isinstance(raw, list):
            items = [j.obj(x, "offsetTable item") for x in raw]
            table = {MessageQueue.from_json_obj(x): j.int64(x.get("offset"), "offset") for x in items}
            return cls(table, as_list=True)
        return cls(
            {
                MessageQueue.from_json_obj(k, "offsetTable key"): j.int64(v, "offset")
                for k, v in j.obj(raw, "offsetTable").items()
            }
        )

    def to_json_obj(self, standard: bool = False) -> dict[str, Any]:
        if self.as_list:
            rows = [
                {"brokerName": mq.broker_name, "offset": off, "queueId": mq.queue_id, "topic": mq.topic}
                for mq, off in self.offset_table.items()
            ]
            return {"offsetTable": rows}
        return {"offsetTable": {mq.to_object_key(): off for mq, off in self.offset_table.items()}}


@dataclass(slots=True)
class GetConsumerStatusBody(j.JsonBody):
    """Each client's ``messageQueueTable`` as that client answered it (read, never rewritten)."""

    consumer_table: dict[str, Any] = field(default_factory=dict)

    @classmethod
    def from_json_obj(cls, obj: Any) -> Self:
        d = j.obj(obj, "GetConsumerStatusBody")
        return cls({str(k): v for k, v in j.obj(d.get("consumerTable") or {}, "consumerTable").items()})

    def to_json_obj(self, standard: bool = False) -> dict[str, Any]:
        return {"consumerTable": dict(self.consumer_table)}
