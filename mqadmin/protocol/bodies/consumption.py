"""What brokers and consumers report about consumption, as the admin tools read it.

- ``ConsumerRunningInfo`` (GET_CONSUMER_RUNNING_INFO, 307, relayed by a broker): a consumer's
  properties, subscriptions, per-queue views (``ProcessQueueInfo``, ``PopProcessQueueInfo``) and
  rates (``ConsumeStatus``);
- ``BrokerConsumeStats`` (Java ``ConsumeStatsList``, GET_BROKER_CONSUME_STATS, 317): every group's
  consume stats on one broker;
- ``ConsumeQueueView`` (Java ``QueryConsumeQueueResponseBody``, QUERY_CONSUME_QUEUE, 321): a slice of
  a consume queue and, with a group, its subscription.

These bodies come from clients of every language: numbers are read as leniently as fastjson reads
them (a long may be numeric text, a C++ client's unsigned 64-bit text included; see :func:`_long`).
Each type is declared once (:mod:`mqadmin.protocol.bodies.declared`) with those lenient readers;
``ConsumerRunningInfo`` alone is read by hand (its Java collections; see the class).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from mqadmin.protocol import fastjson
from mqadmin.protocol.bodies import fieldcheck as j
from mqadmin.protocol.bodies.connection import SubscriptionData
from mqadmin.protocol.bodies.consume_stats import ConsumeStats
from mqadmin.protocol.bodies.declared import DeclaredBody, wire
from mqadmin.protocol.bodies.message_queue import MessageQueue
from mqadmin.protocol.errors import ProtocolError
from mqadmin.protocol.javacoll import java_string_sort_key

__all__ = [
    "BrokerConsumeStats",
    "ConsumeQueueView",
    "ConsumeStatus",
    "ConsumerRunningInfo",
    "PopProcessQueueInfo",
    "ProcessQueueInfo",
    "RunningSubscription",
]


def _long(v: Any, what: str, default: int = 0) -> int:
    """A Java long as fastjson reads it: a number, or a numeric string (the C++ client sends those).

    The C++ client sends some fields as unsigned 64-bit text, uninitialised ones included
    (``"lastLockTimestamp": "11529351726658387200"``): those read as the signed long of the same bits,
    so one odd field of a client's report does not make the whole report unreadable.
    """
    if isinstance(v, bool):
        return int(v)
    if isinstance(v, float):
        return int(v)
    if type(v) is str and v.isdigit() and len(v) <= 20 and j.LONG_MAX < int(v) < 1 << 64:
        return int(v) - (1 << 64)
    return j.int64(v, what, default)


def _bool(v: Any, what: str = "") -> bool:
    """A Java boolean as fastjson reads it from any client: ``"true"`` text, a number, else false."""
    if isinstance(v, bool):
        return v
    if isinstance(v, str):
        return v.lower() == "true"
    if isinstance(v, int):
        return v != 0
    return False


def _double(v: Any, what: str) -> float:
    if isinstance(v, str):
        try:
            return float(v)
        except ValueError:
            raise ProtocolError(f"{what} is not a number") from None
    return j.double(v, what)


def _mq(k: Any, what: str) -> MessageQueue:
    return MessageQueue.from_json_obj(k, what)


@dataclass(slots=True)
class ProcessQueueInfo(DeclaredBody):
    """A push consumer's view of one queue (``ProcessQueueInfo``)."""

    commit_offset: int = wire(default=0, read=_long)
    cached_msg_min_offset: int = wire(default=0, read=_long)
    cached_msg_max_offset: int = wire(default=0, read=_long)
    cached_msg_count: int = wire(default=0, read=_long)
    cached_msg_size_in_mib: int = wire(default=0, java="cachedMsgSizeInMiB", read=_long)
    transaction_msg_min_offset: int = wire(default=0, read=_long)
    transaction_msg_max_offset: int = wire(default=0, read=_long)
    transaction_msg_count: int = wire(default=0, read=_long)
    locked: bool = wire(default=False, read=_bool)
    try_unlock_times: int = wire(default=0, read=_long)
    last_lock_timestamp: int = wire(default=0, read=_long)
    droped: bool = wire(default=False, read=_bool)
    last_pull_timestamp: int = wire(default=0, read=_long)
    last_consume_timestamp: int = wire(default=0, read=_long)


@dataclass(slots=True)
class PopProcessQueueInfo(DeclaredBody):
    """A pop consumer's view of one queue (5.x)."""

    wait_ack_count: int = wire(default=0, read=_long)
    droped: bool = wire(default=False, read=_bool)
    last_pop_timestamp: int = wire(default=0, read=_long)


