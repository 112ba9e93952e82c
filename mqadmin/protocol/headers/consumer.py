"""Consumer, offset and subscription-group requests: their headers, and the bodies that carry names.

Headers follow Java 5.3.3's classes of the same name (``remoting/.../protocol/header``), own fields
in Java's order (but a required field never follows an optional one: the order of ext fields on the
wire is a ``HashMap``'s and ACL signing sorts them, so neither depends on it), then the ``bname`` of
``RpcRequestHeader`` where a client sends it (it only routes static
topics and is never stored). Every group is checked with Java's group rules and every topic with
``TopicValidator``'s (:func:`check_consumed_topic` also takes the ``%RETRY%``/``%DLQ%`` topic of any
legal group, which Java creates without a length limit), so an offset, a group or a consumer is
never kept under a name Java could not have.

Bodies that carry names (HEART_BEAT, LOCK/UNLOCK_BATCH_MQ, UPDATE_AND_CREATE_SUBSCRIPTIONGROUP) are
read and checked here whole, before a handler changes anything: one bad entry refuses the request.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from mqadmin.protocol import names
from mqadmin.protocol.bodies import fieldcheck as j
from mqadmin.protocol.bodies.connection import SubscriptionData
from mqadmin.protocol.bodies.group import SubscriptionGroupConfig
from mqadmin.protocol.bodies.message_queue import MessageQueue
from mqadmin.protocol.codes import ResponseCode
from mqadmin.protocol.errors import ProtocolError
from mqadmin.protocol.headers.base import (
    Annotated,
    Check,
    ConsumedTopic,
    ConsumedTopicOrBlank,
    Group,
    HeaderError,
    Java,
    Long,
    RequestHeader,
    request_header,
)
from mqadmin.protocol.headers.connections import (
    GetConsumerConnectionListRequestHeader,
    GetProducerConnectionListRequestHeader,
)
from mqadmin.protocol.headers.consume_stats import GetConsumeStatsRequestHeader
from mqadmin.protocol.headers.consumption import (
    ConsumeMessageDirectlyResultRequestHeader,
    GetConsumerRunningInfoRequestHeader,
    GetConsumeStatsInBrokerHeader,
    QueryConsumeTimeSpanRequestHeader,
    QueryTopicConsumeByWhoRequestHeader,
)
from mqadmin.protocol.headers.offset_query import (
    GetEarliestMsgStoretimeRequestHeader,
    GetMaxOffsetRequestHeader,
    GetMinOffsetRequestHeader,
    SearchOffsetRequestHeader,
)
from mqadmin.protocol.javanum import INT_MAX, LONG_MAX
from mqadmin.protocol.names import check_consumed_topic

__all__ = [
    "CONSUME_FROM_WHERE",
    "CONSUME_TYPES",
    "MESSAGE_MODELS",
    "RETRY_QUEUE_NUMS_MAX",
    "CloneGroupOffsetRequestHeader",
    "ConsumeMessageDirectlyResultRequestHeader",
    "ConsumedTopic",
    "ConsumerData",
    "DeleteSubscriptionGroupRequestHeader",
    "GetConsumeStatsInBrokerHeader",
    "GetConsumeStatsRequestHeader",
    "GetConsumerConnectionListRequestHeader",
    "GetConsumerListByGroupRequestHeader",
    "GetConsumerRunningInfoRequestHeader",
    "GetConsumerStatusRequestHeader",
    "GetEarliestMsgStoretimeRequestHeader",
    "GetMaxOffsetRequestHeader",
    "GetMinOffsetRequestHeader",
    "GetProducerConnectionListRequestHeader",
    "HeartbeatData",
    "LockBatchRequestBody",
    "QueryConsumeTimeSpanRequestHeader",
    "QueryConsumerOffsetRequestHeader",
    "QueryCorrectionOffsetHeader",
    "QueryTopicConsumeByWhoRequestHeader",
    "ResetOffsetRequestHeader",
    "SearchOffsetRequestHeader",
    "UnregisterClientRequestHeader",
    "UpdateConsumerOffsetRequestHeader",
    "check_group_list",
    "check_group_or_empty",
    "check_subscription_group",
]

CONSUME_TYPES = ("CONSUME_ACTIVELY", "CONSUME_PASSIVELY")
MESSAGE_MODELS = ("BROADCASTING", "CLUSTERING")
CONSUME_FROM_WHERE = (
    "CONSUME_FROM_LAST_OFFSET",
    "CONSUME_FROM_LAST_OFFSET_AND_FROM_MIN_WHEN_BOOT_FIRST",
    "CONSUME_FROM_MIN_OFFSET",
    "CONSUME_FROM_MAX_OFFSET",
    "CONSUME_FROM_FIRST_OFFSET",
    "CONSUME_FROM_TIMESTAMP",
)
"""Java's enums, in ordinal order (the C++ client sends the ordinal, Java the name)."""

