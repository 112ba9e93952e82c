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
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from mqadmin.protocol import fastjson
from mqadmin.protocol.bodies import fieldcheck as j
from mqadmin.protocol.bodies.connection import SubscriptionData
from mqadmin.protocol.bodies.message_queue import MessageQueue
from mqadmin.protocol.bodies.stats import ConsumeStats
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


def _bool(v: Any, default: bool = False) -> bool:
    if v is None:
        return default
    if isinstance(v, bool):
        return v
    if isinstance(v, str):
        return v.lower() == "true"
    if isinstance(v, int):
        return v != 0
    return default


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
class ProcessQueueInfo:
    """A push consumer's view of one queue (``ProcessQueueInfo``)."""

    commit_offset: int = 0
    cached_msg_min_offset: int = 0
    cached_msg_max_offset: int = 0
    cached_msg_count: int = 0
    cached_msg_size_in_mib: int = 0
    transaction_msg_min_offset: int = 0
    transaction_msg_max_offset: int = 0
    transaction_msg_count: int = 0
    locked: bool = False
    try_unlock_times: int = 0
    last_lock_timestamp: int = 0
    droped: bool = False
    last_pull_timestamp: int = 0
    last_consume_timestamp: int = 0

    @classmethod
    def from_json_obj(cls, obj: Any, what: str = "ProcessQueueInfo") -> ProcessQueueInfo:
        d = j.obj(obj, what)
        return cls(
            commit_offset=_long(d.get("commitOffset"), "commitOffset"),
            cached_msg_min_offset=_long(d.get("cachedMsgMinOffset"), "cachedMsgMinOffset"),
            cached_msg_max_offset=_long(d.get("cachedMsgMaxOffset"), "cachedMsgMaxOffset"),
            cached_msg_count=_long(d.get("cachedMsgCount"), "cachedMsgCount"),
            cached_msg_size_in_mib=_long(d.get("cachedMsgSizeInMiB"), "cachedMsgSizeInMiB"),
            transaction_msg_min_offset=_long(d.get("transactionMsgMinOffset"), "transactionMsgMinOffset"),
            transaction_msg_max_offset=_long(d.get("transactionMsgMaxOffset"), "transactionMsgMaxOffset"),
            transaction_msg_count=_long(d.get("transactionMsgCount"), "transactionMsgCount"),
            locked=_bool(d.get("locked")),
            try_unlock_times=_long(d.get("tryUnlockTimes"), "tryUnlockTimes"),
            last_lock_timestamp=_long(d.get("lastLockTimestamp"), "lastLockTimestamp"),
            droped=_bool(d.get("droped")),
            last_pull_timestamp=_long(d.get("lastPullTimestamp"), "lastPullTimestamp"),
            last_consume_timestamp=_long(d.get("lastConsumeTimestamp"), "lastConsumeTimestamp"),
        )

    def to_json_obj(self) -> dict[str, Any]:
        return {
            "commitOffset": self.commit_offset,
            "cachedMsgMinOffset": self.cached_msg_min_offset,
            "cachedMsgMaxOffset": self.cached_msg_max_offset,
            "cachedMsgCount": self.cached_msg_count,
            "cachedMsgSizeInMiB": self.cached_msg_size_in_mib,
            "transactionMsgMinOffset": self.transaction_msg_min_offset,
            "transactionMsgMaxOffset": self.transaction_msg_max_offset,
            "transactionMsgCount": self.transaction_msg_count,
            "locked": self.locked,
            "tryUnlockTimes": self.try_unlock_times,
            "lastLockTimestamp": self.last_lock_timestamp,
            "droped": self.droped,
            "lastPullTimestamp": self.last_pull_timestamp,
            "lastConsumeTimestamp": self.last_consume_timestamp,
        }


@dataclass(slots=True)
class PopProcessQueueInfo:
    """A pop consumer's view of one queue (5.x)."""

    wait_ack_count: int = 0
    droped: bool = False
    last_pop_timestamp: int = 0

    @classmethod
    def from_json_obj(cls, obj: Any, what: str = "PopProcessQueueInfo") -> PopProcessQueueInfo:
        d = j.obj(obj, what)
        return cls(
            _long(d.get("waitAckCount"), "waitAckCount"),
            _bool(d.get("droped")),
            _long(d.get("lastPopTimestamp"), "lastPopTimestamp"),
        )

    def to_json_obj(self) -> dict[str, Any]:
        return {
            "waitAckCount": self.wait_ack_count,
            "droped": self.droped,
            "lastPopTimestamp": self.last_pop_timestamp,
        }