@dataclass(slots=True)
class ConsumeStatus(DeclaredBody):
    """Per-topic rates a consumer measured itself (``ConsumeStatus``)."""

    pull_rt: float = wire(default=0.0, java="pullRT", read=_double)
    pull_tps: float = wire(default=0.0, java="pullTPS", read=_double)
    consume_rt: float = wire(default=0.0, java="consumeRT", read=_double)
    consume_ok_tps: float = wire(default=0.0, java="consumeOKTPS", read=_double)
    consume_failed_tps: float = wire(default=0.0, java="consumeFailedTPS", read=_double)
    consume_failed_msgs: int = wire(default=0, read=_long)


@dataclass(slots=True, frozen=True)
class RunningSubscription(DeclaredBody):
    """One subscription a consumer reports (the members of ``SubscriptionData`` the tools read);
    ordered and compared as Java's TreeSet does (topic@expression)."""

    topic: str | None = wire(required=True, read=j.opt_str)
    sub_string: str | None = wire(required=True, read=j.opt_str)
    class_filter_mode: bool = wire(default=False, read=_bool)
    expression_type: str | None = wire(default="TAG", absent="TAG", read=j.opt_str)

    @property
    def tree_key(self) -> str:
        return f"{self.topic}@{self.sub_string}"


@dataclass(slots=True)
class ConsumerRunningInfo:
    """What a consumer says about itself (GET_CONSUMER_RUNNING_INFO, relayed by its broker).

    ``properties`` keep the order they were sent in; the Java tool prints them in ``Properties``
    order (the caller applies it). Tables are sorted as Java's ``TreeMap``/``TreeSet``.

    The hand-written part: reading keeps what Java's collections make of the members (the first of
    equal subscriptions, ``MessageQueue`` object keys in ``compareTo`` order), and
    :meth:`to_json_obj` is the document ``consumerStatus -i --json`` prints (queues as rows, since a
    JSON key cannot be an object), not a body anything sends. Its parts are declared above.
    """

    properties: dict[str, str] = field(default_factory=dict)
    subscriptions: list[RunningSubscription] = field(default_factory=list)
    mq_table: dict[MessageQueue, ProcessQueueInfo] = field(default_factory=dict)
    mq_pop_table: dict[MessageQueue, PopProcessQueueInfo] = field(default_factory=dict)
    status_table: dict[str, ConsumeStatus] = field(default_factory=dict)
    user_consumer_info: dict[str, str] = field(default_factory=dict)
    jstack: str | None = None

    @classmethod
    def decode(cls, body: bytes) -> ConsumerRunningInfo:
        d = j.decode_object(body, "ConsumerRunningInfo")
        props = {str(k): _scalar_text(v) for k, v in j.obj(d.get("properties") or {}, "properties").items()}
        subs: dict[str, RunningSubscription] = {}
        listed = j.list_of(
            d.get("subscriptionSet") or [], "subscriptionSet", RunningSubscription.from_json_obj
        )
        for rs in listed or []:
            subs.setdefault(rs.tree_key, rs)  # a TreeSet keeps the first of equal elements
        mq_table = {
            _mq(k, "mqTable key"): ProcessQueueInfo.from_json_obj(v)
            for k, v in j.obj(d.get("mqTable") or {}, "mqTable").items()
            if v is not None
        }
        pop_table = {
            _mq(k, "mqPopTable key"): PopProcessQueueInfo.from_json_obj(v)
            for k, v in j.obj(d.get("mqPopTable") or {}, "mqPopTable").items()
            if v is not None
        }
        status = {
            str(k): ConsumeStatus.from_json_obj(v)
            for k, v in j.obj(d.get("statusTable") or {}, "statusTable").items()
            if v is not None
        }
        user = {
            str(k): _scalar_text(v)
            for k, v in j.obj(d.get("userConsumerInfo") or {}, "userConsumerInfo").items()
        }
        jstack = d.get("jstack")
        return cls(
            properties=props,
            subscriptions=sorted(subs.values(), key=lambda s: java_string_sort_key(s.tree_key)),
            mq_table=dict(sorted(mq_table.items(), key=lambda kv: kv[0].java_sort_key())),
            mq_pop_table=dict(sorted(pop_table.items(), key=lambda kv: kv[0].java_sort_key())),
            status_table=dict(sorted(status.items(), key=lambda kv: java_string_sort_key(kv[0]))),
            user_consumer_info=dict(sorted(user.items(), key=lambda kv: java_string_sort_key(kv[0]))),
            jstack=jstack if isinstance(jstack, str) else None,
        )

    def to_json_obj(self) -> dict[str, Any]:
        return {
            "properties": dict(self.properties),
            "subscriptionSet": [s.to_json_obj() for s in self.subscriptions],
            "mqTable": [{**mq.to_json_obj(), **pq.to_json_obj()} for mq, pq in self.mq_table.items()],
            "mqPopTable": [{**mq.to_json_obj(), **pq.to_json_obj()} for mq, pq in self.mq_pop_table.items()],
            "statusTable": {t: s.to_json_obj() for t, s in self.status_table.items()},
            "userConsumerInfo": dict(self.user_consumer_info),
            "jstack": self.jstack,
        }

    def property(self, name: str) -> str | None:
        return self.properties.get(name)