RETRY_QUEUE_NUMS_MAX = names.QUEUE_NUMS_MAX
"""The most retry queues a group may ask for: its retry topic is a topic like any other."""


def check_group_list(text: str | None) -> str | None:
    """A comma-separated list of groups (``filterGroups``): each non-blank item a legal group."""
    for item in (text or "").split(","):
        if item.strip():
            why = names.check_group(item)
            if why is not None:
                return why
    return None


def check_group_or_empty(group: str | None) -> str | None:
    """A legal group, or the empty text the C++ client sends for the group it leaves out."""
    return None if group == "" else names.check_group(group)


GroupList = Annotated[str, Check(check_group_list)]
GroupOrEmpty = Annotated[str, Check(check_group_or_empty)]


# ------------------------------------------------------------------------------------ 14, 15, 38, 35


@request_header
class QueryConsumerOffsetRequestHeader(RequestHeader):
    """QUERY_CONSUMER_OFFSET (14)."""

    consumer_group: Group
    topic: ConsumedTopic
    queue_id: int
    set_zero_if_not_found: bool | None = None
    """5.x: false answers QUERY_NOT_FOUND instead of 0 for a group that never committed."""
    bname: str | None = None
    lo: bool | None = None


@request_header
class UpdateConsumerOffsetRequestHeader(RequestHeader):
    """UPDATE_CONSUMER_OFFSET (15)."""

    consumer_group: Group
    topic: ConsumedTopic
    queue_id: int
    commit_offset: Long
    bname: str | None = None
    lo: bool | None = None


@request_header
class GetConsumerListByGroupRequestHeader(RequestHeader):
    """GET_CONSUMER_LIST_BY_GROUP (38)."""

    consumer_group: Group


@request_header
class UnregisterClientRequestHeader(RequestHeader):
    """UNREGISTER_CLIENT (35); the C++ client sends the group it does not unregister as "" (none)."""

    client_id: Annotated[str, Java("clientID")]
    producer_group: GroupOrEmpty | None = None
    consumer_group: GroupOrEmpty | None = None


# ------------------------------------------------------------------------------------ 308, 314


@request_header
class QueryCorrectionOffsetHeader(RequestHeader):
    """QUERY_CORRECTION_OFFSET (308); Java declares ``filterGroups`` first."""

    compare_group: Group
    topic: ConsumedTopic
    filter_groups: GroupList | None = None


@request_header
class CloneGroupOffsetRequestHeader(RequestHeader):
    """CLONE_GROUP_OFFSET (314)."""

    src_group: Group
    dest_group: Group
    topic: ConsumedTopicOrBlank | None = None
    """None or blank: every topic the source group has offsets on."""
    offline: bool | None = None


# ---------------------------------------------------------------------------------------- 222, 223


@request_header
class ResetOffsetRequestHeader(RequestHeader):
    """INVOKE_BROKER_TO_RESET_OFFSET (222); ``queue_id``/``offset`` are 5.x (one queue, one offset).

    Java declares group, topic, queueId, offset, timestamp, isForce.
    """

    group: Group
    topic: ConsumedTopic
    timestamp: Long
    is_force: bool
    queue_id: int | None = None
    offset: Long | None = None


