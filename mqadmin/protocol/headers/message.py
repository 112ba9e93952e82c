"""Headers of the messaging requests: send (10, 310, 320), pull (11), query (12, 33), send-back (36),
end transaction (37) and the queue-offset lookups (29, 30, 31, 32).

Java's classes in ``remoting/.../protocol/header/`` (5.3.3) are the reference: field names, types,
``@CFNotNull`` and declaration order. The fields a subclass inherits (``TopicRequestHeader.lo``,
``RpcRequestHeader``'s ``ns``, ``nsd``, ``bname``, ``oway``) come last, where the ``FastCodesHeader``
encoders write them; they are declared only on the headers whose senders set them.

SEND_MESSAGE_V2 names its fields ``a`` to ``n``; :class:`SendMessageRequestHeaderV2` gives them the
attribute names of :class:`SendMessageRequestHeader`, so a handler reads either without converting
(Java's ``createSendMessageRequestHeaderV1``) and a request's header is decoded once.

Topics in send headers are plain strings: the broker checks them in Java's ``msgCheck`` order (after
the permission check, answering with the send response's fields), and a producer checks them before
sending (``Validators.checkMessage``). Topics that are read (pull, query) are checked as the offset
requests check them (:data:`~mqadmin.protocol.headers.consumer.ConsumedTopic`: a group's retry and
DLQ topics may be longer than 127); the offset headers (29 to 32) are declared there and re-exported
here for the message clients.
"""

from __future__ import annotations

from mqadmin.protocol import names
from mqadmin.protocol.headers.base import (
    KW_ONLY,
    Annotated,
    Group,
    Java,
    Long,
    RequestHeader,
    TopicRequestHeader,
    request_header,
)
from mqadmin.protocol.headers.offset_query import (
    ConsumedTopic,
    GetEarliestMsgStoretimeRequestHeader,
    GetMaxOffsetRequestHeader,
    GetMinOffsetRequestHeader,
    SearchOffsetRequestHeader,
)

__all__ = [
    "ConsumerSendMsgBackRequestHeader",
    "EndTransactionRequestHeader",
    "GetEarliestMsgStoretimeRequestHeader",
    "GetMaxOffsetRequestHeader",
    "GetMinOffsetRequestHeader",
    "PullMessageRequestHeader",
    "QueryMessageRequestHeader",
    "SearchOffsetRequestHeader",
    "SendHeader",
    "SendMessageRequestHeader",
    "SendMessageRequestHeaderV2",
    "ViewMessageRequestHeader",
    "check_stored_topic",
]


def check_stored_topic(topic: str | None) -> str | None:
    """A topic a broker can store messages in (Java's ``checkBeforePutMessage``): ``TopicValidator``'s
    rules, but a ``%RETRY%`` topic may be up to 255 characters (a 5.3.3 store writes it as a v2
    record). The remark, or None. A group's retry and DLQ topics are checked with it before a
    send-back stores or creates anything."""
    if (
        topic is not None
        and names.TOPIC_MAX_LENGTH < len(topic) <= names.RETRY_TOPIC_MAX_LENGTH
        and topic.startswith(names.RETRY_GROUP_TOPIC_PREFIX)
        and names.check_topic_or_group_chars(topic)
    ):
        return None
    return names.check_topic(topic)


# ------------------------------------------------------------------------------------------ send


@request_header
class SendMessageRequestHeader(RequestHeader):
    """SEND_MESSAGE (10) and the V1 form of 310/320."""

    producer_group: Group
    topic: str
    default_topic: str
    default_topic_queue_nums: int
    queue_id: int
    sys_flag: int
    born_timestamp: Long
    flag: int
    properties: str | None = None
    reconsume_times: int | None = None
    unit_mode: bool | None = None
    batch: bool | None = None
    max_reconsume_times: int | None = None
    broker_name: Annotated[str, Java("bname")] | None = None


@request_header
class SendMessageRequestHeaderV2(RequestHeader):
    """SEND_MESSAGE_V2 (310) and SEND_BATCH_MESSAGE (320): the one-letter names, V1 attributes."""

    producer_group: Annotated[Group, Java("a")]
    topic: Annotated[str, Java("b")]
    default_topic: Annotated[str, Java("c")]
    default_topic_queue_nums: Annotated[int, Java("d")]
    queue_id: Annotated[int, Java("e")]
    sys_flag: Annotated[int, Java("f")]
    born_timestamp: Annotated[Long, Java("g")]
    flag: Annotated[int, Java("h")]
    properties: Annotated[str, Java("i")] | None = None
    reconsume_times: Annotated[int, Java("j")] | None = None
    unit_mode: Annotated[bool, Java("k")] | None = None
    max_reconsume_times: Annotated[int, Java("l")] | None = None
    batch: Annotated[bool, Java("m")] | None = None
    broker_name: Annotated[str, Java("n")] | None = None


SendHeader = SendMessageRequestHeader | SendMessageRequestHeaderV2
"""Either send header: the same attributes."""


# ------------------------------------------------------------------------------------------ pull


@request_header
class PullMessageRequestHeader(TopicRequestHeader):
    """PULL_MESSAGE (11), a ``FastCodesHeader``."""

    consumer_group: Group
    topic: ConsumedTopic
    queue_id: int
    queue_offset: Long
    max_msg_nums: int
    sys_flag: int
    commit_offset: Long
    suspend_timeout_millis: Long
    subscription: str | None = None
    _: KW_ONLY
    sub_version: Long
    expression_type: str | None = None
    max_msg_bytes: int | None = None
    request_source: int | None = None
    proxy_froward_client_id: str | None = None


# ------------------------------------------------------------------------------------------ query


@request_header
class QueryMessageRequestHeader(RequestHeader):
    """QUERY_MESSAGE (12); the client adds ``_UNIQUE_KEY_QUERY`` beside it (not a header field)."""

    topic: ConsumedTopic
    key: str
    max_num: int
    begin_timestamp: Long
    end_timestamp: Long


@request_header
class ViewMessageRequestHeader(RequestHeader):
    """VIEW_MESSAGE_BY_ID (33)."""

    topic: ConsumedTopic | None = None
    _: KW_ONLY
    offset: Long


# ------------------------------------------------------------------------------- send back, transactions


@request_header
class ConsumerSendMsgBackRequestHeader(RequestHeader):
    """CONSUMER_SEND_MSG_BACK (36): the group's retry and DLQ topics are derived from ``group``."""

    offset: Long
    group: Group
    delay_level: int
    origin_msg_id: str | None = None
    origin_topic: ConsumedTopic | None = None
    unit_mode: bool = False
    max_reconsume_times: int | None = None


@request_header
class EndTransactionRequestHeader(RequestHeader):
    """END_TRANSACTION (37)."""

    topic: ConsumedTopic | None = None
    _: KW_ONLY
    producer_group: Group
    tran_state_table_offset: Long
    commit_log_offset: Long
    commit_or_rollback: int
    from_transaction_check: bool = False
    msg_id: str
    transaction_id: str | None = None