def _scalar_text(v: Any) -> str:
    if isinstance(v, str):
        return v
    if v is True:
        return "true"
    if v is False:
        return "false"
    if v is None:
        return "null"
    return fastjson.dumps(v) if isinstance(v, dict | list) else str(v)


def _consume_stats_list(v: Any, what: str) -> list[dict[str, list[ConsumeStats]]]:
    """``List<Map<String, List<ConsumeStats>>>``: one map per group, holding that group's stats."""
    entries: list[dict[str, list[ConsumeStats]]] = []
    for item in j.list_of(v or [], what, j.obj) or []:
        entry: dict[str, list[ConsumeStats]] = {}
        for group, stats in item.items():
            entry[str(group)] = j.list_of(stats or [], "consumeStats", ConsumeStats.from_json_obj) or []
        entries.append(entry)
    return entries


def _consume_stats_json(v: list[dict[str, list[ConsumeStats]]], standard: bool) -> list[dict[str, Any]]:
    return [{g: [s.to_json_obj(standard) for s in stats] for g, stats in e.items()} for e in v]


@dataclass(slots=True)
class BrokerConsumeStats(DeclaredBody):
    """GET_BROKER_CONSUME_STATS: every group's stats on one broker (``ConsumeStatsList``).

    ``total_inflight_diff``: 5.x only; ``None`` in a 4.x body.
    """

    broker_addr: str | None = wire(required=True, read=j.opt_str)
    consume_stats_list: list[dict[str, list[ConsumeStats]]] = wire(
        required=True, read=_consume_stats_list, write=_consume_stats_json
    )
    total_diff: int = wire(required=True, read=j.int64)
    total_inflight_diff: int | None = wire(read=j.opt_int64)


def _subscription(v: Any, what: str) -> SubscriptionData | None:
    return None if v is None else SubscriptionData.from_json_obj(v)


# The hand-written part: the rows stay plain dicts, in the order of Java's ConsumeQueueData.toString,
# because queryCq prints them by name and as they are; each member is read as leniently as above.
def _queue_rows(v: Any, what: str) -> list[dict[str, Any]]:
    rows = []
    for x in j.list_of(v or [], what, j.obj) or []:
        rows.append(
            {
                "physicOffset": _long(x.get("physicOffset"), "physicOffset"),
                "physicSize": _long(x.get("physicSize"), "physicSize"),
                "tagsCode": _long(x.get("tagsCode"), "tagsCode"),
                "extendDataJson": j.opt_str(x.get("extendDataJson"), "extendDataJson"),
                "bitMap": j.opt_str(x.get("bitMap"), "bitMap"),
                "eval": _bool(x.get("eval")),
                "msg": j.opt_str(x.get("msg"), "msg"),
            }
        )
    return rows


def _queue_rows_json(v: list[dict[str, Any]], standard: bool) -> list[dict[str, Any]]:
    """The rows as fastjson writes the beans: members sorted, nulls left out."""
    return [{k: row[k] for k in sorted(row) if row[k] is not None} for row in v]


@dataclass(slots=True)
class ConsumeQueueView(DeclaredBody):
    """QUERY_CONSUME_QUEUE: a slice of a consume queue and, with a group, its subscription
    (``QueryConsumeQueueResponseBody``)."""

    subscription: SubscriptionData | None = wire(required=True, java="subscriptionData", read=_subscription)
    filter_data: str | None = wire(required=True, read=j.opt_str)
    queue_data: list[dict[str, Any]] = wire(required=True, read=_queue_rows, write=_queue_rows_json)
    max_queue_index: int = wire(required=True, read=j.int64)
    min_queue_index: int = wire(required=True, read=j.int64)