@dataclass(slots=True)
class ConsumeStatus:
    """Per-topic rates a consumer measured itself (``ConsumeStatus``)."""

    pull_rt: float = 0.0
    pull_tps: float = 0.0
    consume_rt: float = 0.0
    consume_ok_tps: float = 0.0
    consume_failed_tps: float = 0.0
    consume_failed_msgs: int = 0

    @classmethod
    def from_json_obj(cls, obj: Any, what: str = "ConsumeStatus") -> ConsumeStatus:
        d = j.obj(obj, what)
        return cls(
            _double(d.get("pullRT", 0.0), "pullRT"),
            _double(d.get("pullTPS", 0.0), "pullTPS"),
            _double(d.get("consumeRT", 0.0), "consumeRT"),
            _double(d.get("consumeOKTPS", 0.0), "consumeOKTPS"),
            _double(d.get("consumeFailedTPS", 0.0), "consumeFailedTPS"),
            _long(d.get("consumeFailedMsgs"), "consumeFailedMsgs"),
        )

    def to_json_obj(self) -> dict[str, Any]:
        return {
            "pullRT": self.pull_rt,
            "pullTPS": self.pull_tps,
            "consumeRT": self.consume_rt,
            "consumeOKTPS": self.consume_ok_tps,
            "consumeFailedTPS": self.consume_failed_tps,
            "consumeFailedMsgs": self.consume_failed_msgs,
        }


@dataclass(slots=True, frozen=True)
class RunningSubscription:
    """One subscription a consumer reports; ordered and compared as Java's TreeSet does (topic@expression)."""

    topic: str | None
    sub_string: str | None
    class_filter_mode: bool = False
    expression_type: str | None = "TAG"

    @property
    def tree_key(self) -> str:
        return f"{self.topic}@{self.sub_string}"


@dataclass(slots=True)
class ConsumerRunningInfo:
    """What a consumer says about itself (GET_CONSUMER_RUNNING_INFO, relayed by its broker).

    ``properties`` keep the order they were sent in; the Java tool prints them in ``Properties``
    order (the caller applies it). Tables are sorted as Java's ``TreeMap``/``TreeSet``.
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
        for s in j.list_of(d.get("subscriptionSet") or [], "subscriptionSet", j.obj) or []:
            rs = RunningSubscription(
                j.opt_str(s.get("topic"), "topic"),
                j.opt_str(s.get("subString"), "subString"),
                _bool(s.get("classFilterMode")),
                j.opt_str(s.get("expressionType", "TAG"), "expressionType"),
            )
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
            "subscriptionSet": [
                {
                    "topic": s.topic,
                    "subString": s.sub_string,
                    "classFilterMode": s.class_filter_mode,
                    "expressionType": s.expression_type,
                }
                for s in self.subscriptions
            ],
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


@dataclass(slots=True)
class BrokerConsumeStats:
    """GET_BROKER_CONSUME_STATS: every group's stats on one broker (``ConsumeStatsList``)."""

    broker_addr: str | None
    consume_stats_list: list[dict[str, list[ConsumeStats]]]
    total_diff: int
    total_inflight_diff: int | None = None

    @classmethod
    def decode(cls, body: bytes) -> BrokerConsumeStats:
        d = j.decode_object(body, "ConsumeStatsList")
        entries: list[dict[str, list[ConsumeStats]]] = []
        for item in j.list_of(d.get("consumeStatsList") or [], "consumeStatsList", j.obj) or []:
            entry: dict[str, list[ConsumeStats]] = {}
            for group, stats in item.items():
                entry[str(group)] = j.list_of(stats or [], "consumeStats", ConsumeStats.from_json_obj) or []
            entries.append(entry)
        return cls(
            j.opt_str(d.get("brokerAddr"), "brokerAddr"),
            entries,
            j.int64(d.get("totalDiff"), "totalDiff"),
            j.opt_int64(d.get("totalInflightDiff"), "totalInflightDiff"),
        )


@dataclass(slots=True)
class ConsumeQueueView:
    """QUERY_CONSUME_QUEUE: a slice of a consume queue and, with a group, its subscription."""

    subscription: SubscriptionData | None
    filter_data: str | None
    queue_data: list[dict[str, Any]]
    max_queue_index: int
    min_queue_index: int

    @classmethod
    def decode(cls, body: bytes) -> ConsumeQueueView:
        d = j.decode_object(body, "QueryConsumeQueueResponseBody")
        sub = d.get("subscriptionData")
        rows = []
        for x in j.list_of(d.get("queueData") or [], "queueData", j.obj) or []:
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
        return cls(
            None if sub is None else SubscriptionData.from_json_obj(sub),
            j.opt_str(d.get("filterData"), "filterData"),
            rows,
            j.int64(d.get("maxQueueIndex"), "maxQueueIndex"),
            j.int64(d.get("minQueueIndex"), "minQueueIndex"),
        )
