"""Headers of the messaging requests: pull (11), query (12, 33), send-back (36), end transaction
(37), and, from the modules that declare them, send (10, 310, 320: :mod:`mqadmin.protocol.headers.send`)
and the queue-offset lookups (29, 30, 31, 32: :mod:`mqadmin.protocol.headers.offset_query`).

Java's classes in ``remoting/.../protocol/header/`` (5.3.3) are the reference: field names, types,
``@CFNotNull`` and declaration order. The fields a subclass inherits (``TopicRequestHeader.lo``,
``RpcRequestHeader``'s ``ns``, ``nsd``, ``bname``, ``oway``) come last, where the ``FastCodesHeader``
encoders write them; they are declared only on the headers whose senders set them.

Topics that are read (pull, query) are checked as the offset requests check them
(:data:`~mqadmin.protocol.headers.base.ConsumedTopic`: a group's retry and DLQ topics may be
longer than 127).
"""

from __future__ import annotations

from mqadmin.protocol import names
from mqadmin.protocol.headers.base import (
    KW_ONLY,
    ConsumedTopic,
    Group,
    Long,
    RequestHeader,
    TopicRequestHeader,
    request_header,
)
from mqadmin.protocol.headers.offset_query import (
    GetEarliestMsgStoretimeRequestHeader,
    GetMaxOffsetRequestHeader,
    GetMinOffsetRequestHeader,
    SearchOffsetRequestHeader,
)
from mqadmin.protocol.headers.send import SendHeader, SendMessageRequestHeader, SendMessageRequestHeaderV2

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