@request_header
class GetConsumerStatusRequestHeader(RequestHeader):
    """INVOKE_BROKER_TO_GET_CONSUMER_STATUS (223)."""

    topic: ConsumedTopic
    group: Group
    client_addr: str | None = None


# --------------------------------------------------------------------------------------------- 207


@request_header
class DeleteSubscriptionGroupRequestHeader(RequestHeader):
    """DELETE_SUBSCRIPTIONGROUP (207): ``removeOffset`` is 4.x's name of 5.x's ``cleanOffset``."""

    group_name: Group
    remove_offset: bool | None = None
    clean_offset: bool | None = None


# ------------------------------------------------------------------------------------ bodies


def _refuse(remark: str) -> HeaderError:
    return HeaderError(remark, ResponseCode.SYSTEM_ERROR)


def _body(body: bytes | None, what: str) -> dict[Any, Any]:
    try:
        return j.decode_object(body or b"", what)
    except ProtocolError as e:
        raise _refuse(f"decode {what} failed: {e}") from None


def _group(v: Any, what: str) -> str:
    if not isinstance(v, str):
        raise _refuse(f"{what}: the specified group is blank")
    why = names.check_group(v)
    if why is not None:
        raise _refuse(f"{what}: {why}")
    return v


def _enum(v: Any, choices: tuple[str, ...], default: str) -> str:
    """An enum sent as its name (Java) or its ordinal (C++); anything else takes the default."""
    if isinstance(v, str):
        if v in choices:
            return v
        if v.isdigit() and int(v) < len(choices):
            return choices[int(v)]
    elif isinstance(v, int) and not isinstance(v, bool) and 0 <= v < len(choices):
        return choices[v]
    return default


@dataclass(slots=True)
class ConsumerData:
    """One consumer group of a heartbeat: its settings and subscriptions."""

    group_name: str
    consume_type: str
    message_model: str
    consume_from_where: str
    subscriptions: list[SubscriptionData]
    unit_mode: bool


@dataclass(slots=True)
class HeartbeatData:
    """HEART_BEAT (34) body: the client, its producer groups and its consumer groups.

    :meth:`decode` refuses the whole heartbeat when any group or subscribed topic breaks Java's
    rules (Java 5.3.3 would skip such a consumer group; a refusal tells the client and keeps the
    rule that a refused request changes nothing).
    """

    client_id: str
    producer_groups: list[str]
    consumers: list[ConsumerData]

    @classmethod
    def decode(cls, body: bytes | None) -> HeartbeatData:
        d = _body(body, "HeartbeatData")
        client_id = d.get("clientID")
        if not isinstance(client_id, str) or not client_id:
            raise _refuse("HeartbeatData has no clientID")
        consumers: list[ConsumerData] = []
        for cd in _list(d.get("consumerDataSet"), "consumerDataSet"):
            if not isinstance(cd, dict):
                raise _refuse("HeartbeatData: a consumerData is not a JSON object")
            group = _group(cd.get("groupName"), "consumerData")
            subs: list[SubscriptionData] = []
            for s in _list(cd.get("subscriptionDataSet"), "subscriptionDataSet"):
                try:
                    sub = SubscriptionData.from_json_obj(s)
                except ProtocolError as e:
                    raise _refuse(f"bad subscription in heartbeat: {e}") from None
                why = check_consumed_topic(sub.topic)
                if why is not None:
                    raise _refuse(f"subscription of {group}: {why}")
                subs.append(sub)
            consumers.append(
                ConsumerData(
                    group,
                    _enum(cd.get("consumeType"), CONSUME_TYPES, "CONSUME_PASSIVELY"),
                    _enum(cd.get("messageModel"), MESSAGE_MODELS, "CLUSTERING"),
                    _enum(cd.get("consumeFromWhere"), CONSUME_FROM_WHERE, "CONSUME_FROM_LAST_OFFSET"),
                    subs,
                    cd.get("unitMode") is True,
                )
            )
        producers: list[str] = []
        for pd in _list(d.get("producerDataSet"), "producerDataSet"):
            if not isinstance(pd, dict):
                raise _refuse("HeartbeatData: a producerData is not a JSON object")
            producers.append(_group(pd.get("groupName"), "producerData"))
        return cls(client_id, producers, consumers)


