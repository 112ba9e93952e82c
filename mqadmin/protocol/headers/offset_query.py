"""Queue offset queries (SEARCH_OFFSET_BY_TIMESTAMP, GET_MAX_OFFSET, GET_MIN_OFFSET,
GET_EARLIEST_MSG_STORETIME: 29-32) and the consumed-topic rule they and the message headers share.

Apart from :mod:`mqadmin.protocol.headers.consumer`, so that sending or pulling a message does not
declare every consumer header; that module offers these names too.
"""

from __future__ import annotations

from mqadmin.protocol import names
from mqadmin.protocol.headers.base import Annotated, Check, Long, RequestHeader, request_header

__all__ = [
    "ConsumedTopic",
    "ConsumedTopicOrBlank",
    "GetEarliestMsgStoretimeRequestHeader",
    "GetMaxOffsetRequestHeader",
    "GetMinOffsetRequestHeader",
    "SearchOffsetRequestHeader",
    "check_consumed_topic",
    "check_consumed_topic_or_blank",
]

_RETRY_PREFIXES = (names.RETRY_GROUP_TOPIC_PREFIX, names.DLQ_GROUP_TOPIC_PREFIX)


def check_consumed_topic(topic: str | None) -> str | None:
    """``TopicValidator.validateTopic``, or the ``%RETRY%``/``%DLQ%`` topic of a legal group.

    Java creates a group's retry and dead-letter topics whatever the group's length (up to 255),
    so a consumer of a long group commits and reads offsets on a topic longer than 127 characters.
    """
    if topic is not None:
        for prefix in _RETRY_PREFIXES:
            if topic.startswith(prefix) and names.check_group(topic[len(prefix) :]) is None:
                return None
    return names.check_topic(topic)


def check_consumed_topic_or_blank(topic: str | None) -> str | None:
    """Blank (Java's "every topic of the group") or :func:`check_consumed_topic`."""
    return None if topic is None or not topic.strip() else check_consumed_topic(topic)


ConsumedTopic = Annotated[str, Check(check_consumed_topic)]
ConsumedTopicOrBlank = Annotated[str, Check(check_consumed_topic_or_blank)]


# ------------------------------------------------------------------------------------ 29, 30, 31, 32


@request_header
class SearchOffsetRequestHeader(RequestHeader):
    """SEARCH_OFFSET_BY_TIMESTAMP (29)."""

    topic: ConsumedTopic
    queue_id: int
    timestamp: Long
    boundary_type: str | None = None
    """5.x: ``LOWER`` or ``UPPER``; a 4.x broker always answers the lower boundary."""
    bname: str | None = None
    lo: bool | None = None


@request_header
class GetMaxOffsetRequestHeader(RequestHeader):
    """GET_MAX_OFFSET (30)."""

    topic: ConsumedTopic
    queue_id: int
    committed: bool | None = None
    bname: str | None = None
    lo: bool | None = None
    """``TopicRequestHeader.lo``: false on a request a broker forwards with physical ids (static topics)."""


@request_header
class GetMinOffsetRequestHeader(RequestHeader):
    """GET_MIN_OFFSET (31)."""

    topic: ConsumedTopic
    queue_id: int
    bname: str | None = None
    lo: bool | None = None


@request_header
class GetEarliestMsgStoretimeRequestHeader(RequestHeader):
    """GET_EARLIEST_MSG_STORETIME (32)."""

    topic: ConsumedTopic
    queue_id: int
    bname: str | None = None
    lo: bool | None = None