def _list(v: Any, what: str) -> list[Any]:
    if v is None:
        return []
    if not isinstance(v, list):
        raise _refuse(f"HeartbeatData: {what} is not a JSON array")
    return v


@dataclass(slots=True)
class LockBatchRequestBody:
    """LOCK_BATCH_MQ (41) and UNLOCK_BATCH_MQ (42) body: whose locks, on which queues."""

    consumer_group: str
    client_id: str
    mq_set: list[MessageQueue]

    @classmethod
    def decode(cls, body: bytes | None, what: str = "LockBatchRequestBody") -> LockBatchRequestBody:
        d = _body(body, what)
        group = _group(d.get("consumerGroup"), what)
        client = d.get("clientId")
        if not isinstance(client, str):
            client = "" if client is None else str(client)
        raw = d.get("mqSet")
        mqs: list[MessageQueue] = []
        for x in raw if isinstance(raw, list) else []:
            if not isinstance(x, dict):
                continue
            try:
                mq = MessageQueue.from_json_obj(x)
            except ProtocolError as e:
                raise _refuse(f"decode {what} failed: {e}") from None
            why = check_consumed_topic(mq.topic)
            if why is not None:
                raise _refuse(f"{what}: {why}")
            mqs.append(mq)
        return cls(group, client, mqs)


# ------------------------------------------------------------------------------------ 200


def _in(value: int | None, lo: int, hi: int, name: str) -> str | None:
    if value is None or lo <= value <= hi:
        return None
    top = "" if hi in (INT_MAX, LONG_MAX) else f"..{hi}"
    return f"{name} {value} is out of range ({lo}{top or ' or more'})"


def check_subscription_group(cfg: SubscriptionGroupConfig) -> str | None:
    """Why a subscription group config cannot be kept (UPDATE_AND_CREATE_SUBSCRIPTIONGROUP), or None.

    Java stores any config; we keep only what makes sense: a legal group name, a retry queue count
    of 0 (no retry) to :data:`RETRY_QUEUE_NUMS_MAX`, non-negative retry times and broker ids, a known
    retry policy with non-negative delays, subscriptions to legal topics.
    """
    why = names.check_group(cfg.group_name)
    if why is not None:
        return why
    for problem in (
        _in(cfg.retry_queue_nums, 0, RETRY_QUEUE_NUMS_MAX, "retryQueueNums"),
        _in(cfg.retry_max_times, 0, INT_MAX, "retryMaxTimes"),
        _in(cfg.broker_id, 0, LONG_MAX, "brokerId"),
        _in(cfg.which_broker_when_consume_slowly, 0, LONG_MAX, "whichBrokerWhenConsumeSlowly"),
        _in(cfg.group_sys_flag, 0, INT_MAX, "groupSysFlag"),
        _in(cfg.consume_timeout_minute, 0, INT_MAX, "consumeTimeoutMinute"),
    ):
        if problem is not None:
            return problem
    policy = cfg.group_retry_policy
    if policy is not None:
        if policy.type not in (None, "CUSTOMIZED", "EXPONENTIAL"):
            return f"groupRetryPolicy type {policy.type} is neither CUSTOMIZED nor EXPONENTIAL"
        exp = policy.exponential_retry_policy
        if exp is not None:
            for problem in (
                _in(exp.initial, 0, LONG_MAX, "exponentialRetryPolicy.initial"),
                _in(exp.max, 0, LONG_MAX, "exponentialRetryPolicy.max"),
                _in(exp.multiplier, 1, LONG_MAX, "exponentialRetryPolicy.multiplier"),
            ):
                if problem is not None:
                    return problem
        cus = policy.customized_retry_policy
        if cus is not None and cus.next is not None:
            for delay in cus.next:
                problem = _in(delay, 0, LONG_MAX, "customizedRetryPolicy.next")
                if problem is not None:
                    return problem
    for sub in cfg.subscription_data_set or []:
        why = check_consumed_topic(sub.topic)
        if why is not None:
            return f"subscriptionDataSet: {why}"
    return None
